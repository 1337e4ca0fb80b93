package host

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// piFake is a loophook stand-in for the extension: it keeps its arguments
// and input, and answers as $FAKE says.
const piFake = `#!/bin/sh
printf '%s\n' "$*" >> "$FAKE_DIR/calls"
cat > "$FAKE_DIR/input"
case "$FAKE" in
continue) printf '{"continue":true,"message":"iteration 1 of 10: go on <&>"}\n' ;;
blank) printf '{"continue":true,"message":"  "}\n' ;;
tell) printf '{"systemMessage":"loophook: loop complete"}\n' ;;
context) printf '{"message":"A loop is under way"}\n' ;;
exit1) printf '{"continue":true,"message":"go on"}\n'; echo "boom" >&2; exit 1 ;;
text) echo "not json" ;;
two) printf '{}{}\n' ;;
array) printf '[{"continue":true,"message":"go on"}]\n' ;;
hang) exec sleep 30 ;;
esac
`

// piDriver loads the extension into a fake Pi, fires one event at it, and
// prints what the handler returned and what it queued.
const piDriver = `
import ext from "./loophook.mjs";
const handlers = {}, sent = [];
ext({ on: (name, fn) => { handlers[name] = fn; }, sendMessage: (m, o) => sent.push([m, o]) });
const [event, outcome, entries, broken] = process.argv.slice(2);
const ctx = broken ? { cwd: "/p" } : {
  cwd: "/p", hasUI: false,
  sessionManager: { getSessionId: () => "s1", getSessionFile: () => "/p/s.jsonl" },
};
const messages = [
  { role: "user", content: [{ type: "text", text: "fix it" }] },
  { role: "assistant", content: [{ type: "text", text: "worked" }, { type: "toolCall" }, { type: "text", text: "on it" }], timestamp: 1795844551362 },
];
const ev = event === "session_start" ? { type: "session_start", reason: "startup" } :
  { type: "agent_before_settle", outcome, continue: false, entries: JSON.parse(entries || "[]"), context: { contextMessages: messages } };
const start = Date.now();
const result = await handlers[event](ev, ctx);
console.log(JSON.stringify({ result: result === undefined ? null : result, sent, ms: Date.now() - start }));
`

type piResult struct {
	Result json.RawMessage `json:"result"`
	Sent   json.RawMessage `json:"sent"`
	Ms     int64           `json:"ms"`
}

