package schema

import (
	"fmt"
	"hash/crc32"
	"slices"
	"strconv"
	"strings"
)

// The progress fingerprint of SPEC rule 9: the whole parsed document, for
// every dialect, written canonically (keys sorted, numbers as Go formats
// them), so that layout, key order and number spelling never count, and
// with every timestamp value written as the one token timeSet, so that a
// time counts only as set or not. A key's name never makes a timestamp but
// for the one key named timestamp, whose number is epoch milliseconds.

// timeSet stands for a timestamp's value: bare, it is no JSON token, so no
// string or number writes it.
const timeSet = "@"

// timestampKey is the one key whose number is a timestamp.
const timestampKey = "timestamp"

// progressOfBytes fingerprints a text that is not JSON as it is. CRC-32
// runs at memory speed; with the length beside it, a collision would take
// two versions of one length.
func progressOfBytes(data []byte) string {
	return fmt.Sprintf("%08x-%d", crc32.ChecksumIEEE(data), len(data))
}

// progressOfDocument fingerprints a decoded document canonically.
func progressOfDocument(doc any) string {
	var c progressWriter
	c.value(doc, false)
	c.flush()
	return fmt.Sprintf("%08x-%d", c.crc, c.n)
}

// progressWriter writes the canonical text into a buffer that it hashes a
// block at a time: CRC-32 runs at memory speed on blocks, and a state of
// 10,000 criteria is some 60,000 small writes.
type progressWriter struct {
	crc uint32
	n   int
	buf []byte
}

// progressBlock is how much canonical text is hashed at once.
const progressBlock = 32 << 10

func (c *progressWriter) flush() {
	c.crc = crc32.Update(c.crc, crc32.IEEETable, c.buf)
	c.n += len(c.buf)
	c.buf = c.buf[:0]
}

func (c *progressWriter) byte(b byte) {
	c.buf = append(c.buf, b)
}

// quote writes s as strconv.Quote does.
func (c *progressWriter) quote(s string) {
	if plainASCII(s) {
		c.buf = append(append(append(c.buf, '"'), s...), '"')
		return
	}
	c.buf = strconv.AppendQuote(c.buf, s)
}

// plainASCII reports whether strconv.Quote writes s as it is, between
// quotes: printable ASCII, no quote or backslash.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < ' ' || b > '~' || b == '"' || b == '\\' {
			return false
		}
	}
	return true
}

// member is a name and value of an object.
type member struct {
	name  string
	value any
}

// value writes v; underTimestamp says v is the value of a key named
// timestamp.
func (c *progressWriter) value(v any, underTimestamp bool) {
	if len(c.buf) >= progressBlock {
		c.flush()
	}
	switch v := v.(type) {
	case map[string]any:
		// The members are taken with their values, so that none is looked
		// up again: in a state of 10,000 criteria, each lookup misses the cache.
		var few [8]member
		members := few[:0]
		if len(v) > len(few) {
			members = make([]member, 0, len(v))
		}
		for k, x := range v {
			members = append(members, member{k, x})
		}
		slices.SortFunc(members, func(a, b member) int { return strings.Compare(a.name, b.name) })
		c.byte('{')
		for _, m := range members {
			c.quote(m.name)
			c.byte(':')
			c.value(m.value, m.name == timestampKey)
			c.byte(',')
		}
		c.byte('}')
	case []any:
		c.byte('[')
		for _, x := range v {
			c.value(x, false)
			c.byte(',')
		}
		c.byte(']')
	case string:
		if IsDateTime(v) {
			c.buf = append(c.buf, timeSet...)
			return
		}
		c.quote(v)
	case float64:
		if underTimestamp {
			c.buf = append(c.buf, timeSet...)
			return
		}
		c.buf = strconv.AppendFloat(c.buf, v, 'g', -1, 64)
	case bool:
		c.buf = strconv.AppendBool(c.buf, v)
	default: // nil, or a type encoding/json does not decode into any
		c.buf = append(c.buf, "null"...)
	}
}

// IsDateTime reports whether s is an RFC 3339 / ISO 8601 date-time in the
// extended format: a date, T (or t, or a space), hours and minutes, then
// optional seconds and fraction, and an optional zone (Z, ±hh, ±hhmm or
// ±hh:mm). A date alone, or a time alone, is not one.
func IsDateTime(s string) bool {
	digits := func(i, n int) bool {
		if i+n > len(s) {
			return false
		}
		for _, c := range []byte(s[i : i+n]) {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	at := func(i int, set string) bool { return i < len(s) && slices.Contains([]byte(set), s[i]) }
	if !digits(0, 4) || !at(4, "-") || !digits(5, 2) || !at(7, "-") || !digits(8, 2) ||
		!at(10, "Tt ") || !digits(11, 2) || !at(13, ":") || !digits(14, 2) {
		return false
	}
	i := 16
	if at(i, ":") {
		if !digits(i+1, 2) {
			return false
		}
		i += 3
		if at(i, ".,") {
			j := i + 1
			for digits(j, 1) {
				j++
			}
			if j == i+1 {
				return false
			}
			i = j
		}
	}
	switch {
	case i == len(s):
		return true
	case at(i, "Zz"):
		return i+1 == len(s)
	case at(i, "+-") && digits(i+1, 2):
		rest := s[i+3:]
		switch {
		case rest == "":
			return true
		case rest[0] == ':':
			return len(rest) == 3 && digits(i+4, 2)
		}
		return len(rest) == 2 && digits(i+3, 2)
	}
	return false
}
