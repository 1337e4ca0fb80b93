package host

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/transcript"
	"github.com/loophook/loophook/hook/usage"
	"github.com/loophook/loophook/internal/jsontext"
)

// Factory Droid (shared/factory-droid/PROTOCOL.md): Claude Code's Stop and
// SessionStart answers; no last_assistant_message, but the id of the
// message that ended the turn; and no cap on continuations at all, so that
// loophook's guard, continuation limit and budgets are the only brake.
//
// Its token usage is not in the transcript but beside it, summed over the
// session: <transcript without .jsonl>.settings.json (hook/usage.Droid).
var droid = Host{
	Wire: hook.Wire{
		Name:         "droid",
		Title:        "Factory Droid",
		ReadInput:    readDroidInput,
		Stop:         blockOrTell,
		SessionStart: hookSpecificContext,
		LastMessage:  droidLastMessage,
		Usage:        droidUsage,
		// The session's working directory, a subdirectory when droid starts
		// in one: the search climbs from there.
		ProjectDir: []string{"FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR"},
		// The person sees systemMessage (PROTOCOL.md); the model never does.
		Tells: "systemMessage",
	},
	// Droid sets no variable of its own for the commands its Execute tool
	// runs (seen on 0.225.2); droid exec sets this one for its whole
	// process (it persists no settings), so for them and its hooks, and a
	// person's shell does not. The interactive UI runs its agent as a
	// child `droid exec --input-format stream-jsonrpc`, so its Execute
	// commands have it too (seen: `env; tty` run by the tool in plain
	// droid printed FACTORY_DISABLE_SETTINGS_PERSISTENCE=true and "not a
	// tty"). In both modes the tool runs commands with stdin /dev/null,
	// never a terminal, so the terminal test refuses them as well; the
	// UI's own bash mode (!command) runs in the UI's process, without the
	// marker but with stdin /dev/null too. TestDroidAccept (droid exec)
	// and TestDroidAcceptUI (plain droid) run the agent's accept through
	// the tool.
	AgentEnv: []string{"FACTORY_DISABLE_SETTINGS_PERSISTENCE"},
	Install: &Registration{
		Scopes: []Scope{
			{"project", inProject(".factory", "hooks.json")},
			{"user", func(string) (string, error) {
				home, err := os.UserHomeDir()
				return filepath.Join(home, ".factory", "hooks.json"), err
			}},
		},
		InWorkTree: true,
		Marks:      []string{".factory"},
		Events:     []Event{{"Stop", "stop"}, {"SessionStart", "session-start"}},
		// hooks.json keys the events at its top; a {"hooks": …} wrapper
		// Droid ignores, and nothing runs.
		TopLevelEvents: true,
		Grouped:        true,
		Windows:        Windows{Shell: Sh},
		CommandKeys:    []string{"command"},
		// Only these members: a handler of another type anywhere in the
		// file makes Droid ignore the whole file.
		Handler: func(_ Event, command string) []Member {
			return []Member{{"type", "command"}, {"command", command}, {"timeout", droidTimeout}}
		},
		Comments: true,
		// A project's and the user's registrations both run, on every stop.
		EveryScope: true,
		Notes:      func(string, Project) []string { return []string{droidTrust, droidNoCap, droidSeeItWork} },
	},
	Help: "Stop and SessionStart in .factory/hooks.json at the top of the work tree\n" +
		"(user: ~/.factory/hooks.json), keyed by event; Droid has no cap of its own.",
}

// droidTimeout is the handlers' timeout in seconds: the checks a loop runs
// may take minutes. (Droid waits for SessionStart hooks 10 s at most,
// whatever the timeout.)
const droidTimeout = 600

const (
	droidTrust     = "interactive droid runs a project's hooks only once the folder is trusted (it asks once); droid exec runs them without asking"
	droidNoCap     = "Factory Droid has no cap on continuations, even when its model API fails: loophook's runaway guard, continuation limit and budgets are the only brake"
	droidSeeItWork = "to see it work: loophook status after a droid exec run shows the loop's iterations"
)

// droidWire is Droid's Stop and SessionStart input: Claude Code's fields
// without last_assistant_message, and message_id.
type droidWire struct {
	hook.WireInput
	MessageID json.RawMessage `json:"message_id"`
}

func readDroidInput(r io.Reader) (hook.Input, error) {
	var w droidWire
	data, err := hook.ReadObject(r, &w)
	if err != nil {
		return hook.Input{}, err
	}
	in := w.Input()
	if p := jsontext.Optional(w.MessageID); p != nil {
		in.Own = droidOwn{messageID: *p}
	}
	// No timestamp: two registrations of one stop get the same bytes.
	in.StopKey = memory.StopKey(data, nil)
	return in, nil
}

// droidOwn is what of Droid's input only its row reads: the id of the
// message that ended the turn.
type droidOwn struct{ messageID string }

// droidLastMessage is the text of the transcript's message the input names
// by message_id, already on disk when the hook runs; else, when the input
// names none or the transcript lacks it, the last assistant message's.
func droidLastMessage(in hook.Input) (string, error) {
	if in.LastAssistantMessage != nil {
		return *in.LastAssistantMessage, nil
	}
	if own, _ := in.Own.(droidOwn); own.messageID != "" {
		if text, err := transcript.LastText(in.TranscriptPath, func() transcript.LineParser { return droidText(own.messageID) }); err == nil {
			return text, nil
		}
	}
	return transcript.LastText(in.TranscriptPath, func() transcript.LineParser { return droidText("") })
}

// droidText reads a Droid transcript line: the assistant message with id
// (any with text, when id is ""), its text parts joined a line apart.
func droidText(id string) transcript.LineParser {
	return func(line []byte) (string, bool) {
		if !bytes.Contains(line, []byte(`"assistant"`)) || (id != "" && !bytes.Contains(line, []byte(id))) {
			return "", false
		}
		var entry struct {
			Type    string `json:"type"`
			ID      string `json:"id"`
			Message struct {
				Role    string                    `json:"role"`
				Content []transcript.ContentBlock `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &entry) != nil || entry.Type != "message" || entry.Message.Role != "assistant" {
			return "", false
		}
		if id != "" {
			if entry.ID != id {
				return "", false
			}
			text, _ := transcript.JoinText(entry.Message.Content, "text")
			return text, true
		}
		return transcript.JoinText(entry.Message.Content, "text")
	}
}

// droidUsage: Factory Droid keeps the session's usage summed in
// <session id>.settings.json beside the transcript, not in it.
func droidUsage(in hook.Input) usage.Source {
	if in.TranscriptPath == "" {
		return usage.Source{}
	}
	return usage.Source{Path: strings.TrimSuffix(in.TranscriptPath, ".jsonl") + ".settings.json", Summed: true}
}