// TestPiExtension runs the extension install writes in Node.js, in a fake
// Pi, against a fake loophook: what it sends, what it makes of each
// answer, and that whatever fails lets the run end with a line on stderr.
func TestPiExtension(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := t.TempDir()
	fake := filepath.Join(dir, "loophook")
	if err := os.WriteFile(fake, []byte(piFake), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(src []byte) {
		if err := os.WriteFile(filepath.Join(dir, "loophook.mjs"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "driver.mjs"), []byte(piDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, mode string, args ...string) (piResult, string, []string) {
		t.Helper()
		os.Remove(filepath.Join(dir, "calls"))
		os.Remove(filepath.Join(dir, "input"))
		cmd := exec.Command(node, append([]string{"driver.mjs"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "FAKE="+mode, "FAKE_DIR="+dir)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("node: %v\n%s", err, stderr.String())
		}
		var r piResult
		if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
			t.Fatalf("driver printed %q: %v", stdout.String(), err)
		}
		calls, _ := os.ReadFile(filepath.Join(dir, "calls"))
		var lines []string
		if len(calls) > 0 {
			lines = strings.Split(strings.TrimSuffix(string(calls), "\n"), "\n")
		}
		return r, stderr.String(), lines
	}
	write(piExtension(fake))

	t.Run("continue", func(t *testing.T) {
		r, stderr, calls := run(t, "continue", "agent_before_settle", "completed")
		want := `{"entries":[{"type":"custom_message","customType":"loophook","content":"iteration 1 of 10: go on <&>","display":true}],"continue":true}`
		if string(r.Result) != want || stderr != "" || len(calls) != 1 || calls[0] != "stop --protocol pi" {
			t.Errorf("result %s, stderr %q, calls %q; want %s and one stop", r.Result, stderr, calls, want)
		}
		input, _ := os.ReadFile(filepath.Join(dir, "input"))
		wantIn := `{"hook_event_name":"agent_before_settle","session_id":"s1","transcript_path":"/p/s.jsonl","cwd":"/p","stop_hook_active":false,"last_assistant_message":"worked\non it","timestamp":1795844551362}`
		if string(input) != wantIn {
			t.Errorf("input %s\nwant  %s", input, wantIn)
		}
	})
	t.Run("after its own continuation", func(t *testing.T) {
		// A later copy sees an earlier one's proposal: it asks nothing.
		r, _, calls := run(t, "continue", "agent_before_settle", "completed", `[{"type":"custom_message","customType":"loophook","content":"x"}]`)
		if string(r.Result) != "null" || len(calls) != 0 {
			t.Errorf("result %s, calls %q; want nothing asked", r.Result, calls)
		}
	})
	for _, outcome := range []string{"error", "aborted"} {
		t.Run("outcome "+outcome, func(t *testing.T) {
			r, stderr, calls := run(t, "continue", "agent_before_settle", outcome)
			if string(r.Result) != "null" || len(calls) != 0 || stderr != "" {
				t.Errorf("result %s, calls %q, stderr %q; want no continuation, nothing asked", r.Result, calls, stderr)
			}
		})
	}
	for _, tc := range []struct{ mode, stderr string }{
		{"tell", "loophook: loop complete\n"},
		{"blank", ""},
		{"exit1", "loophook: exit 1 boom\n"},
		{"text", "loophook: no JSON object on stdout\n"},
		{"two", "loophook: no JSON object on stdout\n"},
		{"array", "loophook: no JSON object on stdout\n"},
	} {
		t.Run("stop "+tc.mode, func(t *testing.T) {
			r, stderr, _ := run(t, tc.mode, "agent_before_settle", "completed")
			if string(r.Result) != "null" || stderr != tc.stderr {
				t.Errorf("result %s, stderr %q; want the run to end, stderr %q", r.Result, stderr, tc.stderr)
			}
		})
	}
	t.Run("broken context", func(t *testing.T) {
		r, stderr, calls := run(t, "continue", "agent_before_settle", "completed", "[]", "broken")
		if string(r.Result) != "null" || !strings.HasPrefix(stderr, "loophook: ") || len(calls) != 0 {
			t.Errorf("result %s, stderr %q, calls %q; want the run to end with a line", r.Result, stderr, calls)
		}
	})
	t.Run("session start", func(t *testing.T) {
		r, stderr, calls := run(t, "context", "session_start")
		want := `[[{"customType":"loophook-context","content":"A loop is under way","display":false},{"deliverAs":"nextTurn"}]]`
		if string(r.Sent) != want || stderr != "" || len(calls) != 1 || calls[0] != "session-start --protocol pi" {
			t.Errorf("sent %s, stderr %q, calls %q; want %s", r.Sent, stderr, calls, want)
		}
		input, _ := os.ReadFile(filepath.Join(dir, "input"))
		wantIn := `{"hook_event_name":"session_start","session_id":"s1","transcript_path":"/p/s.jsonl","cwd":"/p","source":"startup"}`
		if string(input) != wantIn {
			t.Errorf("input %s\nwant  %s", input, wantIn)
		}
	})
	t.Run("session start fails", func(t *testing.T) {
		r, stderr, _ := run(t, "exit1", "session_start")
		if string(r.Sent) != "[]" || stderr != "loophook: exit 1 boom\n" {
			t.Errorf("sent %s, stderr %q; want nothing queued, a line", r.Sent, stderr)
		}
	})

	t.Run("no loophook", func(t *testing.T) {
		write(piExtension(filepath.Join(dir, "gone", "loophook")))
		defer write(piExtension(fake))
		r, stderr, _ := run(t, "continue", "agent_before_settle", "completed")
		if string(r.Result) != "null" || !strings.HasPrefix(stderr, "loophook: cannot run "+filepath.Join(dir, "gone", "loophook")+": ") {
			t.Errorf("result %s, stderr %q; want the run to end, told why", r.Result, stderr)
		}
	})
	t.Run("not on PATH", func(t *testing.T) {
		// A project's extension runs loophook from PATH: a teammate without
		// it is told once, at the session's start, and a stop says nothing.
		write(piExtension("loophook-nowhere-" + filepath.Base(dir)))
		defer write(piExtension(fake))
		r, stderr, _ := run(t, "continue", "agent_before_settle", "completed")
		if string(r.Result) != "null" || stderr != "" {
			t.Errorf("stop: result %s, stderr %q; want the run to end, nothing said", r.Result, stderr)
		}
		r, stderr, _ = run(t, "context", "session_start")
		if string(r.Sent) != "[]" || !strings.HasPrefix(stderr, "loophook: loophook is not on PATH on this machine") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("session start: sent %s, stderr %q; want one line saying loophook is not on PATH", r.Sent, stderr)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		// A stop past the limit (here 0.5 s, not 10 minutes) ends the run,
		// without waiting for the command that holds its output.
		write(bytes.Replace(piExtension(fake), []byte("STOP_TIMEOUT_MS = 600000;"), []byte("STOP_TIMEOUT_MS = 500;"), 1))
		defer write(piExtension(fake))
		r, stderr, _ := run(t, "hang", "agent_before_settle", "completed")
		if string(r.Result) != "null" || stderr != "loophook: no answer in 0.5 s\n" || r.Ms > 5000 {
			t.Errorf("result %s, stderr %q, %d ms; want the run to end at the limit, told why", r.Result, stderr, r.Ms)
		}
	})
}

// TestPiExtensionPath: loophook's path, whatever it holds, is one
// JavaScript string in the extension, and the rest is the source as is.
func TestPiExtensionPath(t *testing.T) {
	if bytes.Count(piSource, piPlaceholder) != 1 || !piOurs(piSource) {
		t.Fatal("the extension's source lacks its one LOOPHOOK line, or its first line")
	}
	for _, bin := range []string{`/opt/loop hook/bin/loophook`, `C:\Users\a "b"\loophook.exe`, "/tmp/\u2028x/</script>&$HOME`${x}`"} {
		ext := piExtension(bin)
		line := ext[bytes.Index(ext, []byte("const LOOPHOOK = ")):]
		line = line[len("const LOOPHOOK = "):bytes.IndexByte(line, '\n')]
		var got string
		if err := json.Unmarshal(bytes.TrimSuffix(line, []byte(";")), &got); err != nil || got != bin {
			t.Errorf("%q: written as %s", bin, line)
		}
		back := bytes.Replace(ext, append([]byte("const LOOPHOOK = "), line...), piPlaceholder, 1)
		if !piOurs(ext) || !bytes.Equal(back, piSource) {
			t.Errorf("%q: the rest of the extension changed", bin)
		}
	}
}
