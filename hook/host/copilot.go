package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/transcript"
	"github.com/loophook/loophook/hook/usage"
	"github.com/loophook/loophook/internal/jsontext"
)

// Copilot CLI: a hooks file of loophook's own, flat handlers, agentStop,
// the session's context at the top level; it runs a project's Claude Code
// hooks too.
var copilot = Host{
	Wire: hook.Wire{
		// Copilot shows a systemMessage nowhere, and takes the
		// session's context at the top level.
		Name:      "copilot",
		Title:     "Copilot CLI",
		ReadInput: readCopilotInput,
		Stop: func(v criteria.Verdict) any {
			if b, ok := blocks(v); ok {
				return b
			}
			return message{}
		},
		SessionStart: func(context string) any { return topContext{AdditionalContext: context} },
		LastMessage:  copilotLastMessage,
		Usage:        copilotUsage,
		ProjectDir:   []string{"COPILOT_PROJECT_DIR"},
	},
	// Set for every command Copilot CLI runs: its hooks (PROTOCOL.md of
	// Copilot CLI, section 7) and its bash tool's (1.0.102; e2e
	// TestCopilotAccept).
	AgentEnv: []string{"COPILOT_CLI"},
	// Copilot CLI runs a project's Claude Code hooks too (sections 9
	// and 10): such a call reads Copilot's input and looks for the
	// marker in Copilot's events.jsonl, and answers in Claude Code's
	// wire, which Copilot obeys for a stop.
	Runs: "claude",
	Install: &Registration{
		Scopes: []Scope{
			{"project", inProject(".github", "hooks", "loophook.json")},
			{"local", inProject(".github", "copilot", "settings.local.json")},
			{"user", func(string) (string, error) {
				dir, err := homeDir("COPILOT_HOME", ".copilot")
				return filepath.Join(dir, "hooks", "loophook.json"), err
			}},
		},
		InWorkTree:  true,
		Marks:       []string{".github/hooks", ".github/copilot"},
		Events:      []Event{{"agentStop", "stop"}, {"sessionStart", "session-start"}},
		Windows:     Windows{Shell: PowerShell, Key: "powershell"},
		CommandKeys: []string{"bash", "command"},
		Handler: func(_ Event, command string) []Member {
			return []Member{{"type", "command"}, {"bash", command}, {"timeoutSec", copilotTimeout}}
		},
		// A hooks file of loophook's own starts with its version; the
		// local scope's settings file has none.
		NewFile: func(scope string) []Member {
			if scope == "local" {
				return nil
			}
			return []Member{{"version", 1}}
		},
		Notes: func(string, Project) []string { return []string{copilotTrust, copilotCap, copilotSeeItWork} },
	},
	Help: "agentStop and sessionStart in .github/hooks/loophook.json (local:\n" +
		".github/copilot/settings.local.json, user: ~/.copilot/hooks/loophook.json); the\n" +
		"folder must be trusted.",
}

// copilotTimeout is the handlers' timeout in seconds: the checks a loop runs
// may take minutes.
const copilotTimeout = 600

const (
	copilotTrust     = "Copilot CLI runs a project's hooks only in a trusted folder (trust it when copilot asks, or pass --trust-folder to copilot -p)"
	copilotCap       = "Copilot CLI allows 8 continuations per prompt, fixed: a loop not done by then goes on at the next prompt"
	copilotSeeItWork = "to see it work: loophook status after a copilot -p run shows the loop's iterations"
)

// copilotWire is Copilot CLI's input in either casing: camelCase for its own
// events (agentStop), snake_case for the PascalCase ones (Stop);
// stop_hook_active is snake_case in both.
type copilotWire struct {
	hook.WireInput
	SessionIDCamel      string          `json:"sessionId"`
	TranscriptPathCamel json.RawMessage `json:"transcriptPath"`
	Timestamp           json.RawMessage `json:"timestamp"`
}

func readCopilotInput(r io.Reader) (hook.Input, error) {
	var w copilotWire
	data, err := hook.ReadObject(r, &w)
	if err != nil {
		return hook.Input{}, err
	}
	in := w.Input()
	if w.SessionIDCamel != "" {
		in.SessionID = w.SessionIDCamel
	}
	if p := jsontext.Optional(w.TranscriptPathCamel); p != nil && *p != "" {
		in.TranscriptPath = *p
	}
	in.Own = copilotOwn{timestamp: epochMillis(w.Timestamp)}
	in.StopKey = memory.StopKey(data, w.Timestamp)
	return in, nil
}

