package file

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	if err := Write(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "two" {
		t.Errorf("read %q, %v; want two", data, err)
	}
	if fi, err := os.Stat(path); runtime.GOOS != "windows" && (err != nil || fi.Mode().Perm() != 0o644) {
		t.Errorf("mode %v, %v; want 0644 whatever the umask", fi.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries in the directory, want 1: no temporary file left", len(entries))
	}
	// A directory that cannot be written: an error, and nothing left behind.
	if err := Write(filepath.Join(dir, "missing", "x.json"), nil, 0o644); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
