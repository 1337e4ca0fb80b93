// Package file is loophook's one way to write a file and its one way to
// read a file it does not trust, below every other package: the atomic
// writer (a temporary file beside the target, synced, renamed into place,
// the directory synced; a bounded retry where Windows holds a file open,
// as cmd/go's robustio does) and the bounded reader (a regular file only,
// opened without blocking, never more than a limit).
package file

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Absent reports whether err says there is no such file, or no such
// directory for it (a file stands where one should be).
func Absent(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// PathCause is what went wrong with a path, without the path again: for a
// message that names the file already.
func PathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return noSuchFile{err}
	}
	return err
}

// noSuchFile says a path is not there in the same words on every system
// (Windows says "The system cannot find the file specified.", or "path").
type noSuchFile struct{ err error }

func (e noSuchFile) Error() string { return "no such file or directory" }
func (e noSuchFile) Unwrap() error { return e.err }

// MakeDirs creates dir and the directories above it that are missing, and
// returns a function that removes what it created, should what was to go in
// it fail.
func MakeDirs(dir string) (undo func(), err error) {
	var created []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || !errors.Is(err, fs.ErrNotExist) || filepath.Dir(d) == d {
			break
		}
		created = append(created, d)
	}
	undo = func() {
		for _, d := range created {
			os.Remove(d) // only while empty
		}
	}
	for i := len(created) - 1; i >= 0; i-- {
		if err := os.Mkdir(created[i], 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			undo()
			return func() {}, err
		}
	}
	return undo, nil
}

// Shown names a file for a person: relative to the working directory when
// it is below it, else in full.
func Shown(path string) string {
	wd, _ := os.Getwd()
	return Relative(wd, path)
}

// Relative names path relative to dir when it is below dir, else in full;
// with forward slashes, which on Windows PowerShell, cmd.exe and Git Bash
// all read, where Git Bash's bash, which agents run there, reads a
// backslash as an escape.
func Relative(dir, path string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return filepath.ToSlash(path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(dir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(rel)
}

// Physical is path made absolute with the symbolic links of its directory
// resolved, its last element kept as named: a person in a shell reached
// through a link and a host that names the physical directory mean one
// place, while a link put in the file's place is not followed to another
// file's key. A directory that cannot be resolved is kept as it is.
func Physical(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	dir, name := filepath.Split(path)
	if real, err := evalSymlinks(dir); err == nil {
		return filepath.Join(real, name)
	}
	return path
}

// PhysicalDir is dir made absolute with every symbolic link resolved; a
// directory that cannot be resolved is kept as it is.
func PhysicalDir(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := evalSymlinks(dir); err == nil {
		return real
	}
	return dir
}

// evalSymlinks is filepath.EvalSymlinks, which costs an lstat a level,
// but for the working directory, the hook's usual start, and the paths
// below it (the state file's directory, the memory's key), since the
// kernel names the working directory with its links resolved: only what
// is below it has links to resolve.
func evalSymlinks(dir string) (string, error) {
	dir = filepath.Clean(dir)
	wd, ok := kernelWd()
	if !ok {
		return filepath.EvalSymlinks(dir)
	}
	if dir == wd {
		return wd, nil
	}
	below, ok := strings.CutPrefix(dir, strings.TrimSuffix(wd, string(filepath.Separator))+string(filepath.Separator))
	if !ok {
		return filepath.EvalSymlinks(dir)
	}
	// Relative, it is resolved from the working directory, and stays
	// relative unless a link on it is absolute.
	real, err := filepath.EvalSymlinks(below)
	if err != nil || filepath.IsAbs(real) {
		return real, err
	}
	return filepath.Join(wd, real), nil
}
