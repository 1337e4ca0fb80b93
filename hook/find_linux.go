package hook

import (
	"iter"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// dirsUp yields start and the directories above it, nearest first. start
// is looked in by its path: the state is most often there. Those above are
// held open (O_PATH), each opened from the one above it, so that every name
// the search looks for is looked up from its own directory, not along the
// whole path again: 30 levels deep, with five names a level, walking the
// path each time was most of a stop's cost. A directory that cannot be
// opened is looked in by its path.
func dirsUp(start string) iter.Seq[dir] {
	return func(yield func(dir) bool) {
		above := filepath.Dir(start)
		if !yield(dir{path: start, fd: -1}) || above == start {
			return
		}
		paths := parents(above)
		dirs := make([]dir, len(paths))
		fd := -1
		for i := len(paths) - 1; i >= 0; i-- {
			var err error
			if fd >= 0 {
				fd, err = unix.Openat(fd, filepath.Base(paths[i]), unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			} else {
				fd, err = unix.Open(paths[i], unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
			}
			if err != nil {
				fd = -1
			}
			dirs[i] = dir{path: paths[i], fd: fd}
		}
		defer func() {
			for _, d := range dirs {
				if d.fd >= 0 {
					unix.Close(d.fd)
				}
			}
		}()
		for _, d := range dirs {
			if !yield(d) {
				return
			}
		}
	}
}

// lstat reports whether name is in d, as os.Lstat would find it, and
// whether it is a directory.
func (d dir) lstat(name string) (exists, isDir bool) {
	if d.fd < 0 {
		return lstat(filepath.Join(d.path, name))
	}
	var st unix.Stat_t
	if unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return false, false
	}
	return true, st.Mode&unix.S_IFMT == unix.S_IFDIR
}
