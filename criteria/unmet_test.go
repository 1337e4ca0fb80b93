package criteria

import (
	"reflect"
	"testing"
)

func TestUnmetCountsPastWhatItGathers(t *testing.T) {
	s := &Loop{Criteria: CriteriaOf(Criterion{Name: "a"}, Criterion{Name: "b", Met: true}, Criterion{Name: "c"}, Criterion{Name: "d"})}
	names, total := s.Unmet(2)
	if !reflect.DeepEqual(names, []string{"a", "c"}) || total != 3 {
		t.Errorf("Unmet(2) = %q, %d", names, total)
	}
	// A list told of more names than it was given says how many more.
	if got, want := list(names, total, 1000), `"a", "c" … and 1 more`; got != want {
		t.Errorf("list = %s, want %s", got, want)
	}
}
