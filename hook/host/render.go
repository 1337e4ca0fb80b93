package host

import (
	term "github.com/loophook/loophook/hook/table"
	"strings"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
)

// The answers the hosts read, and the renderers more than one host shares.

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
	if v.Tells() && v.Reason != "" {
		return message{SystemMessage: hook.Prefix + term.Visible(v.Reason)}
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
