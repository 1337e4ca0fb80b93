package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/schema"
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
// their own, beside them and in the cache.
func TestStorePerStateFile(t *testing.T) {
	dir := t.TempDir()
	a := StoreFor(state.Found{Path: filepath.Join(dir, ".loop", "a.json"), Dialect: schema.Hope})
	b := StoreFor(state.Found{Path: filepath.Join(dir, ".loop", "b.json"), Dialect: schema.Hope})
	if a.Dir == b.Dir || a.Cache == b.Cache || a.Cache == "" {
		t.Errorf("a.json's store %+v and b.json's %+v share a directory", a, b)
	}
	if want := filepath.Join(dir, ".loop", MemoryDir, "a.json"); a.Dir != want {
		t.Errorf("a.json's memory in %s, want %s", a.Dir, want)
	}
}

// TestUpdateLost: with the session's lock broken (a directory stands where
// the lock file goes) and no per-user cache, nothing can be remembered:
// next is told why, naming the path, and Update returns the same.
func TestUpdateLost(t *testing.T) {
	t.Setenv("HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	path := filepath.Join(t.TempDir(), ".loop", "state.json")
	s := StoreFor(state.Found{Path: path, Dialect: schema.Hope})
	if s.Cache != "" || s.NoCache == nil {
		t.Fatalf("a store with a cache and no home: %+v", s)
	}
	if err := os.MkdirAll(s.file("s1")+".lock", 0o755); err != nil {
		t.Fatal(err)
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
	for _, want := range []string{"lock memory", s.file("s1") + ".lock", "no per-user cache directory"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}
}
