package host

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/loophook/loophook/hook"
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
	},
	// Set by Qwen Code's shell tool for the commands it runs (the 0.24.4
	// bundle's shell execution: QWEN_CODE: "1"); not in its hooks'.
	AgentEnv: []string{"QWEN_CODE"},
	Help: "Stop and SessionStart in .qwen/settings.json of this directory, comments kept\n" +
		"(user: ~/.qwen/settings.json), and stopHookBlockingCap raised.",
}

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
	return hook.LastText(in.TranscriptPath, func() hook.LineParser { return qwenText })
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
func qwenUsage(in hook.Input) hook.UsageSource {
	return hook.UsageSource{Path: in.TranscriptPath, Format: usage.Qwen}
}
