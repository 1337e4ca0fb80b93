package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/loophook/loophook/criteria"
)

var parseSeeds = []string{
	`{}`, `[]`, ``, `{"criteria":["a"]}`,
	`{"spec":"s","criteria":["a","b"],"criteriaStatus":{"a":true,"b":{"met":false,"verification":"observation","note":{"x":[1,2,{"y":null}]}},"c":{"met":true}},"exit_signal":true,"status":"active","iteration":3,"maxIterations":5,"cost":1.5,"budget":10,"circuitBreaker":{"stuckCount":0,"lastUnmet":null,"extra":1},"steps":["x"],"completedSteps":[],"remainingSteps":["x"],"mustNot":["m"],"mustNotStatus":{"m":false},"session_id":"abc","x-extra":{"any":[1,2,"\u00e9\n"]}}`,
	`{"criteriaStatus":{"b":true,"a":false},"criteria":["z"]}`,
	`{"criteria":["a","a"]}`,
	`{"criteria":["caf\u00e9"]}`,
	`{"criteria":["café"],"criteriaStatus":{"café":true}}`,
	`{"spec":"a","spec":"b"}`,
	`{"iteration":1.0,"maxIterations":2e0,"cost":0,"budget":-0}`,
	`{"iteration":1.5}`, `{"iteration":1e400}`, `{"status":"done"}`,
	`{"circuitBreaker":{"lastUnmet":["a","b"]}}`, `{"circuitBreaker":{"lastUnmet":"a"}}`,
	"\xef\xbb\xbf{\r\n\"criteria\": [\"a\"]\r\n}\r\n",
	`{"criteriaStatus":{"a":{"verification":"observation"}}}`,
	`{"mustNotStatus":{"a":true,"a":false}}`,
	`{"x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	`{"criteria":["a"]} x`, `{"criteria":["a"],}`, `{"a":01}`, `{"a":"\x"}`, `{"a":"\u12"}`,
	// Listed names that no entry vouches for, and that are not plain.
	"{\"criteria\":[\"a\x01\"]}", "{\"criteria\":[\"a\xff\"],\"criteriaStatus\":{\"b\":true}}",
	`{"criteria":["a\\"]}`, `{"criteria":["a\"b"]}`, `{"criteria":["a\\"],"criteriaStatus":{"a\\":true}}`,
	// The status's meanings; numbers, shape and errors from metadata when
	// the top level lacks them; a member of metadata read twice.
	`{"status":"complete","criteria":["a"]}`, `{"status":"completed"}`, `{"status":"blocked"}`,
	`{"status":"failed","errors":["npm: EACCES"]}`, `{"status":"failed","errors":["x",{"e":1}]}`,
	`{"status":"blocked","metadata":{"errors":[1,"disk full"]}}`, `{"status":"failed","errors":null,"metadata":{"errors":["m"]}}`,
	`{"status":"failed","metadata":{"errors":["a\nb"]}}`, `{"status":"failed","errors":[]}`,
	`{"metadata":{"iteration":3,"maxIterations":5,"cost":1.5,"budget":10,"shape":"colleague","startedAt":"t"}}`,
	`{"iteration":1,"cost":0,"metadata":{"iteration":3,"maxIterations":5,"cost":1.5}}`,
	`{"metadata":{"cost":1,"cost":2,"shape":"tool","shape":"Colleague","errors":["a"],"errors":5}}`,
	`{"shape":"colleague","metadata":{"shape":"tool"}}`, `{"shape":"tool","shape":"colleague"}`,
	`{"metadata":{"iteration":-1}}`, `{"metadata":{"shape":7}}`, `{"metadata":[]}`, `{"metadata":{"x":{"y":[1]}}}`,
	`{"metadata":{"budget":5},"metadata":{}}`, `{"errors":["a"],"errors":["b"]}`, `{"metadata":{"sh\u0061pe":"colleague"}}`,
}

// TestDecodeAgreesWithGeneral holds the fast path to the general one: when it
// accepts a document, the general path finds it valid and the same state.
func TestDecodeAgreesWithGeneral(t *testing.T) {
	for _, s := range parseSeeds {
		checkDecode(t, []byte(s))
	}
	// Large enough to file entries in several batches, indented as people's
	// tools write it, and with entries laid out in more than one way.
	var indented bytes.Buffer
	must(t, json.Indent(&indented, stateJSON(100), "", "  "))
	mixed := bytes.Replace(indented.Bytes(), []byte("\"met\": false,"), []byte("\"met\" :false ,"), 7)
	mixed = bytes.Replace(mixed, []byte("\"execution output\"\n"), []byte("\"observation\" "), 5)
	for _, doc := range [][]byte{stateJSON(100), indented.Bytes(), mixed} {
		checkDecode(t, doc)
		if _, ok := decode(doc); !ok {
			t.Errorf("the fast path gave up on a plain valid state:\n%.300s", doc)
		}
	}
	// A repeated entry late in a long criteriaStatus is found.
	dup := bytes.Replace(stateJSON(100), []byte(`"criterion 99: the export command handles case 99 as the spec says":{`), []byte(`"criterion 1: the export command handles case 1 as the spec says":true,"criterion 99: the export command handles case 99 as the spec says":{`), 1)
	if _, ok := decode(dup); ok || bytes.Equal(dup, stateJSON(100)) {
		t.Error("the fast path accepted a repeated criteriaStatus entry")
	}
}

func FuzzDecodeAgreesWithGeneral(f *testing.F) {
	for _, s := range parseSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkDecode(t, data) })
}

func checkDecode(t *testing.T, data []byte) {
	t.Helper()
	// Spare capacity, as a file read into a larger buffer has, must not matter.
	fast, ok := decode(append(make([]byte, 0, len(data)+9), data...))
	if !ok {
		return
	}
	fast.Dialect = hope.Name
	r := readGeneral(data)
	slow, problems := r.Loop, r.Problems
	if len(problems) > 0 {
		t.Fatalf("%q: the fast path accepted what the general path rejects: %q", data, problems)
	}
	if !reflect.DeepEqual(flat(fast), flat(slow)) {
		t.Fatalf("%q:\nfast: %+v\nslow: %+v", data, flat(fast), flat(slow))
	}
}

// flat is a state with its criteria as a list: two states are the same when
// their flat forms are, whatever memory their criteria's names are kept in.
func flat(s *criteria.Loop) any {
	type flat struct {
		criteria.Loop
		List []criteria.Criterion
	}
	f := flat{*s, s.Criteria}
	f.Loop.Criteria = nil
	return f
}

// BenchmarkParse parses states as tools write them: compact, and indented.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{20, 10_000} {
		compact := stateJSON(n)
		var indented bytes.Buffer
		must(b, json.Indent(&indented, compact, "", "  "))
		for _, layout := range []struct {
			name string
			data []byte
		}{{"compact", compact}, {"indented", indented.Bytes()}} {
			b.Run(fmt.Sprintf("criteria=%d/%s", n, layout.name), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(layout.data)))
				for b.Loop() {
					if p := hope.Read(layout.data).Problems; p != nil {
						b.Fatal(p)
					}
				}
			})
		}
	}
}

func stateJSON(n int) []byte {
	criteria := make([]string, n)
	status := map[string]any{}
	for i := range criteria {
		criteria[i] = fmt.Sprintf("criterion %d: the export command handles case %d as the spec says", i, i)
		status[criteria[i]] = map[string]any{"met": i%2 == 0, "verification": "execution output"}
	}
	data, _ := json.Marshal(map[string]any{
		"spec": "add a --json flag", "criteria": criteria, "criteriaStatus": status,
		"iteration": 3, "maxIterations": 10, "circuitBreaker": map[string]any{"stuckCount": 0},
		"steps": []string{"a", "b"}, "remainingSteps": []string{"b"},
	})
	return data
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

// readGeneral reads a hope file by the general path alone.
func readGeneral(data []byte) Reading {
	d := hope
	d.fast = nil
	return d.Read(data)
}
