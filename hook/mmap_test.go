//go:build unix

package hook

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loophook/loophook/criteria"
)

// TestMappedAgreesWithRead: the hook, which maps a large state into memory,
// decides as a person's dry run does, which reads it, and leaves no mapping
// behind.
func TestMappedAgreesWithRead(t *testing.T) {
	in := project(t, 3000)
	input, err := ReadInput(bytes.NewReader(in))
	must(t, err)
	path := filepath.Join(input.Cwd, StateFile)
	if fi, err := os.Stat(path); err != nil || fi.Size() < mapFrom {
		t.Fatalf("the state is too small to be mapped: %v %v", fi.Size(), err)
	}
	o := Options{Protocol: Protocols["ok"], Limits: criteria.DefaultLimits()}

	var mapped mappings
	l := loadState(path, &mapped)
	if len(mapped) != 1 || l.State == nil || len(l.State.Criteria) != 3000 {
		t.Fatalf("mapped %d files; state %v, problems %q", len(mapped), l.State != nil, l.Problems)
	}
	mapped.release()

	want := Evaluate(o, input, false, io.Discard).Verdict
	got := evaluateMapped(o, input, io.Discard, loadState)
	if got != want || got.Rule != criteria.RuleUnmet {
		t.Errorf("mapped: %+v\nread:   %+v", got, want)
	}
}

// TestTruncatedWhileMapped: if another process truncates the state while
// the hook has it mapped, touching the lost pages faults; the hook answers
// all the same, from the file as it now is.
func TestTruncatedWhileMapped(t *testing.T) {
	in := project(t, 3000)
	input, err := ReadInput(bytes.NewReader(in))
	must(t, err)
	truncating := func(path string, mapped *mappings) *Loaded {
		l := loadState(path, mapped)
		if len(*mapped) == 0 {
			t.Fatal("the state was not mapped")
		}
		must(t, os.Truncate(path, 0))
		return l // its criteria's names are in pages that are gone
	}
	var stderr strings.Builder
	o := Options{Protocol: Protocols["ok"], Limits: criteria.DefaultLimits()}
	v := evaluateMapped(o, input, &stderr, truncating)
	if v.Rule != criteria.RuleInvalidState || !strings.Contains(v.Reason, "the file is empty") {
		t.Errorf("verdict %+v; want invalid-state for the now empty file", v)
	}
	if !strings.Contains(stderr.String(), "changed while it was read") {
		t.Errorf("stderr %q does not say why the state was read again", stderr.String())
	}
}
