package criteria

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
	"unsafe"
)

// Decode reads a state document in one pass, checking it against the
// schema's rules as it goes, without building a generic JSON tree: for a
// large state that is most of the hook's time. It gives up (ok false) on
// anything that is not a plainly valid state — a syntax error, a schema
// violation, a repeated key, an escape inside a name, deep nesting — and the
// caller then takes the general path, which says exactly what is wrong. So
// when ok is true the state is what FromDocument makes of the same bytes.
//
// The state's strings share data's memory rather than copying tens of
// thousands of names: the caller must not change data afterwards.
func Decode(data []byte) (s *State, ok bool) {
	d := decoder{data: data, text: unsafe.String(unsafe.SliceData(data), len(data))}
	s = &State{}
	var entries []Criterion
	var seen uint32
	ok = d.object(func(key []byte) bool {
		bit, known := topLevel[string(key)]
		if !known {
			return d.skip(0)
		}
		if seen&bit != 0 {
			return false // a repeated field: let the general path decide
		}
		seen |= bit
		switch string(key) {
		case "spec":
			return d.str(&s.Spec)
		case "criteria":
			return d.list(func(name string) { s.Criteria = appendDoubling(s.Criteria, Criterion{Name: name}) })
		case "criteriaStatus":
			return d.criteriaStatus(&entries, len(s.Criteria))
		case "exit_signal":
			return d.boolean(&s.ExitSignal)
		case "status":
			return d.str(&s.LoopStatus) && slices.Contains(Statuses, s.LoopStatus)
		case "iteration":
			return d.integer(&s.Iteration, 0)
		case "maxIterations":
			return d.integer(&s.MaxIterations, 1)
		case "cost":
			return d.number(&s.Cost, 0)
		case "budget":
			s.HasBudget = true
			return d.number(&s.Budget, 0)
		case "circuitBreaker":
			return d.circuitBreaker(&s.StuckCount)
		case "steps":
			return d.strs(&s.Steps)
		case "completedSteps":
			return d.strs(&s.CompletedSteps)
		case "remainingSteps":
			return d.strs(&s.RemainingSteps)
		case "mustNot":
			return d.strs(&s.MustNot)
		case "mustNotStatus":
			s.MustNotStatus = map[string]bool{}
			return d.object(func(key []byte) bool {
				var yes bool
				if _, dup := s.MustNotStatus[string(key)]; dup || !d.boolean(&yes) {
					return false
				}
				s.MustNotStatus[d.cut(key)] = yes
				return true
			})
		case "session_id":
			return d.str(&s.SessionID)
		}
		return false
	})
	d.space()
	if !ok || d.pos != len(d.data) {
		return nil, false
	}
	return s, s.merge(entries)
}

var topLevel = map[string]uint32{
	"spec": 1 << 0, "criteria": 1 << 1, "criteriaStatus": 1 << 2, "exit_signal": 1 << 3,
	"status": 1 << 4, "iteration": 1 << 5, "maxIterations": 1 << 6, "cost": 1 << 7,
	"budget": 1 << 8, "circuitBreaker": 1 << 9, "steps": 1 << 10, "completedSteps": 1 << 11,
	"remainingSteps": 1 << 12, "mustNot": 1 << 13, "mustNotStatus": 1 << 14, "session_id": 1 << 15,
}

// merge files the criteriaStatus entries, which may come before or after
// criteria in the file; it fails on repeated criteria or entries. Names are
// found through an open-addressing table of indexes, which for ten thousand
// names costs a fraction of a map of strings.
func (s *State) merge(entries []Criterion) bool {
	size := 1
	for size < 2*len(s.Criteria) {
		size <<= 1
	}
	slots := make([]int32, size) // 1 + the index of the criterion filed there; 0 is empty
	seed, mask := maphash.MakeSeed(), uint64(size-1)
	find := func(name string) (slot uint64, found bool) {
		for h := maphash.String(seed, name) & mask; ; h = (h + 1) & mask {
			if i := slots[h]; i == 0 || s.Criteria[i-1].Name == name {
				return h, i != 0
			}
		}
	}
	for i, c := range s.Criteria {
		h, dup := find(c.Name)
		if dup {
			return false
		}
		slots[h] = int32(i + 1)
	}
	filed := make([]bool, len(s.Criteria))
	var extra []Criterion
	var extraNames map[string]bool
	for _, e := range entries {
		if h, ok := find(e.Name); ok {
			i := slots[h] - 1
			if filed[i] {
				return false
			}
			filed[i] = true
			s.Criteria[i] = e
			continue
		}
		if extraNames == nil {
			extraNames = map[string]bool{}
		}
		if extraNames[e.Name] {
			return false
		}
		extraNames[e.Name] = true
		extra = append(extra, e)
	}
	sortByName(extra)
	s.Criteria = append(s.Criteria, extra...)
	return true
}

