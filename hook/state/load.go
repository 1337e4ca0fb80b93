package state

import (
	"errors"
	"fmt"
	"io/fs"
	"runtime/debug"

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
	roomFor(len(data))
	l.Reading = f.Dialect.Read(data)
	return l
}

// bigState is the size of a state whose reading would start the collector:
// encoding/json makes some five times the file's size of maps and strings,
// nearly all of which the loop keeps, and the first collection comes at a
// 4 MB heap.
const bigState = 512 << 10

// roomFor lets the process read a state of size bytes without collecting:
// what a collection would find is the document, still in use, and a hook
// call drops its heap at exit. The collector's goal at 5 times the live heap
// (first at 16 MB) reads a state of 10,000 criteria (2.4 MiB) without one;
// the limit holds the heap of the largest state near 100 MB. A smaller
// state leaves the collector alone.
func roomFor(size int) {
	if size >= bigState {
		debug.SetGCPercent(400)
		debug.SetMemoryLimit(100 << 20)
	}
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
