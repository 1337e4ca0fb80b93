//go:build unix

package hook

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loophook/loophook/schema"
)

// TestFIFOsDoNotBlock: a state file or transcript that is a named pipe with
// no writer would block a reader forever; both are refused unopened.
func TestFIFOsDoNotBlock(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if l := Load(Found{Path: fifo, Dialect: schema.Dialects[0]}); l.Loop != nil || len(l.Problems) != 1 || l.Problems[0] != "the file is not a regular file" {
			t.Errorf("state: %+v", l)
		}
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
