package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/loophook/loophook/schema"
)

// object is a JSON object that keeps its members in the order they were
// read or added, so that a file loophook rewrites keeps the order a person
// gave it. Values are *object, []any, string, json.Number (kept as written),
// bool or nil.
type object struct {
	members []member
}

type member struct {
	key   string
	value any
}

// index is where key is, or -1. With a key given twice the last one counts,
// as it does for JavaScript's JSON.parse, which reads Claude Code's settings.
func (o *object) index(key string) int {
	for i := len(o.members) - 1; i >= 0; i-- {
		if o.members[i].key == key {
			return i
		}
	}
	return -1
}

// get returns key's value and whether it is there.
func (o *object) get(key string) (any, bool) {
	if i := o.index(key); i >= 0 {
		return o.members[i].value, true
	}
	return nil, false
}

// set replaces key's value where it is, or adds it at the end.
func (o *object) set(key string, value any) {
	if i := o.index(key); i >= 0 {
		o.members[i].value = value
		return
	}
	o.members = append(o.members, member{key, value})
}

// remove drops every member named key.
func (o *object) remove(key string) {
	kept := o.members[:0]
	for _, m := range o.members {
		if m.key != key {
			kept = append(kept, m)
		}
	}
	o.members = kept
}

// decodeObject reads a document that must be one JSON object.
func decodeObject(data []byte) (*object, error) {
	if !json.Valid(data) {
		var v any
		return nil, errors.New(schema.JSONError(data, json.Unmarshal(data, &v)))
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	o, ok := v.(*object)
	if !ok {
		return nil, errors.New("not a JSON object")
	}
	return o, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &object{}
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o.members = append(o.members, member{key.(string), v})
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		list := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		_, err := dec.Token()
		return list, err
	}
	return tok, nil
}

// encode writes v as JSON indented by two spaces, the way JavaScript's
// JSON.stringify(v, null, 2) does, ending in a newline.
func encode(v any) []byte {
	var b bytes.Buffer
	encodeValue(&b, v, "")
	b.WriteByte('\n')
	return b.Bytes()
}

func encodeValue(b *bytes.Buffer, v any, indent string) {
	inner := indent + "  "
	switch v := v.(type) {
	case *object:
		if len(v.members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{\n")
		for i, m := range v.members {
			b.WriteString(inner)
			encodeScalar(b, m.key)
			b.WriteString(": ")
			encodeValue(b, m.value, inner)
			if i < len(v.members)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "}")
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[\n")
		for i, x := range v {
			b.WriteString(inner)
			encodeValue(b, x, inner)
			if i < len(v)-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		b.WriteString(indent + "]")
	case json.Number:
		b.WriteString(string(v))
	default:
		encodeScalar(b, v)
	}
}

// encodeScalar writes a string, bool, number or null, leaving <, > and & as
// they are: the file is read by people and Claude Code, not by a browser.
func encodeScalar(b *bytes.Buffer, v any) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only values decodeObject makes, or loophook's own, get here.
		panic(fmt.Sprintf("encode %T: %v", v, err))
	}
	b.Write(bytes.TrimSuffix(out.Bytes(), []byte("\n")))
}
