package hook

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/loophook/loophook/criteria"
)

// Protocol renders answers for one kind of caller.
type Protocol struct {
	Name         string
	Stop         func(criteria.Verdict) any
	SessionStart func(context string) any
}

// Protocols are the wire dialects, by name.
var Protocols = map[string]Protocol{
	"ok": {
		Name: "ok",
		Stop: func(v criteria.Verdict) any { return okAnswer{OK: v.OK, Reason: v.Reason} },
		SessionStart: func(context string) any {
			return okAnswer{OK: true, Reason: context}
		},
	},
	"claude": {
		Name: "claude",
		Stop: func(v criteria.Verdict) any {
			switch {
			case !v.OK:
				return claudeBlock{Decision: "block", Reason: v.Reason}
			case v.Rule.Ends():
				// The person should see why a loop ended.
				return claudeMessage{SystemMessage: "loophook: " + v.Reason}
			}
			return claudeMessage{}
		},
		SessionStart: func(context string) any {
			if context == "" {
				return claudeMessage{}
			}
			var a claudeContext
			a.HookSpecificOutput.HookEventName = "SessionStart"
			a.HookSpecificOutput.AdditionalContext = context
			return a
		},
	},
}

// LookupProtocol returns the named protocol.
func LookupProtocol(name string) (Protocol, error) {
	if p, ok := Protocols[name]; ok {
		return p, nil
	}
	names := make([]string, 0, len(Protocols))
	for n := range Protocols {
		names = append(names, n)
	}
	sort.Strings(names)
	return Protocol{}, fmt.Errorf("unknown protocol %q (want %s)", name, strings.Join(names, " or "))
}

// okAnswer is the strict verdict: both fields, always, and nothing else.
type okAnswer struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason"`
}

type claudeBlock struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

// claudeMessage is {} when there is nothing for the person to see.
type claudeMessage struct {
	SystemMessage string `json:"systemMessage,omitempty"`
}

type claudeContext struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// WriteJSON writes v as one line of JSON, leaving <, > and & as they are so
// that the agent reads <loop-complete>, not \u003cloop-complete\u003e.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
