package memory

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCacheKey: a state file's directory in the per-user cache is named
// after its path, readably; paths never share one, and no name is hidden
// or longer than maxKey.
func TestCacheKey(t *testing.T) {
	for path, want := range map[string]string{
		"/home/ann/src/app/.loop/state.json": "home+ann+src+app+.loop+state.json",
		"/home/ann/my app/loop-state.json":   "home+ann+my%20app+loop-state.json",
		"/home/ann/a+b/state.json":           "home+ann+a%2Bb+state.json",
		"/home/ann/a%2Bb/state.json":         "home+ann+a%252Bb+state.json",
		"/.hidden/state.json":                "%2Ehidden+state.json",
		"/srv/é.json":                        "srv+%C3%A9.json",
	} {
		if got := cacheKey(filepath.FromSlash(path)); got != want {
			t.Errorf("cacheKey(%q) = %q, want %q", path, got, want)
		}
	}
	long := "/" + strings.Repeat("deep/", 60) + "state.json"
	other := "/" + strings.Repeat("deeq/", 1) + strings.Repeat("deep/", 59) + "state.json"
	a, b := cacheKey(long), cacheKey(other)
	if len(a) > maxKey || len(b) > maxKey || a == b || !strings.HasSuffix(a, "+deep+state.json") {
		t.Errorf("long paths: %q and %q", a, b)
	}
}

// TestStorePerStateFile: two state files in one directory have stores of
// their own, in the per-user cache, never in the project.
func TestStorePerStateFile(t *testing.T) {
	dir := t.TempDir()
	a := For(filepath.Join(dir, ".loop", "a.json"))
	b := For(filepath.Join(dir, ".loop", "b.json"))
	if a.Dir == b.Dir || a.Dir == "" {
		t.Errorf("a.json's store %+v and b.json's %+v share a directory", a, b)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(a.Dir, filepath.Join(cache, cacheName)+string(filepath.Separator)) {
		t.Errorf("a.json's memory in %s, not in the per-user cache %s", a.Dir, cache)
	}
}

// TestStoreIsPhysical: a state file named through a link to its directory
// has the store of the file named physically.
func TestStoreIsPhysical(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(dir, "link")); err != nil {
		t.Skip(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "link")); err != nil {
		t.Skip("the link made cannot be read (Wine):", err)
	}
	if a, b := For(filepath.Join(dir, "link", "state.json")), For(filepath.Join(real, "state.json")); a.Dir != b.Dir {
		t.Errorf("through the link: %s; physically: %s", a.Dir, b.Dir)
	}
}

// TestUpdateLost: with no per-user cache nothing can be remembered: next
// is told why, and Update returns the same.
func TestUpdateLost(t *testing.T) {
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("LOCALAPPDATA", "")
	s := For(filepath.Join(t.TempDir(), ".loop", "state.json"))
	if s.Dir != "" || s.NoCache == nil {
		t.Fatalf("a store with a cache and no home: %+v", s)
	}
	var told error
	err := s.Update("s1", func(_ Memory, ok bool, lost error) Memory {
		if ok {
			t.Error("a memory was read")
		}
		told = lost
		return Memory{Unchanged: 1}
	})
	if err == nil || told == nil || err.Error() != told.Error() {
		t.Fatalf("Update returned %v, next was told %v", err, told)
	}
	if !strings.Contains(err.Error(), "no per-user cache directory") {
		t.Errorf("%q does not say there is no cache", err)
	}
}

// TestUpdateBrokenLock: a directory where the session's lock file goes:
// next is told why, naming the path.
func TestUpdateBrokenLock(t *testing.T) {
	s := For(filepath.Join(t.TempDir(), ".loop", "state.json"))
	if err := os.MkdirAll(s.File("s1")+".lock", 0o755); err != nil {
		t.Fatal(err)
	}
	err := s.Update("s1", func(_ Memory, _ bool, lost error) Memory { return Memory{} })
	for _, want := range []string{"lock memory", s.File("s1") + ".lock"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v does not say %q", err, want)
		}
	}
}

// TestDeviceNamesAreNotFileNames: a session id that is a Windows device
// name, in any case and with anything after a dot, is hashed like any id
// that is not a plain name; a name that only begins like one is kept.
func TestDeviceNamesAreNotFileNames(t *testing.T) {
	for _, id := range []string{"CON", "nul", "Aux.1", "COM1", "lpt9.x", "PRN"} {
		if got := filepath.Base(sessionFile("d", id)); got == id+".json" {
			t.Errorf("session %q is kept in %s", id, got)
		}
	}
	for _, id := range []string{"console", "COM10", "nully", "LPT"} {
		if got := filepath.Base(sessionFile("d", id)); got != id+".json" {
			t.Errorf("session %q is kept in %s, want %s.json", id, got, id)
		}
	}
}
