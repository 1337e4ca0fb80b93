package hook

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/loophook/loophook/criteria"
)

// A Host is an agent host's side of the wire: how its hook input reads,
// how it wants a verdict and a session's context answered, where the
// agent's last message is, and which environment variable names its
// project. Adding a host is adding a row to Hosts.
type Host struct {
	Name string
	// Title names the host for the agent ("governed by loophook for …");
	// "" for a protocol that is not one host's.
	Title string
	// ReadInput reads the host's hook input.
	ReadInput func(r io.Reader) (Input, error)
	// Stop renders a Stop verdict.
	Stop func(criteria.Verdict) any
	// SessionStart renders a session's context; "" when there is none.
	SessionStart func(context string) any
	// LastMessage returns the agent's last message, for the marker.
	LastMessage func(in Input) (string, error)
	// ProjectDir lists the environment variables that name the project.
	ProjectDir []string
}

// Hosts are the protocols loophook speaks, by --protocol name.
var Hosts = []Host{
	{
		// ok is the strict verdict: both fields, always, and nothing else.
		Name:      "ok",
		ReadInput: ReadInput,
		Stop:      func(v criteria.Verdict) any { return okAnswer{OK: v.OK, Reason: v.Reason} },
		SessionStart: func(context string) any {
			return okAnswer{OK: true, Reason: context}
		},
		LastMessage: claudeLastMessage,
		ProjectDir:  []string{"CLAUDE_PROJECT_DIR"},
	},
	{
		Name:         "claude",
		Title:        "Claude Code",
		ReadInput:    ReadInput,
		Stop:         blockOrTell,
		SessionStart: hookSpecificContext,
		LastMessage:  claudeLastMessage,
		ProjectDir:   []string{"CLAUDE_PROJECT_DIR"},
	},
	{
		// Codex rejects any key of a Stop answer but its own, and an empty
		// reason; no variable names the project, so the search starts at cwd.
		Name:         "codex",
		Title:        "Codex CLI",
		ReadInput:    readCodexInput,
		Stop:         blockOrTell,
		SessionStart: hookSpecificContext,
		LastMessage:  codexLastMessage,
	},
	{
		Name:         "gemini",
		Title:        "Gemini CLI",
		ReadInput:    readGeminiInput,
		Stop:         blockOrTell,
		SessionStart: hookSpecificContext,
		LastMessage:  geminiLastMessage,
		ProjectDir:   []string{"GEMINI_PROJECT_DIR"},
	},
	{
		// Copilot shows a systemMessage nowhere, and takes the session's
		// context at the top level.
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
		ProjectDir:   []string{"COPILOT_PROJECT_DIR"},
	},
}

// Under is the host a hook call really runs under. Copilot CLI runs a
// project's Claude Code hooks too, with COPILOT_CLI=1 in their environment
// (PROTOCOL.md of Copilot CLI, sections 9 and 10): such a call reads
// Copilot's input, looks for the marker in Copilot's events.jsonl, never
// with Claude Code's transcript reader, and answers in Claude Code's wire,
// which Copilot obeys for a stop; the session context it gives, Copilot
// ignores, so that a project registered for both gets it once, from the
// Copilot registration.
func (h Host) Under(getenv func(string) string) Host {
	if h.Name != "claude" || getenv("COPILOT_CLI") != "1" {
		return h
	}
	c, _ := LookupHost("copilot")
	h.Name, h.Title, h.ReadInput, h.LastMessage, h.ProjectDir = c.Name, c.Title, c.ReadInput, c.LastMessage, c.ProjectDir
	return h
}

// blocks is the block that keeps the agent working, when the verdict says
// so. A block needs a reason: Codex and Copilot reject one without, and the
// agent would stop all the same, so an empty reason lets it go.
func blocks(v criteria.Verdict) (block, bool) {
	if v.OK || strings.TrimSpace(v.Reason) == "" {
		return block{}, false
	}
	return block{Decision: "block", Reason: v.Reason}, true
}

// blockOrTell blocks, or lets go with a message when the person must see why.
func blockOrTell(v criteria.Verdict) any {
	if b, ok := blocks(v); ok {
		return b
	}
	if v.Rule.Tells() && v.Reason != "" {
		return message{SystemMessage: Prefix + v.Reason}
	}
	return message{}
}

// hookSpecificContext is the SessionStart answer of Claude Code, Codex and
// Gemini CLI: the context under hookSpecificOutput, else {}.
func hookSpecificContext(context string) any {
	if context == "" {
		return message{}
	}
	return sessionContext{HookSpecificOutput: hookContext{HookEventName: "SessionStart", AdditionalContext: context}}
}

// Prefix starts every message loophook writes for a person.
const Prefix = "loophook: "

// LookupHost returns the host of a --protocol name.
func LookupHost(name string) (Host, error) {
	var names []string
	for _, h := range Hosts {
		if h.Name == name {
			return h, nil
		}
		names = append(names, h.Name)
	}
	slices.Sort(names)
	last := len(names) - 1
	return Host{}, fmt.Errorf("unknown protocol %q (want %s or %s)", name, strings.Join(names[:last], ", "), names[last])
}

// claudeLastMessage is the input's last_assistant_message, else the last
// assistant text of Claude Code's transcript.
func claudeLastMessage(in Input) (string, error) {
	if in.LastAssistantMessage != nil {
		return *in.LastAssistantMessage, nil
	}
	return LastAssistantText(in.TranscriptPath)
}

type okAnswer struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason"`
}

type block struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// message is {} when there is nothing for the person to see.
type message struct {
	SystemMessage string `json:"systemMessage,omitempty"`
}

// topContext is {} when there is no context.
type topContext struct {
	AdditionalContext string `json:"additionalContext,omitempty"`
}

type sessionContext struct {
	HookSpecificOutput hookContext `json:"hookSpecificOutput"`
}

type hookContext struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

// WriteJSON writes v as one line of JSON, leaving <, > and & as they are so
// that the agent reads <loop-complete>, not \u003cloop-complete\u003e.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
