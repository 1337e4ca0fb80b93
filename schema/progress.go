package schema

import (
	"bytes"
	"fmt"
	"hash"
	"hash/crc32"
	"slices"
	"strconv"
	"strings"
)

// Timestamps never count as progress: an agent that only restamps its
// times has done nothing. A key at any depth is a timestamp when it is
// named timestamp or ends in one of timeSuffixes.
var timeSuffixes = []string{"At", "_at", "Heartbeat"}

func isTimeKey(k string) bool {
	if k == "timestamp" {
		return true
	}
	for _, s := range timeSuffixes {
		if strings.HasSuffix(k, s) {
			return true
		}
	}
	return false
}

// timeKeyEndings are the bytes that end a timestamp's key in a JSON text,
// closing quote included; an escape (\u) could spell one in disguise.
// timestamp" is looked for as mp": bytes.Index is fast for a pattern whose
// first byte is rare, and t is the commonest letter there is.
var timeKeyEndings = [][]byte{[]byte(`At"`), []byte(`_at"`), []byte(`Heartbeat"`), []byte(`mp"`), []byte(`\u`)}

// mayHoldTimes reports whether a JSON text may have a timestamp key. It
// looks at bytes only, so a value that ends like one answers yes too: that
// costs a decode, never a wrong fingerprint.
func mayHoldTimes(data []byte) bool {
	for _, end := range timeKeyEndings {
		if bytes.Contains(data, end) {
			return true
		}
	}
	return false
}

// progressOfBytes fingerprints a text as it is: a file that is not JSON, or
// a whole state that holds no timestamp. CRC-32 runs at memory speed; with
// the length beside it, a collision would take two versions of one length.
func progressOfBytes(data []byte) string {
	return fmt.Sprintf("%08x-%d", crc32.ChecksumIEEE(data), len(data))
}

// progressOfDocument fingerprints a decoded document's progress fields
// (fields, each a top-level name or a dotted path into objects; nil for
// the whole document), timestamps left out, in a canonical encoding: keys
// sorted, numbers as Go formats them, so the fingerprint does not depend on
// how the file was laid out.
func progressOfDocument(doc any, fields []string) string {
	c := progressWriter{h: crc32.NewIEEE()}
	if fields == nil {
		c.value(doc)
	} else {
		c.picked(doc, fields)
	}
	return fmt.Sprintf("%08x-%d", c.h.Sum32(), c.n)
}

type progressWriter struct {
	h hash.Hash32
	n int
}

func (c *progressWriter) write(s string) {
	c.h.Write([]byte(s))
	c.n += len(s)
}

// picked writes {"where": value, ...} for the values at the fields' paths
// that the document has.
func (c *progressWriter) picked(doc any, fields []string) {
	fields = slices.Sorted(slices.Values(fields))
	c.write("{")
	for _, f := range fields {
		at(doc, strings.Split(f, "."), f, func(where string, v any) {
			c.write(strconv.Quote(where))
			c.write(":")
			c.value(v)
			c.write(",")
		})
	}
	c.write("}")
}

// at calls found with each value at path below v; "*" is every member of an
// object, in name order, or every item of an array.
func at(v any, path []string, where string, found func(where string, v any)) {
	if len(path) == 0 {
		found(where, v)
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if path[0] != "*" {
			if m, ok := x[path[0]]; ok {
				at(m, path[1:], where, found)
			}
			return
		}
		names := make([]string, 0, len(x))
		for name := range x {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			at(x[name], path[1:], where+"/"+name, found)
		}
	case []any:
		if path[0] == "*" {
			for i, item := range x {
				at(item, path[1:], fmt.Sprintf("%s/%d", where, i), found)
			}
		}
	}
}

func (c *progressWriter) value(v any) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			if !isTimeKey(k) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		c.write("{")
		for _, k := range keys {
			c.write(strconv.Quote(k))
			c.write(":")
			c.value(v[k])
			c.write(",")
		}
		c.write("}")
	case []any:
		c.write("[")
		for _, x := range v {
			c.value(x)
			c.write(",")
		}
		c.write("]")
	case string:
		c.write(strconv.Quote(v))
	case float64:
		c.write(strconv.FormatFloat(v, 'g', -1, 64))
	case bool:
		c.write(strconv.FormatBool(v))
	default: // nil, or a type encoding/json does not decode into any
		c.write("null")
	}
}
