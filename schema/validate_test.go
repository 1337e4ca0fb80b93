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
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// compiled holds each dialect's schema as the library compiled it.
var compiled sync.Map // ID → *jsonschema.Schema

// compile compiles a dialect's schema file with the library, once.
func compile(t testing.TB, d Dialect) *jsonschema.Schema {
	t.Helper()
	if s, ok := compiled.Load(d.ID); ok {
		return s.(*jsonschema.Schema)
	}
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft2020
	if err := c.AddResource(d.ID, bytes.NewReader(d.Schema)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(d.ID)
	if err != nil {
		t.Fatalf("%s: the embedded schema does not compile: %v", d.Name, err)
	}
	compiled.Store(d.ID, s)
	return s
}

// reference validates with santhosh-tekuri/jsonschema/v5 against the
// dialect's schema file itself, leaf errors as "pointer: message" lines,
// sorted: what Validate must say for every document.
func reference(t testing.TB, d Dialect, doc any) []string {
	t.Helper()
	err := compile(t, d).Validate(doc)
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

// documents are each dialect's states good and bad, touching every keyword
// of its schema; every dialect is also checked on every other's.
var documents = map[string][]string{
	"hope":            hopeDocuments,
	"on-loop":         onLoopDocuments,
	"loop-controller": loopControllerDocuments,
	"orchestrator":    orchestratorDocuments,
}

var hopeDocuments = []string{
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

var onLoopDocuments = []string{
	`{"phase":"CODE"}`,
	`{"phase":"DEPLOY","prompt":"p","phases_completed":["INIT","SPEC","X"],"retries":{"test_to_code":4},"max_retries":{"test_to_code":3},"error":null,"pr_url":"https://example.com/pr/1","todos":["a",{"content":"b"},3],"session_id":"any","version":"1.1"}`,
	`{"prompt":1,"phases_completed":"INIT","retries":[],"max_retries":{"a":-1,"b":1.5,"c":"2"},"error":5,"pr_url":false,"todos":{}}`,
	`{"phase":null,"phases_completed":[1,null],"retries":{"x":null}}`,
	`{"phase":"FAILED","error":"boom","todos":null}`,
}

var loopControllerDocuments = []string{
	`{"state":"IMPLEMENT"}`,
	`{"state":"DONE","systemId":1,"systemName":null,"githubIssue":true,"blockedReason":3}`,
	`{"state":7,"githubIssue":"#12","capabilities":{"total":-1,"completed":1.5,"current":1,"remaining":[1]},"stages":{"INIT":{"status":1},"TEST":"complete","X":{}}}`,
	`{"systemId":"s","stages":{}}`,
	`{"state":"FAILED","failures":{"count":"1","maxRetries":-1,"history":[{"stage":1,"error":null},"x",{"stage":"VERIFY","error":"e"}]},"gates":{"g":{"required":"yes","status":2,"approved":1},"h":true},"updatedAt":5}`,
	`{"state":"BLOCKED","capabilities":[],"failures":{"history":{}},"gates":[],"stages":[]}`,
	`{"state":"SHIP","githubIssue":12,"capabilities":{"remaining":"a"},"failures":[]}`,
}

var orchestratorDocuments = []string{
	`{"currentPhase":"EXECUTE"}`,
	`{"orchestratorId":"o","currentPhase":"DONE","mode":1,"modeDetection":{"detected":2,"confidence":"high","confirmedByUser":"no"},"currentLoop":-1}`,
	`{"currentPhase":null,"scopeDiscovery":{"completedAt":1,"gaps":[{"description":1},"x"],"systems":[{},{"name":2},"y"],"estimatedLoops":-2},"currentLoop":1.5}`,
	`{"currentPhase":"DETECT","subAgents":[{},{"status":"idle","id":1,"system":2,"currentStage":3,"lastHeartbeat":4},"a"],"completedSystems":[1],"gates":{"pending":[{"id":1,"agent":2,"type":3,"description":4}],"approved":{},"rejected":"x"}}`,
	`{"currentPhase":"PLAN","sessionHandoff":{"reason":1,"resumeInstructions":2,"pendingActions":[3]},"subAgents":{},"gates":[],"scopeDiscovery":[],"modeDetection":null}`,
	`{"currentPhase":"PLAN","sessionHandoff":null,"scopeDiscovery":{"gaps":{},"systems":{}}}`,
	`{"currentPhase":"PLAN","sessionHandoff":"later"}`,
}

// examples are the example states shipped with each dialect.
var examples = map[string]string{
	"hope":            "example.json",
	"on-loop":         "examples/on-loop/.on-loop/sessions/20260426_143052_user-management-api/state.json",
	"loop-controller": "examples/loop-controller/domain-memory/work-orders/loop-state.json",
	"orchestrator":    "examples/orchestrator/loop-state.json",
}

// allDocuments are every dialect's documents and examples.
func allDocuments(t testing.TB) []string {
	var docs []string
	for _, d := range Dialects {
		docs = append(docs, documents[d.Name]...)
		data, err := os.ReadFile(filepath.FromSlash(examples[d.Name]))
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(data))
	}
	return docs
}

func TestValidateAgreesWithSchemaLibrary(t *testing.T) {
	docs := allDocuments(t)
	for _, d := range Dialects {
		t.Run(d.Name, func(t *testing.T) {
			for _, text := range docs {
				doc, ok := decodeJSON(t, []byte(text))
				if !ok {
					t.Fatalf("test document is not JSON: %s", text)
				}
				got, want := d.Validate(doc), reference(t, d, doc)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s\n got: %q\nwant: %q", text, got, want)
				}
			}
		})
	}
}

func TestExamplesAreValid(t *testing.T) {
	for _, d := range Dialects {
		data, err := os.ReadFile(filepath.FromSlash(examples[d.Name]))
		if err != nil {
			t.Fatal(err)
		}
		r := d.Read(data)
		if len(r.Problems) > 0 {
			t.Errorf("%s: %q", examples[d.Name], r.Problems)
		}
		if got := Tell(data); got.Name != d.Name {
			t.Errorf("%s is told as %s, not %s", examples[d.Name], got.Name, d.Name)
		}
	}
}

func FuzzValidate(f *testing.F) {
	for _, d := range Dialects {
		for _, text := range documents[d.Name] {
			f.Add([]byte(text))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, ok := decodeJSON(t, data)
		if !ok || hasEmptyKey(doc) {
			return
		}
		for _, d := range Dialects {
			got, want := d.Validate(doc), reference(t, d, doc)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %s\n got: %q\nwant: %q", d.Name, data, got, want)
			}
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
