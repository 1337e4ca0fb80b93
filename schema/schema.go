// Package schema owns the JSON Schema of .loop/state.json that ships inside
// the binary, and turns validation errors into sorted "pointer: message" lines.
package schema

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// Source is the schema, draft 2020-12, as printed by `loophook schema`.
//
//go:embed state.schema.json
var Source []byte

// id is where the schema is registered, so that messages never carry a local path.
const id = "https://loophook.dev/schema/state.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(id, bytes.NewReader(Source)); err != nil {
		return nil, err
	}
	return c.Compile(id)
})

// Validate checks a decoded JSON document (as encoding/json decodes into any)
// against the schema and returns every problem, sorted by pointer; none when
// the document is valid.
func Validate(doc any) []string {
	s, err := compiled()
	if err != nil {
		// The embedded schema is tested; this is a build gone wrong.
		panic(fmt.Sprintf("compile embedded schema: %v", err))
	}
	err = s.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{": " + err.Error()}
	}
	return problems(ve)
}

// problems walks an error down to its leaves, the errors that say what is
// wrong rather than which keyword failed above them.
func problems(ve *jsonschema.ValidationError) []string {
	seen := map[string]bool{}
	var out []string
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		line := pointer(e.InstanceLocation) + ": " + message(e.Message)
		if !seen[line] {
			seen[line] = true
			out = append(out, line)
		}
	}
	walk(ve)
	sort.Strings(out)
	return out
}

// pointer undoes the library's URL escaping, so a criterion named "tests
// pass" reads /criteriaStatus/tests pass, as the agent wrote it.
func pointer(loc string) string {
	if p, err := url.PathUnescape(loc); err == nil {
		loc = p
	}
	if loc == "" {
		return "/"
	}
	return loc
}

func message(m string) string {
	return strings.Replace(m, ", but got ", ", got ", 1)
}
