// Package state finds a loop's state file and reads it once (SPEC section
// 1): the one climb to the top of a git work tree (Climb, a .git only as
// git would accept it), the search along it, the dialect each file is told
// by, and the file read within its cap, whose every fault becomes a
// problem the reason names.
package state

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/loophook/loophook/schema"
)

// Found is a state file the search found, and the dialect it is in.
type Found struct {
	Path    string
	Dialect schema.Dialect
	// Data is the file's content when the search read it to tell its
	// dialect, so that Load need not read it again; nil when not.
	Data []byte
	// Searched are the directories the search looked in, nearest first,
	// when it found nothing: what the no-state reason names.
	Searched []string
	// Top is Top(start), when the search climbed to it; "" when it
	// stopped at start, where it found the state.
	Top string
}

// Find finds the loop's state from start (SPEC section 1): in each
// directory from start up to the top of the git work tree that holds it
// (Climb), and, when that top is a linked worktree, in its main work
// tree's root; outside any work tree, in start only. In each directory the
// dialects are looked for in their order and the first found wins. only,
// when set, is the one dialect looked for, and a file at its place is
// taken as its own. Path is "" when there is none, and Searched then names
// the directories looked in.
func Find(start string, only *schema.Dialect) Found {
	if start == "" {
		return Found{}
	}
	if abs, err := filepath.Abs(start); err == nil {
		start = abs
	}
	var found Found
	var searched []string
	atStart := false
	wt := Climb(start, func(d string) bool {
		if found.Path != "" {
			return false
		}
		found = findIn(dir{d}, only)
		searched = append(searched, d)
		// Found where the search starts: no need to climb on.
		atStart = found.Path != "" && d == start
		return atStart
	})
	switch {
	case atStart:
		return found
	case found.Path != "" && wt.Git:
		found.Top = wt.Top
		return found
	case !wt.Git:
		// Outside any work tree a state above start is a stranger's: only
		// start counts.
		return Found{Searched: []string{start}, Top: wt.Top}
	case wt.Main != "":
		if found = findIn(dir{wt.Main}, only); found.Path != "" {
			found.Top = wt.Top
			return found
		}
		searched = append(searched, wt.Main)
	}
	return Found{Searched: searched, Top: wt.Top}
}

// dir is one directory of the search.
type dir struct{ path string }

// has reports whether name is in d, as os.Lstat finds it.
func (d dir) has(name string) bool { return exists(filepath.Join(d.path, name)) }

// exists reports whether os.Lstat finds path.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// findIn looks for each dialect's file in dir, in the dialects' order.
func findIn(d dir, only *schema.Dialect) Found {
	if only != nil {
		if p := pick(d, *only); p != "" {
			return Found{Path: p, Dialect: *only}
		}
		return Found{}
	}
	for _, dialect := range schema.Dialects {
		p := pick(d, dialect)
		if p == "" {
			continue
		}
		var data []byte
		if dialect.Shared {
			var err error
			if data, err = ReadFile(p); err != nil || !dialect.Tells(data) {
				continue
			}
		}
		return Found{Path: p, Dialect: dialect, Data: data}
	}
	return Found{}
}

// pick is the dialect's file in dir: its File, or, when File has a "*",
// the newest of the files it matches; "" when there is none.
func pick(in dir, d schema.Dialect) string {
	before, after, glob := strings.Cut(d.File, "/*/")
	if !glob {
		if !in.has(filepath.FromSlash(d.File)) {
			return ""
		}
		return filepath.Join(in.path, filepath.FromSlash(d.File))
	}
	if !in.has(filepath.FromSlash(before)) {
		return ""
	}
	entries, err := os.ReadDir(filepath.Join(in.path, filepath.FromSlash(before)))
	if err != nil {
		return ""
	}
	// ReadDir lists by name: going backwards, the first file found has the
	// greatest name, which also breaks ties between equal stamps.
	var files []string
	for i := len(entries) - 1; i >= 0; i-- {
		p := filepath.Join(in.path, filepath.FromSlash(before), entries[i].Name(), filepath.FromSlash(after))
		if exists(p) {
			files = append(files, p)
		}
	}
	if len(files) == 0 {
		return ""
	}
	if d.Newest == "" || len(files) == 1 {
		return files[0]
	}
	var best, bestStamp string
	var bestTime time.Time
	for _, p := range files {
		stamp, t := newest(p, d.Newest)
		if best == "" || stamp != "" && (bestStamp == "" || t.After(bestTime)) {
			best, bestStamp, bestTime = p, stamp, t
		}
	}
	return best
}

// newest reads the time a file says it was updated, from its top-level
// field; "" when it has none that reads as an RFC 3339 time, which counts
// as the oldest.
func newest(path, field string) (string, time.Time) {
	data, err := ReadFile(path)
	if err != nil {
		return "", time.Time{}
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &doc) != nil {
		return "", time.Time{}
	}
	var s string
	if json.Unmarshal(doc[field], &s) != nil {
		return "", time.Time{}
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return "", time.Time{}
	}
	return s, t
}

// StartOf is the directory the search found f in: the one its dialect's
// file is named from; the file's own directory for a file named otherwise
// (--state).
func StartOf(f Found) string {
	dir := filepath.Dir(f.Path)
	if f.Path == "" || filepath.Base(f.Path) != path.Base(f.Dialect.File) {
		return dir
	}
	for range strings.Count(f.Dialect.File, "/") {
		dir = filepath.Dir(dir)
	}
	return dir
}

// WorkTreeTop is the top of the git work tree that holds dir (Climb),
// else dir itself; linked says the top's .git is a file, as a linked
// worktree's is.
func WorkTreeTop(dir string) (top string, linked bool) {
	wt := Climb(dir, nil)
	return wt.Top, wt.GitFile
}
