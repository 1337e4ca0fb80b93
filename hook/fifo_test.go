//go:build unix

package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/loophook/loophook/criteria"
)

// TestMemoryFIFODoesNotBlock: a session's memory file or the loop's
// contract that is a named pipe with no writer is refused unopened: the
// stop answers, says so, and its next write replaces the pipe with the
// hook's own file.
func TestMemoryFIFODoesNotBlock(t *testing.T) {
	dir := loopDir(t)
	store := hopeStore(dir)
	for _, d := range []string{store.Dir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{store.File("s1"), filepath.Join(store.Dir, ".contract")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skipf("no named pipes here: %v", err)
		}
	}
	o := Options{Host: host("ok"), Limits: criteria.DefaultLimits()}
	var stdout, stderr bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		stop(o, strings.NewReader(stopInput(dir, "s1", true)), &stdout, &stderr)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a named pipe in the memory blocked the stop")
	}
	if !strings.HasPrefix(stdout.String(), `{"ok":false,"reason":"iteration 1 of 10: 1 of 1 criterion unmet`) {
		t.Errorf("stdout: %s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "s1.json is not a regular file; the guard counts afresh") {
		t.Errorf("stderr does not say what is wrong: %s", stderr.String())
	}
	for _, p := range []string{store.File("s1"), filepath.Join(store.Dir, ".contract")} {
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%s was not replaced by a regular file: %v %v", p, fi, err)
		}
	}
}
