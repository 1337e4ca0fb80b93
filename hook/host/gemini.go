package host

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/transcript"
	"github.com/loophook/loophook/hook/usage"
	"github.com/loophook/loophook/internal/jsontext"
)

// Gemini CLI: settings.json with comments, in the directory gemini starts
// in, AfterAgent for the end of a turn, timeouts in milliseconds.
var gemini = Host{
	Wire: hook.Wire{
		Name:         "gemini",
		Title:        "Gemini CLI",
		ReadInput:    readGeminiInput,
		Stop:         blockOrTell,
		SessionStart: hookSpecificContext,
		LastMessage:  geminiLastMessage,
		Usage:        geminiUsage,
		ProjectDir:   []string{"GEMINI_PROJECT_DIR"},
		Tells:        "systemMessage",
	},
	// Set by Gemini CLI's shell tool for the commands it runs, in a
	// pseudo-terminal or not (seen on 0.61.0 headless, which uses none:
	// TestGeminiAccept).
	AgentEnv: []string{"GEMINI_CLI"},
	Install: &Registration{
		Scopes: []Scope{
			{"project", inProject(".gemini", "settings.json")},
			{"user", func(string) (string, error) {
				home, err := homeDir("GEMINI_CLI_HOME")
				return filepath.Join(home, ".gemini", "settings.json"), err
			}},
		},
		Marks:       []string{".gemini"},
		Events:      []Event{{"AfterAgent", "stop"}, {"SessionStart", "session-start"}},
		Grouped:     true,
		Windows:     Windows{Shell: PowerShell},
		CommandKeys: []string{"command"},
		Handler: func(ev Event, command string) []Member {
			return []Member{{"name", "loophook-" + ev.Command}, {"type", "command"}, {"command", command}, {"timeout", geminiTimeout}}
		},
		Comments:      true,
		ExpandsDollar: true,
		Notes: func(scope string, p Project) []string {
			notes := []string{geminiTrust, geminiNoCap, geminiSeeItWork}
			if scope == "project" {
				notes = append([]string{"Gemini CLI reads .gemini/settings.json only in the directory it starts in (" + p.Root + "), not above it: start gemini there"}, notes...)
			}
			return notes
		},
	},
	Help: "AfterAgent and SessionStart in .gemini/settings.json of this directory, comments\n" +
		"kept (user: ~/.gemini/settings.json); the folder must be trusted.",
}

// geminiTimeout is the handlers' timeout in milliseconds: the checks a loop
// runs may take minutes.
const geminiTimeout = 600_000

const (
	geminiTrust     = "Gemini CLI runs hooks only in a trusted folder (trust it when gemini asks, or set GEMINI_CLI_TRUST_WORKSPACE=true); headless gemini -p also needs --approval-mode auto_edit for the agent to write the state file"
	geminiNoCap     = "Gemini CLI has no cap on continuations: loophook's runaway guard and the loop's limits are the only brake"
	geminiSeeItWork = "to see it work: loophook status after a gemini -p run shows the loop's iterations"
)

// geminiWire is Gemini CLI's AfterAgent and SessionStart input.
type geminiWire struct {
	hook.WireInput
	PromptResponse json.RawMessage `json:"prompt_response"`
}

func readGeminiInput(r io.Reader) (hook.Input, error) {
	var w geminiWire
	data, err := hook.ReadObject(r, &w)
	if err != nil {
		return hook.Input{}, err
	}
	in := w.Input()
	in.Own = geminiOwn{promptResponse: jsontext.Optional(w.PromptResponse)}
	in.StopKey = memory.StopKey(data, w.WireInput.Timestamp)
	return in, nil
}

// geminiOwn is what of Gemini CLI's input only its row reads: every text
// of the prompt chain, nil when absent.
type geminiOwn struct{ promptResponse *string }

// geminiNoText is the prompt_response of a chain with no text at all.
const geminiNoText = "[no response text]"

// geminiLastMessage is the transcript's last model message when
// prompt_response ends with it, else the last line of prompt_response.
// prompt_response joins every text of the prompt chain with "\n", so a
// marker anywhere in it may be an earlier message's; its last line can only
// be the last message's. A marker higher up in a many-line last message is
// then missed, and the agent is told to go on: the safe side.
func geminiLastMessage(in hook.Input) (string, error) {
	text, err := transcript.LastText(in.TranscriptPath, func() transcript.LineParser { return geminiText })
	own, _ := in.Own.(geminiOwn)
	if own.promptResponse == nil {
		return text, err
	}
	response := *own.promptResponse
	if err == nil && strings.HasSuffix(response, text) {
		return text, nil
	}
	if response == geminiNoText {
		return "", nil
	}
	return response[strings.LastIndexByte(response, '\n')+1:], nil
}

// geminiText reads a Gemini CLI transcript line: a model message with text.
func geminiText(line []byte) (string, bool) {
	if !bytes.Contains(line, []byte(`"gemini"`)) {
		return "", false
	}
	var entry struct {
		Type    string          `json:"type"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(line, &entry) != nil || entry.Type != "gemini" {
		return "", false
	}
	content := jsontext.Optional(entry.Content)
	if content == nil || *content == "" {
		return "", false
	}
	return *content, true
}

// geminiUsage: Gemini CLI records a gemini record's tokens in its session file.
func geminiUsage(in hook.Input) usage.Source {
	return usage.Source{Path: in.TranscriptPath, Format: usage.Gemini}
}
