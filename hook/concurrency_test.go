package hook

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/internal/file"
)

// The tests below run `loophook stop` as separate processes: this test
// binary, re-executed into TestHelperStop, which does what the command does
// after its flags are parsed (the defaults, protocol ok).
const (
	helperEnv = "LOOPHOOK_TEST_HELPER_STOP"
	// hangEnv makes the helper hang after writing half of its memory's
	// temporary file, and say so on stderr, so that a test can kill it there.
	hangEnv     = "LOOPHOOK_TEST_HANG_IN_WRITE"
	hangingLine = "hanging in write"
)

func TestHelperStop(t *testing.T) {
	if os.Getenv(helperEnv) == "" {
		t.Skip("a loophook stop process for the tests that start many")
	}
	if os.Getenv(hangEnv) != "" {
		file.WriteTemp = func(f *os.File, data []byte) (int, error) {
			n, err := f.Write(data[:len(data)/2])
			if err != nil {
				return n, err
			}
			fmt.Fprintln(os.Stderr, hangingLine)
			select {}
		}
	}
	if d, err := time.ParseDuration(os.Getenv(deadlineEnv)); err == nil {
		inputDeadline = d
	}
	o := Options{Host: host("ok"), Limits: criteria.DefaultLimits(), Started: processStarted}
	// A test that starts processes as a host does says when it did: a
	// loaded machine can run one process to its end before the next has
	// even begun its own clock.
	if ns, err := strconv.ParseInt(os.Getenv(startedEnv), 10, 64); err == nil {
		o.Started = time.Unix(0, ns)
	}
	stop(o, os.Stdin, os.Stdout, os.Stderr)
	os.Exit(0)
}

// stopProcess prepares a loophook stop process for input, started by the caller.
func stopProcess(ctx context.Context, input string, env ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperStop$", "-test.count=1")
	cmd.Env = append(os.Environ(), append(env, helperEnv+"=1")...)
	cmd.Stdin = strings.NewReader(input)
	return cmd
}

// deadlineEnv sets a helper process's stdin deadline: a test that starts
// many before it writes to any of them, on a loaded machine, can take
// longer than the hook's 5s to start them all.
const deadlineEnv = "LOOPHOOK_TEST_INPUT_DEADLINE"

// startedEnv tells a helper process when its parent started it.
const startedEnv = "LOOPHOOK_TEST_STARTED"

// processStarted is when this process started, as the command keeps it.
var processStarted = time.Now()

func stopInput(dir, session string, active bool) string {
	in, _ := json.Marshal(map[string]any{"session_id": session, "cwd": dir, "stop_hook_active": active})
	return string(in)
}

// stopSaying is a stop whose agent last said msg: stops that say different
// things are different stops, even at the same time.
func stopSaying(dir, session, msg string) string {
	in, _ := json.Marshal(map[string]any{"session_id": session, "cwd": dir, "stop_hook_active": true, "last_assistant_message": msg})
	return string(in)
}

// loopDir makes a project whose loop has one unmet criterion.
func loopDir(t *testing.T) string {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".loop"), 0o755); err != nil {
		t.Fatal(err)
	}
	state := `{"criteria":["tests pass"],"iteration":1}`
	if err := os.WriteFile(filepath.Join(dir, stateFile), []byte(state), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var guardReason = regexp.MustCompile(`^runaway guard: (\d+) stops in a row`)

// TestConcurrentStops starts many different stops at once, for one session
// and for several, each with stop_hook_active true on a state that never
// changes.
// The memory must count every one of them exactly once: session k's n
// processes see the guard counts 0, 1, ..., n-1, one each, in some order, so
// exactly GuardLimit of them keep the agent working and the rest are the
// guard's, each naming a different count. Meanwhile a reader checks that the
// memory files are whole JSON whenever they exist.
func TestConcurrentStops(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	for _, tc := range []struct {
		name     string
		sessions []string
		each     int
	}{
		{"one session", []string{"s1"}, 24},
		{"several sessions", []string{"s1", "s2", "a session/id that gets hashed", ""}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := loopDir(t)
			store := hopeStore(dir)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()

			// Start every process first, holding its stdin, then release all
			// of them at once: each blocks reading its input until then.
			type proc struct {
				session string
				msg     string
				cmd     *exec.Cmd
				stdin   io.WriteCloser
				stdout  bytes.Buffer
				stderr  bytes.Buffer
			}
			var procs []*proc
			for _, s := range tc.sessions {
				for i := range tc.each {
					p := &proc{session: s, msg: fmt.Sprintf("reply %d", i), cmd: stopProcess(ctx, "", deadlineEnv+"=1m")}
					p.cmd.Stdin = nil
					var err error
					if p.stdin, err = p.cmd.StdinPipe(); err != nil {
						t.Fatal(err)
					}
					p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
					if err := p.cmd.Start(); err != nil {
						t.Fatal(err)
					}
					procs = append(procs, p)
				}
			}

			stopReading := make(chan struct{})
			torn := make(chan string, 1)
			var reader sync.WaitGroup
			reader.Add(1)
			go func() {
				defer reader.Done()
				for {
					select {
					case <-stopReading:
						return
					default:
					}
					for _, s := range tc.sessions {
						data, err := readAsTheHook(store.File(s))
						if err != nil {
							continue
						}
						var m memory.Memory
						if err := json.Unmarshal(data, &m); err != nil {
							select {
							case torn <- fmt.Sprintf("%s: %q: %v", store.File(s), data, err):
							default:
							}
						}
					}
				}
			}()

			for _, p := range procs {
				go func() {
					io.WriteString(p.stdin, stopSaying(dir, p.session, p.msg))
					p.stdin.Close()
				}()
			}
			for _, p := range procs {
				if err := p.cmd.Wait(); err != nil {
					t.Fatalf("loophook stop for %q: %v\nstderr: %s", p.session, err, p.stderr.String())
				}
			}
			close(stopReading)
			reader.Wait()
			select {
			case msg := <-torn:
				t.Fatalf("a reader saw a torn memory file: %s", msg)
			default:
			}

			for _, s := range tc.sessions {
				var blocked int
				var counts []int
				for _, p := range procs {
					if p.session != s {
						continue
					}
					if p.stderr.Len() > 0 {
						t.Errorf("session %q: stderr: %s", s, p.stderr.String())
					}
					v := decodeOneVerdict(t, p.stdout.Bytes())
					if !v.OK {
						blocked++
						continue
					}
					m := guardReason.FindStringSubmatch(v.Reason)
					if m == nil {
						t.Fatalf("session %q: unexpected verdict %+v", s, v)
					}
					n, _ := strconv.Atoi(m[1])
					counts = append(counts, n)
				}
				limit := criteria.DefaultGuardLimit
				if blocked != limit {
					t.Errorf("session %q: %d stops kept the agent working, want %d", s, blocked, limit)
				}
				slices.Sort(counts)
				var want []int
				for n := limit; n < tc.each; n++ {
					want = append(want, n)
				}
				if !slices.Equal(counts, want) {
					t.Errorf("session %q: guard counts %v, want %v (a lost or doubled update)", s, counts, want)
				}
				m, ok, err := store.Read(s)
				if err != nil || !ok {
					t.Fatalf("session %q: memory: ok=%v err=%v", s, ok, err)
				}
				if m.Unchanged != tc.each-1 || m.Rule != criteria.RuleGuard {
					t.Errorf("session %q: memory %+v, want count %d by the guard", s, m, tc.each-1)
				}
			}
			checkNoTempFiles(t, store.Dir)
		})
	}
}

