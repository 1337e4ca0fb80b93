package hook

import (
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
}

// TestDecodeAgreesWithGeneral holds the fast path to the general one: when it
// accepts a document, the general path finds it valid and the same state.
func TestDecodeAgreesWithGeneral(t *testing.T) {
	for _, s := range parseSeeds {
		checkDecode(t, []byte(s))
	}
	if _, ok := criteria.Decode(stateJSON(100)); !ok {
		t.Error("the fast path gave up on a plain valid state")
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
	fast, ok := criteria.Decode(append(make([]byte, 0, len(data)+9), data...))
	if !ok {
		return
	}
	slow, problems, _ := parseGeneral(data)
	if len(problems) > 0 {
		t.Fatalf("%q: the fast path accepted what the general path rejects: %q", data, problems)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("%q:\nfast: %+v\nslow: %+v", data, fast, slow)
	}
}
