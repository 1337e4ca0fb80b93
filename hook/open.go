package hook

import (
	"errors"
	"os"
)

// errNotRegular says a path named something other than a regular file.
var errNotRegular = errors.New("not a regular file")

// openRegular opens path for reading only if what it opened is a regular
// file. It opens without blocking, so a named pipe swapped in after a
// Stat cannot hold the turn, and checks the file it has, not the name.
func openRegular(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fi, errNotRegular
	}
	return f, fi, nil
}
