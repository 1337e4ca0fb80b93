package hook

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loophook/loophook/criteria"
)

// TestDamagedContractIsReplaced: a contract file the hook did not write is
// said on stderr and replaced by the criteria the state lists, which then
// hold the loop as any contract does.
func TestDamagedContractIsReplaced(t *testing.T) {
	dir := loopDir(t)
	store := hopeStore(dir)
	if err := os.MkdirAll(store.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	contract := filepath.Join(store.Dir, contractFile)
	if err := os.WriteFile(contract, []byte("{not the hook's"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Host: host("ok"), Limits: criteria.DefaultLimits()}
	run := func(session string) (string, string) {
		var stdout, stderr bytes.Buffer
		stop(o, strings.NewReader(stopInput(dir, session, false)), &stdout, &stderr)
		return stdout.String(), stderr.String()
	}
	_, errOut := run("s1")
	if !strings.Contains(errOut, "contract "+contract+" is damaged; the criteria the state lists now become the contract") {
		t.Errorf("stderr: %q", errOut)
	}
	if err := os.WriteFile(filepath.Join(dir, stateFile), []byte(`{"criteria":[],"iteration":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut := run("s2")
	if errOut != "" || !strings.Contains(out, "removed from the state") || !strings.Contains(out, `\"tests pass\"`) {
		t.Errorf("the replaced contract does not hold: %s %s", out, errOut)
	}
}

// TestContractReadsOnlyItsFirstLine: while the state lists every criterion
// of the contract (and maybe more), a stop reads the contract's first line
// only, not its names, however many.
func TestContractReadsOnlyItsFirstLine(t *testing.T) {
	store := Store{Dir: t.TempDir()}
	loop := func(names ...string) *criteria.Loop {
		l := &criteria.Loop{Spec: "s"}
		for _, n := range names {
			l.Criteria = append(l.Criteria, criteria.Criterion{Name: n})
		}
		return l
	}
	if _, err := store.Removed(loop("a", "b"), true); err != nil {
		t.Fatal(err)
	}
	if removed, err := store.Removed(loop("a", "b", "c"), true); len(removed) > 0 || err != nil {
		t.Fatalf("an added criterion: %q %v", removed, err)
	}
	// Spoil the names: a stop that reads them would fail.
	path := filepath.Join(store.Dir, contractFile)
	data, _ := os.ReadFile(path)
	head, _, _ := bytes.Cut(data, []byte("\n"))
	os.WriteFile(path, append(head, "\n[broken"...), 0o600)
	for _, l := range []*criteria.Loop{loop("b", "a"), loop("a", "b", "c")} {
		if removed, err := store.Removed(l, true); len(removed) > 0 || err != nil {
			t.Errorf("%v: %q %v", l.Criteria, removed, err)
		}
	}
	if removed, err := store.Removed(loop("a"), false); err == nil {
		t.Errorf("a dropped criterion must read the names, and found them broken: %q", removed)
	}
}
