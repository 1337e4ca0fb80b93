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

// TestGitFIFODoesNotBlock: a named pipe called .git below the top is no
// .git, and is never opened: the climb goes on to the real top.
func TestGitFIFODoesNotBlock(t *testing.T) {
	dir := tree(t, map[string]string{".git/HEAD": "ref: refs/heads/main\n", "app/src/": ""})
	if err := syscall.Mkfifo(filepath.Join(dir, "app", ".git"), 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan string)
	go func() { done <- Top(filepath.Join(dir, "app", "src")) }()
	select {
	case got := <-done:
		if got != dir {
			t.Errorf("Top = %s, want %s", got, dir)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a named pipe called .git blocked the climb")
	}
}
