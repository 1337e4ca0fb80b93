//go:build !unix

package file

// kernelWd is unknown here: Windows names the working directory as it was
// set, links and junctions kept.
func kernelWd() (string, bool) { return "", false }
