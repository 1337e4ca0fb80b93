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
	if fi, err := os.Stat(path); err != nil || fi.Size() < largeState {
		t.Fatalf("the state is too small to be mapped: %v %v", fi.Size(), err)
	}
	o := Options{Protocol: Protocols["ok"], Limits: criteria.DefaultLimits()}

	var mapped mappings
	l := loadMapped(path, &mapped)
	if len(mapped) != 1 || l.State == nil || l.State.Criteria.Len() != 3000 {
		t.Fatalf("mapped %d files; state %v, problems %q", len(mapped), l.State != nil, l.Problems)
	}
	mapped.release()

	want := Evaluate(o, input, false, io.Discard).Verdict
	got := evaluateMapped(o, input, io.Discard, loadMapped)
	if got != want || got.Rule != criteria.RuleUnmet {
		t.Errorf("mapped: %+v\nread:   %+v", got, want)
	}
}

// TestTruncatedWhileMapped: if another process truncates the state while
// the hook has it mapped, touching the lost pages faults, in the parse or in
// the fingerprint beside it; the hook answers all the same, from the file as
// it now is.
func TestTruncatedWhileMapped(t *testing.T) {
	for _, when := range []string{"as it is read", "after it is read"} {
		t.Run(when, func(t *testing.T) {
			in := project(t, 3000)
			input, err := ReadInput(bytes.NewReader(in))
			must(t, err)
			truncate := func(path string, mapped *mappings) {
				if len(*mapped) == 0 {
					t.Fatal("the state was not mapped")
				}
				must(t, os.Truncate(path, 0))
			}
			load := func(path string, mapped *mappings) *Loaded {
				if when == "as it is read" {
					// Before the parse and the fingerprint beside it.
					return loadState(path, func(path string) ([]byte, error) {
						data, err := readStateFile(path, mapped)
						truncate(path, mapped)
						return data, err
					})
				}
				l := loadMapped(path, mapped)
				truncate(path, mapped) // the names the verdict quotes are in the lost pages
				return l
			}
			var stderr strings.Builder
			o := Options{Protocol: Protocols["ok"], Limits: criteria.DefaultLimits()}
			v := evaluateMapped(o, input, &stderr, load)
			if v.Rule != criteria.RuleInvalidState || !strings.Contains(v.Reason, "the file is empty") {
				t.Errorf("verdict %+v; want invalid-state for the now empty file", v)
			}
			if !strings.Contains(stderr.String(), "changed while it was read") {
				t.Errorf("stderr %q does not say why the state was read again", stderr.String())
			}
		})
	}
}
