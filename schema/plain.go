package schema

import (
	"encoding/json"
	"math"
	"strconv"
	"unsafe"
)

// unmarshal decodes a JSON text as json.Unmarshal does into an any. A plain
// text, which is almost every state a loop system writes, it reads in one
// pass with the decoder's scanner: no reflection, and half the allocations.
// For a dialect other than hope, reading the file this way was the largest
// part of a stop's own work. Anything else (an escape in a string, deep
// nesting, an error) goes to encoding/json, which also says what is wrong.
//
// The document's strings share data's memory: the caller must not change
// data afterwards.
func unmarshal(data []byte) (any, error) {
	if doc, ok := plainDocument(data); ok {
		return doc, nil
	}
	var doc any
	err := json.Unmarshal(data, &doc)
	return doc, err
}

// plainDocument reads a JSON text whose strings have no escape and are
// valid UTF-8 into the values json.Unmarshal makes for an any: maps,
// slices, strings, float64s, bools and nils, the last of a repeated name
// winning. It gives up (ok false) on anything else; then json.Unmarshal
// decides.
func plainDocument(data []byte) (doc any, ok bool) {
	if len(data) > math.MaxInt32 {
		return nil, false
	}
	d := decoder{data: data, text: unsafe.String(unsafe.SliceData(data), len(data))}
	doc, ok = d.value(0)
	d.space()
	return doc, ok && d.pos == len(d.data)
}

// value reads any JSON value, depth levels down.
func (d *decoder) value(depth int) (any, bool) {
	if depth > maxDepth {
		return nil, false
	}
	switch d.peek() {
	case '{':
		m := map[string]any{}
		ok := d.object(func(key []byte) bool {
			v, ok := d.value(depth + 1)
			m[d.cut(key)] = v
			return ok
		})
		return m, ok
	case '[':
		d.pos++
		l := []any{}
		if d.eat(']') {
			return l, true
		}
		for {
			v, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			l = append(l, v)
			if d.eat(']') {
				return l, true
			}
			if !d.eat(',') {
				return nil, false
			}
		}
	case '"':
		s, ok := d.plain()
		if !ok {
			return nil, false
		}
		return d.cut(s), true
	case 't':
		return true, d.literal("true")
	case 'f':
		return false, d.literal("false")
	case 'n':
		return nil, d.literal("null")
	}
	start := d.pos
	if !d.numberToken() {
		return nil, false
	}
	f, err := strconv.ParseFloat(d.text[start:d.pos], 64)
	return f, err == nil
}

// memberNames are the names of a JSON object's members, its values scanned
// and never built: telling a file apart should not cost the reading that
// follows it. ok is false when data is not a JSON object.
func memberNames(data []byte) (names []string, ok bool) {
	d := decoder{data: data, text: unsafe.String(unsafe.SliceData(data), len(data))}
	ok = d.object(func(key []byte) bool {
		names = append(names, d.cut(key))
		return d.skip(0)
	})
	if d.space(); ok && d.pos == len(d.data) {
		return names, true
	}
	doc, err := unmarshal(data) // a name with an escape, or not an object
	members, isObject := doc.(map[string]any)
	if err != nil || !isObject {
		return nil, false
	}
	return sortedKeys(members), true
}
