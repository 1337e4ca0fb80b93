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
	"strconv"
	"strings"

	"github.com/loophook/loophook/criteria"
)

// A Dialect is one loop system's state file: where it is found, how it is
// told apart, its schema, and how it reads into the loop model. Adding a
// loop system is adding a row to Dialects.
type Dialect struct {
	Name string
	// File is where the state is found in a directory, a glob pattern with
	// at most one "*", which stands for one directory name.
	File string
	// Newest names the top-level field whose greatest value picks the file
	// when File matches several (a file without it is the oldest); ""
	// picks the greatest directory name.
	Newest string
	// Shared says File's name is not this system's alone: discovery takes
	// a file there only when Tells says it is this dialect's.
	Shared bool
	// Schema is the JSON Schema, draft 2020-12, registered under ID.
	Schema []byte
	ID     string
	// Tell lists the sets of top-level names that tell a document as this
	// dialect's, for a file named by --state or found at a Shared File: it
	// is when it has every name of one set. nil: the dialect of a document
	// no other dialect tells.
	Tell [][]string
	// Stage names the top-level field that says where the loop stands (a
	// phase, a state), for people; "" when there is none.
	Stage string
	// session names the field whose value, when set, is the only host
	// session the loop governs; "" when the file has none of that meaning.
	session string
	// validate lists a document's problems against Schema.
	validate func(doc any) []string
	// loop builds the loop from a document that passed validate.
	loop func(doc map[string]any) *criteria.Loop
}

//go:embed state.schema.json
var hopeSchema []byte

// Dialects are the loop systems, in the order discovery looks for them in
// each directory (DIALECTS.md).
var Dialects = []Dialect{hope, orchestrator, loopController, onLoop}

// HopeFile is where a hope loop keeps its state, and where init writes one.
const HopeFile = ".loop/state.json"

// Hope is the dialect of HopeFile, the one people's commands write.
var Hope = hope

var hope = Dialect{
	Name:     "hope",
	File:     HopeFile,
	Schema:   hopeSchema,
	ID:       "https://loophook.dev/schema/state.json",
	session:  "session_id",
	validate: validateHope,
	loop:     hopeFromDocument,
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
	// Session is the file's session when it parses as JSON, valid or not,
	// so that another session's broken loop stays theirs; always "" for a
	// dialect whose file names no host session.
	Session string
	// Stage is where the loop stands as the file names it (on-loop's
	// phase, the loop controller's state), for people; "" when it has none.
	Stage string
	// Progress fingerprints the whole document as SPEC rule 9 defines it
	// (progress.go); for a file that is not JSON, its bytes.
	Progress string
}

// Read reads a state file's bytes; it accepts a UTF-8 byte order mark and
// CRLF line ends, and never fails: what is wrong becomes Problems.
func (d Dialect) Read(data []byte) Reading {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return Reading{Problems: []string{problemEmpty}, Progress: progressOfBytes(data)}
	}
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return Reading{Problems: []string{JSONError(data, err)}, Progress: progressOfBytes(data)}
	}
	progress := func() string { return progressOfDocument(doc) }
	if len(data) >= concurrentProgress {
		type taken struct {
			progress string
			panicked any
		}
		done := make(chan taken, 1)
		go func() {
			defer func() {
				if p := recover(); p != nil {
					done <- taken{panicked: p}
				}
			}()
			done <- taken{progress: progressOfDocument(doc)}
		}()
		progress = func() string {
			t := <-done
			if t.panicked != nil {
				panic(t.panicked) // on the hook's goroutine, which answers it
			}
			return t.progress
		}
	}
	r := d.readDocument(doc)
	r.Progress = progress()
	return r
}

// concurrentProgress is the size of a file whose progress fingerprint is
// taken while the document is validated and read, on another core: a few
// milliseconds for a state of 10,000 criteria (2.4 MiB), where starting a
// goroutine would cost a small state more than it saves.
const concurrentProgress = 256 << 10

// readDocument validates a decoded document and reads the loop from it;
// the document is only read, so that the progress fingerprint may be
// taken at the same time.
func (d Dialect) readDocument(doc any) Reading {
	var r Reading
	obj, _ := doc.(map[string]any)
	if d.session != "" {
		r.Session, _ = obj[d.session].(string)
	}
	if d.Stage != "" {
		r.Stage, _ = obj[d.Stage].(string)
	}
	if r.Problems = d.Validate(doc); len(r.Problems) > 0 {
		return r
	}
	r.Loop = d.loop(obj)
	r.Loop.Dialect = d.Name
	return r
}

// Tells reports whether a file's bytes are this dialect's: a JSON object
// with every name of one of the Tell sets; a file that is not a JSON object
// is told by those names among its bytes, so that a broken file is still
// told apart and reported rather than passed over. Only a file that holds
// the names is parsed: telling a large state of another dialect costs a scan.
func (d Dialect) Tells(data []byte) bool {
	if d.Tell == nil {
		return true
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var candidates [][]string
	for _, set := range d.Tell {
		if !slices.ContainsFunc(set, func(name string) bool { return !bytes.Contains(data, []byte(strconv.Quote(name))) }) {
			candidates = append(candidates, set)
		}
	}
	if len(candidates) == 0 {
		return false
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(data, &members) != nil || members == nil {
		return true // not a JSON object
	}
	lacks := func(name string) bool { _, has := members[name]; return !has }
	for _, set := range candidates {
		if !slices.ContainsFunc(set, lacks) {
			return true
		}
	}
	return false
}

// Tell is the dialect of a file named by --state: the first that tells its
// bytes as its own, else hope.
func Tell(data []byte) Dialect {
	for _, d := range Dialects {
		if d.Tell != nil && d.Tells(data) {
			return d
		}
	}
	return hope

}

// Validate checks a decoded JSON document (as encoding/json decodes into
// any) against the dialect's schema and returns every problem as a sorted
// "pointer: message" line; none when it is valid.
func (d Dialect) Validate(doc any) []string {
	problems := d.validate(doc)
	slices.Sort(problems)
	return problems
}

// obj is v as an object; nil when it is not one.
func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// list is v as an array; nil when it is not one.
func list(v any) []any {
	l, _ := v.([]any)
	return l
}
