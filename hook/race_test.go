//go:build unix

package hook

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/schema"
)

// TestStateSwappedForAPipeDoesNotHang swaps the state path between a
// regular file and a named pipe while the hook reads it, again and again:
// a stat that saw the file must not lead to opening the pipe and waiting
// for a writer. Every read finishes.
func TestStateSwappedForAPipeDoesNotHang(t *testing.T) {
	if testing.Short() {
		t.Skip("races for a second")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "state.json")
	file, fifo := filepath.Join(dir, "file"), filepath.Join(dir, "fifo")
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; !stop.Load(); i++ {
			os.Remove(path)
			if i%2 == 0 {
				os.WriteFile(file, []byte(`{"criteria":["a"]}`), 0o644)
				os.Rename(file, path)
			} else if syscall.Mkfifo(fifo, 0o644) == nil {
				os.Rename(fifo, path)
			}
		}
	}()
	defer func() { stop.Store(true); <-done }()
	reads := make(chan struct{})
	go func() {
		defer close(reads)
		for end := time.Now().Add(3 * time.Second); time.Now().Before(end); {
			state.Load(state.Found{Path: path, Dialect: schema.Hope})
		}
	}()
	select {
	case <-reads:
	case <-time.After(20 * time.Second):
		t.Fatal("a read of the swapped state hung")
	}
}
