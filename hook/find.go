package hook

import (
	"os"
	"path/filepath"

	"github.com/loophook/loophook/schema"
)

// Found is a state file the search found, and the dialect it is in.
type Found struct {
	Path    string
	Dialect schema.Dialect
}

// FindState returns the nearest state at or above dir, never above the
// enclosing git work tree's root, else the one under projectDir; Path is ""
// when there is none.
func FindState(dir, projectDir string) Found {
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		for {
			if f := findIn(dir); f.Path != "" {
				return f
			}
			if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	if projectDir != "" {
		if abs, err := filepath.Abs(projectDir); err == nil {
			return findIn(abs)
		}
	}
	return Found{}
}

// findIn looks for each dialect's file in dir, in the dialects' order.
func findIn(dir string) Found {
	for _, d := range schema.Dialects {
		p := filepath.Join(dir, d.File)
		if _, err := os.Lstat(p); err == nil {
			return Found{Path: p, Dialect: d}
		}
	}
	return Found{}
}
