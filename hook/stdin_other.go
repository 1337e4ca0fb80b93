//go:build !linux

package hook

import "os"

// readFileStdin: elsewhere, readStdin's goroutine waits.
func readFileStdin(*os.File) ([]byte, bool, error) { return nil, false, nil }
