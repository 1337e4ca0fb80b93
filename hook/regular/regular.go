// Package regular opens and reads the files the hook does not trust: only a
// regular file, opened without blocking so that a named pipe swapped in
// after a look cannot hold the turn, and never more of it than a limit.
package regular

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// ErrNotRegular says a path named something other than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// NotRegular is the error of a path that names something other than a
// regular file: errors.Is(err, ErrNotRegular) holds for it, and Mode says
// what the path names, for a person.
type NotRegular struct{ Mode fs.FileMode }

func (e *NotRegular) Error() string        { return ErrNotRegular.Error() }
func (e *NotRegular) Is(target error) bool { return target == ErrNotRegular }

// ErrTooLarge is Read's error for a file past its limit.
var ErrTooLarge = errors.New("too large")

// Open opens path for reading only if what it opened is a regular file. It
// opens without blocking, so a named pipe swapped in after a Stat cannot
// hold the turn, and checks the file it has, not the name. For a path that
// is not a regular file it returns the FileInfo too, with a *NotRegular.
func Open(path string) (*os.File, os.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|Nonblock, 0)
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
		return nil, fi, &NotRegular{fi.Mode()}
	}
	return f, fi, nil
}

// Read reads a regular file of at most limit bytes: only a regular file
// (Open), and never more than limit bytes of it; a larger one is
// ErrTooLarge.
func Read(path string, limit int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Sized by Stat, so that a large file is read without growing copies;
	// one byte more shows it past its limit, or grown since.
	data := make([]byte, 0, min(max(fi.Size(), 0), limit)+1)
	r := io.LimitReader(f, limit+1)
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if int64(len(data)) > limit {
		return nil, ErrTooLarge
	}
	return data, nil
}

// PathCause is what went wrong with a path, without the path again: for a
// message that names the file already.
func PathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
