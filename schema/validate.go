package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// validateHope checks a decoded JSON document against state.schema.json.
// Every sentence a person reads of a state file's problems is in this file.
//
// The checks are written out in Go rather than run by a JSON Schema library,
// because the hook starts once per turn and a general validator's start-up
// costs more than the whole evaluation. validate_test.go holds them to the
// schema file: it runs santhosh-tekuri/jsonschema/v5 on the same documents
// and requires the same lines.
func validateHope(doc any) []string {
	var v validator
	v.object(doc, "", func(obj map[string]any) {
		v.field(obj, "", "spec", v.str)
		v.field(obj, "", "criteria", v.uniqueStrings)
		v.field(obj, "", "criteriaStatus", func(x any, at string) { v.objectOf(x, at, v.criterionStatus) })
		v.field(obj, "", "exit_signal", v.boolean)
		v.field(obj, "", "status", func(x any, at string) { v.enum(x, at, statuses) })
		v.level(obj, "")
		v.field(obj, "", "circuitBreaker", func(x any, at string) {
			v.object(x, at, func(cb map[string]any) {
				v.field(cb, at, "stuckCount", func(x any, at string) { v.integer(x, at, 0) })
				v.field(cb, at, "lastUnmet", v.lastUnmet)
			})
		})
		for _, name := range []string{"steps", "completedSteps", "remainingSteps", "mustNot"} {
			v.field(obj, "", name, v.strings)
		}
		v.field(obj, "", "mustNotStatus", func(x any, at string) { v.objectOf(x, at, v.boolean) })
		v.field(obj, "", "session_id", v.str)
		v.field(obj, "", "metadata", func(x any, at string) {
			v.object(x, at, func(md map[string]any) { v.level(md, at) })
		})
	})
	return v.problems
}

// level checks the members that the top level and metadata both may hold.
func (v *validator) level(obj map[string]any, at string) {
	v.field(obj, at, "iteration", func(x any, at string) { v.integer(x, at, 0) })
	v.field(obj, at, "maxIterations", func(x any, at string) { v.integer(x, at, 1) })
	v.field(obj, at, "cost", v.nonNegative)
	v.field(obj, at, "budget", v.nonNegative)
	v.field(obj, at, "shape", v.str)
}

var (
	statuses      = []string{"in_progress", "active", "paused", "complete", "completed", "cancelled", "blocked", "failed"}
	verifications = []string{"execution output", "observation", "measurement", "code review", "assumption"}
)

type validator struct {
	problems []string
}

func (v *validator) fail(at, format string, args ...any) {
	if at == "" {
		at = "/"
	}
	v.problems = append(v.problems, at+": "+fmt.Sprintf(format, args...))
}

// is checks x's JSON type against the allowed ones, as the schema's "type".
func (v *validator) is(x any, at string, types ...string) bool {
	t := jsonType(x)
	for _, want := range types {
		if t == want || want == "integer" && t == "number" && isInt(x.(float64)) {
			return true
		}
	}
	v.fail(at, "expected %s, got %s", strings.Join(types, " or "), t)
	return false
}

// field checks the named member of the object at "at", if it is there.
func (v *validator) field(obj map[string]any, at, name string, check func(any, string)) {
	if x, ok := obj[name]; ok {
		check(x, at+"/"+escape(name))
	}
}

func (v *validator) object(x any, at string, check func(map[string]any)) {
	if v.is(x, at, "object") {
		check(x.(map[string]any))
	}
}

// objectOf checks every member of an object, as "additionalProperties".
func (v *validator) objectOf(x any, at string, check func(any, string)) {
	v.object(x, at, func(obj map[string]any) {
		for name, member := range obj {
			check(member, at+"/"+escape(name))
		}
	})
}

func (v *validator) str(x any, at string) { v.is(x, at, "string") }

func (v *validator) boolean(x any, at string) { v.is(x, at, "boolean") }

