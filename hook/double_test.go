package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loophook/loophook/criteria"
)

// TestConcurrentDoubleStopCountsOnce runs each stop as Codex CLI does when
// loophook is registered twice (user and project): two processes at once,
// with the same stdin. Each stop must count once and both processes give
// the same answer. The next stop brings the same bytes again, but the host
// has written the agent's next message to the transcript, and it counts:
// on a state that never changes, the guard ends the loop at the fourth
// stop, both registrations agreeing.
func TestConcurrentDoubleStopCountsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := loopDir(t)
	store := hopeStore(dir)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	transcript := filepath.Join(dir, "rollout.jsonl")
	in, _ := json.Marshal(map[string]any{"session_id": "s1", "turn_id": "t1", "cwd": dir, "transcript_path": transcript, "stop_hook_active": true, "last_assistant_message": "still working"})
	input := string(in)

	for round := 1; round <= 4; round++ {
		f, err := os.OpenFile(transcript, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"still working"}]}}` + "\n")
		f.Close()
		// Both start before either reads its input, as a host starts them.
		var procs [2]struct {
			cmd    *exec.Cmd
			stdin  io.WriteCloser
			stdout bytes.Buffer
			stderr bytes.Buffer
		}
		for i := range procs {
			p := &procs[i]
			p.cmd = stopProcess(ctx, "", fmt.Sprintf("%s=%d", startedEnv, time.Now().UnixNano()))
			p.cmd.Stdin = nil
			var err error
			if p.stdin, err = p.cmd.StdinPipe(); err != nil {
				t.Fatal(err)
			}
			p.cmd.Stdout, p.cmd.Stderr = &p.stdout, &p.stderr
			if err := p.cmd.Start(); err != nil {
				t.Fatal(err)
			}
		}
		for i := range procs {
			go func() {
				io.WriteString(procs[i].stdin, input)
				procs[i].stdin.Close()
			}()
		}
		for i := range procs {
			if err := procs[i].cmd.Wait(); err != nil || procs[i].stderr.Len() > 0 {
				t.Fatalf("round %d: %v\nstderr: %s", round, err, procs[i].stderr.String())
			}
		}
		a, b := decodeOneVerdict(t, procs[0].stdout.Bytes()), decodeOneVerdict(t, procs[1].stdout.Bytes())
		if a != b {
			t.Fatalf("round %d: the two registrations answered differently:\n%+v\n%+v", round, a, b)
		}
		m, ok, err := store.Read("s1")
		if !ok || err != nil {
			t.Fatalf("round %d: memory: %v %v", round, ok, err)
		}
		if m.Continuations != round || m.Unchanged != round-1 {
			t.Fatalf("round %d: memory counts %d continuations, guard %d: a stop counted twice or not at all", round, m.Continuations, m.Unchanged)
		}
		wantGuard := round == 4
		if a.OK != wantGuard || wantGuard && !strings.HasPrefix(a.Reason, "runaway guard: 3 stops") {
			t.Fatalf("round %d: verdict %+v", round, a)
		}
	}
}

// TestInstantKeyIsOneStopForAMinute: a stop keyed by its host's instant is
// answered from memory when it comes again soon (the second registration),
// but not a minute later: a host that stamped two stops alike cannot stop
// the guard from counting.
func TestInstantKeyIsOneStopForAMinute(t *testing.T) {
	dir := loopDir(t)
	store := hopeStore(dir)
	o := Options{Host: host("ok"), Limits: criteria.DefaultLimits()}
	input := `{"session_id":"s1","stop_hook_active":true,"timestamp":"2026-11-23T06:56:11.865Z","cwd":` + jsonString(dir) + `}`
	run := func() {
		t.Helper()
		var stdout, stderr bytes.Buffer
		stop(o, strings.NewReader(input), &stdout, &stderr)
		if stderr.Len() > 0 {
			t.Fatalf("stderr: %s", stderr.String())
		}
	}
	run()
	run()
	if m, _, _ := store.Read("s1"); m.Continuations != 1 {
		t.Fatalf("the same instant counted %d times", m.Continuations)
	}
	m, _, _ := store.Read("s1")
	m.Last.At = time.Now().Add(-2 * time.Minute).UnixNano()
	data, _ := json.Marshal(m)
	if err := os.WriteFile(store.File("s1"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	run()
	if m, _, _ := store.Read("s1"); m.Continuations != 2 {
		t.Fatalf("a minute later the same instant counted %d times in all, want 2", m.Continuations)
	}
}

// TestStopKey: one instant is one key, in epoch milliseconds or as an ISO
// string; without an instant, the bytes are the key.
func TestStopKey(t *testing.T) {
	key := func(s string) string {
		t.Helper()
		in, err := ReadInput(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		return in.StopKey
	}
	ms := key(`{"sessionId":"x","timestamp":1795416971865}`)
	iso := key(`{"session_id":"x","timestamp":"2026-11-23T06:56:11.865Z","hook_event_name":"Stop"}`)
	if ms != iso || !strings.HasPrefix(ms, "at:") {
		t.Errorf("one instant, two keys: %s, %s", ms, iso)
	}
	if key(`{"session_id":"x","timestamp":1795416971866}`) == ms {
		t.Error("two instants, one key")
	}
	a, b := key(`{"session_id":"x","turn_id":"t","last_assistant_message":"a"}`), key(`{"session_id":"x","turn_id":"t","last_assistant_message":"b"}`)
	if a == b || !strings.HasPrefix(a, "in:") {
		t.Errorf("different inputs without an instant: %s, %s", a, b)
	}
	if key(`{"session_id":"x","timestamp":"yesterday"}`) == key(`{"session_id":"x","timestamp":"today"}`) {
		t.Error("timestamps that are no instant must fall back to the bytes")
	}
}

// TestMemoryInCacheWhenNoPermission: a project directory the hook may not
// write keeps its memory in the per-user cache, and the guard still counts.
func TestMemoryInCacheWhenNoPermission(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write anywhere")
	}
	dir := loopDir(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", cache)
	t.Setenv("LOCALAPPDATA", cache)
	t.Setenv("USERPROFILE", cache)
	loop := filepath.Join(dir, ".loop")
	if err := os.Chmod(loop, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(loop, 0o755)
	o := Options{Host: host("ok"), Limits: criteria.DefaultLimits()}
	var last string
	for range 4 {
		var stdout, stderr bytes.Buffer
		stop(o, strings.NewReader(stopInput(dir, "s1", true)), &stdout, &stderr)
		if stderr.Len() > 0 {
			t.Fatalf("stderr: %s", stderr.String())
		}
		last = stdout.String()
	}
	if !strings.Contains(last, "runaway guard: 3 stops") {
		t.Errorf("the guard did not count: %s", last)
	}
	if _, err := os.Stat(filepath.Join(loop, ".loophook")); err == nil {
		t.Error("memory written into a directory the hook may not write")
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
