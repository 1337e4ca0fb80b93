package memory

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/loophook/loophook/criteria"
)

// TestJournalIsBounded appends thousands of evaluations and finds the
// journal never past its cap, the newest kept, oldest first.
func TestJournalIsBounded(t *testing.T) {
	j := Journal{Dir: t.TempDir()}
	reason := strings.Repeat("a long reason ", 40)
	for i := range 5000 {
		if err := j.Append(Entry{Time: time.Unix(int64(i), 0), Session: "s1", Reason: reason, Guard: i}); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(filepath.Join(j.Dir, JournalFile)); err != nil || fi.Size() > maxJournal+1024 {
			t.Fatalf("after %d evaluations: %v, %d bytes", i+1, err, fi.Size())
		}
	}
	entries, err := j.Read("s1")
	if err != nil || len(entries) < 100 {
		t.Fatalf("read %d entries: %v", len(entries), err)
	}
	if last := entries[len(entries)-1]; last.Guard != 4999 {
		t.Errorf("the newest entry is %d, want 4999", last.Guard)
	}
	for i := 1; i < len(entries); i++ {
		if entries[i].Guard != entries[i-1].Guard+1 {
			t.Fatalf("entries out of order or missing at %d: %d then %d", i, entries[i-1].Guard, entries[i].Guard)
		}
	}
	if got, _ := j.Read("other"); len(got) != 0 {
		t.Errorf("another session's entries: %d", len(got))
	}
}

// TestJournalLineIsEncodingJSONs holds the journal's written-out encoding
// to encoding/json's: the same keys in the same order, and each value read
// back as it was, whatever the strings hold.
func TestJournalLineIsEncodingJSONs(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "<loop-complete> & more", "tab\tnew\nline\r\x00\x1f\x7f",
		"ünïcödé 雪 \u2028\u2029 🎉", "not UTF-8: \xff\xfe end", "\xc3"} {
		e := Entry{Time: time.Date(2026, 11, 23, 9, 8, 7, 6005004, time.FixedZone("x", 3600)), Session: s, Host: "claude" + s,
			Dialect: s + "hope", OK: len(s)%2 == 0, Rule: criteria.Rule(s), Reason: s, Fingerprint: "f" + s, Changed: len(s)%3 == 0, Guard: len(s) - 5}
		if len(s)%2 == 1 {
			e.Budgets = []criteria.Measured{{Measure: criteria.MeasureTokens, Used: 1234567, Limit: int64(len(s)), Unrecorded: len(s) == 1}, {Measure: criteria.MeasureTurns, Used: 3, Limit: 4}}
		}
		line := e.appendJSON(nil)
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var got, wantEntry Entry
		if err := json.Unmarshal(line, &got); err != nil {
			t.Fatalf("%q: %s does not read: %v", s, line, err)
		}
		if err := json.Unmarshal(want, &wantEntry); err != nil {
			t.Fatal(err)
		}
		if !got.Time.Equal(wantEntry.Time) || got.Time.Format(time.RFC3339Nano) != wantEntry.Time.Format(time.RFC3339Nano) {
			t.Errorf("%q: time %v, want %v", s, got.Time, wantEntry.Time)
		}
		got.Time, wantEntry.Time = time.Time{}, time.Time{}
		if !reflect.DeepEqual(got, wantEntry) {
			t.Errorf("%q: read back as %+v, want %+v", s, got, wantEntry)
		}
		if k, wk := keys(t, line), keys(t, want); !slices.Equal(k, wk) {
			t.Errorf("%q: keys %q, want %q", s, k, wk)
		}
	}
}

// keys are a JSON object's keys in the order written.
func keys(t *testing.T, object []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(object))
	var out []string
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("%s: not an object", object)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestJournalCutsReasonOnARune: a reason past the journal's 300 bytes is
// cut before a character that straddles the cut, never inside it, and its
// line is valid JSON that reads back as the reason's first whole
// characters and an ellipsis.
func TestJournalCutsReasonOnARune(t *testing.T) {
	for _, c := range []string{"é", "雪", "🎉"} {
		for lead := maxJournalReason - len(c) + 1; lead < maxJournalReason; lead++ {
			j := Journal{Dir: t.TempDir()}
			reason := strings.Repeat("a", lead) + c + " and more after it"
			if err := j.Append(Entry{Session: "s1", Reason: reason}); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(j.Dir, JournalFile))
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(data) || !utf8.Valid(data) {
				t.Fatalf("%q after %d bytes: not valid JSON in UTF-8: %q", c, lead, data)
			}
			entries, err := j.Read("s1")
			if err != nil || len(entries) != 1 {
				t.Fatalf("%d entries: %v", len(entries), err)
			}
			if got, want := entries[0].Reason, strings.Repeat("a", lead)+"…"; got != want {
				t.Errorf("%q after %d bytes: reason %q, want %q", c, lead, got, want)
			}
		}
	}
}