// copilotOwn is what of Copilot CLI's input only its row reads: the stop's
// time, epoch ms; 0 unknown.
type copilotOwn struct{ timestamp int64 }

// copilotTimestamp is the stop's time the input names, epoch ms; 0 unknown.
func copilotTimestamp(in hook.Input) int64 {
	own, _ := in.Own.(copilotOwn)
	return own.timestamp
}

// epochMillis reads a timestamp that is epoch milliseconds or an ISO 8601
// string; 0 when it is neither.
func epochMillis(raw json.RawMessage) int64 {
	if s := jsontext.Optional(raw); s != nil {
		t, err := time.Parse(time.RFC3339Nano, *s)
		if err != nil {
			return 0
		}
		return t.UnixMilli()
	}
	var ms float64
	if json.Unmarshal(raw, &ms) != nil {
		return 0
	}
	return int64(ms)
}

// How long the hook waits for Copilot's events.jsonl to catch up with the
// stop, and how often it looks: the file is written behind the hooks.
var (
	copilotWait = time.Second
	copilotPoll = 20 * time.Millisecond
)

// copilotLastMessage reads events.jsonl as Copilot's PROTOCOL.md section 7
// says: once the hook.start of this stop is on disk, so is every event
// before it, and the last assistant.message with text before it is the
// turn's final message. Until then the file is read again, for at most
// copilotWait; a stop that never appears means no message.
func copilotLastMessage(in hook.Input) (string, error) {
	deadline := time.Now().Add(copilotWait)
	for {
		stamp := copilotTimestamp(in)
		found := stamp == 0 // with no timestamp, the last message at all
		text, err := transcript.LastText(in.TranscriptPath, func() transcript.LineParser { return copilotText(stamp, &found) })
		if err == nil || (found && !fileMissing(in.TranscriptPath)) || in.TranscriptPath == "" {
			return text, err
		}
		if time.Now().After(deadline) {
			return "", errors.New(transcriptNoStop)
		}
		time.Sleep(copilotPoll)
	}
}

func fileMissing(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// copilotText reads events.jsonl lines, last first: it skips every line
// after the hook.start of the stop at timestamp, then takes the first
// assistant.message with content.
func copilotText(timestamp int64, found *bool) transcript.LineParser {
	return func(line []byte) (string, bool) {
		if !*found {
			*found = copilotStop(line, timestamp)
			return "", false
		}
		if !bytes.Contains(line, []byte(`"assistant.message"`)) {
			return "", false
		}
		var entry struct {
			Type string `json:"type"`
			Data struct {
				Content string `json:"content"`
			} `json:"data"`
		}
		if json.Unmarshal(line, &entry) != nil || entry.Type != "assistant.message" || entry.Data.Content == "" {
			return "", false
		}
		return entry.Data.Content, true
	}
}

// copilotStop reports whether line is the hook.start of the stop at timestamp.
func copilotStop(line []byte, timestamp int64) bool {
	if !bytes.Contains(line, []byte(`"hook.start"`)) {
		return false
	}
	var entry struct {
		Type string `json:"type"`
		Data struct {
			HookType string `json:"hookType"`
			Input    struct {
				Timestamp json.RawMessage `json:"timestamp"`
			} `json:"input"`
		} `json:"data"`
	}
	if json.Unmarshal(line, &entry) != nil || entry.Type != "hook.start" {
		return false
	}
	if entry.Data.HookType != "agentStop" && entry.Data.HookType != "Stop" {
		return false
	}
	return epochMillis(entry.Data.Input.Timestamp) == timestamp
}

// copilotUsage: Copilot CLI records a session.usage_record per model call in
// its events.jsonl.
// It writes the file behind the hook, as Claude Code does its transcript:
// the stop's usage is there once the stop's hook.start is.
func copilotUsage(in hook.Input) usage.Source {
	src := usage.Source{Path: in.TranscriptPath, Format: usage.Copilot}
	if stamp := copilotTimestamp(in); stamp != 0 && in.TranscriptPath != "" {
		src.Await = func() bool {
			found := false
			transcript.LastText(in.TranscriptPath, func() transcript.LineParser {
				return func(line []byte) (string, bool) {
					found = copilotStop(line, stamp)
					return "", found
				}
			})
			return found
		}
	}
	return src
}
