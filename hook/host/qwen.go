package host

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/transcript"
	"github.com/loophook/loophook/hook/usage"
)

// Qwen Code (shared/qwen-code/PROTOCOL.md): Claude Code's Stop and
// SessionStart, input and answers, with the differences below.
//
// Its token usage is in the transcript, the qwen-code.api_response
// telemetry record of each response (hook/usage.Qwen): an assistant
// record lacks a tool-calling response's usage.
var qwen = Host{
	Wire: hook.Wire{
		Name:  "qwen",
		Title: "Qwen Code",
		// Claude Code's fields, timestamp among them: two registrations of
		// one stop get the same input and count once.
		ReadInput: hook.ReadInput,
		// A block's reason reaches the model verbatim. continue:false would
		// keep the agent working on a Stop (section 4): never sent.
		Stop:         blockOrTell,
		SessionStart: hookSpecificContext,
		LastMessage:  qwenLastMessage,
		Usage:        qwenUsage,
		// The directory qwen started in, as cwd; QWEN_CODE_PROJECT_DIR is
		// Qwen's own data folder, not the project.
		ProjectDir: []string{"QWEN_PROJECT_DIR"},
		// The person sees systemMessage (PROTOCOL.md); the model never does.
		Tells: "systemMessage",
	},
	// Set by Qwen Code's shell tool for the commands it runs (the 0.24.4
	// bundle's shell execution: QWEN_CODE: "1", seen by TestQwenAccept);
	// not in its hooks'.
	AgentEnv: []string{"QWEN_CODE"},
	Install: &Registration{
		Scopes: []Scope{
			// Read only from the directory qwen starts in, never a parent.
			{"project", inProject(".qwen", "settings.json")},
			{"user", func(string) (string, error) {
				dir, err := homeDir("QWEN_HOME", ".qwen")
				return filepath.Join(dir, "settings.json"), err
			}},
		},
		Marks:       []string{".qwen"},
		Events:      []Event{{"Stop", "stop"}, {"SessionStart", "session-start"}},
		Grouped:     true,
		Windows:     Windows{Shell: Cmd},
		CommandKeys: []string{"command"},
		Handler: func(ev Event, command string) []Member {
			return []Member{{"type", "command"}, {"name", "loophook-" + ev.Command}, {"command", command}, {"timeout", qwenTimeout}}
		},
		// Qwen writes "$version": 4 into a settings file that lacks it, on
		// first load: a file install makes has it already, and goes on
		// uninstall with nothing else left in it.
		NewFile:  func(string) []Member { return []Member{{"$version", 4}} },
		Comments: true,
		// Settings strings go through Qwen's $VAR expansion, as Gemini CLI's.
		ExpandsDollar: true,
		BlockCap:      &qwenBlockCap,
		// Every scope's hooks run (one name and command only once).
		EveryScope: true,
		Notes: func(scope string, p Project) []string {
			notes := []string{qwenTrust, qwenSeeItWork}
			if scope == "project" {
				notes = append([]string{"Qwen Code reads .qwen/settings.json only in the directory it starts in (" + p.Root + "), not above it: start qwen there"}, notes...)
			}
			return notes
		},
	},
	Help: "Stop and SessionStart in .qwen/settings.json of this directory, comments kept\n" +
		"(user: ~/.qwen/settings.json), and stopHookBlockingCap = " + qwenCapValue + ", so that the\n" +
		"loop's own limits end it, not Qwen Code's cap of 8 blocks in a row.",
}

// qwenBlockCap raises Qwen Code's cap on consecutive Stop blocks (8 by
// default, at most 100). Qwen overrides the cap-th block, one sooner than
// Claude Code counts: at 51, loophook's continuation limit (50) speaks
// first.
var qwenBlockCap = Setting{Key: "stopHookBlockingCap", Value: qwenCapValue, Top: true}

const qwenCapValue = "51"

// qwenTimeout is the handlers' timeout in seconds (a value of 1000 or more
// Qwen reads as milliseconds): the checks a loop runs may take minutes.
const qwenTimeout = 600

const (
	qwenTrust     = "with security.folderTrust.enabled, Qwen Code runs a project's hooks only in a trusted folder, and says nothing otherwise: trust it when qwen asks, or in ~/.qwen/trustedFolders.json"
	qwenSeeItWork = "to see it work: loophook status after a qwen -p run shows the loop's iterations; headless qwen -p also needs --approval-mode auto-edit for the agent to write the state file"
)

// qwenNoText is the last_assistant_message of a reply without text.
const qwenNoText = "[no response text]"

// qwenLastMessage is last_assistant_message, the final reply's text only;
// else the transcript's last assistant record.
func qwenLastMessage(in hook.Input) (string, error) {
	if in.LastAssistantMessage != nil {
		if *in.LastAssistantMessage == qwenNoText {
			return "", nil
		}
		return *in.LastAssistantMessage, nil
	}
	return transcript.LastText(in.TranscriptPath, func() transcript.LineParser { return qwenText })
}

// qwenText reads a Qwen Code transcript line: an assistant record's text
// parts, thoughts left out, joined as Qwen joins them, with nothing between.
func qwenText(line []byte) (string, bool) {
	if !bytes.Contains(line, []byte(`"assistant"`)) {
		return "", false
	}
	var entry struct {
		Type    string `json:"type"`
		Message struct {
			Parts []struct {
				Text    *string `json:"text"`
				Thought bool    `json:"thought"`
			} `json:"parts"`
		} `json:"message"`
	}
	if json.Unmarshal(line, &entry) != nil || entry.Type != "assistant" {
		return "", false
	}
	var texts []string
	for _, p := range entry.Message.Parts {
		if p.Text != nil && !p.Thought {
			texts = append(texts, *p.Text)
		}
	}
	if len(texts) == 0 {
		return "", false
	}
	return strings.Join(texts, ""), true
}

// qwenUsage: Qwen Code records a qwen-code.api_response telemetry record per
// response in its transcript.
func qwenUsage(in hook.Input) usage.Source {
	return usage.Source{Path: in.TranscriptPath, Format: usage.Qwen}
}