func (d *decoder) criteriaStatus(entries *[]Criterion, expect int) bool {
	*entries = make([]Criterion, 0, expect)
	return d.object(func(key []byte) bool {
		e := Criterion{Name: d.cut(key)}
		switch d.peek() {
		case 't', 'f':
			if !d.boolean(&e.Met) {
				return false
			}
		case '{':
			var hasMet bool
			ok := d.object(func(key []byte) bool {
				switch string(key) {
				case "met":
					hasMet = true
					return d.boolean(&e.Met)
				case "verification":
					return d.str(&e.Verification) && slices.Contains(Verifications, e.Verification)
				}
				return d.skip(0)
			})
			if !ok || !hasMet {
				return false
			}
		default:
			return false
		}
		*entries = appendDoubling(*entries, e)
		return true
	})
}

func (d *decoder) circuitBreaker(stuck *float64) bool {
	return d.object(func(key []byte) bool {
		switch string(key) {
		case "stuckCount":
			return d.integer(stuck, 0)
		case "lastUnmet":
			switch d.peek() {
			case '"':
				var s string
				return d.str(&s)
			case '[':
				var list []string
				return d.strs(&list)
			case 'n':
				return d.literal("null")
			}
			return false
		}
		return d.skip(0)
	})
}

// decoder is a JSON reader over a byte slice; every method reports whether
// what it read was there and of the expected shape.
type decoder struct {
	data []byte
	text string // data, seen as a string, for cutting names from
	pos  int
}

// cut returns b, a slice of d.data as plain returns it, as a string without
// copying it: b's capacity says where in d.data it starts.
func (d *decoder) cut(b []byte) string {
	start := cap(d.data) - cap(b)
	return d.text[start : start+len(b)]
}

// maxDepth bounds the nesting of unknown fields that the decoder will skip.
const maxDepth = 512

func (d *decoder) space() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) peek() byte {
	d.space()
	if d.pos < len(d.data) {
		return d.data[d.pos]
	}
	return 0
}

func (d *decoder) eat(c byte) bool {
	if d.peek() != c {
		return false
	}
	d.pos++
	return true
}

// object reads an object, calling member for each key with the decoder at its value.
func (d *decoder) object(member func(key []byte) bool) bool {
	if !d.eat('{') {
		return false
	}
	if d.eat('}') {
		return true
	}
	for {
		key, ok := d.plain()
		if !ok || !d.eat(':') || !member(key) {
			return false
		}
		if d.eat('}') {
			return true
		}
		if !d.eat(',') {
			return false
		}
	}
}

// plain reads a string with no escapes and valid UTF-8, and returns its
// bytes, which alias the document.
func (d *decoder) plain() ([]byte, bool) {
	if !d.eat('"') {
		return nil, false
	}
	start := d.pos
	end := bytes.IndexByte(d.data[start:], '"')
	if end < 0 {
		return nil, false
	}
	s := d.data[start : start+end]
	d.pos = start + end + 1
	if plainASCII(s) {
		return s, true
	}
	for _, c := range s {
		if c == '\\' || c < 0x20 {
			return nil, false
		}
	}
	return s, utf8.Valid(s)
}

// plainASCII reports whether s is printable ASCII without a backslash,
// eight bytes at a time: it is the common case for names.
func plainASCII(s []byte) bool {
	const lo, hi = 0x2020202020202020, 0x8080808080808080
	if bytes.IndexByte(s, '\\') >= 0 {
		return false
	}
	for len(s) >= 8 {
		x := binary.LittleEndian.Uint64(s)
		// A byte below 0x20 borrows into its high bit; one at or above 0x80 has it set.
		if ((x-lo)|x)&hi != 0 {
			return false
		}
		s = s[8:]
	}
	for _, c := range s {
		if c < 0x20 || c >= 0x80 {
			return false
		}
	}
	return true
}

