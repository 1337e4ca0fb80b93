//go:build linux

package hook

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/loophook/loophook/hook/memory"
)

// TestEveryHostileAnswer runs the stop hook as a process in each kind of
// trouble the world can bring, and holds every answer to the same promise:
// exit 0, one JSON object, within 2 seconds, peak memory under 200 MB, and
// the agent's state file unchanged.
func TestEveryHostileAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string) // the world before the stop
		input func(dir string) string
	}{
		{"memory is a named pipe", func(t *testing.T, dir string) {
			mem := hopeStore(dir)
			must(t, os.MkdirAll(mem.Dir, 0o755))
			must(t, syscall.Mkfifo(mem.File("s1"), 0o600))
		}, nil},
		{"memory links to /dev/zero", func(t *testing.T, dir string) {
			mem := hopeStore(dir)
			must(t, os.MkdirAll(mem.Dir, 0o755))
			must(t, os.Symlink("/dev/zero", mem.File("s1")))
		}, nil},
		{"a file where the memory goes", func(t *testing.T, dir string) {
			must(t, os.MkdirAll(filepath.Dir(hopeStore(dir).Dir), 0o755))
			must(t, os.WriteFile(hopeStore(dir).Dir, []byte("in the way"), 0o644))
		}, nil},
		{"the journal links to /dev/zero", func(t *testing.T, dir string) {
			mem := hopeStore(dir)
			must(t, os.MkdirAll(mem.Dir, 0o755))
			must(t, os.Symlink("/dev/zero", filepath.Join(mem.Dir, memory.JournalFile)))
		}, nil},
		{"a state that links to /dev/zero", func(t *testing.T, dir string) {
			must(t, os.Rename(filepath.Join(dir, stateFile), filepath.Join(dir, ".loop", "real.json")))
			must(t, os.Symlink("/dev/zero", filepath.Join(dir, stateFile)))
		}, nil},
		{"a transcript that is a named pipe", func(t *testing.T, dir string) {
			must(t, syscall.Mkfifo(filepath.Join(dir, "t.jsonl"), 0o600))
		}, func(dir string) string {
			return `{"session_id":"s1","cwd":"` + dir + `","stop_hook_active":true,"transcript_path":"` + filepath.Join(dir, "t.jsonl") + `"}`
		}},
		{"stdin a megabyte of nesting", nil, func(string) string {
			return string(bytes.Repeat([]byte("["), 1<<20))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := loopDir(t)
			if tc.setup != nil {
				tc.setup(t, dir)
			}
			state := snapshot(filepath.Join(dir, stateFile))
			input := stopInput(dir, "s1", true)
			if tc.input != nil {
				input = tc.input(dir)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cmd := stopProcess(ctx, input)
			start := time.Now()
			out, err := cmd.Output()
			took := time.Since(start)
			if err != nil {
				t.Fatalf("exit: %v", err)
			}
			decodeOneVerdict(t, out)
			if took > 2*time.Second {
				t.Errorf("answered after %v", took)
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > 200<<10 {
				t.Errorf("peak memory %d KiB", ru.Maxrss)
			}
			if after := snapshot(filepath.Join(dir, stateFile)); !bytes.Equal(after, state) {
				t.Errorf("the state file changed")
			}
		})
	}
}

// snapshot is a state path's bytes, or where it links: reading a link to
// /dev/zero would never end.
func snapshot(path string) []byte {
	if target, err := os.Readlink(path); err == nil {
		return []byte("link:" + target)
	}
	b, _ := os.ReadFile(path)
	return b
}
