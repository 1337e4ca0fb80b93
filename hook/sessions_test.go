package hook

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLatestSession(t *testing.T) {
	s := Store{Dir: filepath.Join(t.TempDir(), MemoryDir)}
	if session, ok, err := s.LatestSession(); session != "" || ok || err != nil {
		t.Errorf("LatestSession of no store = %q, %v, %v", session, ok, err)
	}
	remember := func(session string, at time.Time) {
		t.Helper()
		if err := s.Update(session, func(Memory, bool) Memory { return Memory{Unchanged: 1, Rule: "unmet"} }); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(s.file(session), at, at); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	for _, tc := range []struct {
		session string // the id the hook was given
		want    string // what LatestSession names it
	}{
		{"s1", "s1"},
		{"", ""},
		{"a/../../escape", "id-"}, // hashed into its file name
		{"s2", "s2"},
	} {
		now = now.Add(time.Second)
		remember(tc.session, now)
		got, ok, err := s.LatestSession()
		if !ok || err != nil {
			t.Fatalf("LatestSession after %q = %q, %v, %v", tc.session, got, ok, err)
		}
		if !strings.HasPrefix(got, tc.want) || tc.want != "id-" && got != tc.want {
			t.Errorf("LatestSession after %q = %q, want %q", tc.session, got, tc.want)
		}
		// Whatever the name, it reads the memory the hook wrote.
		if m, ok, err := s.Read(got); !ok || err != nil || m.Unchanged != 1 {
			t.Errorf("Read(%q) = %+v, %v, %v", got, m, ok, err)
		}
	}
}
