package statefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/schema"
)

// Unfinished is the state init would write in dir ("" is the current
// directory) when a loop there is unfinished, so that starting another is
// a person's act (SPEC section 5): its contract is under way (even with its
// file gone), or its file is a loop under way that is not the ended loop's
// own, or a file that does not read as a loop. A contract that cannot be
// read counts as under way. ok is false when init would start the first
// loop there, or one after the last ended.
func Unfinished(dir string) (path string, ok bool) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", false // Start refuses the directory
	}
	path = filepath.Join(abs, schema.HopeFile)
	found := state.Found{Path: path, Dialect: schema.Hope}
	ended, last, contract, err := memory.For(found.Path).Ended()
	if err != nil || (contract && !ended) {
		return path, true
	}
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return path, false
	}
	l := state.Load(found)
	switch {
	case l.Loop == nil:
		return path, true
	case contract && l.Progress == last:
		return path, false
	}
	return path, l.Loop.Active()
}
