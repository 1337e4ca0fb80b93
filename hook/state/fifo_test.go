//go:build unix

package state

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/loophook/loophook/schema"
)

// TestFIFODoesNotBlock: a state file that is a named pipe with no writer would
// block a reader forever; it is refused unopened.
func TestFIFODoesNotBlock(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if l := Load(Found{Path: fifo, Dialect: schema.Dialects[0]}); l.Loop != nil || len(l.Problems) != 1 || l.Problems[0] != "the file is not a regular file" {
			t.Errorf("state: %+v", l)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("reading a named pipe blocked")
	}
}
