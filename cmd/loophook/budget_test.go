package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/host"
)

// now sets VAR to the time now, RFC 3339 in UTC, for a transcript line
// written after the loop's contract began:
//
//	now VAR
func now(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: now VAR")
	}
	ts.Setenv(args[0], time.Now().UTC().Format(time.RFC3339Nano))
}

// appendx appends SRC to DST, replacing $VARS with the script's
// environment, as a host appends to its transcript:
//
//	appendx SRC DST
func appendx(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: appendx SRC DST")
	}
	f, err := os.OpenFile(ts.MkAbs(args[1]), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	ts.Check(err)
	_, err = f.WriteString(os.Expand(ts.ReadFile(args[0]), ts.Getenv))
	ts.Check(err)
	ts.Check(f.Close())
}

// approveMain approves the .loophook.json of the directory it is given as
// a person's loophook accept does, without the terminal a script does not
// have; a program of its own, so that it runs in the script's home:
//
//	exec approve DIR
func approveMain() int {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: approve DIR")
		return 2
	}
	if _, err := config.Approve(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// install --host warns when the file asks for a token budget that the host
// cannot measure; every host of today records its usage, so the warning is
// held to a host row without it.
func TestTokensUnrecordedWarns(t *testing.T) {
	dir := t.TempDir()
	h, err := host.Lookup("gemini")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, config.File), []byte(`{"budget": {"tokens": 10, "turns": 3}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := tokensUnrecorded(h, dir); n != "" {
		t.Errorf("Gemini CLI records usage, yet: %s", n)
	}
	h.Usage = nil
	if n := tokensUnrecorded(h, dir); !strings.Contains(n, "Gemini CLI records no token usage") {
		t.Errorf("no warning for a host without usage: %q", n)
	}
	if err := os.WriteFile(filepath.Join(dir, config.File), []byte(`{"budget": {"turns": 3}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := tokensUnrecorded(h, dir); n != "" {
		t.Errorf("a warning with no token budget: %s", n)
	}
}
