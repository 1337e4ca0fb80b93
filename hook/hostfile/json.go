// Package hostfile edits an agent host's configuration files as a person
// wrote them: JSON and JSON with comments as a syntax tree (hujson), whose
// every byte loophook does not change is packed back as it was, and TOML
// tables line by line, each result parsed (go-toml) before it is written.
package hostfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/loophook/loophook/schema"
)

// A JSON is a host's JSON settings file, read into a syntax tree.
type JSON struct {
	root    hujson.Value
	bom     bool
	newline string // the file's line end
	unit    string // one level of indentation, as the file has it
}

var bom = []byte("\xef\xbb\xbf")

// ParseJSON reads a settings file that must hold one JSON object; an empty
// or missing one is {}. comments allows JSON with comments (the host reads
// them); else a file with comments or trailing commas is refused, as the
// host would refuse it.
func ParseJSON(data []byte, comments bool) (*JSON, error) {
	d := &JSON{newline: "\n", unit: "  "}
	data, d.bom = bytes.CutPrefix(data, bom)
	if bytes.Contains(data, []byte("\r\n")) {
		d.newline = "\r\n"
	}
	if len(bytes.TrimSpace(data)) == 0 {
		d.root = hujson.Value{Value: &hujson.Object{}, AfterExtra: hujson.Extra(d.newline)}
		return d, nil
	}
	if !comments && !json.Valid(data) {
		var v any
		return nil, errors.New(schema.JSONError(data, json.Unmarshal(data, &v)))
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "hujson: "))
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, errors.New(errNotObject)
	}
	d.root = v
	if o := d.Top(); len(o.o.Members) > 0 {
		if indent, ok := lineIndent(o.o.Members[0].Name.BeforeExtra); ok && indent != "" {
			d.unit = indent
		}
	}
	return d, nil
}

// Bytes is the file as it now reads.
func (d *JSON) Bytes() []byte {
	out := d.root.Pack()
	if d.bom {
		out = append(bytes.Clone(bom), out...)
	}
	return out
}

// Top is the file's top-level object.
func (d *JSON) Top() *Object {
	o := d.root.Value.(*hujson.Object)
	return &Object{o: o, doc: d, flat: len(o.Members) > 0 && !multiline(d.root)}
}

// HasComments reports whether the file has a comment anywhere.
func (d *JSON) HasComments() bool {
	return !d.root.IsStandard()
}

// An Object is a JSON object in a file, the indentation of its line, and
// whether it is laid out on one line (flat): what is added to it is then
// laid out so too.
type Object struct {
	o      *hujson.Object
	indent string
	doc    *JSON
	flat   bool
}

// flatChild reports whether a child value is laid out on one line: one with
// items when they are all on its line, an empty one when its parent is.
func flatChild(parentFlat bool, v hujson.Value, items int) bool {
	if items == 0 {
		return parentFlat
	}
	return !multiline(v)
}

// Len is the number of members.
func (o *Object) Len() int { return len(o.o.Members) }

// Keys are the members' names, in order.
func (o *Object) Keys() []string {
	var keys []string
	for _, m := range o.o.Members {
		keys = append(keys, m.Name.Value.(hujson.Literal).String())
	}
	return keys
}

// index is where key is, or -1. With a key given twice the last one counts,
// as it does for JavaScript's JSON.parse, which reads the hosts' settings.
func (o *Object) index(key string) int {
	for i := len(o.o.Members) - 1; i >= 0; i-- {
		if o.o.Members[i].Name.Value.(hujson.Literal).String() == key {
			return i
		}
	}
	return -1
}

// Has reports whether the object has key.
func (o *Object) Has(key string) bool { return o.index(key) >= 0 }

// Value is key's value as Go reads JSON: string, int64, float64, bool, nil,
// or Composite for an object or an array; ok is false when key is absent.
func (o *Object) Value(key string) (v any, ok bool) {
	i := o.index(key)
	if i < 0 {
		return nil, false
	}
	return scalar(o.o.Members[i].Value), true
}

