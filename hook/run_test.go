package hook

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/transcript"
)

// stateFile is where a hope loop keeps its state.
const stateFile = ".loop/state.json"

// stop runs the Stop hook as the command does, notes on stderr.
func stop(o Options, stdin io.Reader, stdout, stderr io.Writer) {
	o.Note = func(msg string) { fmt.Fprintln(stderr, Prefix+msg) }
	Run(EventStop, o, stdin, stdout)
}

// sessionStart runs the SessionStart hook as the command does.
func sessionStart(o Options, stdin io.Reader, stdout, stderr io.Writer) {
	o.Note = func(msg string) { fmt.Fprintln(stderr, Prefix+msg) }
	Run(EventSessionStart, o, stdin, stdout)
}

// host returns the strict protocol, as hook/host has it: this package's
// tests cannot import the hosts, which import it (hook/host tests every
// host's wire through Run).
func host(name string) Wire {
	if name != "ok" {
		panic("hook's tests speak only ok, not " + name)
	}
	return Wire{
		Name:         "ok",
		ReadInput:    ReadInput,
		Stop:         func(v criteria.Verdict) any { return okAnswer{OK: v.OK, Reason: v.Reason} },
		SessionStart: func(context string) any { return okAnswer{OK: true, Reason: context} },
		LastMessage: func(in Input) (string, error) {
			if in.LastAssistantMessage != nil {
				return *in.LastAssistantMessage, nil
			}
			return transcript.LastAssistantText(in.TranscriptPath)
		},
		ProjectDir: []string{"CLAUDE_PROJECT_DIR"},
	}
}

type okAnswer struct {
	OK     bool   `json:"ok"`
	Reason string `json:"reason"`
}

// hopeStore is the store of the hope loop in dir.
func hopeStore(dir string) memory.Store {
	return memory.For(filepath.Join(dir, stateFile))
}

// TestDamagedContractIsReplaced: a contract file the hook did not write is
// said on stderr and replaced by the criteria the state lists, which then
// hold the loop as any contract does.
func TestDamagedContractIsReplaced(t *testing.T) {
	dir := loopDir(t)
	store := hopeStore(dir)
	if err := os.MkdirAll(store.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	contract := filepath.Join(store.Dir, ".contract")
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

// TestChecksRunOutsideTheMemoryLock: while an approved check runs, the
// session's memory is not locked, so another evaluation of the session
// reads and writes it at once; the check's failure still holds the claim.
func TestChecksRunOutsideTheMemoryLock(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the check is a shell line")
	}
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, ".loop"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, stateFile), []byte(`{"criteria":["tests pass"],"criteriaStatus":{"tests pass":true},"exit_signal":true,"iteration":1}`), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, config.File), []byte(`{"checks":[{"name":"slow","run":"touch started; sleep 3; exit 1"}]}`), 0o644))
	_, err := config.Approve(dir)
	must(t, err)
	o := Options{Host: host("ok"), Limits: criteria.DefaultLimits()}
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		stop(o, strings.NewReader(stopInput(dir, "s1", true)), &out, io.Discard)
	}()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the check never started")
		}
	}
	locked := make(chan error, 1)
	go func() {
		locked <- hopeStore(dir).Update("s1", func(prev memory.Memory, _ bool, _ error) memory.Memory { return prev })
	}()
	select {
	case err := <-locked:
		if err != nil {
			t.Fatal(err)
		}
	case <-done:
		t.Fatal("the memory stayed locked while the check ran")
	}
	<-done
	if !strings.Contains(out.String(), `"ok":false`) || !strings.Contains(out.String(), "1 check failed") {
		t.Errorf("the failing check did not hold the claim: %s", out.String())
	}
}
