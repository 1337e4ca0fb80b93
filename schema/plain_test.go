package schema

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// plainSeeds are texts at the edges of what plainDocument reads itself.
var plainSeeds = []string{
	`null`, `true`, `false`, `0`, `-0`, `1.5e3`, `-12.25E-2`, `""`, `"é"`, `[]`, `{}`, ` {"a" : [ 1 , "b" ] } `,
	`{"a":1,"a":{"b":2}}`, `{"a":{"b":1},"a":{"c":2}}`, `{"":[[],{}]}`, `[1,[2,[3,[4]]]]`,
	`{"a":"b\"c"}`, `{"a\u0062":1}`, `"\ud800"`, "\"\xff\"", "\"a\x01\"", `1e400`, `-1e-400`,
	`01`, `1.`, `.5`, `+1`, `{"a":1,}`, `[1,]`, `{"a"}`, `{"a":1} x`, `{"a":1}{}`, `tru`, `nul`, `[`, `{`, `"`,
	"\t\r\n[\t1\r\n]\n", "[1]\x00",
}

// TestPlainAgreesWithUnmarshal holds plainDocument to encoding/json: what it
// reads, json.Unmarshal reads the same; and it reads every example state
// itself, which is what makes the other dialects' stops fast.
func TestPlainAgreesWithUnmarshal(t *testing.T) {
	for _, text := range append(plainSeeds, parseSeeds...) {
		checkPlain(t, []byte(text))
	}
	for _, text := range allDocuments(t) {
		checkPlain(t, []byte(text))
		if _, ok := plainDocument([]byte(text)); !ok && json.Valid([]byte(text)) && !strings.Contains(text, `\`) {
			t.Errorf("plainDocument declines a plain text: %s", text)
		}
	}
}

func FuzzPlainAgreesWithUnmarshal(f *testing.F) {
	for _, s := range plainSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkPlain(t, data) })
}

func checkPlain(t *testing.T, data []byte) {
	t.Helper()
	plain, ok := plainDocument(data)
	var want any
	err := json.Unmarshal(data, &want)
	if ok && err != nil {
		t.Fatalf("%q: plainDocument read what json.Unmarshal refuses: %v", data, err)
	}
	if ok && !reflect.DeepEqual(plain, want) {
		t.Fatalf("%q:\nplain: %#v\n json: %#v", data, plain, want)
	}
	got, gotErr := unmarshal(data)
	if (gotErr == nil) != (err == nil) || !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: unmarshal gives %#v, %v; json.Unmarshal %#v, %v", data, got, gotErr, want, err)
	}
	// memberNames names what json.Unmarshal makes an object of, no more.
	names, ok := memberNames(data)
	obj, isObject := want.(map[string]any)
	if ok != (err == nil && isObject) {
		t.Fatalf("%q: memberNames ok %v; json.Unmarshal %T, %v", data, ok, want, err)
	}
	slices.Sort(names)
	if ok && !slices.Equal(slices.Compact(names), sortedKeys(obj)) {
		t.Fatalf("%q: memberNames %q, json.Unmarshal's keys %q", data, names, sortedKeys(obj))
	}
}