func (v *validator) strings(x any, at string) {
	if v.is(x, at, "array") {
		for i, item := range x.([]any) {
			v.str(item, at+"/"+strconv.Itoa(i))
		}
	}
}

// uniqueStrings is an array of strings with "uniqueItems": the first pair of
// equal items is reported, as the schema library does.
func (v *validator) uniqueStrings(x any, at string) {
	if !v.is(x, at, "array") {
		return
	}
	items := x.([]any)
	first := make(map[string]int, len(items))
	dup := false
	for i, item := range items {
		v.str(item, at+"/"+strconv.Itoa(i))
		if dup {
			continue
		}
		key := canonical(item)
		if j, ok := first[key]; ok {
			v.fail(at, "items at index %d and %d are equal", j, i)
			dup = true
			continue
		}
		first[key] = i
	}
}

func (v *validator) enum(x any, at string, values []string) {
	if s, ok := x.(string); ok {
		for _, want := range values {
			if s == want {
				return
			}
		}
	}
	quoted := make([]string, len(values))
	for i, s := range values {
		quoted[i] = strconv.Quote(s)
	}
	v.fail(at, "value must be one of %s", strings.Join(quoted, ", "))
}

func (v *validator) integer(x any, at string, min float64) {
	if v.is(x, at, "integer") {
		v.minimum(x.(float64), at, min)
	}
}

func (v *validator) nonNegative(x any, at string) {
	if v.is(x, at, "number") {
		v.minimum(x.(float64), at, 0)
	}
}

func (v *validator) minimum(f float64, at string, min float64) {
	if f < min {
		v.fail(at, "must be >= %v but found %v", min, f)
	}
}

func (v *validator) criterionStatus(x any, at string) {
	if !v.is(x, at, "boolean", "object") {
		return
	}
	obj, ok := x.(map[string]any)
	if !ok {
		return
	}
	if _, ok := obj["met"]; !ok {
		v.fail(at, "missing properties: 'met'")
	}
	v.field(obj, at, "met", v.boolean)
	v.field(obj, at, "verification", func(x any, at string) { v.enum(x, at, verifications) })
}

func (v *validator) lastUnmet(x any, at string) {
	if !v.is(x, at, "string", "array", "null") {
		return
	}
	if items, ok := x.([]any); ok {
		for i, item := range items {
			v.str(item, at+"/"+strconv.Itoa(i))
		}
	}
}

func jsonType(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", x)
}

func isInt(f float64) bool {
	return !math.IsInf(f, 0) && f == math.Trunc(f)
}

// canonical is a key under which equal JSON values, and only those, meet.
func canonical(x any) string {
	if s, ok := x.(string); ok {
		return "s" + s
	}
	b, _ := json.Marshal(x)
	return jsonType(x)[:1] + string(b)
}

// escape makes a JSON pointer token of a name, as RFC 6901 says.
func escape(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return name
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(name)
}

// problemEmpty is the problem of a file with nothing in it.
const problemEmpty = "the file is empty"

// JSONError says what is wrong with a JSON document and where, without
// quoting its content: the document may be anything.
func JSONError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return "not valid JSON"
	case strings.Contains(err.Error(), "exceeded max depth"):
		// A *json.SyntaxError too, but its position would read as a typo.
		return "nested too deeply (more than 10000 levels)"
	case strings.Contains(err.Error(), "unexpected end"):
		// A *json.SyntaxError too, whose position is just past the end.
		return "not valid JSON: it ends too soon"
	case errors.As(err, &syn):
		line, col := position(data, syn.Offset-1)
		return fmt.Sprintf("not valid JSON at line %d, column %d", line, col)
	case errors.As(err, &typ) && typ.Field == "":
		// Decoding into any fails this way only on a number out of float64's
		// range; typ.Value would quote the number, at any length.
		line, col := position(data, typ.Offset)
		return fmt.Sprintf("a number out of range before line %d, column %d", line, col)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s: expected %s, got %s", typ.Field, typ.Type, typ.Value)
	}
	return "not valid JSON"
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}
