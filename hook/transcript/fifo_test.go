//go:build unix

package transcript

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFODoesNotBlock: a transcript that is a named pipe with no writer would
// block a reader forever; it is refused unopened.
func TestFIFODoesNotBlock(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, err := LastAssistantText(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("transcript: %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("reading a named pipe blocked")
	}
}
