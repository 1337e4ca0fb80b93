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
