package schema

import (
	"bytes"
	"encoding/binary"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/loophook/loophook/criteria"
)

// decode reads a hope state document in one pass, checking it against the
// schema's rules as it goes, without building a generic JSON tree: for a
// large state that is most of the hook's time. It gives up (ok false) on
// anything that is not a plainly valid state — a syntax error, a schema
// violation, a repeated key, an escape inside a name, deep nesting — and the
// caller then takes the general path, which says exactly what is wrong. So
// when ok is true the loop is what fromDocument makes of the same bytes.
//
// The loop's strings share data's memory rather than copying tens of
// thousands of names: the caller must not change data afterwards.
func decode(data []byte) (s *criteria.Loop, ok bool) {
	if len(data) > math.MaxInt32 {
		return nil, false
	}
	d := decoder{data: data, text: unsafe.String(unsafe.SliceData(data), len(data))}
	s = &criteria.Loop{}
	var f filer
	var top, meta hopeLevel
	var seen uint32
	ok = d.object(func(key []byte) bool {
		field := slices.Index(fields[:], string(key))
		if field < 0 {
			return d.skip(0)
		}
		bit := uint32(1) << field
		if seen&bit != 0 {
			return false // a repeated field: let the general path decide
		}
		seen |= bit
		switch string(key) {
		case "spec":
			return d.str(&s.Spec)
		case "criteria":
			// Names are checked when finished: most are the same bytes as
			// a criteriaStatus entry's name, which is checked as it is read.
			var names []string
			return d.listOf(d.quoted, func(name []byte) { names = append(names, d.cut(name)) }) && f.list(names)
		case "criteriaStatus":
			return d.criteriaStatus(&f)
		case "exit_signal":
			s.HasExitSignal = true
			return d.boolean(&s.ExitSignal)
		case "status":
			return d.str(&s.LoopStatus) && slices.Contains(statuses, s.LoopStatus)
		case "iteration", "maxIterations", "cost", "budget", "shape", "errors":
			ok, _ := d.level(&top, key)
			return ok
		case "metadata":
			return d.object(func(key []byte) bool {
				if ok, known := d.level(&meta, key); known {
					return ok
				}
				return d.skip(0)
			})
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
	hopeFinish(s, top, meta)
	return s, f.finish(s)
}

// fields are the top-level fields the decoder reads; the rest it skips.
var fields = [...]string{"spec", "criteria", "criteriaStatus", "exit_signal", "status", "iteration",
	"maxIterations", "cost", "budget", "circuitBreaker", "steps", "completedSteps", "remainingSteps",
	"mustNot", "mustNotStatus", "session_id", "shape", "errors", "metadata"}

// filer files the criteriaStatus entries under the criteria they name, as
// they are read. Entries read before the criteria list wait in early until
// it comes. Repeated criteria or entries make it fail.
type filer struct {
	crits   criteria.Criteria
	filed   []bool         // by criterion: its entry has been read
	index   map[string]int // criterion name → its place in list_
	indexed bool
	early   []entry // entries read before the criteria list
	extra   []entry // entries for names the list does not have
	extras  map[string]bool
}

// entry is one criteriaStatus entry; verification is 1 + its index in
// verifications, or 0 when it has none.
type entry struct {
	name         string
	met          bool
	verification uint8
}

func (e entry) criterion() criteria.Criterion {
	c := criteria.Criterion{Name: e.name, Met: e.met}
	if e.verification > 0 {
		c.Verification = verifications[e.verification-1]
	}
	return c
}

// list indexes the criteria list, and files the entries read so far.
func (f *filer) list(names []string) bool {
	f.crits = make(criteria.Criteria, len(names))
	f.filed = make([]bool, len(names))
	f.index = make(map[string]int, len(names))
	for i, name := range names {
		if _, dup := f.index[name]; dup {
			return false
		}
		f.index[name] = i
		f.crits[i].Name = name
	}
	f.indexed = true
	early := f.early
	f.early = nil
	for _, e := range early {
		if !f.file(e) {
			return false
		}
	}
	return true
}

// file files one criteriaStatus entry, or keeps it for later when the
// criteria list has not been read yet.
func (f *filer) file(e entry) bool {
	if !f.indexed {
		f.early = append(f.early, e)
		return true
	}
	if i, ok := f.index[e.name]; ok {
		if f.filed[i] {
			return false
		}
		f.filed[i] = true
		f.crits[i] = e.criterion()
		return true
	}
	if f.extras[e.name] {
		return false
	}
	if f.extras == nil {
		f.extras = map[string]bool{}
	}
	f.extras[e.name] = true
	f.extra = append(f.extra, e)
	return true
}

// finish makes s's criteria: the listed ones with their entries, then the
// entries for names the list does not have, sorted by name.
func (f *filer) finish(s *criteria.Loop) bool {
	if !f.indexed && !f.list(nil) {
		return false
	}
	for i, c := range f.crits {
		if !f.filed[i] && !plainBytes(unsafe.Slice(unsafe.StringData(c.Name), len(c.Name))) {
			return false // a name no entry vouches for, and not a plain string
		}
	}
	slices.SortFunc(f.extra, func(a, b entry) int { return strings.Compare(a.name, b.name) })
	for _, e := range f.extra {
		f.crits = append(f.crits, e.criterion())
	}
	if len(f.crits) > 0 {
		s.Criteria = f.crits
	}
	return true
}

// criteriaStatus reads the criteriaStatus object, filing each entry.
func (d *decoder) criteriaStatus(f *filer) bool {
	if !d.eat('{') {
		return false
	}
	if d.eat('}') {
		return true
	}
	for {
		if !d.entry(f) {
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

// entry reads one criteriaStatus member and files it.
func (d *decoder) entry(f *filer) bool {
	key, ok := d.plain()
	if !ok || !d.eat(':') {
		return false
	}
	e := entry{name: d.cut(key)}
	switch d.peek() {
	case 't', 'f':
		if !d.boolean(&e.met) {
			return false
		}
	case '{':
		if k := d.recent.match(d.data[d.pos:]); k >= 0 {
			e.met, e.verification = d.recent.met[k], d.recent.verification[k]
			d.pos += len(d.recent.raw[k])
			break
		}
		start := d.pos
		d.pos++
		hasMet := false
		for more := !d.eat('}'); more; {
			k, ok := d.plain()
			if !ok || !d.eat(':') {
				return false
			}
			switch string(k) {
			case "met":
				hasMet = true
				ok = d.boolean(&e.met)
			case "verification":
				var v string
				i := -1
				if d.str(&v) {
					i = slices.Index(verifications, v)
				}
				e.verification, ok = uint8(i+1), i >= 0
			default:
				ok = d.skip(0)
			}
			if more = !d.eat('}'); !ok || more && !d.eat(',') {
				return false
			}
		}
		if !hasMet {
			return false
		}
		d.recent.add(d.data[start:d.pos], e)
	default:
		return false
	}
	return f.file(e)
}

// recent remembers the last few entry objects read, by their bytes. Most
// entries are one of a handful of objects that are the same to the byte,
// such as {"met": true, "verification": "execution output"}, and comparing
// bytes costs less than reading them: the same bytes read the same.
type recent struct {
	raw          [4][]byte
	met          [4]bool
	verification [4]uint8
	next         int
}

// match returns which remembered object data starts with, or -1.
func (r *recent) match(data []byte) int {
	for k, raw := range r.raw {
		if len(raw) > 0 && bytes.HasPrefix(data, raw) {
			return k
		}
	}
	return -1
}

func (r *recent) add(raw []byte, e entry) {
	k := r.next
	r.raw[k], r.met[k], r.verification[k] = raw, e.met, e.verification
	r.next = (k + 1) % len(r.raw)
}

// level reads the member key of a hopeLevel, as the top level and metadata
// both hold them; known is false when key is not one. A member read twice
// ends as its last value, as encoding/json has it.
func (d *decoder) level(h *hopeLevel, key []byte) (ok, known bool) {
	switch string(key) {
	case "iteration":
		h.has |= hasIteration
		return d.integer(&h.iteration, 0), true
	case "maxIterations":
		h.has |= hasMaxIterations
		return d.integer(&h.maxIterations, 1), true
	case "cost":
		h.has |= hasCost
		return d.number(&h.cost, 0), true
	case "budget":
		h.has |= hasBudget
		return d.number(&h.budget, 0), true
	case "shape":
		h.has |= hasShape
		return d.str(&h.shape), true
	case "errors":
		h.has |= hasErrors
		return d.lastString(&h.lastError), true
	}
	return false, false
}

// lastString moves past any value; when it is an array whose last item is a
// string, out is that string, else "".
func (d *decoder) lastString(out *string) bool {
	*out = ""
	if d.peek() != '[' {
		return d.skip(0)
	}
	d.pos++
	if d.eat(']') {
		return true
	}
	for {
		*out = ""
		if d.peek() == '"' {
			if !d.str(out) {
				return false
			}
		} else if !d.skip(1) {
			return false
		}
		if d.eat(']') {
			return true
		}
		if !d.eat(',') {
			return false
		}
	}
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
	data   []byte
	text   string // data, seen as a string, for cutting names from
	pos    int
	recent recent // criteriaStatus entry objects
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
	i := d.pos
	for i < len(d.data) {
		if c := d.data[i]; c > ' ' || c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			break
		}
		i++
	}
	d.pos = i
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
	s, ok := d.quoted()
	return s, ok && plainBytes(s)
}

// quoted reads a string up to the next quote, and returns its bytes, which
// alias the document; the caller must check them with plainBytes.
func (d *decoder) quoted() ([]byte, bool) {
	if !d.eat('"') {
		return nil, false
	}
	start := d.pos
	n := bytes.IndexByte(d.data[start:], '"')
	if n < 0 {
		return nil, false
	}
	d.pos = start + n + 1
	return d.data[start : start+n], true
}

// plainBytes reports whether s, what is between a string's quotes, has no
// escape or control character and is valid UTF-8.
func plainBytes(s []byte) bool {
	if plainASCII(s) {
		return true
	}
	for _, c := range s {
		if c == '\\' || c < 0x20 {
			return false
		}
	}
	return utf8.Valid(s)
}

// plainASCII reports whether s is printable ASCII without a backslash. It
// looks at eight bytes at a time: names are long, and mostly are.
func plainASCII(s []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	var special uint64
	for len(s) >= 8 {
		x := binary.LittleEndian.Uint64(s)
		b := x ^ ('\\' * ones)
		// A high bit set in any term flags a byte that is a backslash, below
		// 0x20 (it borrows), or 0x80 and above. A borrow from a flagged byte
		// can flag the next one too, which does not matter here.
		special |= (b-ones)&^b | (x - ' '*ones) | x
		s = s[8:]
	}
	for _, c := range s {
		if c == '\\' || c < 0x20 || c >= 0x80 {
			return false
		}
	}
	return special&highs == 0
}

func (d *decoder) str(out *string) bool {
	s, ok := d.plain()
	if ok {
		*out = d.cut(s)
	}
	return ok
}

func (d *decoder) strs(out *[]string) bool {
	return d.list(func(s []byte) { *out = append(*out, d.cut(s)) })
}

// list reads an array of strings, handing each to add.
func (d *decoder) list(add func([]byte)) bool {
	return d.listOf(d.plain, add)
}

// listOf reads an array of strings with read, handing each to add.
func (d *decoder) listOf(read func() ([]byte, bool), add func([]byte)) bool {
	if !d.eat('[') {
		return false
	}
	if d.eat(']') {
		return true
	}
	for {
		s, ok := read()
		if !ok {
			return false
		}
		add(s)
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
