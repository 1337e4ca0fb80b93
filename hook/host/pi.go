package host

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"path/filepath"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	term "github.com/loophook/loophook/hook/table"
	"github.com/loophook/loophook/hook/transcript"
	"github.com/loophook/loophook/hook/usage"
	"github.com/loophook/loophook/internal/jsontext"
)

// Pi (shared/pi/PROTOCOL.md) has no command hooks: an extension loophook
// ships (install writes it) runs loophook at Pi's agent_before_settle and
// session_start events. This wire is between that extension, or a
// person's own, and loophook; keep it stable:
//
//	stop --protocol pi, stdin (Claude Code's names, built from Pi's event):
//	  {"hook_event_name":"agent_before_settle","session_id":S,
//	   "transcript_path":<Pi's session file>,"cwd":<where pi started>,
//	   "stop_hook_active":<the run was set going by the extension's message>,
//	   "last_assistant_message":M,"timestamp":<the reply's epoch ms>}
//	  answers {"continue":true,"message":R} (R not blank: the extension
//	  appends R as a message and Pi makes one more model request), or {}
//	  or {"systemMessage":S} to let the run end (S is for the person).
//	session-start --protocol pi, stdin {"hook_event_name":"session_start",
//	  "session_id","transcript_path","cwd","source"}:
//	  answers {"message":C} (C queued for the model) or {}.
//
// Every answer is one JSON object, exit 0. Pi has no cap on continuations:
// loophook's guard, continuation limit and budgets are the only brake.
var pi = Host{
	Wire: hook.Wire{
		Name:  "pi",
		Title: "Pi",
		// Claude Code's fields; two copies of the extension (user and
		// project scope) send the same timestamp for one stop.
		ReadInput:    hook.ReadInput,
		Stop:         continueOrTell,
		SessionStart: piContext,
		LastMessage:  piLastMessage,
		Usage:        piUsage,
		// No variable names the project: the input's cwd, where pi started.
		// The extension shows systemMessage to the person; the model never
		// sees it.
		Tells: "systemMessage",
	},
	// Set by the pi CLI for its whole process (cli/setup.js), so in its
	// bash tool's commands and the extension's; a person's shell has
	// neither. AI_AGENT is any agent's: only its value pi counts.
	AgentEnv: []string{"PI_CODING_AGENT", "AI_AGENT=pi"},
	Install: &Registration{
		Scopes: []Scope{
			// Read only from the directory pi starts in, never a parent.
			{"project", inProject(".pi", "extensions", piFile)},
			{"user", func(string) (string, error) {
				dir, err := homeDir("PI_CODING_AGENT_DIR", ".pi", "agent")
				return filepath.Join(dir, "extensions", piFile), err
			}},
		},
		Marks:     []string{".pi"},
		Events:    []Event{{"agent_before_settle", "stop"}, {"session_start", "session-start"}},
		Extension: &Extension{Bytes: piExtension, Ours: piOurs},
		Notes: func(scope string, p Project) []string {
			notes := []string{piNode}
			if scope == "project" {
				notes = append(notes, "Pi reads .pi/extensions only in the directory it starts in ("+p.Root+"), not above it: start pi there", piTrust)
			}
			return append(notes, piNoCap, piSeeItWork)
		},
	},
	Help: "an extension, .pi/extensions/" + piFile + " of this directory (user:\n" +
		"~/.pi/agent/extensions/" + piFile + "), that runs loophook at agent_before_settle and\n" +
		"session_start; Pi has no cap of its own. Needs Node.js 22.19 or later and, in a\n" +
		"project, the project trusted.",
}

// piFile is the extension's name in an extensions directory.
const piFile = "loophook.js"

const (
	piNode      = "Pi needs Node.js 22.19 or later to run, and so to load the extension"
	piTrust     = "Pi loads a project's extensions only once the project is trusted: trust it when pi asks (or /trust); headless pi -p skips an untrusted project's extensions without a word, so trust it first, or run pi -p --approve"
	piNoCap     = "Pi has no cap on continuations: loophook's runaway guard, continuation limit and budgets are the only brake"
	piSeeItWork = "to see it work: loophook status after a pi -p run shows the loop's iterations"
)

// piSource is the extension install writes, with LOOPHOOK's path a
// placeholder (piExtension); the person sees it whole, one file.
//
//go:embed pi/loophook.js
var piSource []byte

// piPlaceholder is the line of piSource that names loophook.
var piPlaceholder = []byte(`const LOOPHOOK = "/abs/path/loophook";`)

// piExtension is the extension running bin. A JSON string is a JavaScript
// string literal, whatever bin holds: the file always parses (one that does
// not stops Pi before the prompt).
func piExtension(bin string) []byte {
	var quoted bytes.Buffer
	jsontext.Write(&quoted, bin)
	line := []byte("const LOOPHOOK = " + string(bytes.TrimSpace(quoted.Bytes())) + ";")
	return bytes.Replace(piSource, piPlaceholder, line, 1)
}

// piOurs: the extension's first line, whichever loophook wrote it.
func piOurs(data []byte) bool {
	return bytes.HasPrefix(data, []byte("// loophook for Pi, written by `loophook install --host pi`"))
}

// piContinue keeps Pi working: the extension adds Message and asks Pi for
// one more model request.
type piContinue struct {
	Continue bool   `json:"continue"`
	Message  string `json:"message"`
}

// piMessage is a session's context, queued for the model.
type piMessage struct {
	Message string `json:"message"`
}

// continueOrTell goes on, or lets the run end with a message when the
// person must see why.
func continueOrTell(v criteria.Verdict) any {
	if b, ok := blocks(v); ok {
		return piContinue{Continue: true, Message: b.Reason}
	}
	if v.Tells() && v.Reason != "" {
		return message{SystemMessage: hook.Prefix + term.Visible(v.Reason)}
	}
	return message{}
}

func piContext(context string) any {
	if context == "" {
		return message{}
	}
	return piMessage{Message: context}
}

// piLastMessage is last_assistant_message, else the text of the session
// file's last assistant message.
func piLastMessage(in hook.Input) (string, error) {
	if in.LastAssistantMessage != nil {
		return *in.LastAssistantMessage, nil
	}
	return transcript.LastText(in.TranscriptPath, func() transcript.LineParser { return piText })
}

// piText reads a Pi session line: an assistant message's text parts, a
// line apart, as the extension joins them; "" for one without text.
func piText(line []byte) (string, bool) {
	if !bytes.Contains(line, []byte(`"assistant"`)) {
		return "", false
	}
	var entry struct {
		Type    string `json:"type"`
		Message struct {
			Role    string                    `json:"role"`
			Content []transcript.ContentBlock `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &entry) != nil || entry.Type != "message" || entry.Message.Role != "assistant" {
		return "", false
	}
	text, _ := transcript.JoinText(entry.Message.Content, "text")
	return text, true
}

// piUsage: Pi records each response's usage in the session file, as it
// goes.
func piUsage(in hook.Input) usage.Source {
	return usage.Source{Path: in.TranscriptPath, Format: usage.Pi}
}
