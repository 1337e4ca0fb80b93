package memory

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/schema"
)

// TestCancelRecord: a person's cancel of another loop system's loop holds
// while the state stays as it was, and is forgotten by Uncancel (init,
// accept) or when the state changes (a new loop).
func TestCancelRecord(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("LOCALAPPDATA", os.Getenv("XDG_CACHE_HOME"))
	orchestrator, err := schema.Lookup("orchestrator")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "loop-state.json")
	write := func(doc string) *state.Loaded {
		t.Helper()
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return state.Load(state.Found{Path: path, Dialect: orchestrator})
	}
	cancelled := func(l *state.Loaded, forget bool) bool {
		t.Helper()
		at, err := For(path).Cancelled(l, forget)
		if err != nil {
			t.Fatal(err)
		}
		return !at.IsZero()
	}
	first := `{"orchestratorId": "orch-1", "currentPhase": "EXECUTE"}`
	l := write(first)
	if l.Loop == nil {
		t.Fatalf("the state does not read: %v", l.Problems)
	}
	if cancelled(l, true) {
		t.Fatal("cancelled before any cancel")
	}
	at := time.Date(2026, 11, 27, 9, 30, 0, 5, time.UTC)
	if _, err := CancelLoop(state.Found{Path: path, Dialect: orchestrator}, at); err != nil {
		t.Fatal(err)
	}
	if !cancelled(l, true) {
		t.Fatal("not cancelled after cancel")
	}
	if got, _ := For(path).Cancelled(l, false); !got.Equal(at) {
		t.Errorf("cancelled at %v, want %v", got, at)
	}
	store := For(path)
	if err := store.ApplyCancel(l, false); err != nil || !l.Loop.Inactive() {
		t.Fatalf("applyCancel left the loop %q (%v)", l.Loop.LoopStatus, err)
	}

	// A dry run of another state keeps the record; a stop forgets it.
	next := write(`{"orchestratorId": "orch-2", "currentPhase": "EXECUTE"}`)
	if cancelled(next, false) || !cancelled(write(first), false) {
		t.Fatal("a dry run changed the record")
	}
	if cancelled(next, true) || cancelled(write(first), true) {
		t.Fatal("a new loop did not clear the cancel")
	}

	// init and accept clear it.
	if _, err := CancelLoop(state.Found{Path: path, Dialect: orchestrator}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := store.Uncancel(); err != nil {
		t.Fatal(err)
	}
	if cancelled(write(first), true) {
		t.Fatal("Uncancel did not clear the cancel")
	}
}
