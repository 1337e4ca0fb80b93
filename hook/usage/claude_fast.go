package usage

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"
)

// claudeFast reads a line of Claude Code's transcript as parseClaude's
// encoding/json reading does, without its cost: it checks the whole line
// is one JSON object and takes type, timestamp, message.id and
// message.usage from where encoding/json would take them, skipping every
// other value at the speed of a search for its closing quote. ok is false
// where encoding/json could read the line otherwise than a plain reading
// (a key or a wanted value with an escape or a non-ASCII byte, a key that
// differs from a wanted one only in case, a repeated message or usage, an
// odd value, deep nesting, bad syntax): the caller then decodes it whole.
// FuzzClaudeUsage holds it to encoding/json.
func claudeFast(line []byte) (e Entry, has, ok bool) {
	if controls(bytes.TrimSuffix(line, []byte("\n"))) {
		return Entry{}, false, false
	}
	s := scanner{b: line}
	var typ, stamp, id []byte
	var u claudeUsage
	haveMessage, haveUsage := false, false
	ok = s.object(func(key []byte) bool {
		switch string(key) {
		case "type":
			v, ok := s.plainString()
			typ = v
			return ok
		case "timestamp":
			v, ok := s.plainString()
			stamp = v
			return ok
		case "message":
			if haveMessage || s.peek() != '{' {
				return false
			}
			haveMessage = true
			return s.object(func(key []byte) bool {
				switch string(key) {
				case "id":
					v, ok := s.plainString()
					id = v
					return ok
				case "usage":
					if haveUsage || s.peek() != '{' {
						return false
					}
					haveUsage = true
					return s.object(func(key []byte) bool { return u.field(&s, key) })
				}
				return !foldsTo(key, "id", "usage") && s.value(1)
			})
		}
		return !foldsTo(key, "type", "timestamp", "message") && s.value(0)
	}) && s.end()
	if !ok || string(typ) != "assistant" || !haveUsage {
		return Entry{}, false, ok
	}
	return Entry{ID: string(id), At: at(string(stamp)), Usage: u.usage()}, true, true
}

// field reads one key of message.usage into u.
func (u *claudeUsage) field(s *scanner, key []byte) bool {
	var to *int64
	switch string(key) {
	case "input_tokens":
		to = &u.Input
	case "output_tokens":
		to = &u.Output
	case "cache_creation_input_tokens":
		to = &u.CacheCreation
	case "cache_read_input_tokens":
		to = &u.CacheRead
	default:
		return !foldsTo(key, "input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens") && s.value(3)
	}
	n, ok := s.integer()
	*to = n
	return ok
}

// foldsTo reports whether key, plain ASCII, is one of names in another
// case, which encoding/json takes for the name: the fast reading leaves
// such a line to it.
func foldsTo(key []byte, names ...string) bool {
	for _, n := range names {
		if len(n) != len(key) {
			continue
		}
		i := 0
		for i < len(n) && key[i]|0x20 == n[i]|0x20 {
			i++
		}
		if i == len(n) {
			return true
		}
	}
	return false
}

// maxDepth is the deepest nesting the fast reading follows.
const maxDepth = 64

// scanner reads JSON from b at i, strictly: anything it does not take
// for certain it answers false.
type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek is the next byte after white space, 0 at the end.
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// object reads an object, calling member for each key with the scanner
// before its value, which member reads.
func (s *scanner) object(member func(key []byte) bool) bool {
	if s.peek() != '{' {
		return false
	}
	s.i++
	if s.peek() == '}' {
		s.i++
		return true
	}
	for {
		if s.peek() != '"' {
			return false
		}
		key, plain, ok := s.str()
		if !ok || !plain || !ascii(key) {
			return false
		}
		if s.peek() != ':' {
			return false
		}
		s.i++
		if !member(key) {
			return false
		}
		switch s.peek() {
		case ',':
			s.i++
		case '}':
			s.i++
			return true
		default:
			return false
		}
	}
}

// value reads and drops any value, depth levels down already.
func (s *scanner) value(depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch c := s.peek(); {
	case c == '"':
		_, _, ok := s.str()
		return ok
	case c == '{':
		return s.object(func([]byte) bool { return s.value(depth + 1) })
	case c == '[':
		s.i++
		if s.peek() == ']' {
			s.i++
			return true
		}
		for {
			if !s.value(depth + 1) {
				return false
			}
			switch s.peek() {
			case ',':
				s.i++
			case ']':
				s.i++
				return true
			default:
				return false
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		_, ok := s.number()
		return ok
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	}
	return false
}

func (s *scanner) literal(word string) bool {
	if !strings.HasPrefix(string(s.b[s.i:min(len(s.b), s.i+len(word))]), word) {
		return false
	}
	s.i += len(word)
	return true
}

// number reads a number as JSON spells it; integer is whether it has
// neither fraction nor exponent.
func (s *scanner) number() (integer, ok bool) {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false, false
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		integer = false
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false, false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	s.i = i
	return integer, true
}

// integer reads a number that is an int64 as encoding/json reads one.
func (s *scanner) integer() (int64, bool) {
	s.ws()
	start := s.i
	if integer, ok := s.number(); !ok || !integer {
		return 0, false
	}
	n, err := strconv.ParseInt(string(s.b[start:s.i]), 10, 64)
	return n, err == nil
}

// plainString reads a string with no escape and only ASCII, whose bytes
// are what encoding/json decodes it to.
func (s *scanner) plainString() ([]byte, bool) {
	if s.peek() != '"' {
		return nil, false
	}
	v, plain, ok := s.str()
	return v, ok && plain && ascii(v)
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// controls reports whether b holds a byte below 0x20, eight at a time: a
// line that holds one but for its newline (white space, or a control
// character in a string, which JSON forbids) is left to encoding/json, so
// that str need not look for them.
func controls(b []byte) bool {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if (x-ones*0x20)&^x&highs != 0 {
			return true
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return true
		}
	}
	return false
}

// str reads a string at s.i, its opening quote, and returns its bytes
// between the quotes; plain is whether they hold no escape.
// The line holds no control byte (controls): the string ends at the first
// quote no backslash escapes.
func (s *scanner) str() (raw []byte, plain, ok bool) {
	b := s.b
	start := s.i + 1
	i := start
	escaped := false
	// Keys and most values are short: a byte at a time, before a search.
	for n := min(len(b), i+16); i < n; i++ {
		if c := b[i]; c == '"' {
			s.i = i + 1
			return b[start:i], true, true
		} else if c == '\\' {
			break
		}
	}
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return nil, false, false
		}
		k := bytes.IndexByte(b[i:i+j], '\\')
		if k < 0 {
			s.i = i + j + 1
			return b[start : i+j], !escaped, true
		}
		escaped = true
		i += k
		if i+1 >= len(b) {
			return nil, false, false
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+6 > len(b) {
				return nil, false, false
			}
			for _, h := range b[i+2 : i+6] {
				if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
					return nil, false, false
				}
			}
			i += 6
		default:
			return nil, false, false
		}
	}
}

// ascii reports whether b is all ASCII.
func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
