package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
)

// The hook input and the agent's last message of the hosts other than
// Claude Code: each reads its own input and its own transcript format, with
// the one backward reader of transcript.go.

// codexWire is Codex's Stop and SessionStart input: Claude Code's fields,
// transcript_path and last_assistant_message nullable, and turn_id.
type codexWire struct {
	wireInput
	TurnID json.RawMessage `json:"turn_id"`
}

func readCodexInput(r io.Reader) (Input, error) {
	var w codexWire
	data, err := readObject(r, &w)
	if err != nil {
		return Input{}, err
	}
	in := w.input()
	if p := optional(w.TurnID); p != nil {
		in.TurnID = *p
	}
	in.StopKey = StopKey(data, nil)
	return in, nil
}

// codexLastMessage is last_assistant_message, else the last assistant
// output_text of the rollout; Codex sends null when it has none.
func codexLastMessage(in Input) (string, error) {
	if in.LastAssistantMessage != nil {
		return *in.LastAssistantMessage, nil
	}
	return lastText(in.TranscriptPath, func() lineParser { return codexText })
}

// codexText reads a rollout line: an assistant message's output_text.
func codexText(line []byte) (string, bool) {
	if !bytes.Contains(line, []byte(`"assistant"`)) {
		return "", false
	}
	var entry struct {
		Type    string `json:"type"`
		Payload struct {
			Type    string         `json:"type"`
			Role    string         `json:"role"`
			Content []contentBlock `json:"content"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &entry) != nil || entry.Type != "response_item" ||
		entry.Payload.Type != "message" || entry.Payload.Role != "assistant" {
		return "", false
	}
	return joinText(entry.Payload.Content, "output_text")
}

// geminiWire is Gemini CLI's AfterAgent and SessionStart input.
type geminiWire struct {
	wireInput
	PromptResponse json.RawMessage `json:"prompt_response"`
}

func readGeminiInput(r io.Reader) (Input, error) {
	var w geminiWire
	data, err := readObject(r, &w)
	if err != nil {
		return Input{}, err
	}
	in := w.input()
	in.PromptResponse = optional(w.PromptResponse)
	in.StopKey = StopKey(data, w.wireInput.Timestamp)
	return in, nil
}

// geminiNoText is the prompt_response of a chain with no text at all.
const geminiNoText = "[no response text]"

// geminiLastMessage is the transcript's last model message when
// prompt_response ends with it, else the last line of prompt_response.
// prompt_response joins every text of the prompt chain with "\n", so a
// marker anywhere in it may be an earlier message's; its last line can only
// be the last message's. A marker higher up in a many-line last message is
// then missed, and the agent is told to go on: the safe side.
func geminiLastMessage(in Input) (string, error) {
	text, err := lastText(in.TranscriptPath, func() lineParser { return geminiText })
	if in.PromptResponse == nil {
		return text, err
	}
	response := *in.PromptResponse
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
	content := optional(entry.Content)
	if content == nil || *content == "" {
		return "", false
	}
	return *content, true
}

// copilotWire is Copilot CLI's input in either casing: camelCase for its own
// events (agentStop), snake_case for the PascalCase ones (Stop);
// stop_hook_active is snake_case in both.
type copilotWire struct {
	wireInput
	SessionIDCamel      string          `json:"sessionId"`
	TranscriptPathCamel json.RawMessage `json:"transcriptPath"`
	Timestamp           json.RawMessage `json:"timestamp"`
}

func readCopilotInput(r io.Reader) (Input, error) {
	var w copilotWire
	data, err := readObject(r, &w)
	if err != nil {
		return Input{}, err
	}
	in := w.input()
	if w.SessionIDCamel != "" {
		in.SessionID = w.SessionIDCamel
	}
	if p := optional(w.TranscriptPathCamel); p != nil && *p != "" {
		in.TranscriptPath = *p
	}
	in.Timestamp = epochMillis(w.Timestamp)
	in.StopKey = StopKey(data, w.Timestamp)
	return in, nil
}

// epochMillis reads a timestamp that is epoch milliseconds or an ISO 8601
// string; 0 when it is neither.
func epochMillis(raw json.RawMessage) int64 {
	if s := optional(raw); s != nil {
		t, err := time.Parse(time.RFC3339Nano, *s)
		if err != nil {
			return 0
		}
		return t.UnixMilli()
	}
	var ms float64
	if json.Unmarshal(raw, &ms) != nil {
		return 0
	}
	return int64(ms)
}

// How long the hook waits for Copilot's events.jsonl to catch up with the
// stop, and how often it looks: the file is written behind the hooks.
var (
	copilotWait = time.Second
	copilotPoll = 20 * time.Millisecond
)

// copilotLastMessage reads events.jsonl as Copilot's PROTOCOL.md section 7
// says: once the hook.start of this stop is on disk, so is every event
// before it, and the last assistant.message with text before it is the
// turn's final message. Until then the file is read again, for at most
// copilotWait; a stop that never appears means no message.
func copilotLastMessage(in Input) (string, error) {
	deadline := time.Now().Add(copilotWait)
	for {
		found := in.Timestamp == 0 // with no timestamp, the last message at all
		text, err := lastText(in.TranscriptPath, func() lineParser { return copilotText(in.Timestamp, &found) })
		if err == nil || (found && !fileMissing(in.TranscriptPath)) || in.TranscriptPath == "" {
			return text, err
		}
		if time.Now().After(deadline) {
			return "", errors.New(transcriptNoStop)
		}
		time.Sleep(copilotPoll)
	}
}

func fileMissing(path string) bool {
	_, err := os.Lstat(path)
	return errors.Is(err, fs.ErrNotExist)
}

// copilotText reads events.jsonl lines, last first: it skips every line
// after the hook.start of the stop at timestamp, then takes the first
// assistant.message with content.
func copilotText(timestamp int64, found *bool) lineParser {
	return func(line []byte) (string, bool) {
		if !*found {
			*found = copilotStop(line, timestamp)
			return "", false
		}
		if !bytes.Contains(line, []byte(`"assistant.message"`)) {
			return "", false
		}
		var entry struct {
			Type string `json:"type"`
			Data struct {
				Content string `json:"content"`
			} `json:"data"`
		}
		if json.Unmarshal(line, &entry) != nil || entry.Type != "assistant.message" || entry.Data.Content == "" {
			return "", false
		}
		return entry.Data.Content, true
	}
}

// copilotStop reports whether line is the hook.start of the stop at timestamp.
func copilotStop(line []byte, timestamp int64) bool {
	if !bytes.Contains(line, []byte(`"hook.start"`)) {
		return false
	}
	var entry struct {
		Type string `json:"type"`
		Data struct {
			HookType string `json:"hookType"`
			Input    struct {
				Timestamp json.RawMessage `json:"timestamp"`
			} `json:"input"`
		} `json:"data"`
	}
	if json.Unmarshal(line, &entry) != nil || entry.Type != "hook.start" {
		return false
	}
	if entry.Data.HookType != "agentStop" && entry.Data.HookType != "Stop" {
		return false
	}
	return epochMillis(entry.Data.Input.Timestamp) == timestamp
}
