package criteria

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// states builds a state of n criteria, every other one met.
func state(n int) *Loop {
	s := &Loop{Iteration: 3, MaxIterations: 10, RemainingSteps: []string{"write the docs"}}
	list := make([]Criterion, n)
	for i := range list {
		name := fmt.Sprintf("criterion %d: the export command handles case %d as the spec says", i, i)
		list[i] = Criterion{Name: name, Met: i%2 == 0, Verification: "execution output"}
	}
	s.Criteria = CriteriaOf(list...)
	return s
}

func TestReasonIsCapped(t *testing.T) {
	for _, n := range []int{2, 20, 10_000} {
		v := Decide(Evaluation{Path: ".loop/state.json", Loop: state(n)}, DefaultLimits())
		if v.Rule != RuleUnmet || v.OK {
			t.Fatalf("n=%d: got %s ok=%v", n, v.Rule, v.OK)
		}
		if len(v.Reason) > MaxReason {
			t.Errorf("n=%d: reason is %d bytes, over %d", n, len(v.Reason), MaxReason)
		}
		if n == 10_000 && !strings.Contains(v.Reason, " more. Next step: write the docs.") {
			t.Errorf("n=%d: reason does not say how many more: %s", n, v.Reason)
		}
	}
}

func TestReasonKeepsNamesOnOneLine(t *testing.T) {
	s := &Loop{Criteria: CriteriaOf(Criterion{Name: "a\nb"}, Criterion{Name: "quote\"d"}, Criterion{Name: "bell\a"}, Criterion{Name: "cut \xff"})}
	v := Decide(Evaluation{Path: "p", Loop: s}, DefaultLimits())
	if strings.ContainsAny(v.Reason, "\n\a") || !utf8.ValidString(v.Reason) {
		t.Errorf("reason carries raw control characters or invalid UTF-8: %q", v.Reason)
	}
	for _, want := range []string{`"a\nb"`, `"quote\"d"`, `"bell\a"`, `"cut \xff"`} {
		if !strings.Contains(v.Reason, want) {
			t.Errorf("reason lacks %s: %s", want, v.Reason)
		}
	}
}

func TestLongNameIsClipped(t *testing.T) {
	long := strings.Repeat("é", 5000)
	s := &Loop{Criteria: CriteriaOf(Criterion{Name: long})}
	v := Decide(Evaluation{Path: "p", Loop: s}, DefaultLimits())
	if len(v.Reason) > MaxReason || !utf8.ValidString(v.Reason) || !strings.Contains(v.Reason, "…") {
		t.Errorf("long name not clipped cleanly: %d bytes", len(v.Reason))
	}
}

func BenchmarkDecide(b *testing.B) {
	for _, n := range []int{20, 10_000} {
		s := state(n)
		b.Run(fmt.Sprintf("criteria=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Decide(Evaluation{Path: ".loop/state.json", Loop: s}, DefaultLimits())
			}
		})
	}
}
