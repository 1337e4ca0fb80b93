package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/loophook/loophook/hook"
)

// People's commands write through a directory opened as an *os.Root, by
// names that are one path element each: a directory swapped for a link
// after it was checked is not followed out of it, and a rename replaces a
// link rather than writing through it.

// writeIn writes data to name in dir atomically: a temporary file beside
// it, synced, renamed over name, and the directory synced, so that a reader
// sees the old file or the new one, even after a crash. On failure the
// temporary file is removed and name is as it was. The file gets perm
// exactly, whatever the umask.
func writeIn(dir *os.Root, name string, data []byte, perm fs.FileMode) error {
	var f *os.File
	var tmp string
	var err error
	for range 10 {
		tmp = fmt.Sprintf("%s.tmp%d", name, rand.Uint32())
		f, err = dir.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	_, werr := writeTemp(f, data)
	perr := f.Chmod(perm)
	serr := f.Sync()
	if err := cmp.Or(werr, perr, serr, f.Close()); err != nil {
		dir.Remove(tmp)
		return err
	}
	if err := dir.Rename(tmp, name); err != nil {
		dir.Remove(tmp)
		return err
	}
	syncDir(dir)
	return nil
}

// writeTemp writes the temporary file; tests replace it to fail half-way.
var writeTemp = (*os.File).Write

// syncDir makes a rename in dir last; where a directory cannot be synced
// (Windows), the rename is as durable as the system makes it.
func syncDir(dir *os.Root) {
	if d, err := dir.Open("."); err == nil {
		d.Sync()
		d.Close()
	}
}

// keptPerm is the permission of name in dir when it is a file, else perm.
func keptPerm(dir *os.Root, name string, perm fs.FileMode) fs.FileMode {
	if fi, err := dir.Lstat(name); err == nil && fi.Mode().IsRegular() {
		return fi.Mode().Perm()
	}
	return perm
}

// makeDirs creates dir and the directories above it that are missing, and
// returns a function that removes what it created, should what was to go in
// it fail.
func makeDirs(dir string) (undo func(), err error) {
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

// readRegular is hook.ReadRegular, a file too large said for a person.
func readRegular(path string, limit int64) ([]byte, error) {
	data, err := hook.ReadRegular(path, limit)
	if errors.Is(err, hook.ErrTooLarge) {
		err = errLarger(limit)
	}
	return data, err
}

// shown names a file for a person: relative to the working directory when it
// is below it, else in full.
func shown(path string) string {
	wd, _ := os.Getwd()
	return hook.Relative(wd, path)
}

// projectRoot is the enclosing git work tree's root (the first directory
// upward that holds .git), else dir itself.
func projectRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// pathCause drops the path from an os error where the message names the file
// already.
func pathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// isLinkedWorktree reports whether root is a linked git worktree, whose
// .git is a file naming the main repository.
func isLinkedWorktree(root string) bool {
	fi, err := os.Lstat(filepath.Join(root, ".git"))
	return err == nil && fi.Mode().IsRegular()
}
