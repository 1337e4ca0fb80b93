package file

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
)

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

// Write is WriteIn of path's directory and name.
func Write(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm, true)
}

// WriteUnsynced is Write without the syncs, for the hook's memory: it is
// written at every stop, and a write lost in a crash only resets a count.
func WriteUnsynced(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm, false)
}

func write(path string, data []byte, perm fs.FileMode, sync bool) error {
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
	_, werr := WriteTemp(f, data)
	perr := f.Chmod(perm)
	var serr error
	if sync {
		serr = f.Sync()
	}
	if err := cmp.Or(werr, perr, serr, f.Close()); err != nil {
		dir.Remove(tmp)
		return err
	}
	if err := Rename(dir, tmp, name); err != nil {
		dir.Remove(tmp)
		return err
	}
	if sync {
		SyncDir(dir)
	}
	return nil
}

// WriteTemp writes the temporary file; tests replace it to fail, panic or
// die half-way through.
var WriteTemp = (*os.File).Write

// Rename renames old to new in dir: the one rename of the product. Where
// Windows refuses it for a moment because another process holds either
// file open (a reader, a virus scanner), it is tried again for a while.
func Rename(dir *os.Root, old, new string) error {
	return retry(func() error { return dir.Rename(old, new) })
}

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
