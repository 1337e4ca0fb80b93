package file

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestRead: a file within its limit is read whole; a larger one, and
// what is not a regular file, are refused with errors a caller can tell.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := Read(path, 5); err != nil || string(data) != "12345" {
		t.Errorf("Read within the limit = %q, %v", data, err)
	}
	if _, err := Read(path, 4); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Read past the limit: %v, want ErrTooLarge", err)
	}
	_, err := Read(dir, 5)
	var odd *NotRegular
	if !errors.Is(err, ErrNotRegular) || !errors.As(err, &odd) || !odd.Mode.IsDir() {
		t.Errorf("Read of a directory: %v, want a NotRegular naming a directory", err)
	}
	_, err = Read(filepath.Join(dir, "none"), 5)
	var pe *os.PathError
	if cause := PathCause(err); !errors.Is(cause, os.ErrNotExist) || errors.As(cause, &pe) {
		t.Errorf("PathCause of a missing file: %v, want the cause without the path", cause)
	}
}

// PhysicalDir of the working directory, named by its physical path, by a
// link to it or as ".", is its physical path, as when any other directory
// is resolved.
func TestPhysicalDirOfTheWorkingDirectory(t *testing.T) {
	real, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if got, err := filepath.EvalSymlinks(link); err != nil || got != real {
		t.Skip("the link made cannot be followed (Wine):", got, err)
	}
	for _, wd := range []string{real, link} {
		t.Chdir(wd)
		for _, dir := range []string{real, link, ".", filepath.Join(link, "..", filepath.Base(link))} {
			if got := PhysicalDir(dir); got != real {
				t.Errorf("working in %s: PhysicalDir(%q) = %q, want %q", wd, dir, got, real)
			}
		}
		if got, want := Physical(filepath.Join(link, "f")), filepath.Join(real, "f"); got != want {
			t.Errorf("working in %s: Physical = %q, want %q", wd, got, want)
		}
	}
	// Below the working directory: a link to a sibling, relative, and to
	// an absolute place; a plain directory; one that does not exist.
	t.Chdir(real)
	other, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, mk := range []func() error{
		func() error { return os.Mkdir("plain", 0o755) },
		func() error { return os.Mkdir("sibling", 0o755) },
		func() error { return os.Symlink("sibling", "up") },
		func() error { return os.Symlink("..", "parent") },
		func() error { return os.Symlink(other, "away") },
	} {
		if err := mk(); err != nil {
			t.Fatal(err)
		}
	}
	for dir, want := range map[string]string{
		filepath.Join(real, "plain"):                   filepath.Join(real, "plain"),
		filepath.Join(real, "up"):                      filepath.Join(real, "sibling"),
		filepath.Join(real, "parent"):                  filepath.Dir(real),
		filepath.Join(real, "away"):                    other,
		filepath.Join(link, "up"):                      filepath.Join(real, "sibling"),
		filepath.Join(real, "missing"):                 filepath.Join(real, "missing"), // kept as it is
		filepath.Join(real, "parent", "x", "..") + "/": filepath.Dir(real),
	} {
		if got := PhysicalDir(dir); got != want {
			t.Errorf("PhysicalDir(%q) = %q, want %q", dir, got, want)
		}
		if want != filepath.Join(real, "missing") {
			if via, err := filepath.EvalSymlinks(dir); err != nil || via != want {
				t.Errorf("the test's own want for %q: EvalSymlinks says %q (%v)", dir, via, err)
			}
		}
	}
}
