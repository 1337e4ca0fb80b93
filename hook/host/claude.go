package host

import (
	"path/filepath"
	"strings"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/transcript"
	"github.com/loophook/loophook/hook/usage"
)

// Claude Code: settings.json in three scopes, Stop and SessionStart in
// matcher groups, and a cap of 8 blocks in a row that loophook raises.
var claude = Host{
	Wire: hook.Wire{
		Name:         "claude",
		Title:        "Claude Code",
		ReadInput:    hook.ReadInput,
		Stop:         blockOrTell,
		SessionStart: hookSpecificContext,
		LastMessage:  claudeLastMessage,
		Usage:        claudeUsage,
		ProjectDir:   []string{"CLAUDE_PROJECT_DIR"},
		Tells:        "systemMessage",
	},
	AgentEnv: []string{"CLAUDECODE"},
	Install: &Registration{
		Scopes: []Scope{
			{"project", inProject(".claude", "settings.json")},
			{"local", inProject(".claude", "settings.local.json")},
			{"user", func(string) (string, error) { return ClaudeUserFile() }},
		},
		InWorkTree:  true,
		Marks:       []string{".claude"},
		Default:     true,
		Events:      []Event{{"Stop", "stop"}, {"SessionStart", "session-start"}},
		Grouped:     true,
		Windows:     Windows{Shell: Exec},
		CommandKeys: []string{"command"},
		Handler: func(_ Event, command string) []Member {
			return []Member{{"type", "command"}, {"command", command}, {"timeout", claudeTimeout}}
		},
		BlockCap:   &claudeBlockCap,
		EveryScope: true,
		Plugin:     true,
		Notes:      func(string, Project) []string { return []string{claudeNewSession, claudeSeeItWork} },
	},
	Help: "Stop and SessionStart in .claude/settings.json (local: .claude/settings.local.json,\n" +
		"user: ~/.claude/settings.json), and env." + claudeBlockCap.Key + " = \"" + claudeBlockCap.Value + "\", so that\n" +
		"the loop's own limits end it, not Claude Code's cap of 8 blocks in a row; a cap set\n" +
		"to another value, in this file or another scope's, is kept.",
}

const (
	claudeNewSession = "Claude Code reads its hooks when a session starts: a session already running may not run them, so start a new one (claude) before you rely on them"
	claudeSeeItWork  = "to see it work: loophook status after a claude -p run shows the loop's iterations"
)

// claudeBlockCap raises Claude Code's cap on consecutive Stop blocks (8 by
// default) so that the loop's own limits end it.
var claudeBlockCap = Setting{Key: "CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", Value: "50"}

// claudeTimeout is the handlers' timeout in seconds: the checks a loop runs
// may take minutes.
const claudeTimeout = 600

// ClaudeUserFile is Claude Code's user settings: in CLAUDE_CONFIG_DIR when
// that is set, else ~/.claude.
func ClaudeUserFile() (string, error) {
	dir, err := homeDir("CLAUDE_CONFIG_DIR", ".claude")
	return filepath.Join(dir, "settings.json"), err
}

// claudeLastMessage is the input's last_assistant_message, else the last
// assistant text of Claude Code's transcript.
func claudeLastMessage(in hook.Input) (string, error) {
	if in.LastAssistantMessage != nil {
		return *in.LastAssistantMessage, nil
	}
	return transcript.LastAssistantText(in.TranscriptPath)
}

// claudeUsage: Claude Code records each message's usage in its transcript,
// which it wrote behind the hook up to 2.1.330. 2.1.332 flushes it before
// the Stop hooks run, but waits 2 s at most: a flush slower than that still
// lands behind the hook, so the bounded wait for the reply stays.
func claudeUsage(in hook.Input) usage.Source {
	return usage.Source{Path: in.TranscriptPath, Format: usage.Claude, Await: awaitReply(in)}
}

// awaitReply reports whether Claude Code's transcript holds the reply the
// input names as its last assistant message: Claude Code writes it behind
// the hook. nil when the input names none.
func awaitReply(in hook.Input) func() bool {
	if in.LastAssistantMessage == nil || strings.TrimSpace(*in.LastAssistantMessage) == "" {
		return nil
	}
	return func() bool {
		text, err := transcript.LastAssistantText(in.TranscriptPath)
		// Hosts differ in white space at the ends.
		return err == nil && strings.TrimSpace(text) == strings.TrimSpace(*in.LastAssistantMessage)
	}
}
