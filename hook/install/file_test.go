package install

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestWriteSettingsKeepsModeAndLinks(t *testing.T) {
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
	resolved, data, err := readFile(link, "install")
	if err != nil || string(data) != "old" {
		t.Fatalf("readFile = %q, %v", data, err)
	}
	if err := writeFile(resolved, []byte("new")); err != nil {
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
	// A new file gets 0644 whatever the umask, in the directories it needs,
	// and no temporary file stays behind.
	fresh := filepath.Join(dir, "a", "b", "fresh.json")
	if err := writeFile(fresh, []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(fresh); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("fresh file: %v, %v; want 0644", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("the directory holds %d entries, want 3 (no temporary files)", len(entries))
	}
}

func TestFailedWriteLeavesNothing(t *testing.T) {
	defer func(w func(*os.Root, string, []byte, os.FileMode) error) { writeIn = w }(writeIn)
	writeIn = func(*os.Root, string, []byte, os.FileMode) error { return errors.New("disk full") }
	dir := t.TempDir()

	// A new file in new directories: the directories go too.
	if err := writeFile(filepath.Join(dir, "a", "b", "settings.json"), []byte("{}\n")); err == nil {
		t.Fatal("writeFile succeeded")
	}
	// A file that was there stays as it was.
	old := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(old, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(old, []byte("new")); err == nil {
		t.Fatal("writeFile succeeded")
	}
	if data, _ := os.ReadFile(old); string(data) != "old" {
		t.Errorf("the file holds %q, want old", data)
	}
}
