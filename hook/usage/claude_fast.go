package usage

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
)

// claudeFast reads a line of Claude Code's transcript as parseClaude's
// encoding/json reading does, without its cost: it checks the whole line
// is one JSON object and takes type, timestamp, message.id and
// message.usage from where encoding/json would take them, skipping every
// other value a word at a time. ok is false where encoding/json could read
// the line otherwise than a plain reading (a key or a wanted value with an
// escape or a non-ASCII byte, a key that differs from a wanted one only in
// case, a repeated message or usage, an odd value, deep nesting, bad
// syntax): the caller then decodes it whole. FuzzClaudeUsage holds it to
// encoding/json.
func claudeFast(line []byte) (e Entry, has, ok bool) {
	s := scanner{b: line}
	var typ, stamp, id []byte
	var u claudeUsage
	haveMessage, haveUsage := false, false
	for more := s.open('{', '}'); more; more = s.next('}') {
		switch key := s.key(); string(key) {
		case "type":
			typ = s.plainString()
		case "timestamp":
			stamp = s.plainString()
		case "message":
			if haveMessage || s.peek() != '{' {
				return Entry{}, false, false
			}
			haveMessage = true
			for more := s.open('{', '}'); more; more = s.next('}') {
				switch key := s.key(); string(key) {
				case "id":
					id = s.plainString()
				case "usage":
					if haveUsage || s.peek() != '{' {
						return Entry{}, false, false
					}
					haveUsage = true
					for more := s.open('{', '}'); more; more = s.next('}') {
						u.field(&s, s.key())
					}
				default:
					if foldsTo(key, "id", "usage") {
						return Entry{}, false, false
					}
					s.skip(1)
				}
			}
		default:
			if foldsTo(key, "type", "timestamp", "message") {
				return Entry{}, false, false
			}
			s.skip(0)
		}
	}
	if s.bad || !s.end() {
		return Entry{}, false, false
	}
	if string(typ) != "assistant" || !haveUsage {
		return Entry{}, false, true
	}
	return Entry{ID: string(id), At: at(string(stamp)), Usage: u.usage()}, true, true
}

// field reads one key of message.usage into u.
func (u *claudeUsage) field(s *scanner, key []byte) {
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
		if foldsTo(key, "input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens") {
			s.bad = true
		}
		s.skip(3)
		return
	}
	*to = s.integer()
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

// scanner reads JSON from b at i, strictly: anything it does not take for
// certain sets bad, after which every read stops at once.
type scanner struct {
	b   []byte
	i   int
	bad bool
}

// peek is the next byte after white space, 0 at the end or once bad.
func (s *scanner) peek() byte {
	if s.i < len(s.b) && s.b[s.i] > ' ' && !s.bad {
		return s.b[s.i] // compact JSON, as Claude Code writes it
	}
	for ; s.i < len(s.b) && !s.bad; s.i++ {
		switch c := s.b[s.i]; c {
		case ' ', '\t', '\n', '\r':
		default:
			return c
		}
	}
	return 0
}

// end reports whether only white space is left.
func (s *scanner) end() bool {
	return s.peek() == 0 && s.i == len(s.b)
}

// fail marks the input as not taken, and returns false.
func (s *scanner) fail() bool {
	s.bad = true
	return false
}

// open reads the opening byte of an object or array and reports whether a
// member follows (false for an empty one, or a bad one).
func (s *scanner) open(opening, closing byte) bool {
	if s.peek() != opening {
		return s.fail()
	}
	s.i++
	if s.peek() == closing {
		s.i++
		return false
	}
	return !s.bad
}

// next reads what follows a member: a comma, and it reports true, or the
// closing byte, and it reports false.
func (s *scanner) next(closing byte) bool {
	switch s.peek() {
	case ',':
		s.i++
		return true
	case closing:
		s.i++
		return false
	}
	return s.fail()
}

// key reads a plain key (str) and its colon.
func (s *scanner) key() []byte {
	if s.peek() != '"' {
		s.fail()
		return nil
	}
	key, plain := s.str()
	if s.bad || !plain || s.peek() != ':' {
		s.fail()
		return nil
	}
	s.i++
	return key
}

