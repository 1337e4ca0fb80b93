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
	SessionID            string  `json:"session_id"`
	TranscriptPath       string  `json:"transcript_path"`
	Cwd                  string  `json:"cwd"`
	HookEventName        string  `json:"hook_event_name"`
	StopHookActive       bool    `json:"stop_hook_active"`
	LastAssistantMessage *string `json:"last_assistant_message"`
	Source               string  `json:"source"`
}

// ReadInput reads exactly one JSON object from r.
func ReadInput(r io.Reader) (Input, error) {
	var in Input
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
	if err := json.Unmarshal(data, &in); err != nil {
		return in, fmt.Errorf("stdin: %s", JSONError(data, err))
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