// String is key's value when it is a string.
func (o *Object) String(key string) (string, bool) {
	v, _ := o.Value(key)
	s, ok := v.(string)
	return s, ok
}

// Raw is key's value as written, without the blanks and comments around it.
func (o *Object) Raw(key string) string {
	i := o.index(key)
	if i < 0 {
		return ""
	}
	v := o.o.Members[i].Value
	v.BeforeExtra, v.AfterExtra = nil, nil
	return string(v.Pack())
}

// Composite is the value of a member or element that is an object or an array.
type Composite struct{}

func scalar(v hujson.Value) any {
	lit, ok := v.Value.(hujson.Literal)
	if !ok {
		return Composite{}
	}
	switch lit.Kind() {
	case '"':
		return lit.String()
	case 't', 'f':
		return lit.Bool()
	case 'n':
		return nil
	}
	if n, err := strconv.ParseInt(string(lit), 10, 64); err == nil {
		return n
	}
	return lit.Float()
}

// Object is the object under key: nil when there is none, an error when
// the value is something else; pointer names it for the error.
func (o *Object) Object(key, pointer string) (*Object, error) {
	i := o.index(key)
	if i < 0 {
		return nil, nil
	}
	m := &o.o.Members[i]
	child, ok := m.Value.Value.(*hujson.Object)
	if !ok {
		return nil, errors.New(pointer + errIsNotObject)
	}
	return &Object{o: child, indent: o.childIndent(m.Name.BeforeExtra), doc: o.doc, flat: flatChild(o.flat, m.Value, len(child.Members))}, nil
}

// List is the array under key: nil when there is none, an error when the
// value is something else.
func (o *Object) List(key, pointer string) (*List, error) {
	i := o.index(key)
	if i < 0 {
		return nil, nil
	}
	m := &o.o.Members[i]
	a, ok := m.Value.Value.(*hujson.Array)
	if !ok {
		return nil, errors.New(pointer + errIsNotArray)
	}
	return &List{a: a, indent: o.childIndent(m.Name.BeforeExtra), doc: o.doc, flat: flatChild(o.flat, m.Value, len(a.Elements))}, nil
}

// childIndent is the indentation of the line of a member or element whose
// blanks before it are before: its own line's, or its parent's when it
// shares the parent's line.
func (o *Object) childIndent(before hujson.Extra) string {
	if indent, ok := lineIndent(before); ok {
		return indent
	}
	return o.indent
}

// Set gives key the value v (a string, an int, a bool, []Member or []any),
// in place when it is there, else as a new last member.
func (o *Object) Set(key string, v any) {
	if i := o.index(key); i >= 0 {
		m := &o.o.Members[i]
		m.Value.Value = o.doc.value(v, o.childIndent(m.Name.BeforeExtra), !o.flat && multiline(m.Value)).Value
		return
	}
	if n := len(o.o.Members); n > 0 && !o.flat {
		keepComment(&o.o.Members[n-1].Value.AfterExtra, &o.o.AfterExtra)
	}
	before, indent, multi := o.doc.nextItem(o.flat, o.indent, o.o.Members, func(m hujson.ObjectMember) hujson.Extra { return m.Name.BeforeExtra }, &o.o.AfterExtra)
	value := o.doc.value(v, indent, multi)
	value.BeforeExtra = hujson.Extra(" ")
	o.o.Members = append(o.o.Members, hujson.ObjectMember{
		Name:  hujson.Value{BeforeExtra: before, Value: hujson.String(key)},
		Value: value,
	})
}

// AddObject adds key as a new empty object, last, and returns it.
func (o *Object) AddObject(key string) *Object {
	o.Set(key, []Member{})
	child, _ := o.Object(key, "")
	return child
}

// AddList adds key as a new empty array, last, and returns it.
func (o *Object) AddList(key string) *List {
	o.Set(key, []any{})
	list, _ := o.List(key, "")
	return list
}

