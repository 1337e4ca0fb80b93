// Package hook is everything one evaluation touches outside the decision:
// the hook input, finding and loading the state file, the hook's memory under
// .loop/.loophook/, the transcript tail, and rendering a verdict in a protocol.
package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
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
}

// wireInput is Input as it arrives. session_id and stop_hook_active decide
// whose loop this is and drive the guard, so a wrong type there means the
// input is not understood; the others are helpers, and one of another type
// than a string counts as absent, so that a change in a later release of
// Claude Code cannot switch every loop off.
type wireInput struct {
	SessionID            string          `json:"session_id"`
	StopHookActive       bool            `json:"stop_hook_active"`
	TranscriptPath       json.RawMessage `json:"transcript_path"`
	Cwd                  json.RawMessage `json:"cwd"`
	LastAssistantMessage json.RawMessage `json:"last_assistant_message"`
}

// optional decodes a field that may be a string, or anything else for absent.
func optional(raw json.RawMessage) *string {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return &s
}

// ReadInput reads exactly one JSON object from r.
func ReadInput(r io.Reader) (Input, error) {
	var in Input
	var w wireInput
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return in, fmt.Errorf("read stdin: %w", err)
	}
	if len(data) > MaxInput {
		return in, fmt.Errorf("stdin is larger than %d MiB", MaxInput>>20)
	}
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return in, errors.New("stdin is empty")
	}
	if data[0] != '{' {
		return in, errors.New("stdin is not a JSON object")
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return in, fmt.Errorf("stdin: %s", JSONError(data, err))
	}
	in = Input{SessionID: w.SessionID, StopHookActive: w.StopHookActive, LastAssistantMessage: optional(w.LastAssistantMessage)}
	if p := optional(w.TranscriptPath); p != nil {
		in.TranscriptPath = *p
	}
	if p := optional(w.Cwd); p != nil {
		in.Cwd = *p
	}
	return in, nil
}

// JSONError says what is wrong with a JSON document and where, without
// quoting its content: the document may be anything.
func JSONError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return "not valid JSON"
	case strings.Contains(err.Error(), "exceeded max depth"):
		// A *json.SyntaxError too, but its position would read as a typo.
		return "nested too deeply (more than 10000 levels)"
	case strings.Contains(err.Error(), "unexpected end"):
		// A *json.SyntaxError too, whose position is just past the end.
		return "not valid JSON: it ends too soon"
	case errors.As(err, &syn):
		line, col := position(data, syn.Offset-1)
		return fmt.Sprintf("not valid JSON at line %d, column %d", line, col)
	case errors.As(err, &typ) && typ.Field == "":
		// Decoding into any fails this way only on a number out of float64's
		// range; typ.Value would quote the number, at any length.
		line, col := position(data, typ.Offset)
		return fmt.Sprintf("a number out of range before line %d, column %d", line, col)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s: expected %s, got %s", typ.Field, typ.Type, typ.Value)
	}
	return "not valid JSON"
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}
