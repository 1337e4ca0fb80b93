package file

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
	f, err := openRead(path)
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

// Read reads a regular file of at most limit bytes (Open), to its end: a
// larger one is ErrTooLarge, and is not read when its size says so.
func Read(path string, limit int64) ([]byte, error) {
	f, fi, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi.Size() > limit {
		return nil, ErrTooLarge
	}
	// Sized by Stat, so that a large file is read without growing copies;
	// one byte more shows it grown past its limit since.
	data := make([]byte, 0, max(fi.Size(), 0)+1)
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

// Append appends data to the regular file at path, creating it with perm,
// without blocking on a named pipe; size is the file's size before.
func Append(path string, data []byte, perm fs.FileMode) (size int64, err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|nonblock, perm)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	if !fi.Mode().IsRegular() {
		return 0, &NotRegular{fi.Mode()}
	}
	_, err = f.Write(data)
	return fi.Size(), err
}
