package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// documentText is how a host's settings file is read into an object and
// written back.
type documentText struct {
	decode func(data []byte) (*object, error)
	encode func(orig []byte, doc *object) ([]byte, error)
}

// jsonText is plain JSON, written with the line ends and byte order mark
// of the file it replaces.
var jsonText = documentText{
	decode: decodeSettings,
	encode: func(orig []byte, doc *object) ([]byte, error) { return sameEncoding(orig, encode(doc)), nil },
}

// jsoncText is JSON with comments, as Gemini CLI reads its settings (comments
// stripped, then JSON.parse). A file with comments keeps them: only the
// top-level "hooks" member is rewritten, or added at the end, and every
// other byte stays as it was. Comments inside "hooks" cannot be kept, and
// such a file is refused.
var jsoncText = documentText{
	decode: func(data []byte) (*object, error) {
		blank, _ := blankComments(data)
		return decodeSettings(blank)
	},
	encode: encodeKeepingComments,
}

// blankComments replaces each // and /* */ comment outside strings with
// spaces (keeping line ends), so that every byte keeps its offset; found
// says whether there were any.
func blankComments(data []byte) (out []byte, found bool) {
	out = bytes.Clone(data)
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '"':
			for i++; i < len(out) && out[i] != '"'; i++ {
				if out[i] == '\\' {
					i++
				}
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '/':
			found = true
			for ; i < len(out) && out[i] != '\n'; i++ {
				if out[i] != '\r' {
					out[i] = ' '
				}
			}
		case out[i] == '/' && i+1 < len(out) && out[i+1] == '*':
			found = true
			end := bytes.Index(out[i+2:], []byte("*/"))
			stop := len(out)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				if out[i] != '\n' && out[i] != '\r' {
					out[i] = ' '
				}
			}
			i--
		}
	}
	return out, found
}

// errCommentsInHooks refuses to rewrite a "hooks" member that has comments.
var errCommentsInHooks = errors.New(`"hooks" has comments in it, which rewriting it would lose`)

// encodeKeepingComments writes doc over orig, changing only the top-level
// "hooks" member when orig has comments.
func encodeKeepingComments(orig []byte, doc *object) ([]byte, error) {
	blank, found := blankComments(orig)
	if !found {
		return jsonText.encode(orig, doc)
	}
	newline := "\n"
	if bytes.Contains(orig, []byte("\r\n")) {
		newline = "\r\n"
	}
	spans, closing, err := topLevelSpans(blank)
	if err != nil {
		return nil, err
	}
	hooks, ok := doc.get("hooks")
	var b bytes.Buffer
	if at, had := spans["hooks"]; had {
		if !bytes.Equal(orig[at.key:at.end], blank[at.key:at.end]) {
			return nil, errCommentsInHooks
		}
		indent := lineIndent(orig, at.key)
		if !ok { // removed: take the member out, with the comma before or after it
			start, end := at.key, at.end
			if at.prevEnd >= 0 {
				start = at.prevEnd
			} else if j := bytes.IndexByte(blank[end:], ','); j >= 0 && at.next >= 0 {
				end += j + 1
			}
			b.Write(orig[:start])
			b.Write(orig[end:])
			return b.Bytes(), nil
		}
		b.Write(orig[:at.value])
		b.WriteString(reindent(encode(hooks), indent, newline))
		b.Write(orig[at.end:])
		return b.Bytes(), nil
	}
	if !ok {
		return orig, nil
	}
	// Added: after the last member, before the closing brace.
	indent := "  "
	last := -1
	for _, at := range spans {
		if at.end > last {
			last = at.end
			indent = lineIndent(orig, at.key)
		}
	}
	member := indent + `"hooks": ` + reindent(encode(hooks), indent, newline)
	if last < 0 {
		b.Write(orig[:closing])
		b.WriteString(newline + member + newline)
		b.Write(orig[closing:])
		return b.Bytes(), nil
	}
	b.Write(orig[:last])
	b.WriteString("," + newline + member)
	b.Write(orig[last:])
	return b.Bytes(), nil
}

// memberSpan is where a top-level member is: its key, its value, its end,
// the end of the member before it (-1 for the first) and the start of the
// one after it (-1 for the last).
type memberSpan struct{ key, value, end, prevEnd, next int }

// topLevelSpans finds the top-level members of a JSON object whose comments
// were blanked, and the offset of its closing brace.
func topLevelSpans(blank []byte) (map[string]memberSpan, int, error) {
	dec := json.NewDecoder(bytes.NewReader(blank))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, 0, errors.New("not a JSON object")
	}
	spans := map[string]memberSpan{}
	prevEnd, prevKey := -1, ""
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, 0, err
		}
		keyEnd := int(dec.InputOffset())
		keyStart := bytes.LastIndexByte(blank[:keyEnd-1], '"')
		for keyStart > 0 && blank[keyStart-1] == '\\' { // an escaped quote in the key
			keyStart = bytes.LastIndexByte(blank[:keyStart-1], '"')
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, 0, err
		}
		end := int(dec.InputOffset())
		if prevKey != "" {
			s := spans[prevKey]
			s.next = keyStart
			spans[prevKey] = s
		}
		spans[tok.(string)] = memberSpan{keyStart, end - len(raw), end, prevEnd, -1}
		prevEnd, prevKey = end, tok.(string)
	}
	if _, err := dec.Token(); err != nil {
		return nil, 0, err
	}
	return spans, int(dec.InputOffset()) - 1, nil
}

// lineIndent is the blanks before offset at on its line.
func lineIndent(data []byte, at int) string {
	start := bytes.LastIndexByte(data[:at], '\n') + 1
	indent := data[start:at]
	if len(bytes.TrimLeft(indent, " \t")) != 0 {
		return "  "
	}
	return string(indent)
}

// reindent shifts an encoded value's lines after the first by indent.
func reindent(encoded []byte, indent, newline string) string {
	s := strings.TrimSuffix(string(encoded), "\n")
	return strings.ReplaceAll(s, "\n", newline+indent)
}
