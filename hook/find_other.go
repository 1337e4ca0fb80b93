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

// has reports whether name is in d, as os.Lstat finds it.
func (d dir) has(name string) bool { return exists(filepath.Join(d.path, name)) }

// isDir reports whether name in d is a directory, or a link to one, as
// os.Stat finds it.
func (d dir) isDir(name string) bool { return statDir(filepath.Join(d.path, name)) }