// Remove takes key out, every member of that name.
func (o *Object) Remove(key string) {
	trailing := hasTrailingComma(o.o.Members, func(m hujson.ObjectMember) hujson.Extra { return m.Value.AfterExtra })
	kept := o.o.Members[:0]
	for _, m := range o.o.Members {
		if m.Name.Value.(hujson.Literal).String() != key {
			kept = append(kept, m)
		}
	}
	o.o.Members = kept
	if n := len(kept); n > 0 && !trailing {
		kept[n-1].Value.AfterExtra = movedAfter(kept[n-1].Value.AfterExtra, &o.o.AfterExtra)
	}
	if len(kept) == 0 && isBlank(o.o.AfterExtra) {
		o.o.AfterExtra = nil
	}
}

// A List is a JSON array in a file, the indentation of its line, and
// whether it is laid out on one line.
type List struct {
	a      *hujson.Array
	indent string
	doc    *JSON
	flat   bool
}

// Len is the number of elements.
func (l *List) Len() int { return len(l.a.Elements) }

// Object is the element at i when it is an object.
func (l *List) Object(i int) (*Object, bool) {
	e := &l.a.Elements[i]
	o, ok := e.Value.(*hujson.Object)
	if !ok {
		return nil, false
	}
	indent, inLine := lineIndent(e.BeforeExtra)
	if !inLine {
		indent = l.indent
	}
	return &Object{o: o, indent: indent, doc: l.doc, flat: flatChild(l.flat, *e, len(o.Members))}, true
}

