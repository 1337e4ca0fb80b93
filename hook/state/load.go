package state

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/loophook/loophook/hook/regular"
	"github.com/loophook/loophook/schema"
)

// MaxSize caps the state file so that a runaway file cannot stall a turn.
const MaxSize = 16 << 20

// Loaded is a state file read once: what its dialect made of it.
type Loaded struct {
	Path    string
	Dialect schema.Dialect
	schema.Reading
}

// Load reads and checks the state file. It never fails: what is wrong with
// the file becomes Problems.
func Load(f Found) *Loaded {
	l := &Loaded{Path: f.Path, Dialect: f.Dialect}
	data := f.Data
	if data == nil {
		var err error
		if data, err = ReadFile(f.Path); err != nil {
			l.Problems = []string{err.Error()}
			l.Progress = "unreadable: " + err.Error()
			return l
		}
	}
	l.Reading = f.Dialect.Read(data)
	return l
}

// ReadFile reads a state file within the size cap, refusing what is not
// a regular file; its errors say what is wrong with the file.
func ReadFile(path string) ([]byte, error) {
	f, fi, err := regular.Open(path)
	switch {
	case errors.Is(err, regular.ErrNotRegular) && fi.IsDir():
		return nil, errors.New(problemDirectory)
	case errors.Is(err, regular.ErrNotRegular):
		return nil, errors.New(problemNotRegular)
	case err != nil:
		return nil, openError(err)
	}
	defer f.Close()
	if fi.Size() > MaxSize {
		return nil, fmt.Errorf(problemTooLarge, MaxSize>>20)
	}
	// One read of the size Stat gave, and one more byte to see it has not grown.
	data := make([]byte, fi.Size()+1)
	n, err := io.ReadFull(f, data)
	switch {
	case err == nil:
		return nil, errors.New(problemChanged) // it grew
	case err != io.ErrUnexpectedEOF && err != io.EOF:
		return nil, fmt.Errorf(problemUnreadable, regular.PathCause(err))
	}
	return data[:n], nil
}

func openError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New(problemMissing)
	case errors.Is(err, fs.ErrPermission):
		return errors.New(problemPermission)
	}
	return fmt.Errorf(problemUnopenable, regular.PathCause(err))
}
