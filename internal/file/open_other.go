//go:build !windows

package file

import "os"

// openRead opens path for reading, without waiting on a named pipe.
func openRead(path string) (*os.File, error) { return os.OpenFile(path, os.O_RDONLY|nonblock, 0) }
