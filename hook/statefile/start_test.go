package statefile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/refusal"
	"github.com/loophook/loophook/internal/file"
	"github.com/loophook/loophook/schema"
)

func TestNewStatePassesTheSchema(t *testing.T) {
	l := Loop{Spec: `add "--json", <fast> & right`, Criteria: []string{"tests pass, all", "docs\nupdated"}, Steps: []string{"a", "a"}, MaxIterations: 3}
	if err := l.check(); err != nil {
		t.Fatal(err)
	}
	r := schema.Hope.Read(l.state())
	s, problems := r.Loop, r.Problems
	if len(problems) > 0 {
		t.Fatalf("the new state is invalid: %q\n%s", problems, l.state())
	}
	_, unmet := s.Unmet(0)
	if s.Spec != `add "--json", <fast> & right` || s.Criteria.Len() != 2 || unmet != 2 ||
		s.Iteration != 0 || s.MaxIterations != 3 || !s.Active() || s.ExitSignal ||
		len(s.RemainingSteps) != 2 || len(s.CompletedSteps) != 0 || s.StuckCount != 0 {
		t.Errorf("the new state reads back as %+v", s)
	}
}

// TestFailedStartLeavesNothing: init writes all or nothing: no .loop, no
// temporary file.
func TestFailedStartLeavesNothing(t *testing.T) {
	defer func(w func(*os.Root, string, []byte, os.FileMode) error) { writeIn = w }(writeIn)
	calls := 0
	writeIn = func(dir *os.Root, name string, data []byte, perm os.FileMode) error {
		if calls++; calls == 1 {
			return errors.New("disk full")
		}
		return file.WriteIn(dir, name, data, perm)
	}
	project := t.TempDir()
	if err := startLoop(filepath.Join(project, ".loop", "state.json"), []byte("{}\n"), false); err == nil {
		t.Fatal("startLoop succeeded")
	}
	if entries, _ := os.ReadDir(project); len(entries) != 0 {
		t.Errorf("the project holds %d entries, want none", len(entries))
	}
}

func TestBrokenNameNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	now := time.Date(2026, 11, 23, 14, 5, 1, 0, time.UTC)
	for _, want := range []string{
		"state.json.broken-20261123T140501",
		"state.json.broken-20261123T140501-2",
		"state.json.broken-20261123T140501-3",
	} {
		got, err := brokenName(root, "state.json", now)
		if err != nil || got != want {
			t.Fatalf("brokenName = %q, %v; want %q", got, err, want)
		}
		// Taken by anything, even a link to nothing.
		if err := os.Symlink("nowhere", filepath.Join(dir, got)); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(filepath.Join(dir, got)); err != nil {
			t.Skip("a link to nothing cannot be read here (Wine):", err)
		}
	}
}

// A person's command with no loop to work on is refused with the way to
// start one; a --state that is not there, by its name.
func TestLocateRefusesWithAHint(t *testing.T) {
	dir := t.TempDir()
	_, err := Locate(hook.Options{Dir: dir})
	var r *refusal.Refusal
	if !errors.As(err, &r) || !strings.Contains(r.Error(), "no loop state found from "+dir) || !strings.Contains(r.Hint(), "loophook init") {
		t.Errorf("Locate in an empty directory = %v", err)
	}
	missing := filepath.Join(dir, "missing.json")
	if _, err := Locate(hook.Options{StatePath: missing}); err == nil || err.Error() != "--state "+missing+": no such file or directory" {
		t.Errorf("Locate of a missing --state = %v", err)
	}
	// A --dir that is not there is no place to start a loop: no such hint.
	nowhere := filepath.Join(dir, "nowhere")
	if _, err := Locate(hook.Options{Dir: nowhere}); !errors.As(err, &r) || r.Error() != "--dir "+nowhere+": no such file or directory" || r.Hint() != "" {
		t.Errorf("Locate from a missing --dir = %v", err)
	}
}
