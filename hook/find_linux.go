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

// dirsUp yields start and the directories above it, nearest first, each
// held open (O_PATH) so that every name the search looks for is looked up
// from its own directory, not along the whole path again: 30 levels deep,
// with five names a level, walking the path each time was most of a stop's
// cost. start is opened by its path; those above, only once the search
// climbs, top down, each from the one above it. A directory that cannot be
// opened is looked in by its path.
func dirsUp(start string) iter.Seq[dir] {
	return func(yield func(dir) bool) {
		here := dir{path: start, fd: openDir(-1, start)}
		defer here.close()
		above := filepath.Dir(start)
		if !yield(here) || above == start {
			return
		}
		paths := parents(above)
		dirs := make([]dir, len(paths))
		fd := -1
		for i := len(paths) - 1; i >= 0; i-- {
			fd = openDir(fd, paths[i])
			dirs[i] = dir{path: paths[i], fd: fd}
		}
		defer func() {
			for _, d := range dirs {
				d.close()
			}
		}()
		for _, d := range dirs {
			if !yield(d) {
				return
			}
		}
	}
}

// openDir opens the directory at path for lookups, from the directory
// open as at when it is one; -1 when it cannot.
func openDir(at int, path string) int {
	var fd int
	var err error
	if at >= 0 {
		fd, err = syscall.Openat(at, filepath.Base(path), oPath|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	} else {
		fd, err = syscall.Open(path, oPath|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	}
	if err != nil {
		return -1
	}
	return fd
}

func (d dir) close() {
	if d.fd >= 0 {
		syscall.Close(d.fd)
	}
}

// has reports whether name is in d, as os.Lstat would find it.
func (d dir) has(name string) bool {
	if d.fd < 0 {
		return exists(filepath.Join(d.path, name))
	}
	return syscall.Faccessat(d.fd, name, syscall.F_OK, atSymlinkNoFollow) == nil
}

// isDir reports whether name in d is a directory, or a link to one, as
// os.Stat finds it: a trailing slash resolves only to a directory.
func (d dir) isDir(name string) bool {
	if d.fd < 0 {
		return statDir(filepath.Join(d.path, name))
	}
	return syscall.Faccessat(d.fd, name+"/", syscall.F_OK, 0) == nil
}
