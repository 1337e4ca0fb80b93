package memory

import (
	"fmt"
	"testing"
	"time"

	"github.com/loophook/loophook/criteria"
)

func loopOf(names ...string) *criteria.Loop {
	l := &criteria.Loop{Spec: "s"}
	for _, n := range names {
		l.Criteria = append(l.Criteria, criteria.Criterion{Name: n})
	}
	return l
}

func contractStore(t *testing.T) Store {
	return Store{Dir: t.TempDir()}
}

// TestContractGrowsUntilTheLoopEnds: every criterion seen while the loop
// is unfinished joins the contract, whatever else the state says; only an
// end lets a differing state start a new one, and the ended loop's own
// state, seen again, starts none.
func TestContractGrowsUntilTheLoopEnds(t *testing.T) {
	s := contractStore(t)
	now := time.Unix(100, 0)
	check := func(l *criteria.Loop, progress string, want ...string) ContractCheck {
		t.Helper()
		c, err := s.Check(l, progress, true, now)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(c.Removed) != fmt.Sprint(want) && !(len(want) == 0 && len(c.Removed) == 0) {
			t.Errorf("%v: removed %q, want %q", l.Criteria, c.Removed, want)
		}
		return c
	}
	if c := check(loopOf("a"), "p1"); !c.Began.Equal(now) {
		t.Errorf("began %v, want %v", c.Began, now)
	}
	check(loopOf("a", "b"), "p2")
	// A new spec, no criterion in common: still the same loop.
	other := loopOf("x")
	other.Spec = "another"
	now = time.Unix(200, 0)
	if c := check(other, "p3", "a", "b"); !c.Began.Equal(time.Unix(100, 0)) {
		t.Errorf("the contract began anew at %v", c.Began)
	}
	check(loopOf("a", "b", "x"), "p4")
	check(loopOf("a", "b"), "p5", "x")
	// Recorded as met without being listed: not removed.
	met := loopOf("a", "b")
	met.MetUnlisted = []string{"x"}
	check(met, "p6")

	if err := s.EndContract("p7", "complete", true, now); err != nil {
		t.Fatal(err)
	}
	if began, ok := s.Began(); ok {
		t.Errorf("an ended contract began at %v", began)
	}
	// The ended loop's last state again, or a stopped loop: no contract.
	check(loopOf("a"), "p7")
	paused := loopOf("q")
	paused.LoopStatus = "paused"
	check(paused, "p8")
	check(loopOf("a"), "p7")
	// A differing active state starts a new contract, of its criteria only.
	now = time.Unix(300, 0)
	if c := check(loopOf("tests pass"), "p9"); !c.Began.Equal(now) {
		t.Errorf("the new contract began at %v, want %v", c.Began, now)
	}
	check(loopOf(), "p10", "tests pass")
	if began, ok := s.Began(); !ok || !began.Equal(now) {
		t.Errorf("began %v %v", began, ok)
	}
}

// TestAcceptAndBegin: accept makes the current criteria the contract and
// keeps when it began; init's Begin starts a new one.
func TestAcceptAndBegin(t *testing.T) {
	s := contractStore(t)
	t0, t1 := time.Unix(10, 0), time.Unix(20, 0)
	if _, err := s.Check(loopOf("a", "b"), "p1", true, t0); err != nil {
		t.Fatal(err)
	}
	change, err := s.Accept(loopOf("b", "c"), t1)
	if err != nil || change.New || fmt.Sprint(change.Removed, change.Added) != "[a] [c]" {
		t.Errorf("%+v %v", change, err)
	}
	if began, _ := s.Began(); !began.Equal(t0) {
		t.Errorf("accept restarted the contract at %v", began)
	}
	if c, _ := s.Check(loopOf("b", "c"), "p2", false, t1); len(c.Removed) > 0 {
		t.Errorf("removed %q", c.Removed)
	}
	if err := s.Begin(loopOf("z"), t1); err != nil {
		t.Fatal(err)
	}
	if began, _ := s.Began(); !began.Equal(t1) {
		t.Errorf("init did not start a new contract: %v", began)
	}
	if c, _ := s.Check(loopOf("b"), "p3", false, t1); fmt.Sprint(c.Removed) != "[z]" {
		t.Errorf("removed %q", c.Removed)
	}
}

// BenchmarkContractCheck10k is the contract check of every stop, on a state
// of ten thousand criteria that lists its whole contract.
func BenchmarkContractCheck10k(b *testing.B) {
	s := Store{Dir: b.TempDir()}
	names := make([]string, 10000)
	for i := range names {
		names[i] = fmt.Sprintf("criterion %d: the thing works as the person asked", i)
	}
	l := loopOf(names...)
	if _, err := s.Check(l, "p", true, time.Now()); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if c, err := s.Check(l, "p", true, time.Now()); err != nil || len(c.Removed) > 0 {
			b.Fatal(c.Removed, err)
		}
	}
}
