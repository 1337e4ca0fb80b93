package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestReplaceFileKeepsModeAndLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions or symbolic links to speak of")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "dotfiles", "settings.json")
	link := filepath.Join(dir, "settings.json")
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := replaceFile(link, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", fi.Mode(), err)
	}
	fi, err := os.Stat(target)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("mode = %v, want 0600", got)
	}
	if data, _ := os.ReadFile(target); string(data) != "new" {
		t.Errorf("target = %q, want new", data)
	}
	// A new file gets the mode asked for, and no temporary file stays behind.
	fresh := filepath.Join(dir, "fresh.json")
	if err := replaceFile(fresh, []byte("{}"), 0o640); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("fresh file: %v, %v; want 0640", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("the directory holds %d entries, want 3 (no temporary files)", len(entries))
	}
}
