package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/loophook/loophook/hook"
)

// replaceFile writes data over the file at path atomically. An existing file
// keeps its permissions, and a symbolic link keeps pointing where it did: the
// file it names is the one replaced, so a settings file kept in a dotfiles
// repository stays there. A new file gets perm.
func replaceFile(path string, data []byte, perm fs.FileMode) error {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		path = target
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if fi, err := os.Stat(path); err == nil {
		perm = fi.Mode().Perm()
	}
	return hook.WriteFileAtomic(path, data, perm)
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
	return err
}
