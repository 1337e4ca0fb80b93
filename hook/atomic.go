package hook

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

// The one atomic writer: the hook's memory and every person's command
// write through it.

// WriteIn writes data to name in dir atomically: a temporary file beside
// it, synced, renamed over name, and the directory synced, so that a reader
// sees the old file or the new one, even after a crash. On failure the
// temporary file is removed and name is as it was. The file gets perm
// exactly, whatever the umask. dir is an *os.Root and name one path
// element: a directory swapped for a link after it was checked is not
// followed out of it, and the rename replaces a link rather than writing
// through it.
func WriteIn(dir *os.Root, name string, data []byte, perm fs.FileMode) error {
	return writeIn(dir, name, data, perm, true)
}

// WriteFileAtomic is WriteIn of path's directory and name.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return writeFileAtomic(path, data, perm, true)
}

// writeFileAtomic is WriteFileAtomic; the hook's memory skips the syncs,
// because it is written on every stop and a lost write only resets a count.
func writeFileAtomic(path string, data []byte, perm fs.FileMode, sync bool) error {
	dir, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return err
	}
	defer dir.Close()
	return writeIn(dir, filepath.Base(path), data, perm, sync)
}

func writeIn(dir *os.Root, name string, data []byte, perm fs.FileMode, sync bool) error {
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
	var serr error
	if sync {
		serr = f.Sync()
	}
	if err := cmp.Or(werr, perr, serr, f.Close()); err != nil {
		dir.Remove(tmp)
		return err
	}
	if err := dir.Rename(tmp, name); err != nil {
		dir.Remove(tmp)
		return err
	}
	if sync {
		SyncDir(dir)
	}
	return nil
}

// writeTemp writes the temporary file; tests replace it to fail, panic or
// die half-way through.
var writeTemp = (*os.File).Write

// SyncDir makes a rename in dir last; where a directory cannot be synced
// (Windows), the rename is as durable as the system makes it.
func SyncDir(dir *os.Root) {
	if d, err := dir.Open("."); err == nil {
		d.Sync()
		d.Close()
	}
}

// KeptPerm is the permission of name in dir when it is a file, else perm.
func KeptPerm(dir *os.Root, name string, perm fs.FileMode) fs.FileMode {
	if fi, err := dir.Lstat(name); err == nil && fi.Mode().IsRegular() {
		return fi.Mode().Perm()
	}
	return perm
}

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
