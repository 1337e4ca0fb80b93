package host

import (
	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
)

// strictName is the protocol of a hook call that names none.
const strictName = "ok"

// strict is the strict verdict: both fields, always, and nothing else. It is
// no host's own: it reads Claude Code's input, and no file registers it.
var strict = Host{Wire: hook.Wire{
	Name:         strictName,
	ReadInput:    hook.ReadInput,
	Stop:         func(v criteria.Verdict) any { return okAnswer{OK: v.OK, Reason: v.Reason} },
	SessionStart: func(context string) any { return okAnswer{OK: true, Reason: context} },
	LastMessage:  claudeLastMessage,
	Usage:        claudeUsage,
	ProjectDir:   []string{"CLAUDE_PROJECT_DIR"},
}}
