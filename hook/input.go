package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/internal/jsontext"
	"github.com/loophook/loophook/schema"
)

// MaxInput caps the hook input; no real input comes near it, and past it the
// hook would spend a turn's worth of time reading.
const MaxInput = 16 << 20

// Input is the hook input Claude Code writes to stdin, as far as loophook
// needs it. Unknown fields are ignored: the set grows between releases.
type Input struct {
	SessionID            string
	TranscriptPath       string
	Cwd                  string
	StopHookActive       bool
	LastAssistantMessage *string
	// Own are the host's own fields, which only its row reads
	// (hook/host); nil for a host that has none.
	Own any
	// StopKey names this stop among the session's, so that a stop that
	// reaches the hook twice (two registrations) counts once (hook/memory).
	StopKey string
}

// WireInput is Input as it arrives; a host's own input embeds it. session_id and stop_hook_active decide
// whose loop this is and drive the guard, so a wrong type there means the
// input is not understood; the others are helpers, and one of another type
// than a string counts as absent, so that a change in a later release of
// Claude Code cannot switch every loop off.
type WireInput struct {
	SessionID            string          `json:"session_id"`
	StopHookActive       bool            `json:"stop_hook_active"`
	TranscriptPath       json.RawMessage `json:"transcript_path"`
	Cwd                  json.RawMessage `json:"cwd"`
	LastAssistantMessage json.RawMessage `json:"last_assistant_message"`
	Timestamp            json.RawMessage `json:"timestamp"`
}

// ReadInput reads exactly one JSON object from r, in Claude Code's fields.
func ReadInput(r io.Reader) (Input, error) {
	var w WireInput
	data, err := ReadObject(r, &w)
	if err != nil {
		return Input{}, err
	}
	in := w.Input()
	in.StopKey = memory.StopKey(data, w.Timestamp)
	return in, nil
}

// Input is the fields every host shares.
func (w WireInput) Input() Input {
	in := Input{SessionID: w.SessionID, StopHookActive: w.StopHookActive, LastAssistantMessage: jsontext.Optional(w.LastAssistantMessage)}
	if p := jsontext.Optional(w.TranscriptPath); p != nil {
		in.TranscriptPath = *p
	}
	if p := jsontext.Optional(w.Cwd); p != nil {
		in.Cwd = *p
	}
	return in
}

// ReadObject reads exactly one JSON object from r into v, and returns its bytes.
func ReadObject(r io.Reader, v any) ([]byte, error) {
	data, err := readStdin(r)
	if err != nil {
		return nil, err
	}
	if len(data) > MaxInput {
		return nil, fmt.Errorf(inputTooLarge, MaxInput>>20)
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, errors.New(inputEmpty)
	}
	if data[0] != '{' {
		return nil, errors.New(inputNotObject)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return nil, fmt.Errorf(inputNotJSON, schema.JSONError(data, err))
	}
	return data, nil
}
