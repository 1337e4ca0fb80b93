package host

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/hostfile"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/transcript"
	"github.com/loophook/loophook/hook/usage"
	"github.com/loophook/loophook/internal/jsontext"
)

// Codex CLI: hooks.json in the project or $CODEX_HOME, Claude Code's
// groups, and a hook run only once config.toml trusts it.
var codex = Host{
	Wire: hook.Wire{
		// Codex rejects any key of a Stop answer but its own, and an
		// empty reason; no variable names the project, so the search
		// starts at cwd.
		Name:         "codex",
		Title:        "Codex CLI",
		ReadInput:    readCodexInput,
		Stop:         blockOrTell,
		SessionStart: hookSpecificContext,
		LastMessage:  codexLastMessage,
		Usage:        codexUsage,
		Tells:        "systemMessage",
	},
	// Set by Codex's shell tool for the commands it runs: CODEX_THREAD_ID
	// in every sandbox mode (0.169.0, with CODEX_SESSION_ID and
	// CODEX_TOOL_CALL_ID; e2e TestCodexAccept), the others by a sandbox:
	// CODEX_SANDBOX_NETWORK_DISABLED when it cuts the network (seen),
	// CODEX_SANDBOX under macOS's seatbelt (from Codex's source).
	AgentEnv: []string{"CODEX_THREAD_ID", "CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED"},
	Install: &Registration{
		Scopes: []Scope{
			{"project", inProject(".codex", "hooks.json")},
			{"user", func(string) (string, error) {
				dir, err := codexHome()
				return filepath.Join(dir, "hooks.json"), err
			}},
		},
		InWorkTree:  true,
		Marks:       []string{".codex"},
		Events:      []Event{{"Stop", "stop"}, {"SessionStart", "session-start"}},
		Grouped:     true,
		Windows:     Windows{Shell: Cmd, Key: "commandWindows"},
		CommandKeys: []string{"command"},
		Handler: func(_ Event, command string) []Member {
			return []Member{{"type", "command"}, {"command", command}, {"timeout", codexTimeout}}
		},
		TopKeys: []string{"description", "hooks"},
		Trust:   codexTrust,
		Notes: func(scope string, p Project) []string {
			notes := []string{codexNoCap, codexSeeItWork}
			if p.Trusted {
				notes = append([]string{codexTrustsProject}, notes...)
			}
			if scope == "project" && p.LinkedWorktree {
				notes = append(notes, codexLinkedWorktree)
			}
			return notes
		},
	},
	Help: "Stop and SessionStart in .codex/hooks.json (user: $CODEX_HOME/hooks.json), and their\n" +
		"trust in $CODEX_HOME/config.toml as Codex's own review writes it: Codex skips\n" +
		"untrusted hooks without a word.",
}

// codexTimeout is the handlers' timeout in seconds, Codex's default written
// out: the checks a loop runs may take minutes.
const codexTimeout = 600

const (
	codexNoCap          = "Codex has no cap on continuations: loophook's runaway guard and the loop's limits are the only brake"
	codexSeeItWork      = "to see it work: codex exec \"...\" prints \"hook: Stop\" on stderr at each stop; nothing there means the hooks were skipped (untrusted or changed: run codex and review them in /hooks)"
	codexTrustsProject  = "the project's hooks run only in a project Codex trusts, so install trusted it, as codex --trust would: Codex now also loads the project's own configuration and MCP servers (.codex/config.toml); loophook uninstall withdraws that trust, and --scope user needs none"
	codexLinkedWorktree = "this is a linked git worktree, where Codex runs no project hooks: use --scope user"
	codexTrustByHand    = "run codex and trust loophook's hooks in /hooks"
	codexTrusted        = "trusted the project "
	codexWithdrew       = "withdrew the trust loophook install gave the project "
)

// codexHome is CODEX_HOME, else ~/.codex.
func codexHome() (string, error) { return homeDir("CODEX_HOME", ".codex") }

// Codex's Stop and SessionStart input is Claude Code's fields,
// transcript_path and last_assistant_message nullable, and a turn_id that
// no rule reads: the same for every stop of a turn, it is no stop's
// identity.
func readCodexInput(r io.Reader) (hook.Input, error) {
	var w hook.WireInput
	data, err := hook.ReadObject(r, &w)
	if err != nil {
		return hook.Input{}, err
	}
	in := w.Input()
	in.StopKey = memory.StopKey(data, nil)
	return in, nil
}

// codexLastMessage is last_assistant_message, else the last assistant
// output_text of the rollout; Codex sends null when it has none.
func codexLastMessage(in hook.Input) (string, error) {
	if in.LastAssistantMessage != nil {
		return *in.LastAssistantMessage, nil
	}
	return transcript.LastText(in.TranscriptPath, func() transcript.LineParser { return codexText })
}

