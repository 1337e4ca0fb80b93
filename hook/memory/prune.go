package memory

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Memory of a session unseen for pruneAfter is dropped. The directory is
// looked through at most once every pruneEvery, as a stamp file's time
// says, so that a stop costs one stat, not a directory listing.
const (
	pruneAfter = 7 * 24 * time.Hour
	pruneEvery = 24 * time.Hour
	pruneStamp = ".pruned"
)

// prune drops the memory of sessions unseen for a week from the store, and
// the cache's directories of state files unseen for a week. A session's
// memory file is written at every stop, so its time is when the session
// was last seen.
func (s Store) prune() {
	now := time.Now()
	if !due(s.Dir, now) {
		return
	}
	pruneSessions(s.Dir, now)
	if root := filepath.Dir(s.Dir); due(root, now) {
		pruneStates(root, now)
	}
}

// due reports whether dir was last pruned more than pruneEvery ago, and
// stamps it now if so: of several hooks that find it due at once, most
// see the fresh stamp and skip, and a second pruning is harmless.
func due(dir string, now time.Time) bool {
	stamp := filepath.Join(dir, pruneStamp)
	if fi, err := os.Stat(stamp); err == nil && now.Sub(fi.ModTime()) < pruneEvery && fi.ModTime().Before(now.Add(time.Minute)) {
		return false
	}
	if err := os.Chtimes(stamp, now, now); err != nil {
		if err := os.WriteFile(stamp, nil, 0o600); err != nil {
			return false // a directory it cannot stamp is not the hook's to tidy
		}
	}
	return true
}

// pruneSessions removes the memory files of sessions unseen for a week,
// with their locks, and temporary files a killed hook left behind.
func pruneSessions(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	old := func(name string) bool {
		fi, err := os.Lstat(filepath.Join(dir, name))
		return err == nil && now.Sub(fi.ModTime()) > pruneAfter
	}
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, "."):
			// The hook's own files (stamp, contract, .gitignore) stay.
		case strings.Contains(name, ".tmp"):
			if old(name) {
				os.Remove(filepath.Join(dir, name))
			}
		case strings.HasSuffix(name, ".json"):
			// A lock is removed only with its memory: it is created once and
			// never touched again, so its own time says nothing. A session
			// that comes back in the instant its week-old memory is pruned
			// might count one stop twice; nothing worse.
			if old(name) {
				os.Remove(filepath.Join(dir, name))
				os.Remove(filepath.Join(dir, name+".lock"))
			}
		case strings.HasSuffix(name, ".json.lock"):
			if _, err := os.Lstat(filepath.Join(dir, strings.TrimSuffix(name, ".lock"))); err != nil && old(name) {
				os.Remove(filepath.Join(dir, name))
			}
		}
	}
}

// notStates are the directories of the per-user cache that are no state
// file's: the checks' results, the record of what a person was told, and
// the work trees' open contracts.
var notStates = []string{"checks", "told", openDir}

// pruneStates removes the per-user cache's directories of state files in
// which nothing was written for a week: no session of that loop was seen.
// A loop whose contract is unfinished keeps its directory (SPEC section
// 5): a contract is kept until its loop ends.
func pruneStates(root string, now time.Time) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || slices.Contains(notStates, e.Name()) {
			continue
		}
		dir := filepath.Join(root, e.Name())
		if lastSeen(dir).After(now.Add(-pruneAfter)) {
			continue
		}
		if c, found, _ := readContractAt(filepath.Join(dir, contractFile)); found && !c.Ended {
			continue
		}
		os.RemoveAll(dir)
	}
}

// lastSeen is the latest time of a file in dir, or the directory's own.
func lastSeen(dir string) time.Time {
	var t time.Time
	if fi, err := os.Lstat(dir); err == nil {
		t = fi.ModTime()
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.Name() == pruneStamp {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().After(t) {
			t = fi.ModTime()
		}
	}
	return t
}
