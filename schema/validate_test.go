package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// reference validates with santhosh-tekuri/jsonschema/v5 against the schema
// file itself, leaf errors as "pointer: message" lines, sorted: what Validate
// must say for every document.
func reference(t testing.TB, doc any) []string {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(hope.ID, bytes.NewReader(hope.Schema)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(hope.ID)
	if err != nil {
		t.Fatalf("the embedded schema does not compile: %v", err)
	}
	err = s.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("validate: %v", err)
	}
	seen := map[string]bool{}
	var out []string
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		for _, c := range e.Causes {
			walk(c)
		}
		if len(e.Causes) > 0 {
			return
		}
		// The library URL-escapes pointer tokens; people read them unescaped.
		loc, err := url.PathUnescape(e.InstanceLocation)
		if err != nil {
			loc = e.InstanceLocation
		}
		if loc == "" {
			loc = "/"
		}
		line := loc + ": " + strings.Replace(e.Message, ", but got ", ", got ", 1)
		if !seen[line] {
			seen[line] = true
			out = append(out, line)
		}
	}
	walk(ve)
	sort.Strings(out)
	return out
}

func decodeJSON(t testing.TB, data []byte) (any, bool) {
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, false
	}
	return doc, true
}

// documents are states good and bad, touching every keyword of the schema.
var documents = []string{
	`{}`,
	`[]`,
	`"state"`,
	`null`,
	`{"spec":"s","criteria":["a","b"],"criteriaStatus":{"a":true,"b":{"met":false,"verification":"observation"}},"exit_signal":true,"status":"active","iteration":3,"maxIterations":5,"cost":1.5,"budget":10,"circuitBreaker":{"stuckCount":0,"lastUnmet":null},"steps":["x"],"completedSteps":[],"remainingSteps":["x"],"mustNot":["m"],"mustNotStatus":{"m":false},"session_id":"abc","x-extra":{"any":[1,2]}}`,
	`{"spec":1,"criteria":"a","criteriaStatus":[],"exit_signal":"true","status":"done","iteration":-1,"maxIterations":0,"cost":-0.5,"budget":"10","circuitBreaker":[],"steps":[1],"completedSteps":{},"remainingSteps":null,"mustNot":[true],"mustNotStatus":{"m":"no"},"session_id":7}`,
	`{"criteria":["a","b","a","b"],"criteriaStatus":{"a":"yes","b":{},"c":{"met":"true","verification":"vibes"},"d":null,"e/f~g":{"met":true,"verification":7}}}`,
	`{"criteria":[1,1,"x",null,null]}`,
	`{"criteria":[[1],[1.0],{"a":1},{"a":1}]}`,
	`{"iteration":1.5,"maxIterations":2.0,"circuitBreaker":{"stuckCount":-2,"lastUnmet":["a",3]}}`,
	`{"circuitBreaker":{"lastUnmet":5}}`,
	`{"circuitBreaker":{"lastUnmet":"a"}}`,
	`{"iteration":1e300,"cost":1e-300,"budget":0}`,
	`{"status":null,"exit_signal":null,"criteriaStatus":{"tests pass":{"met":true,"verification":"assumption","note":"x"}}}`,
	`{"criteria":["x","y","z","a","b","c","d","e","f","g","h","i","j","k","l","m","n","o","p","q","r","s","t","u","v","q"]}`,
	`{"shape":"colleague","errors":[1,"x"],"metadata":{"iteration":3,"maxIterations":10,"cost":4.5,"budget":25,"shape":"tool","startedAt":"2025-01-01T00:00:00Z","errors":[]}}`,
	`{"shape":7,"metadata":{"iteration":-1,"maxIterations":0.5,"cost":"4","budget":-2,"shape":null}}`,
	`{"metadata":[]}`, `{"metadata":null}`, `{"metadata":{"iteration":"3"}}`,
}

func TestValidateAgreesWithSchemaLibrary(t *testing.T) {
	docs := append([]string{}, documents...)
	for _, name := range []string{"example.json"} {
		data, err := os.ReadFile(filepath.Join(".", name))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(data))
	}
	for _, d := range docs {
		doc, ok := decodeJSON(t, []byte(d))
		if !ok {
			t.Fatalf("test document is not JSON: %s", d)
		}
		got, want := hope.Validate(doc), reference(t, doc)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s\n got: %q\nwant: %q", d, got, want)
		}
	}
}

func TestExampleIsValid(t *testing.T) {
	data, err := os.ReadFile("example.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := decodeJSON(t, data)
	if p := hope.Validate(doc); len(p) > 0 {
		t.Errorf("example.json: %q", p)
	}
}

func FuzzValidate(f *testing.F) {
	for _, d := range documents {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, ok := decodeJSON(t, data)
		if !ok || hasEmptyKey(doc) {
			return
		}
		got, want := hope.Validate(doc), reference(t, doc)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s\n got: %q\nwant: %q", data, got, want)
		}
	})
}

// hasEmptyKey reports whether an object anywhere in doc has the key "". The
// library drops the empty last token of such a pointer (/criteriaStatus for
// /criteriaStatus/); Validate writes it as RFC 6901 does, which
// TestEmptyKeyPointer holds it to.
func hasEmptyKey(doc any) bool {
	switch x := doc.(type) {
	case map[string]any:
		for k, v := range x {
			if k == "" || hasEmptyKey(v) {
				return true
			}
		}
	case []any:
		for _, v := range x {
			if hasEmptyKey(v) {
				return true
			}
		}
	}
	return false
}

func TestEmptyKeyPointer(t *testing.T) {
	doc, _ := decodeJSON(t, []byte(`{"criteriaStatus":{"":{}}}`))
	want := []string{"/criteriaStatus/: missing properties: 'met'"}
	if got := hope.Validate(doc); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// BenchmarkValidate measures the check the hook runs on a state that the fast
// path turned down, against the library it is held to.
func BenchmarkValidate(b *testing.B) {
	data, err := os.ReadFile("example.json")
	if err != nil {
		b.Fatal(err)
	}
	doc, _ := decodeJSON(b, data)
	b.Run("go", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if p := hope.Validate(doc); p != nil {
				b.Fatal(p)
			}
		}
	})
	b.Run("jsonschema-v5", func(b *testing.B) {
		b.ReportAllocs()
		c := jsonschema.NewCompiler()
		c.Draft = jsonschema.Draft2020
		if err := c.AddResource(hope.ID, bytes.NewReader(hope.Schema)); err != nil {
			b.Fatal(err)
		}
		s := c.MustCompile(hope.ID)
		for b.Loop() {
			if err := s.Validate(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
