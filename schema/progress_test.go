package schema

import (
	"fmt"
	"hash/crc32"
	"maps"
	"slices"
	"strconv"
	"testing"
)

// TestProgressCountsTimesOnlyAsSet: a state that only restamps its times,
// at any depth, or is laid out otherwise, has the fingerprint it had; any
// other change is progress, a time that becomes set included.
func TestProgressCountsTimesOnlyAsSet(t *testing.T) {
	const base = `{"criteria":["a"],"iteration":1,"updatedAt":"2026-11-23T06:00:00Z","circuitBreaker":{"stuckCount":0,"last_at":"2026-11-23 06:00"},"x":[{"timestamp":5,"n":1}]}`
	same := []string{
		`{"criteria":["a"],"iteration":1,"updatedAt":"2026-11-24T07:00:00.123+01:00","circuitBreaker":{"stuckCount":0,"last_at":"2026-11-23T06:01:09z"},"x":[{"timestamp":6,"n":1}]}`,
		// Laid out otherwise, keys in another order, numbers spelt otherwise.
		"{\n  \"iteration\": 1.0,\n  \"criteria\": [\"a\"],\n  \"circuitBreaker\": {\"last_at\": \"2026-01-01T00:00:00-0500\", \"stuckCount\": 0},\n  \"x\": [{\"n\": 1e0, \"timestamp\": 7}], \"updatedAt\": \"2026-11-23T06:00Z\"\n}",
		// Escapes spell the same document.
		`{"criteria":["\u0061"],"iteration":1,"updated\u0041t":"2026-11-23T06:00:00Z","circuitBreaker":{"stuckCount":0,"last_at":"2026-11-23T06:00:00Z"},"x":[{"timestamp":5,"n":1}]}`,
	}
	changed := []string{
		`{"criteria":["a"],"iteration":2,"updatedAt":"2026-11-23T06:00:00Z","circuitBreaker":{"stuckCount":0,"last_at":"2026-11-23 06:00"},"x":[{"timestamp":5,"n":1}]}`,
		// A time dropped, or made null, is a change.
		`{"criteria":["a"],"iteration":1,"circuitBreaker":{"stuckCount":0,"last_at":"2026-11-23 06:00"},"x":[{"timestamp":5,"n":1}]}`,
		`{"criteria":["a"],"iteration":1,"updatedAt":null,"circuitBreaker":{"stuckCount":0,"last_at":"2026-11-23 06:00"},"x":[{"timestamp":5,"n":1}]}`,
		// A name that ends in At is a name: a criterion, a number.
		`{"criteria":["a","sorted by updatedAt"],"iteration":1,"updatedAt":"2026-11-23T06:00:00Z","circuitBreaker":{"stuckCount":0,"last_at":"2026-11-23 06:00"},"x":[{"timestamp":5,"n":1}]}`,
		`{"criteria":["a"],"iteration":1,"updatedAt":"2026-11-23T06:00:00Z","circuitBreaker":{"stuckCount":0,"last_at":"2026-11-23 06:00"},"x":[{"timestamp":5,"n":1,"startedAt":3}]}`,
		`{"criteria":["a"],"iteration":1,"updatedAt":"2026-11-23T06:00:00Z","circuitBreaker":{"stuckCount":0,"last_at":"2026-11-23 06:00"},"x":[{"timestamp":5,"n":1}],"format":"flat"}`,
		// A string that is not a date-time is text.
		`{"criteria":["a"],"iteration":1,"updatedAt":"later","circuitBreaker":{"stuckCount":0,"last_at":"2026-11-23 06:00"},"x":[{"timestamp":5,"n":1}]}`,
	}
	want := hope.Read([]byte(base)).Progress
	if want == "" {
		t.Fatal("no fingerprint")
	}
	for _, s := range same {
		if got := hope.Read([]byte(s)).Progress; got != want {
			t.Errorf("restamped or relaid state counts as progress:\n%s\n%s vs %s", s, got, want)
		}
	}
	for _, s := range changed {
		if got := hope.Read([]byte(s)).Progress; got == want {
			t.Errorf("changed state does not count as progress:\n%s", s)
		}
	}
	if a, b := hope.Read([]byte(`{"criteria":["a"],"startedAt":3}`)).Progress, hope.Read([]byte(`{"criteria":["a"],"startedAt":4}`)).Progress; a == b {
		t.Error("a number under startedAt counts as a timestamp")
	}
}