// Strings are the elements when every one is a string; ok is false else.
func (l *List) Strings() (out []string, ok bool) {
	for _, e := range l.a.Elements {
		s, isString := scalar(e).(string)
		if !isString {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// Append adds v (as Object.Set takes it) as the last element.
func (l *List) Append(v any) {
	if n := len(l.a.Elements); n > 0 && !l.flat {
		keepComment(&l.a.Elements[n-1].AfterExtra, &l.a.AfterExtra)
	}
	before, indent, multi := l.doc.nextItem(l.flat, l.indent, l.a.Elements, func(e hujson.Value) hujson.Extra { return e.BeforeExtra }, &l.a.AfterExtra)
	value := l.doc.value(v, indent, multi)
	value.BeforeExtra = before
	l.a.Elements = append(l.a.Elements, value)
}

// RemoveIf takes out the elements drop picks, and says how many.
func (l *List) RemoveIf(drop func(i int) bool) int {
	trailing := hasTrailingComma(l.a.Elements, func(e hujson.Value) hujson.Extra { return e.AfterExtra })
	kept := l.a.Elements[:0]
	removed := 0
	for i, e := range l.a.Elements {
		if drop(i) {
			removed++
			continue
		}
		kept = append(kept, e)
	}
	l.a.Elements = kept
	if n := len(kept); n > 0 && !trailing {
		kept[n-1].AfterExtra = movedAfter(kept[n-1].AfterExtra, &l.a.AfterExtra)
	}
	if len(kept) == 0 && isBlank(l.a.AfterExtra) {
		l.a.AfterExtra = nil
	}
	return removed
}

// keepComment keeps a comment on the last item's line with that item, when
// an item goes after it: it moves from the container's end to the item's.
func keepComment(after, end *hujson.Extra) {
	i := bytes.IndexByte(*end, '\n')
	if i < 0 || isBlank((*end)[:i]) {
		return
	}
	head := bytes.TrimRight((*end)[:i], " \t\r")
	*after = append(append(hujson.Extra{}, *after...), head...)
	*end = append(hujson.Extra{}, (*end)[len(head):]...)
}

// hasTrailingComma reports whether the last item is followed by a comma:
// hujson writes one when the last value's after-extra is not nil.
func hasTrailingComma[T any](items []T, after func(T) hujson.Extra) bool {
	return len(items) > 0 && after(items[len(items)-1]) != nil
}

// movedAfter keeps a new last value from growing a trailing comma (which
// Gemini CLI rejects): what stood between it and its comma moves to the
// container's end.
func movedAfter(after hujson.Extra, end *hujson.Extra) hujson.Extra {
	if after != nil {
		*end = append(append(hujson.Extra{}, after...), *end...)
	}
	return nil
}

// nextItem is how a new last item of a container whose own line is indented
// by indent is laid out: the blanks before it, its line's indentation, and
// whether it goes on a line of its own. It follows the items there; an
// empty container opens on lines of its own, unless it is flat.
func nextItem[T any](d *JSON, flat bool, indent string, items []T, before func(T) hujson.Extra, end *hujson.Extra) (hujson.Extra, string, bool) {
	if flat {
		if len(items) == 0 {
			return nil, indent, false
		}
		return hujson.Extra(" "), indent, false
	}
	if len(items) > 0 {
		if itemIndent, ok := lineIndent(before(items[len(items)-1])); ok {
			return hujson.Extra(d.newline + itemIndent), itemIndent, true
		}
		return hujson.Extra(" "), indent, false
	}
	itemIndent := indent + d.unit
	if !isBlank(*end) { // comments of an empty container stay, before it
		lead := hujson.Extra(strings.TrimRight(string(*end), " \t\r\n") + d.newline + itemIndent)
		*end = hujson.Extra(d.newline + indent)
		return lead, itemIndent, true
	}
	*end = hujson.Extra(d.newline + indent)
	return hujson.Extra(d.newline + itemIndent), itemIndent, true
}

func (d *JSON) nextItem(flat bool, indent string, items any, before any, end *hujson.Extra) (hujson.Extra, string, bool) {
	switch items := items.(type) {
	case []hujson.ObjectMember:
		return nextItem(d, flat, indent, items, before.(func(hujson.ObjectMember) hujson.Extra), end)
	case []hujson.Value:
		return nextItem(d, flat, indent, items, before.(func(hujson.Value) hujson.Extra), end)
	}
	panic("hostfile: not a container")
}

// multiline reports whether a value spans lines.
func multiline(v hujson.Value) bool {
	v.BeforeExtra, v.AfterExtra = nil, nil
	return bytes.ContainsRune(v.Pack(), '\n')
}

// lineIndent is the blanks after the last line end in before; ok is false
// when before has no line end: the item shares its line with what precedes.
func lineIndent(before hujson.Extra) (string, bool) {
	i := bytes.LastIndexByte(before, '\n')
	if i < 0 {
		return "", false
	}
	rest := before[i+1:]
	if len(bytes.TrimLeft(rest, " \t")) != 0 {
		return "", false
	}
	return string(rest), true
}

func isBlank(b hujson.Extra) bool { return len(bytes.TrimSpace(b)) == 0 }

// A Member is one member of an object loophook writes.
type Member struct {
	Key   string
	Value any
}

// value is v as a JSON value laid out as the file lays out its own: on
// lines indented from indent by the file's unit, or on one line.
func (d *JSON) value(v any, indent string, multi bool) hujson.Value {
	var b strings.Builder
	d.write(&b, v, indent, multi)
	out, err := hujson.Parse([]byte(b.String()))
	if err != nil {
		panic("hostfile: " + err.Error()) // only loophook's own values get here
	}
	return out
}

func (d *JSON) write(b *strings.Builder, v any, indent string, multi bool) {
	inner, sep, open, close := indent+d.unit, ", ", "", ""
	if multi {
		sep, open, close = ","+d.newline+inner, d.newline+inner, d.newline+indent
	}
	switch v := v.(type) {
	case []Member:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteString("{" + open)
		for i, m := range v {
			if i > 0 {
				b.WriteString(sep)
			}
			b.Write(hujson.String(m.Key))
			b.WriteString(": ")
			d.write(b, m.Value, inner, multi)
		}
		b.WriteString(close + "}")
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[" + open)
		for i, x := range v {
			if i > 0 {
				b.WriteString(sep)
			}
			d.write(b, x, inner, multi)
		}
		b.WriteString(close + "]")
	default:
		var out bytes.Buffer
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			panic("hostfile: " + err.Error())
		}
		b.Write(bytes.TrimSuffix(out.Bytes(), []byte("\n")))
	}
}

// Members is the file's top-level object as encoding/json reads it.
func (d *JSON) Members() map[string]any {
	v := d.root.Clone()
	v.Standardize()
	var m map[string]any
	json.Unmarshal(v.Pack(), &m)
	return m
}
