//go:build !windows

package file

// retry runs f once: only Windows refuses a rename for a moment.
func retry(f func() error) error { return f() }