// skip reads and drops any value, depth levels down already.
func (s *scanner) skip(depth int) {
	if depth > maxDepth {
		s.fail()
		return
	}
	switch c := s.peek(); {
	case c == '"':
		s.str()
	case c == '{':
		for more := s.open('{', '}'); more; more = s.next('}') {
			// Any key: a skipped object's keys are nobody's.
			if s.peek() != '"' {
				s.fail()
				return
			}
			if s.str(); s.peek() != ':' {
				s.fail()
				return
			}
			s.i++
			s.skip(depth + 1)
		}
	case c == '[':
		for more := s.open('[', ']'); more; more = s.next(']') {
			s.skip(depth + 1)
		}
	case c == '-' || c >= '0' && c <= '9':
		s.number()
	case c == 't':
		s.literal("true")
	case c == 'f':
		s.literal("false")
	case c == 'n':
		s.literal("null")
	default:
		s.fail()
	}
}

func (s *scanner) literal(word string) {
	if !bytes.HasPrefix(s.b[s.i:], []byte(word)) {
		s.fail()
		return
	}
	s.i += len(word)
}

// number reads a number as JSON spells it; integer is whether it has
// neither fraction nor exponent.
func (s *scanner) number() (integer bool) {
	b, i := s.b, s.i
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return s.fail()
	}
	integer = true
	if i < len(b) && b[i] == '.' {
		integer = false
		if i++; i >= len(b) || b[i] < '0' || b[i] > '9' {
			return s.fail()
		}
		i = digits(b, i)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		integer = false
		if i++; i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return s.fail()
		}
		i = digits(b, i)
	}
	s.i = i
	return integer
}

// digits is where the digits of b from i end.
func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// integer reads a number that is an int64 as encoding/json reads one.
func (s *scanner) integer() int64 {
	s.peek()
	start := s.i
	if !s.number() {
		s.fail()
		return 0
	}
	v := s.b[start:s.i]
	neg := v[0] == '-'
	if neg {
		v = v[1:]
	}
	if len(v) > 18 { // may not fit: strconv says
		n, err := strconv.ParseInt(string(s.b[start:s.i]), 10, 64)
		if err != nil {
			s.fail()
		}
		return n
	}
	var n int64
	for _, d := range v {
		n = n*10 + int64(d-'0')
	}
	if neg {
		n = -n
	}
	return n
}

// plainString reads a plain string (str), whose bytes are what
// encoding/json decodes it to.
func (s *scanner) plainString() []byte {
	if s.peek() != '"' {
		s.fail()
		return nil
	}
	v, plain := s.str()
	if !plain {
		s.fail()
	}
	return v
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// special marks, in the high bit of its byte, the first byte of x (little
// endian) that is a quote, a backslash or a control byte: the bytes a
// string's scan stops at. Bytes after the first may be marked wrongly.
func special(x uint64) uint64 {
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return ((q-ones)&^q | (b-ones)&^b | (x-ones*0x20)&^x) & highs
}

// str reads a string at s.i, its opening quote, and returns its bytes
// between the quotes; plain is whether they hold no escape and only ASCII.
// It stops at the first quote, backslash or control byte, eight bytes at
// a time.
func (s *scanner) str() (raw []byte, plain bool) {
	b := s.b
	start := s.i + 1
	escaped, high := false, uint64(0)
	for i := start; ; {
		for ; i+8 <= len(b); i += 8 {
			x := binary.LittleEndian.Uint64(b[i:])
			if m := special(x); m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				high |= x & (1<<(k*8) - 1) // the bytes before the stop
				i += k
				break
			}
			high |= x
		}
		for ; i < len(b) && b[i] != '"' && b[i] != '\\' && b[i] >= 0x20; i++ {
			high |= uint64(b[i])
		}
		if i >= len(b) {
			s.fail()
			return nil, false
		}
		switch b[i] {
		case '"':
			s.i = i + 1
			return b[start:i], !escaped && high&highs == 0
		case '\\':
			escaped = true
			if i = escape(b, i); i < 0 {
				s.fail()
				return nil, false
			}
		default: // a control byte, which JSON forbids in a string
			s.fail()
			return nil, false
		}
	}
}

// escape reads the escape at b[i], a backslash, and returns where it ends,
// or -1 for one JSON does not have.
func escape(b []byte, i int) int {
	if i+1 >= len(b) {
		return -1
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return i + 2
	case 'u':
		if i+6 > len(b) {
			return -1
		}
		for _, h := range b[i+2 : i+6] {
			if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
				return -1
			}
		}
		return i + 6
	}
	return -1
}