type wireVerdict struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason"`
}

// decodeOneVerdict checks that out is exactly one JSON object on one line.
func decodeOneVerdict(t *testing.T, out []byte) wireVerdict {
	t.Helper()
	if bytes.Count(out, []byte("\n")) != 1 || !bytes.HasSuffix(out, []byte("\n")) {
		t.Fatalf("stdout is not one line: %q", out)
	}
	var v wireVerdict
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("stdout %q: %v", out, err)
	}
	return v
}

func checkNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	tmps, _ := filepath.Glob(filepath.Join(dir, "*.tmp*"))
	if len(tmps) > 0 {
		t.Errorf("temporary files left behind: %v", tmps)
	}
}

// TestKilledMidWrite kills a stop while it is writing its memory, half of
// the temporary file on disk, and shows that the last good memory is still
// what the next stop reads: the killed evaluation simply did not count, its
// lock died with it, and the next evaluation counts on from the last good
// memory.
func TestKilledMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := loopDir(t)
	store := hopeStore(dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	run := func() wireVerdict {
		t.Helper()
		cmd := stopProcess(ctx, stopInput(dir, "s1", true))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("loophook stop: %v\nstderr: %s", err, stderr.String())
		}
		return decodeOneVerdict(t, out)
	}
	run()
	run()
	good, err := os.ReadFile(store.File("s1"))
	if err != nil {
		t.Fatal(err)
	}
	if m, _, _ := store.Read("s1"); m.Unchanged != 1 {
		t.Fatalf("before the kill: memory %+v, want count 1", m)
	}

	cmd := stopProcess(ctx, stopInput(dir, "s1", true), hangEnv+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stderr)
	for lines.Scan() && lines.Text() != hangingLine {
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, stderr)
	err = cmd.Wait()
	var exit *exec.ExitError
	// Windows has no signals: Kill is TerminateProcess, exit status 1.
	if !errors.As(err, &exit) || runtime.GOOS != "windows" && exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the process was not killed mid-write: %v", err)
	}
	if stdout.Len() > 0 {
		t.Fatalf("a killed process answered %q", stdout.String())
	}

	// The torn temporary file is there, and the memory is as it was.
	tmps, _ := filepath.Glob(store.File("s1") + ".tmp*")
	if len(tmps) != 1 {
		t.Fatalf("want one half-written temporary file, got %v", tmps)
	}
	if half, _ := os.ReadFile(tmps[0]); json.Valid(half) || len(half) == 0 {
		t.Fatalf("the temporary file is not half-written: %q", half)
	}
	if now, _ := os.ReadFile(store.File("s1")); !bytes.Equal(now, good) {
		t.Fatalf("memory changed by a killed write: %q, was %q", now, good)
	}
	if m, ok, err := store.Read("s1"); !ok || err != nil || m.Unchanged != 1 {
		t.Fatalf("after the kill: memory %+v ok=%v err=%v, want count 1", m, ok, err)
	}

	// The next stop is not blocked by the dead process's lock and counts on.
	if v := run(); v.OK {
		t.Fatalf("count 2 should still keep the agent working: %+v", v)
	}
	if m, _, _ := store.Read("s1"); m.Unchanged != 2 {
		t.Fatalf("after the next stop: memory %+v, want count 2", m)
	}
	if v := run(); !v.OK || !strings.HasPrefix(v.Reason, "runaway guard: 3 stops") {
		t.Fatalf("count 3 should be the guard's: %+v", v)
	}
}

// readAsTheHook reads a memory file as loophook's readers do (file.Read,
// which on Windows shares delete); on Windows under the session's lock as
// well, since Wine 8.0 renames over no file that is open, shared for
// delete or not.
func readAsTheHook(path string) ([]byte, error) {
	if runtime.GOOS == "windows" {
		unlock, err := lockedfile.MutexAt(path + ".lock").Lock()
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	return file.Read(path, 1<<20)
}
