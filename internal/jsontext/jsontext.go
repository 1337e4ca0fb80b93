// Package jsontext holds the small JSON helpers every package shares: a
// string written as serde_json does, byte for byte (Codex's trust hash of
// a hook depends on it, and the journal and init write their lines with
// it), one value written as one line with <, > and & kept, and a field
// that may be a string or anything else.
package jsontext

import (
	"encoding/json"
	"io"
	"unicode/utf8"
)

// AppendString appends s as a JSON string the way serde_json writes one
// (Codex's trust hash depends on it, hook/host), which is also valid
// JSON for Go: only the quote, the backslash and control characters are
// escaped (no HTML escaping, U+2028 and U+2029 kept as they are), with the
// short forms \b \f \n \r \t and lower-case \u00XX for the rest. Bytes that
// are not UTF-8 become U+FFFD, as encoding/json writes them.
func AppendString(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			b = utf8.AppendRune(b, r) // utf8.RuneError where s is not UTF-8
			i += size
			continue
		}
		switch {
		case c == '"':
			b = append(b, `\"`...)
		case c == '\\':
			b = append(b, `\\`...)
		case c == '\b':
			b = append(b, `\b`...)
		case c == '\f':
			b = append(b, `\f`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		default:
			b = append(b, c)
		}
		i++
	}
	return append(b, '"')
}

// Write writes v as one line of JSON, leaving <, > and & as they are so
// that the agent reads <loop-complete>, not \u003cloop-complete\u003e.
func Write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Optional decodes a field that may be a string, or anything else for absent.
func Optional(raw json.RawMessage) *string {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return nil
	}
	return &s
}
