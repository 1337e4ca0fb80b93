package state

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/loophook/loophook/internal/file"
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
	data, err := file.Read(path, MaxSize)
	var odd *file.NotRegular
	switch {
	case errors.As(err, &odd) && odd.Mode.IsDir():
		return nil, errors.New(problemDirectory)
	case errors.As(err, &odd):
		return nil, errors.New(problemNotRegular)
	case errors.Is(err, file.ErrTooLarge):
		return nil, fmt.Errorf(problemTooLarge, MaxSize>>20)
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
		return nil, openError(err)
	case err != nil:
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Op == "open" {
			return nil, openError(err)
		}
		return nil, fmt.Errorf(problemUnreadable, file.PathCause(err))
	}
	return data, nil
}

func openError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New(problemMissing)
	case errors.Is(err, fs.ErrPermission):
		return errors.New(problemPermission)
	}
	return fmt.Errorf(problemUnopenable, file.PathCause(err))
}
