//go:build !windows

package install

// shortName: short (8.3) names are Windows's.
func shortName(string) string { return "" }
