package hook

import (
	"iter"
	"path/filepath"
	"syscall"
)

// Linux's O_PATH and AT_SYMLINK_NOFOLLOW: the same on every architecture
// Go runs Linux on, though package syscall does not spell them for all.
const (
	oPath             = 0x200000
	atSymlinkNoFollow = 0x100
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
				fd, err = syscall.Openat(fd, filepath.Base(paths[i]), oPath|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
			} else {
				fd, err = syscall.Open(paths[i], oPath|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
			}
			if err != nil {
				fd = -1
			}
			dirs[i] = dir{path: paths[i], fd: fd}
		}
		defer func() {
			for _, d := range dirs {
				if d.fd >= 0 {
					syscall.Close(d.fd)
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

// has reports whether name is in d, as os.Lstat would find it.
func (d dir) has(name string) bool {
	if d.fd < 0 {
		return exists(filepath.Join(d.path, name))
	}
	return syscall.Faccessat(d.fd, name, syscall.F_OK, atSymlinkNoFollow) == nil
}
