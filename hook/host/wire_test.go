package host

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/internal/jsontext"
)

// panicReader panics on the first read: a bug as early as it can be.
type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("boom in read") }

// TestPanicLetsTheAgentStop: a panic anywhere in an evaluation becomes a
// verdict that lets the agent stop, in every host's wire, with the cause and
// a stack on stderr, and stdout still holds exactly one JSON object.
func TestPanicLetsTheAgentStop(t *testing.T) {
	want := map[string][2]string{
		"ok": {`{"ok":true,"reason":"loophook failed (boom in read); letting the agent stop"}`, `{"ok":true,"reason":""}`},
	}
	for _, h := range All() {
		t.Run(h.Name, func(t *testing.T) {
			w, ok := want[h.Name]
			if !ok {
				w = [2]string{`{}`, `{}`}
			}
			for i, ev := range []hook.Event{hook.EventStop, hook.EventSessionStart} {
				var stdout, stderr bytes.Buffer
				o := hook.Options{Host: h.Wire, Limits: criteria.DefaultLimits(), Note: func(msg string) { fmt.Fprintln(&stderr, hook.Prefix+msg) }}
				hook.Run(ev, o, panicReader{}, &stdout)
				if stdout.String() != w[i]+"\n" {
					t.Errorf("%s: stdout %q, want %q", ev, stdout.String(), w[i]+"\n")
				}
				if !strings.HasPrefix(stderr.String(), "loophook: internal error: boom in read\n") || !strings.Contains(stderr.String(), "goroutine ") {
					t.Errorf("%s: stderr lacks the cause and a stack: %q", ev, stderr.String())
				}
			}
		})
	}
}

// FuzzAnswers renders a verdict in every host's wire: one line, valid JSON,
// valid UTF-8, no raw control characters, an object, and the reason intact
// in the strict protocol.
func FuzzAnswers(f *testing.F) {
	for _, s := range []string{"", " ", "iteration 1 of 10: 1 of 1 criterion unmet", "<loop-complete> & \u2028 \x00 \xff", strings.Repeat("é", 600)} {
		f.Add(s, false, string(criteria.RuleUnmet))
		f.Add(s, true, string(criteria.RuleComplete))
	}
	f.Fuzz(func(t *testing.T, reason string, ok bool, rule string) {
		if !utf8.ValidString(reason) || strings.ContainsFunc(reason, func(r rune) bool { return r < 0x20 }) {
			return // criteria never gives such a reason (hook's FuzzDecide)
		}
		v := criteria.Verdict{OK: ok, Reason: reason, Rule: criteria.Rule(rule)}
		for _, h := range All() {
			for _, answer := range []any{h.Stop(v), h.SessionStart(reason)} {
				var buf bytes.Buffer
				if err := jsontext.Write(&buf, answer); err != nil {
					t.Fatalf("%s: %v", h.Name, err)
				}
				line := buf.Bytes()
				if bytes.IndexByte(line, '\n') != len(line)-1 {
					t.Fatalf("%s: not one line: %q", h.Name, line)
				}
				line = line[:len(line)-1]
				var obj map[string]any
				if !json.Valid(line) || !utf8.Valid(line) || json.Unmarshal(line, &obj) != nil || obj == nil {
					t.Fatalf("%s: not one clean JSON object: %q", h.Name, line)
				}
			}
			if h.Name == strictName {
				var got okAnswer
				var buf bytes.Buffer
				jsontext.Write(&buf, h.Stop(v))
				if json.Unmarshal(buf.Bytes(), &got) != nil || got.Reason != reason {
					t.Fatalf("ok: reason %q did not survive the wire: %q", reason, buf.String())
				}
			}
		}
	})
}
