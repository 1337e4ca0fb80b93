package install

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/loophook/loophook/hook/handler"
	"github.com/loophook/loophook/internal/file"
)

// maxFile is the largest host file install reads.
const maxFile = handler.MaxFile

// readFile reads the host's file at path, following a symbolic link to the
// file it names, target, which is the one to replace. A missing file reads
// as empty; a link to nothing, and anything but a regular file, are refused
// without being opened.
func readFile(path, command string) (target string, data []byte, err error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return path, nil, nil
	case err != nil:
		return "", nil, errRead(shown(path), err)
	}
	target = path
	if fi.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); errors.Is(err, fs.ErrNotExist) {
			link, _ := os.Readlink(path)
			return "", nil, errDangling(shown(path), link, command)
		} else if err != nil {
			return "", nil, errRead(shown(path), err)
		}
	}
	data, err = file.Read(target, maxFile)
	var odd *file.NotRegular
	switch {
	case errors.As(err, &odd):
		return "", nil, errNotRegular(shown(path), odd.Mode, command)
	case errors.Is(err, file.ErrTooLarge):
		return "", nil, errRead(shown(path), errLarger(maxFile))
	case err != nil:
		return "", nil, errRead(shown(path), err)
	}
	return target, data, nil
}

// writeFile replaces the file at target atomically, creating the
// directories it needs, and removing them again should the write fail.
// Links on the way to target are followed: a person's configuration may
// live anywhere.
func writeFile(target string, data []byte) error {
	dirPath, name := filepath.Dir(target), filepath.Base(target)
	undo, err := file.MakeDirs(dirPath)
	if err != nil {
		return err
	}
	dir, err := os.OpenRoot(dirPath)
	if err == nil {
		err = writeIn(dir, name, data, file.KeptPerm(dir, name, 0o644))
		dir.Close()
	}
	if err != nil {
		undo()
	}
	return err
}

// writeIn is file.WriteIn; tests replace it to fail half-way.
var writeIn = file.WriteIn
