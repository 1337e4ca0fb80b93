package hook

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFileAtomic writes data to path through a temporary file in the same
// directory, synced, and a rename, so that a reader sees the old file or the
// new one, never half of either, even after a crash. The file gets perm
// exactly, whatever the umask. People's commands write with it.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	return writeFileAtomic(path, data, perm, true)
}

// writeFileAtomic is WriteFileAtomic; the hook's memory skips the sync,
// because it is written on every stop and a lost write only resets a count.
func writeFileAtomic(path string, data []byte, perm fs.FileMode, sync bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	_, werr := writeTemp(tmp, data)
	perr := tmp.Chmod(perm)
	var serr error
	if sync {
		serr = tmp.Sync()
	}
	cerr := tmp.Close()
	if err := errors.Join(werr, perr, serr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

// writeTemp writes the temporary file; tests replace it to fail, panic or
// die half-way through.
var writeTemp = (*os.File).Write
