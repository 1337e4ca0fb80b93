package schema

import (
	"encoding/json"
	"testing"
)

// TestProgressLeavesOutTimestamps: a state that only restamps its times, at
// any depth, has the fingerprint it had; any other change is progress.
func TestProgressLeavesOutTimestamps(t *testing.T) {
	const base = `{"criteria":["a"],"iteration":1,"updatedAt":"2026-11-23T06:00:00Z","circuitBreaker":{"stuckCount":0,"last_at":1},"x":[{"timestamp":5,"lastHeartbeat":"t1","n":1}]}`
	same := []string{
		`{"criteria":["a"],"iteration":1,"updatedAt":"2026-11-23T07:00:00Z","circuitBreaker":{"stuckCount":0,"last_at":2},"x":[{"timestamp":6,"lastHeartbeat":"t2","n":1}]}`,
		// Laid out otherwise, keys in another order, a timestamp dropped.
		"{\n  \"iteration\": 1,\n  \"criteria\": [\"a\"],\n  \"circuitBreaker\": {\"stuckCount\": 0},\n  \"x\": [{\"n\": 1.0}], \"updatedAt\": 0\n}",
		// A timestamp's key spelt with an escape is still a timestamp.
		`{"criteria":["a"],"iteration":1,"updated\u0041t":"later","circuitBreaker":{"stuckCount":0},"x":[{"n":1}]}`,
	}
	changed := []string{
		`{"criteria":["a"],"iteration":2,"updatedAt":"2026-11-23T06:00:00Z","circuitBreaker":{"stuckCount":0,"last_at":1},"x":[{"timestamp":5,"lastHeartbeat":"t1","n":1}]}`,
		`{"criteria":["a"],"iteration":1,"circuitBreaker":{"stuckCount":0},"x":[{"n":2}]}`,
		`{"criteria":["a"],"iteration":1,"circuitBreaker":{"stuckCount":0},"x":[{"n":1}],"format":"flat"}`,
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
}

// TestProgressFastPathIsTheBytes: a valid state with no key that can be a
// timestamp is fingerprinted by its bytes, without a second decode; both
// ways agree on what is the same state.
func TestProgressFastPathIsTheBytes(t *testing.T) {
	s := []byte(`{"criteria":["a"],"iteration":1}`)
	if mayHoldTimes(s) {
		t.Fatal("a plain state looks as if it held times")
	}
	if got, want := hope.Read(s).Progress, progressOfBytes(s); got != want {
		t.Errorf("fast path: %s, want the bytes' %s", got, want)
	}
	a := hope.Read([]byte(`{"criteria":["a"],"iteration":1,"at":"x"}`)).Progress
	b := hope.Read([]byte(`{"criteria":["a"],"iteration":1,"at":"x"}`)).Progress
	if a != b {
		t.Error("one state, two fingerprints")
	}
}

// TestProgressOfFieldsOnly: a dialect that names its progress fields counts
// only their change.
func TestProgressOfFieldsOnly(t *testing.T) {
	fields := []string{"phase", "capabilities.completed"}
	fp := func(s string) string {
		doc := decodeAny(t, s)
		return progressOfDocument(doc, fields)
	}
	a := fp(`{"phase":"CODE","capabilities":{"completed":1,"total":5},"note":"x"}`)
	if b := fp(`{"phase":"CODE","capabilities":{"completed":1,"total":6},"note":"y"}`); a != b {
		t.Error("a change outside the progress fields counts as progress")
	}
	if b := fp(`{"phase":"CODE","capabilities":{"completed":2,"total":5}}`); a == b {
		t.Error("a change inside a dotted progress field does not count")
	}
	if b := fp(`{"phase":"TEST","capabilities":{"completed":1,"total":5}}`); a == b {
		t.Error("a change of a progress field does not count")
	}
	if b := fp(`{"capabilities":{"completed":1}}`); a == b {
		t.Error("a progress field that went missing does not count")
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

func decodeAny(t *testing.T, s string) any {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(s), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}
