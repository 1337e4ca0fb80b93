package hook

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// errNotRegular says a path named something other than a regular file.
var errNotRegular = errors.New("not a regular file")

// NotRegular is the error of a path that names something other than a
// regular file: errors.Is(err, errNotRegular) holds for it, and Mode says
// what the path names, for a person.
type NotRegular struct{ Mode fs.FileMode }

func (e *NotRegular) Error() string        { return errNotRegular.Error() }
func (e *NotRegular) Is(target error) bool { return target == errNotRegular }

// ErrTooLarge is ReadRegular's error for a file past its limit.
var ErrTooLarge = errors.New("too large")

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
		return nil, fi, &NotRegular{fi.Mode()}
	}
	return f, fi, nil
}

// ReadRegular reads a regular file of at most limit bytes: only a regular
// file (openRegular), and never more than limit bytes of it; a larger one
// is ErrTooLarge.
func ReadRegular(path string, limit int64) ([]byte, error) {
	f, fi, err := openRegular(path)
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
