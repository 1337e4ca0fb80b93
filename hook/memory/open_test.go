package memory

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/loophook/loophook/criteria"
)

// TestOpenContracts: the work tree's file says which contract governs a
// session, across hook calls; setting what is already set writes nothing;
// a drop of another state's entry leaves it; two work trees keep apart;
// an entry unseen for a week goes at a write.
func TestOpenContracts(t *testing.T) {
	top, other := t.TempDir(), t.TempDir()
	now := time.Now()
	o := OpenFor(top)
	if _, ok := o.Governing("s1"); ok {
		t.Fatal("a fresh work tree governs a session")
	}
	if err := o.Set("s1", "/w/a.json", "hope", now); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(OpenFor(top).path)
	if err != nil {
		t.Fatal(err)
	}
	again := OpenFor(top)
	if g, ok := again.Governing("s1"); !ok || g.State != "/w/a.json" || g.Dialect != "hope" || !again.Holds("s1", "/w/a.json") {
		t.Errorf("a later call reads %+v, %v", g, ok)
	}
	if err := again.Set("s1", "/w/a.json", "hope", now); err != nil {
		t.Fatal(err)
	}
	if fi2, _ := os.Stat(again.path); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Error("setting what was set wrote the file")
	}
	if _, ok := OpenFor(other).Governing("s1"); ok {
		t.Error("another work tree shares the session's contract")
	}
	if err := OpenFor(top).Drop("s1", "/w/b.json"); err != nil {
		t.Fatal(err)
	}
	if _, ok := OpenFor(top).Governing("s1"); !ok {
		t.Error("a drop of another state's entry dropped it")
	}
	old := now.Add(-8 * 24 * time.Hour)
	if err := OpenFor(top).Set("s0", "/w/old.json", "hope", old); err != nil {
		t.Fatal(err)
	}
	if err := OpenFor(top).Set("s2", "/w/c.json", "orchestrator", now); err != nil {
		t.Fatal(err)
	}
	last := OpenFor(top)
	if _, ok := last.Governing("s0"); ok {
		t.Error("an entry unseen for a week was kept")
	}
	if err := last.Drop("s1", "/w/a.json"); err != nil {
		t.Fatal(err)
	}
	if _, ok := OpenFor(top).Governing("s1"); ok {
		t.Error("the ended loop's entry was kept")
	}
}

// TestHeaderLooks: the looks a stop takes at the contract read its header
// line only, and agree with the whole reading, for a contract of ten
// thousand names and one whose spec is longer than the part read.
func TestHeaderLooks(t *testing.T) {
	for _, spec := range []string{"s", strings.Repeat("long spec ", 4000)} {
		s := contractStore(t)
		l := loopOf()
		l.Spec = spec
		for i := range 10000 {
			l.Criteria = append(l.Criteria, criteria.Criterion{Name: fmt.Sprint("c", i)})
		}
		now := time.Unix(100, 0)
		if err := s.Begin(l, now); err != nil {
			t.Fatal(err)
		}
		if !s.Unfinished() || !s.ByInit() {
			t.Errorf("a begun contract: unfinished %v, by init %v", s.Unfinished(), s.ByInit())
		}
		if err := s.EndContract("p", "complete", true, now); err != nil {
			t.Fatal(err)
		}
		e, ok := s.Ending()
		if !ok || e.By != "complete" || e.Last != "p" || !e.Told || !e.At.Equal(now) || s.Unfinished() {
			t.Errorf("spec of %d bytes: ending %+v, %v", len(spec), e, ok)
		}
	}
}

// TestOpenFileRoundTrip: any session id and path, quotes, spaces and
// newlines too, read back as written; a line that does not read is passed
// over, and the others kept.
func TestOpenFileRoundTrip(t *testing.T) {
	m := map[string]Governing{
		"s1":               {State: "/w/.loop/state.json", Dialect: "hope", Seen: 1},
		"a b\n\"c\"\t\x00": {State: "/w/with space/\"q\"\n.json", Dialect: "orchestrator", Seen: 1795844551},
		"":                 {State: "/w/x", Dialect: "on-loop", Seen: 0},
	}
	got := parseOpen(string(formatOpen(m)) + "not a line\n\"s9\" \"/w/y\" hope notanumber\n")
	if len(got) != len(m) {
		t.Fatalf("read %d entries, want %d: %v", len(got), len(m), got)
	}
	for k, v := range m {
		if got[k] != v {
			t.Errorf("%q: read %+v, want %+v", k, got[k], v)
		}
	}
}
