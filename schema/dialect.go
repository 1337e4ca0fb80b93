// Package schema owns the shape of every loop system's state file: each
// dialect's embedded JSON Schema, its validation as sorted "pointer: message"
// problems, and the reading of its file into the loop model.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/loophook/loophook/criteria"
)

// A Dialect is one loop system's state file: where it is found, how it is
// told apart, its schema, and how it reads into the loop model. Adding a
// loop system is adding a row to Dialects.
type Dialect struct {
	Name string
	// File is where the state is found in a directory, a glob pattern.
	File string
	// Schema is the JSON Schema, draft 2020-12, registered under ID.
	Schema []byte
	ID     string
	// Tell reports whether a document found at File is this dialect's; nil
	// means every document there is.
	Tell func(doc map[string]any) bool
	// validate lists a document's problems against Schema.
	validate func(doc any) []string
	// loop builds the loop from a document that passed validate.
	loop func(doc map[string]any) *criteria.Loop
	// Progress names the top-level fields whose change is progress for
	// the runaway guard (a dotted name reaches into objects:
	// "capabilities.completed"); nil means the whole state. Timestamps
	// never count.
	Progress []string
	// fast, when set, reads a plainly valid file in one pass (ok) or leaves
	// it to the general path.
	fast func(data []byte) (l *criteria.Loop, ok bool)
}

//go:embed state.schema.json
var hopeSchema []byte

// Dialects are the loop systems, in the order discovery looks for them in
// each directory.
var Dialects = []Dialect{hope}

// HopeFile is where a hope loop keeps its state, and where init writes one.
const HopeFile = ".loop/state.json"

// Hope is the dialect of HopeFile, the one people's commands write.
var Hope = hope

var hope = Dialect{
	Name:     "hope",
	File:     HopeFile,
	Schema:   hopeSchema,
	ID:       "https://loophook.dev/schema/state.json",
	validate: validateHope,
	loop:     hopeFromDocument,
	fast:     decode,
}

// Lookup returns the named dialect.
func Lookup(name string) (Dialect, error) {
	for _, d := range Dialects {
		if d.Name == name {
			return d, nil
		}
	}
	return Dialect{}, fmt.Errorf("unknown dialect %q (want %s)", name, strings.Join(Names(), ", "))
}

// Names are the dialects' names, in discovery order.
func Names() []string {
	var names []string
	for _, d := range Dialects {
		names = append(names, d.Name)
	}
	return names
}

// Reading is what a dialect makes of a file's bytes.
type Reading struct {
	Loop     *criteria.Loop // nil when the file is not a valid state
	Problems []string       // why it is not, as "pointer: message" lines
	// Session is the file's session_id when it parses as JSON, valid or
	// not, so that another session's broken loop stays theirs.
	Session string
	// Progress fingerprints the loop's progress fields, timestamps left
	// out; for a file that is not JSON, its bytes.
	Progress string
}

// Read reads a state file's bytes; it accepts a UTF-8 byte order mark and
// CRLF line ends, and never fails: what is wrong becomes Problems.
func (d Dialect) Read(data []byte) Reading {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if d.fast != nil {
		if l, ok := d.fast(data); ok {
			l.Dialect = d.Name
			return Reading{Loop: l, Session: l.SessionID, Progress: d.progress(data)}
		}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return Reading{Problems: []string{problemEmpty}, Progress: progressOfBytes(data)}
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return Reading{Problems: []string{JSONError(data, err)}, Progress: progressOfBytes(data)}
	}
	r := Reading{Progress: progressOfDocument(doc, d.Progress)}
	obj, _ := doc.(map[string]any)
	r.Session, _ = obj["session_id"].(string)
	if r.Problems = d.Validate(doc); len(r.Problems) > 0 {
		return r
	}
	r.Loop = d.loop(obj)
	r.Loop.Dialect = d.Name
	return r
}

// progress fingerprints a state that read plainly valid on the fast path.
// Its bytes will do when the whole state counts and no key can be a
// timestamp, which is the common case and costs no second decode.
func (d Dialect) progress(data []byte) string {
	if d.Progress == nil && !mayHoldTimes(data) {
		return progressOfBytes(data)
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return progressOfBytes(data) // not reached: the fast path read it
	}
	return progressOfDocument(doc, d.Progress)
}

// Validate checks a decoded JSON document (as encoding/json decodes into
// any) against the dialect's schema and returns every problem as a sorted
// "pointer: message" line; none when it is valid.
func (d Dialect) Validate(doc any) []string {
	problems := d.validate(doc)
	slices.Sort(problems)
	return problems
}