func TestIsDateTime(t *testing.T) {
	for _, s := range []string{
		"2026-11-23T06:00:00Z", "2026-11-23t06:00:00z", "2026-11-23 06:00", "2026-11-23T06:00:00.123456789+05:30",
		"2026-11-23T06:00:00,5-0800", "2026-11-23T06:00+01", "2026-11-23T06:00:00",
	} {
		if !IsDateTime(s) {
			t.Errorf("%q is a date-time", s)
		}
	}
	for _, s := range []string{
		"", "2026-11-23", "06:00:00", "2026-11-23T06", "2026-11-23T06:00:00.Z", "2026-11-23T06:00:00Zx",
		"2026-11-23T06:00:00+1", "2026-11-23T06:00:00+01:0", "tests pass", "2026/11/23T06:00:00Z", "2026-11-23T06:00:00 UTC",
	} {
		if IsDateTime(s) {
			t.Errorf("%q is not a date-time", s)
		}
	}
}

// TestProgressOfNotJSON: a file that is not JSON is fingerprinted by its
// bytes, so that a broken state the agent keeps rewriting still counts.
func TestProgressOfNotJSON(t *testing.T) {
	for _, s := range []string{"", "  ", "{", "not json"} {
		if got := hope.Read([]byte(s)).Progress; got != progressOfBytes([]byte(s)) {
			t.Errorf("%q: %s", s, got)
		}
	}
	if hope.Read([]byte("{")).Progress == hope.Read([]byte("{{")).Progress {
		t.Error("two broken files, one fingerprint")
	}
}

// progressQuoted is the fingerprint as it was first written, a
// strconv.Quote and a hash write for each token: the one progressWriter
// writes must be the same, so that a fingerprint kept in the hook's memory
// by an older loophook still matches the unchanged state.
func progressQuoted(doc any) string {
	h := crc32.NewIEEE()
	n := 0
	write := func(s string) { h.Write([]byte(s)); n += len(s) }
	var value func(v any, underTimestamp bool)
	value = func(v any, underTimestamp bool) {
		switch v := v.(type) {
		case map[string]any:
			keys := slices.Sorted(maps.Keys(v))
			write("{")
			for _, k := range keys {
				write(strconv.Quote(k))
				write(":")
				value(v[k], k == timestampKey)
				write(",")
			}
			write("}")
		case []any:
			write("[")
			for _, x := range v {
				value(x, false)
				write(",")
			}
			write("]")
		case string:
			if IsDateTime(v) {
				write(timeSet)
				return
			}
			write(strconv.Quote(v))
		case float64:
			if underTimestamp {
				write(timeSet)
				return
			}
			write(strconv.FormatFloat(v, 'g', -1, 64))
		case bool:
			write(strconv.FormatBool(v))
		default:
			write("null")
		}
	}
	value(doc, false)
	return fmt.Sprintf("%08x-%d", h.Sum32(), n)
}

// progressSeeds are documents whose strings and names need Quote's escapes,
// or none, beside every dialect's documents and a large state.
var progressSeeds = []string{
	`{"a\u0000b":"\u2028 é 日本 \ud83d\ude00 \u007f \"\\ \ufffd","t":"x\u0080y","tab":"a\tb\n","bell":"\u0007"}`,
	`{"plain ~ printable !#$%&'()*+,-./:;<=>?@[]^_{|}":" ","":"","timestamp":5,"x":{"timestamp":"now"}}`,
	`[1,1.5,-0,1e300,1e-7,123456789012345678901234567890,true,false,null,[],{}]`,
	`"just a string"`, `{"del\u007f":"a\u007fb","ctl":"\u001f","sp":" ~"}`,
}

// TestProgressAsFirstWritten: the buffered writer's fingerprint is the one
// Quote and a hash write per token made, for every document in the tests
// and a state of 10,000 criteria (whose text passes the block size, and
// whose file is fingerprinted while it is validated).
func TestProgressAsFirstWritten(t *testing.T) {
	docs := append(allDocuments(t), progressSeeds...)
	docs = append(docs, edgeSeeds...)
	docs = append(docs, string(stateJSON(10_000)))
	for _, text := range docs {
		doc, ok := decodeJSON(t, []byte(text))
		if !ok {
			continue
		}
		want := progressQuoted(doc)
		if got := progressOfDocument(doc); got != want {
			t.Errorf("%.200s\n got %s, want %s", text, got, want)
		}
		// Read takes a large file's fingerprint on another goroutine.
		if got := hope.Read([]byte(text)).Progress; got != want {
			t.Errorf("%.200s\n read %s, want %s", text, got, want)
		}
	}
	if len(stateJSON(10_000)) < concurrentProgress {
		t.Error("no document is large enough to be fingerprinted concurrently")
	}
}

func FuzzProgress(f *testing.F) {
	for _, text := range append(progressSeeds, edgeSeeds...) {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, ok := decodeJSON(t, data)
		if !ok {
			return
		}
		if got, want := progressOfDocument(doc), progressQuoted(doc); got != want {
			t.Errorf("%q: got %s, want %s", data, got, want)
		}
	})
}
