package main

import (
	"testing"

	"github.com/loophook/loophook/schema"
)

func TestNewStatePassesTheSchema(t *testing.T) {
	doc, _, err := newState(`add "--json", <fast> & right`, []string{"tests pass, all", "docs\nupdated"}, []string{"a", "a"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	r := schema.Hope.Read(encode(doc))
	s, problems := r.Loop, r.Problems
	if len(problems) > 0 {
		t.Fatalf("the new state is invalid: %q\n%s", problems, encode(doc))
	}
	_, unmet := s.Unmet(0)
	if s.Spec != `add "--json", <fast> & right` || s.Criteria.Len() != 2 || unmet != 2 ||
		s.Iteration != 0 || s.MaxIterations != 3 || !s.Active() || s.ExitSignal ||
		len(s.RemainingSteps) != 2 || len(s.CompletedSteps) != 0 || s.StuckCount != 0 {
		t.Errorf("the new state reads back as %+v", s)
	}
}
