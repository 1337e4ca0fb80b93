package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
