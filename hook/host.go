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
		Name:      "claude",
		ReadInput: ReadInput,
		Stop: func(v criteria.Verdict) any {
			switch {
			case !v.OK:
				return block{Decision: "block", Reason: v.Reason}
			case v.Rule.Tells():
				return message{SystemMessage: Prefix + v.Reason}
			}
			return message{}
		},
		SessionStart: func(context string) any {
			if context == "" {
				return message{}
			}
			return sessionContext{HookSpecificOutput: hookContext{HookEventName: "SessionStart", AdditionalContext: context}}
		},
		LastMessage: claudeLastMessage,
		ProjectDir:  []string{"CLAUDE_PROJECT_DIR"},
	},
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
	return Host{}, fmt.Errorf("unknown protocol %q (want %s)", name, strings.Join(names, " or "))
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
