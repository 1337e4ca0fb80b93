package criteria

import (
	"reflect"
	"testing"
)

func TestCriteriaOfReadsBack(t *testing.T) {
	list := []Criterion{
		{Name: "tests pass", Met: true, Verification: "execution output"},
		{Name: "", Met: false},
		{Name: "docs", Met: true, Verification: "assumption"},
		{Name: "naïve \x00 name", Met: false, Verification: "code review"},
	}
	c := CriteriaOf(list...)
	if c.Len() != len(list) || !reflect.DeepEqual(c.List(), list) {
		t.Errorf("CriteriaOf(%+v).List() = %+v", list, c.List())
	}
	for i, want := range list {
		if got := c.At(i); got != want {
			t.Errorf("At(%d) = %+v, want %+v", i, got, want)
		}
	}
	odd := CriteriaOf(Criterion{Name: "x", Met: true, Verification: "hearsay"})
	if got := odd.At(0); got != (Criterion{Name: "x", Met: true}) {
		t.Errorf("an unknown verification reads back as %+v", got)
	}
	if n := CriteriaOf().Len(); n != 0 {
		t.Errorf("no criteria: Len %d", n)
	}
}

func TestUnmetCountsPastWhatItGathers(t *testing.T) {
	s := &State{Criteria: CriteriaOf(Criterion{Name: "a"}, Criterion{Name: "b", Met: true}, Criterion{Name: "c"}, Criterion{Name: "d"})}
	names, total := s.Unmet(2)
	if !reflect.DeepEqual(names, []string{"a", "c"}) || total != 3 {
		t.Errorf("Unmet(2) = %q, %d", names, total)
	}
	// A list told of more names than it was given says how many more.
	if got, want := list(names, total, 1000), `"a", "c" … and 1 more`; got != want {
		t.Errorf("list = %s, want %s", got, want)
	}
}