// codexText reads a rollout line: an assistant message's output_text.
func codexText(line []byte) (string, bool) {
	if !bytes.Contains(line, []byte(`"assistant"`)) {
		return "", false
	}
	var entry struct {
		Type    string `json:"type"`
		Payload struct {
			Type    string                    `json:"type"`
			Role    string                    `json:"role"`
			Content []transcript.ContentBlock `json:"content"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &entry) != nil || entry.Type != "response_item" ||
		entry.Payload.Type != "message" || entry.Payload.Role != "assistant" {
		return "", false
	}
	return transcript.JoinText(entry.Payload.Content, "output_text")
}

// Codex CLI runs a hook from a hooks file only when the user config.toml
// records the hook's current hash under its position:
//
//	[hooks.state."<hooks file>:<event label>:<group>:<handler>"]
//	trusted_hash = "sha256:<hex>"
//
// (codex-cli/PROTOCOL.md §2), and a project's hooks only in a trusted
// project. An untrusted or changed hook is skipped without a word, so the
// hash must be exactly what Codex computes. Installing writes both, the
// project's trust marked as loophook's; uninstalling takes out the hashes
// of the hooks it removed, and the project's trust when install added it.
func codexTrust(c TrustChange) (*TrustEdit, error) {
	home, err := codexHome()
	if err != nil {
		return nil, err
	}
	edit := &TrustEdit{Path: filepath.Join(home, "config.toml"), Hint: codexTrustByHand}
	project := hostfile.TOMLKey{Table: []string{"projects", c.Root}, Key: "trust_level", Value: "trusted", Marked: true}
	if !c.Install {
		for _, h := range c.Before {
			edit.Drop = append(edit.Drop, []string{"hooks", "state", CodexTrustKey(c.File, CodexEventLabel(h.Event), h.Group, h.Index)})
		}
		if c.Scope == "project" {
			project.Change = codexWithdrew + c.Root
			edit.Withdraw = append(edit.Withdraw, project)
		}
		return edit, nil
	}
	if c.Scope == "project" {
		project.Change = codexTrusted + c.Root
		edit.Set = append(edit.Set, project)
	}
	for _, h := range c.After {
		hash := codexHash(h)
		if hash == "" {
			continue
		}
		key := CodexTrustKey(c.File, CodexEventLabel(h.Event), h.Group, h.Index)
		edit.Set = append(edit.Set, hostfile.TOMLKey{Table: []string{"hooks", "state", key}, Key: "trusted_hash", Value: hash, Change: "trusted the " + h.Event + " hook"})
	}
	return edit, nil
}

// codexHash is CodexHookHash of a plain handler: type, command and an
// integer timeout, in a group with nothing but its hooks; "" for one with
// more than loophook writes (a matcher, async, a status message), whose hash
// only Codex's own review can tell.
func codexHash(h Handler) string {
	if !h.GroupPlain {
		return ""
	}
	var command string
	timeout := 0
	for _, m := range h.Members {
		switch m.Key {
		case "type":
			if m.Value != "command" {
				return ""
			}
		case "command":
			command, _ = m.Value.(string)
		case "timeout":
			t, ok := m.Value.(int64)
			if !ok || t <= 0 {
				return ""
			}
			timeout = int(t)
		default:
			return ""
		}
	}
	return CodexHookHash(CodexEventLabel(h.Event), command, timeout)
}

// codexDefaultTimeout is the timeout Codex hashes, and runs with, for a
// handler that sets none.
const codexDefaultTimeout = 600

// CodexEventLabel is the snake_case label Codex uses for a hook event in
// trust keys and hook run ids: "Stop" → "stop", "SessionStart" →
// "session_start".
func CodexEventLabel(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CodexTrustKey is the key of a hook's [hooks.state] entry: the absolute
// path of its hooks file, the event label, and the indices of its matcher
// group and of the handler within the group (so moving a hook un-trusts it).
func CodexTrustKey(hooksFile, eventLabel string, group, handler int) string {
	return fmt.Sprintf("%s:%s:%d:%d", hooksFile, eventLabel, group, handler)
}

// crypto/sha256 links the crypto/internal/fips140 packages, whose package
// inits every hook call runs: 0.28 ms at most in all, 16 allocations
// (GODEBUG=inittrace=1 loophook stop, the least of 25 runs on the shared
// machine at a load of 30; crypto/sha256's own init takes nothing).

// CodexHookHash is the trusted_hash Codex 0.169.0 computes for a command
// hook with no matcher, no async, no statusMessage and no
// additionalContextLimit, which is how loophook registers its hooks.
// timeoutSec is the handler's "timeout"; 0 or less means none is written,
// which Codex hashes as its default of 600 (an explicit "timeout": 0 would
// hash as 1: never write one).
func CodexHookHash(eventLabel, command string, timeoutSec int) string {
	sum := sha256.Sum256(codexHookIdentity(eventLabel, command, timeoutSec))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// codexHookIdentity is what Codex hashes: the hook's normalized identity as
// compact JSON with its keys sorted, as serde_json writes it.
func codexHookIdentity(eventLabel, command string, timeoutSec int) []byte {
	if timeoutSec <= 0 {
		timeoutSec = codexDefaultTimeout
	}
	b := []byte(`{"event_name":`)
	b = jsontext.AppendString(b, eventLabel)
	b = append(b, `,"hooks":[{"async":false,"command":`...)
	b = jsontext.AppendString(b, command)
	b = append(b, `,"timeout":`...)
	b = strconv.AppendInt(b, int64(timeoutSec), 10)
	b = append(b, `,"type":"command"}]}`...)
	return b
}

// codexUsage: Codex records a token_usage_record per response in its rollout.
func codexUsage(in hook.Input) usage.Source {
	return usage.Source{Path: in.TranscriptPath, Format: usage.Codex}
}
