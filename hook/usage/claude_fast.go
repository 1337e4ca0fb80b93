package usage

import (
	"bytes"
	"encoding/json"
)

// claudeFast reads an assistant line of Claude Code's transcript without
// decoding the whole of it, which costs as much as the line's content: it
// finds the message's id before its content, the usage object (the last
// "usage" key: message.usage comes after the content) and the line's
// timestamp (the last, top level, after the message). An unescaped `"key":`
// is a key, never text inside a string. ok is false when the line is not
// laid out so: the caller decodes it whole.
func claudeFast(line []byte) (e Entry, ok bool) {
	if !bytes.Contains(line, []byte(`"type":"assistant"`)) {
		return e, false
	}
	m := bytes.Index(line, []byte(`"message":{`))
	u := bytes.LastIndex(line, []byte(`"usage":{`))
	t := bytes.LastIndex(line, []byte(`"timestamp":"`))
	if m < 0 || u < m || t < 0 {
		return e, false
	}
	msg := line[m:]
	id := bytes.Index(msg, []byte(`"id":"`))
	content := bytes.Index(msg, []byte(`"content":`))
	if id < 0 || (content >= 0 && content < id) {
		return e, false
	}
	e.ID = stringAt(msg[id+len(`"id":"`):])
	obj := objectAt(line[u+len(`"usage":`):])
	if obj == nil {
		return e, false
	}
	var usage claudeUsage
	if json.Unmarshal(obj, &usage) != nil {
		return e, false
	}
	e.Usage = usage.usage()
	e.At = at(stringAt(line[t+len(`"timestamp":"`):]))
	return e, e.ID != ""
}

// stringAt returns the JSON string that b starts inside of, up to its
// closing quote; ids and timestamps hold no escapes.
func stringAt(b []byte) string {
	end := bytes.IndexByte(b, '"')
	if end < 0 || bytes.IndexByte(b[:end], '\\') >= 0 {
		return ""
	}
	return string(b[:end])
}

// objectAt returns the JSON object b starts with, through its closing
// brace; nil when it does not close.
func objectAt(b []byte) []byte {
	depth, inString := 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{':
			depth++
		case c == '}':
			if depth--; depth == 0 {
				return b[:i+1]
			}
		}
	}
	return nil
}
