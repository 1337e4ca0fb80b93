package hook

import (
	"path/filepath"
	"strings"
	"testing"

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
	a := StoreFor(Found{Path: filepath.Join(dir, ".loop", "a.json"), Dialect: schema.Hope})
	b := StoreFor(Found{Path: filepath.Join(dir, ".loop", "b.json"), Dialect: schema.Hope})
	if a.Dir == b.Dir || a.Cache == b.Cache || a.Cache == "" {
		t.Errorf("a.json's store %+v and b.json's %+v share a directory", a, b)
	}
	if want := filepath.Join(dir, ".loop", MemoryDir, "a.json"); a.Dir != want {
		t.Errorf("a.json's memory in %s, want %s", a.Dir, want)
	}
}