func (d *decoder) str(out *string) bool {
	s, ok := d.plain()
	if ok {
		*out = d.cut(s)
	}
	return ok
}

func (d *decoder) strs(out *[]string) bool {
	return d.list(func(s string) { *out = append(*out, s) })
}

// list reads an array of strings, handing each to add.
func (d *decoder) list(add func(string)) bool {
	if !d.eat('[') {
		return false
	}
	if d.eat(']') {
		return true
	}
	for {
		s, ok := d.plain()
		if !ok {
			return false
		}
		add(d.cut(s))
		if d.eat(']') {
			return true
		}
		if !d.eat(',') {
			return false
		}
	}
}

func (d *decoder) boolean(out *bool) bool {
	switch d.peek() {
	case 't':
		*out = true
		return d.literal("true")
	case 'f':
		*out = false
		return d.literal("false")
	}
	return false
}

func (d *decoder) literal(word string) bool {
	d.space()
	if len(d.data)-d.pos < len(word) || string(d.data[d.pos:d.pos+len(word)]) != word {
		return false
	}
	d.pos += len(word)
	return true
}

func (d *decoder) number(out *float64, min float64) bool {
	d.space()
	start := d.pos
	if !d.numberToken() {
		return false
	}
	f, err := strconv.ParseFloat(string(d.data[start:d.pos]), 64)
	*out = f
	return err == nil && f >= min
}

func (d *decoder) integer(out *float64, min float64) bool {
	return d.number(out, min) && !math.IsInf(*out, 0) && *out == math.Trunc(*out)
}

// numberToken moves past a number as JSON's grammar has it.
func (d *decoder) numberToken() bool {
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	if d.pos < len(d.data) && d.data[d.pos] == '-' {
		d.pos++
	}
	if d.pos < len(d.data) && d.data[d.pos] == '0' {
		d.pos++
	} else if digits() == 0 {
		return false
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return false
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return false
		}
	}
	return true
}

// skip moves past any value, checking its syntax.
func (d *decoder) skip(depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch d.peek() {
	case '{':
		d.pos++
		if d.eat('}') {
			return true
		}
		for {
			if !d.skipString() || !d.eat(':') || !d.skip(depth+1) {
				return false
			}
			if d.eat('}') {
				return true
			}
			if !d.eat(',') {
				return false
			}
		}
	case '[':
		d.pos++
		if d.eat(']') {
			return true
		}
		for {
			if !d.skip(depth + 1) {
				return false
			}
			if d.eat(']') {
				return true
			}
			if !d.eat(',') {
				return false
			}
		}
	case '"':
		return d.skipString()
	case 't':
		return d.literal("true")
	case 'f':
		return d.literal("false")
	case 'n':
		return d.literal("null")
	}
	start := d.pos
	if !d.numberToken() {
		return false
	}
	// encoding/json refuses a number beyond float64's range even in a field
	// nobody reads, so the general path would find the state invalid.
	_, err := strconv.ParseFloat(string(d.data[start:d.pos]), 64)
	return err == nil
}

// skipString moves past a string, escapes and all.
func (d *decoder) skipString() bool {
	if !d.eat('"') {
		return false
	}
	for i := d.pos; i < len(d.data); i++ {
		switch c := d.data[i]; {
		case c == '"':
			d.pos = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			i++
			if i >= len(d.data) {
				return false
			}
			switch d.data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(d.data) {
					return false
				}
				for _, h := range d.data[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return false
					}
				}
				i += 4
			default:
				return false
			}
		}
	}
	return false
}

// appendDoubling appends, doubling the capacity when it runs out: append
// grows a large slice by a quarter at a time, and for ten thousand criteria
// the copies and fresh pages of those many steps cost more than reading them.
func appendDoubling(list []Criterion, c Criterion) []Criterion {
	if len(list) == cap(list) {
		grown := make([]Criterion, len(list), max(2*cap(list), 64))
		copy(grown, list)
		list = grown
	}
	return append(list, c)
}
