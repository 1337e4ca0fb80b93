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
