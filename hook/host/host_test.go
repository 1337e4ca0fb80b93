package host

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/internal/jsontext"
)

// writeTranscript writes lines as a JSON Lines file in a temporary directory.
func writeTranscript(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readInput(t *testing.T, protocol, input string) hook.Input {
	t.Helper()
	in, err := host(protocol).ReadInput(strings.NewReader(input))
	if err != nil {
		t.Fatalf("%s: %v", protocol, err)
	}
	return in
}

// TestCodexNullFields: Codex sends null for a missing transcript or last
// message; the input still reads, and the marker comes from the rollout.
func TestCodexNullFields(t *testing.T) {
	in := readInput(t, "codex", `{"session_id":"s1","turn_id":"t1","transcript_path":null,"cwd":"/p","hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":null}`)
	if in.SessionID != "s1" || in.TranscriptPath != "" || in.LastAssistantMessage != nil || !in.StopHookActive {
		t.Fatalf("input = %+v", in)
	}
	if _, err := host("codex").LastMessage(in); err == nil || err.Error() != "the hook input names no transcript" {
		t.Fatalf("no transcript: err = %v", err)
	}
	in.TranscriptPath = writeTranscript(t,
		`{"timestamp": "x", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "all verified"}, {"type": "output_text", "text": "<loop-complete>"}]}}`,
		`{"timestamp": "x", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "assistant"}]}}`,
		`{"timestamp": "x", "type": "event_msg", "payload": {"type": "agent_message", "message": "assistant"}}`,
	)
	got, err := host("codex").LastMessage(in)
	if err != nil || got != "all verified\n<loop-complete>" {
		t.Fatalf("rollout: %q, %v", got, err)
	}
	msg := "from the input"
	in.LastAssistantMessage = &msg
	if got, _ := host("codex").LastMessage(in); got != msg {
		t.Fatalf("last_assistant_message not preferred: %q", got)
	}
}

// TestGeminiLastMessage: the transcript's last model message when
// prompt_response ends with it; else prompt_response's last line, so a
// marker in an earlier message of the chain does not count.
func TestGeminiLastMessage(t *testing.T) {
	transcript := writeTranscript(t,
		`{"sessionId":"s1","kind":"main"}`,
		`{"id":"1","type":"gemini","content":"first <loop-complete>"}`,
		`{"id":"2","type":"user","content":[{"text":"gemini"}]}`,
		`{"id":"3","type":"gemini","content":"second\ndone <loop-complete>"}`,
		`{"id":"4","type":"gemini","content":""}`,
		`{"$set":{"lastUpdated":"x"}}`,
	)
	for _, tc := range []struct {
		name, transcript, response, want string
	}{
		{"transcript", transcript, "first <loop-complete>\nsecond\ndone <loop-complete>", "second\ndone <loop-complete>"},
		{"transcript behind", transcript, "first <loop-complete>\nsecond\ndone <loop-complete>\nthird", "third"},
		{"no transcript", "", "earlier <loop-complete>\nlast", "last"},
		{"no text", "", geminiNoText, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := hook.Input{TranscriptPath: tc.transcript, Own: geminiOwn{promptResponse: &tc.response}}
			if got, err := host("gemini").LastMessage(in); err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	in := readInput(t, "gemini", `{"session_id":"s1","transcript_path":`+jsonString(transcript)+`,"prompt_response":"a\nb","stop_hook_active":false}`)
	if own, _ := in.Own.(geminiOwn); own.promptResponse == nil || *own.promptResponse != "a\nb" {
		t.Fatalf("prompt_response = %v", own.promptResponse)
	}
}

// TestCopilotCasings: the camelCase and snake_case inputs of one stop read
// as the same session, transcript and time.
func TestCopilotCasings(t *testing.T) {
	camel := readInput(t, "copilot", `{"sessionId":"s1","timestamp":1795417280644,"cwd":"/p","transcriptPath":"/t/events.jsonl","stopReason":"end_turn","stop_hook_active":true}`)
	snake := readInput(t, "copilot", `{"hook_event_name":"Stop","session_id":"s1","timestamp":"2026-11-23T07:01:20.644Z","cwd":"/p","transcript_path":"/t/events.jsonl","stop_reason":"end_turn","stop_hook_active":true}`)
	if camel != snake {
		t.Fatalf("camelCase %+v\nsnake_case %+v", camel, snake)
	}
	if camel.SessionID != "s1" || camel.TranscriptPath != "/t/events.jsonl" || copilotTimestamp(camel) != 1795417280644 || !camel.StopHookActive {
		t.Fatalf("input = %+v", camel)
	}
}

// TestCopilotLastMessage follows PROTOCOL §7's recipe: the last
// assistant.message with content before this stop's hook.start, waiting
// for the file to catch up, and no message when it never does.
func TestCopilotLastMessage(t *testing.T) {
	msg := func(text string) string {
		return `{"type":"assistant.message","data":{"content":"` + text + `","toolRequests":[]},"id":"m"}`
	}
	stop := func(ms string) string {
		return `{"type":"hook.start","data":{"hookType":"agentStop","input":{"sessionId":"s1","timestamp":` + ms + `}},"id":"h"}`
	}
	path := writeTranscript(t, msg("turn 1 <loop-complete>"), stop("100"), msg("turn 2"), msg(""), stop("200"), msg("turn 3"))
	for _, tc := range []struct {
		ts   int64
		want string
	}{{100, "turn 1 <loop-complete>"}, {200, "turn 2"}, {0, "turn 3"}} {
		if got, err := copilotLastMessage(hook.Input{TranscriptPath: path, Own: copilotOwn{timestamp: tc.ts}}); err != nil || got != tc.want {
			t.Errorf("stop %d: got %q, %v; want %q", tc.ts, got, err, tc.want)
		}
	}

	// The stop is not on disk yet: the hook reads again until it is.
	late := writeTranscript(t, msg("turn 1"))
	go func() {
		time.Sleep(100 * time.Millisecond)
		os.WriteFile(late, []byte(msg("turn 1")+"\n"+msg("turn 2")+"\n"+stop("300")+"\n"), 0o644)
	}()
	if got, err := copilotLastMessage(hook.Input{TranscriptPath: late, Own: copilotOwn{timestamp: 300}}); err != nil || got != "turn 2" {
		t.Errorf("late stop: got %q, %v", got, err)
	}

	// It never comes: no message, after a bounded wait.
	defer func(w time.Duration) { copilotWait = w }(copilotWait)
	copilotWait = 50 * time.Millisecond
	if _, err := copilotLastMessage(hook.Input{TranscriptPath: path, Own: copilotOwn{timestamp: 999}}); err == nil || err.Error() != transcriptNoStop {
		t.Errorf("missing stop: err = %v", err)
	}
	if _, err := copilotLastMessage(hook.Input{TranscriptPath: filepath.Join(t.TempDir(), "none.jsonl"), Own: copilotOwn{timestamp: 1}}); err == nil {
		t.Errorf("missing file: no error")
	}
}

// TestQwenLastMessage: last_assistant_message is the final reply, and
// "[no response text]" no text at all; without it, the transcript's last
// assistant record, its text parts joined and its thoughts left out.
func TestQwenLastMessage(t *testing.T) {
	for _, tc := range []struct{ input, want string }{
		{`{"session_id":"s1","last_assistant_message":"fixed lint <loop-complete>"}`, "fixed lint <loop-complete>"},
		{`{"session_id":"s1","last_assistant_message":"[no response text]"}`, ""},
	} {
		if got, err := host("qwen").LastMessage(readInput(t, "qwen", tc.input)); err != nil || got != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.input, got, err, tc.want)
		}
	}
	path := writeTranscript(t,
		`{"type":"assistant","message":{"role":"model","parts":[{"text":"earlier <loop-complete>"}]}}`,
		`{"type":"user","message":{"role":"user","parts":[{"text":"assistant"}]}}`,
		`{"type":"assistant","message":{"role":"model","parts":[{"text":"thinking <loop-complete>","thought":true},{"text":"all "},{"functionCall":{"name":"read_file"}},{"text":"verified"}]}}`,
		`{"type":"system","subtype":"ui_telemetry","systemPayload":{"uiEvent":{"event.name":"qwen-code.api_response","response_text":"assistant"}}}`,
	)
	in := readInput(t, "qwen", `{"session_id":"s1","transcript_path":`+jsonString(path)+`}`)
	if got, err := host("qwen").LastMessage(in); err != nil || got != "all verified" {
		t.Errorf("transcript: got %q, %v", got, err)
	}
}

// TestDroidLastMessage: Droid sends no last_assistant_message; the
// message is the transcript's line of the input's message_id, and
// without one the last assistant message with text.
func TestDroidLastMessage(t *testing.T) {
	msg := func(id, role, text string) string {
		return `{"type":"message","id":"` + id + `","message":{"role":"` + role + `","content":[{"type":"text","text":"` + text + `"}]}}`
	}
	path := writeTranscript(t,
		`{"type":"session_start","id":"s1","title":"assistant"}`,
		msg("m1", "assistant", "turn 1 <loop-complete>"),
		msg("u1", "user", "go on"),
		msg("m2", "assistant", "turn 2"),
		`{"type":"message","id":"m3","message":{"role":"assistant","content":[]}}`,
		`{"type":"message","message":{"role":"user","content":[],"visibility":"user_only","hookEventName":"Stop","hookParentId":"m2"}}`,
	)
	for _, tc := range []struct{ id, want string }{{"m1", "turn 1 <loop-complete>"}, {"m2", "turn 2"}, {"m3", ""}, {"", "turn 2"}, {"gone", "turn 2"}} {
		in := readInput(t, "droid", `{"session_id":"s1","transcript_path":`+jsonString(path)+`,"message_id":"`+tc.id+`","stop_hook_active":true}`)
		if own, _ := in.Own.(droidOwn); own.messageID != tc.id || !in.StopHookActive {
			t.Fatalf("input = %+v", in)
		}
		if got, err := host("droid").LastMessage(in); err != nil || got != tc.want {
			t.Errorf("message_id %q: got %q, %v; want %q", tc.id, got, err, tc.want)
		}
	}
}

// TestNoBlockWithoutReason: a block with an empty reason is rejected by
// Codex and Copilot, so no host renders one.
func TestNoBlockWithoutReason(t *testing.T) {
	for _, h := range All() {
		if h.Name == "ok" {
			continue
		}
		var b strings.Builder
		if err := jsontext.Write(&b, h.Stop(criteria.Verdict{OK: false, Rule: criteria.RuleUnmet, Reason: " "})); err != nil {
			t.Fatal(err)
		}
		if got := b.String(); got != "{}\n" {
			t.Errorf("%s: %q", h.Name, got)
		}
	}
}

// host returns the named host.
func host(name string) Host {
	h, err := Lookup(name)
	if err != nil {
		panic(err)
	}
	return h
}

// TestAgentMarkers: each host's agent is told by its own variables, and a
// person's terminal by none.
func TestAgentMarkers(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	if h, ok := AgentOf(env("HOME", "/home/user", "CLAUDECODE", "")); ok {
		t.Errorf("a person's terminal taken for %s", h.Name)
	}
	// AI_AGENT is every agent's: only pi's value is Pi's marker.
	if h, ok := AgentOf(env("AI_AGENT", "someone-else")); ok {
		t.Errorf("AI_AGENT=someone-else taken for %s", h.Name)
	}
	if h, ok := AgentOf(env("AI_AGENT", "pi")); !ok || h.Name != "pi" {
		t.Errorf("AI_AGENT=pi: agent %q, %v; want pi", h.Name, ok)
	}
	if m, _ := host("pi").Marker(env("AI_AGENT", "pi")); m != "AI_AGENT=pi" {
		t.Errorf("AI_AGENT=pi: marker %q", m)
	}
	for _, tc := range []struct{ name, v string }{
		{"claude", "CLAUDECODE"}, {"codex", "CODEX_THREAD_ID"}, {"gemini", "GEMINI_CLI"}, {"copilot", "COPILOT_CLI"},
		{"qwen", "QWEN_CODE"}, {"droid", "FACTORY_DISABLE_SETTINGS_PERSISTENCE"}, {"pi", "PI_CODING_AGENT"},
	} {
		if h, ok := AgentOf(env(tc.v, "1")); !ok || h.Name != tc.name {
			t.Errorf("%s=1: agent %q, %v; want %s", tc.v, h.Name, ok, tc.name)
		}
	}
}

// TestRegistrations: every host install registers with has scopes, events,
// and handlers that run its own protocol under an explicit timeout.
func TestRegistrations(t *testing.T) {
	defaults := 0
	for _, h := range Installable() {
		r := h.Install
		if r.Default {
			defaults++
		}
		if len(r.Scopes) == 0 || len(r.Events) == 0 || h.Help == "" || len(h.AgentEnv) == 0 {
			t.Errorf("%s: incomplete row", h.Name)
		}
		if r.Extension != nil {
			// An extension runs each command itself, under a limit of its own.
			ext := string(r.Extension.Bytes("/opt/loophook"))
			for _, ev := range r.Events {
				if !strings.Contains(ext, `"`+ev.Command+`", "--protocol", "`+h.Name+`"`) || !strings.Contains(ext, `"`+ev.Name+`"`) {
					t.Errorf("%s: the extension does not run %s at %s", h.Name, ev.Command, ev.Name)
				}
			}
			if !strings.Contains(ext, "_TIMEOUT_MS = 600000;") || !r.Extension.Ours([]byte(ext)) {
				t.Errorf("%s: the extension lacks a stop timeout of 10 minutes, or is not recognised as ours", h.Name)
			}
			continue
		}
		if len(r.CommandKeys) == 0 {
			t.Errorf("%s: incomplete row", h.Name)
		}
		for _, ev := range r.Events {
			members := r.Handler(ev, "loophook "+ev.Command)
			var command, timeout bool
			for _, m := range members {
				command = command || m.Key == r.CommandKeys[0] && m.Value == "loophook "+ev.Command
				if n, ok := m.Value.(int); ok && strings.HasPrefix(m.Key, "timeout") {
					timeout = n >= 600
				}
			}
			if !command || !timeout {
				t.Errorf("%s %s: handler %v lacks its command or a timeout of 10 minutes", h.Name, ev.Name, members)
			}
		}
	}
	if defaults != 1 {
		t.Errorf("%d hosts are install's default, want 1", defaults)
	}
}

// jsonString is s as a JSON string: a Windows path's backslashes escaped.
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
