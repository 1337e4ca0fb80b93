//go:build !linux

package hook

import (
	"iter"
	"path/filepath"
)

// dirsUp yields start and the directories above it, nearest first.
func dirsUp(start string) iter.Seq[dir] {
	return func(yield func(dir) bool) {
		for _, p := range parents(start) {
			if !yield(dir{path: p, fd: -1}) {
				return
			}
		}
	}
}

// lstat reports whether name is in d, as os.Lstat finds it, and whether it
// is a directory.
func (d dir) lstat(name string) (exists, isDir bool) {
	return lstat(filepath.Join(d.path, name))
}
