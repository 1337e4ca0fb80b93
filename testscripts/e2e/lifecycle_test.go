//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// countedConfig is a person's .loophook.json whose one check passes and
// counts its runs in a file outside the work tree.
const countedConfig = `{"checks": [{"name": "tests", "run": "echo run >> ../check-runs"}]}`

// TestEndedLoop: a loop that ended stays ended (SPEC section 5), in real
// Claude Code. A loop completes; the person then asks for more work in
// the same session (--resume), twice, and the agent changes the tree and
// stops each time: no check runs, nothing blocks, and no "loop complete"
// is said again. A new session after it gets no loop context.
func TestEndedLoop(t *testing.T) {
	claude, loophook := setup(t)
	p := newProject(t, loop("tests pass"))
	approveConfig(t, p, countedConfig)
	installHooks(t, p.dir, loophook)
	runs := func() int {
		data, _ := os.ReadFile(filepath.Join(filepath.Dir(p.dir), "check-runs"))
		return strings.Count(string(data), "run")
	}

	first := scenario{
		name: "the loop completes",
		turns: []turn{{edit: edits(meet("tests pass"), set("exit_signal", true)),
			text: "The tests pass; done."}},
		wantTurns: 1, wantContext: []string{"tests pass"}, wantEndMessage: true,
	}
	api := newStubAPI(t, prompt, p.statePath(), first.turns)
	run := logged(t, api, func() *claudeRun { return runClaude(t, claude, p, api.URL(), prompt, sessionID) })
	checkSession(t, first, api, run, stopCommand(t, p.dir))
	checkEndMessage(t, run, []string{"loop complete"})
	if n := runs(); n != 1 {
		t.Fatalf("the check ran %d times at the claim, want 1", n)
	}

	// More work in the same session: two more prompts, each a turn that
	// changes the tree and stops.
	seen, starts := len(run.hookRuns("Stop")), len(run.hookRuns("SessionStart"))
	for i, more := range []string{"Now also add a README.", "And a CHANGELOG, please."} {
		name := []string{"README.md", "CHANGELOG.md"}[i]
		turns := []turn{{edit: inTree(name, "more work\n"), text: "Added " + name + "."}}
		api := newStubAPI(t, more, p.statePath(), turns)
		run := logged(t, api, func() *claudeRun {
			return resumeClaude(t, claude, p, claudeEnv(p, api.URL()), more, sessionID)
		})
		for _, err := range api.failures() {
			t.Error(err)
		}
		if main := api.mainRequests(); len(main) != 1 {
			t.Errorf("%q took %d turns, want 1: the ended loop blocked", more, len(main))
		}
		stops := run.hookRuns("Stop")
		if len(stops) != seen+1 {
			t.Fatalf("%q: %d Stop hook runs in the session, want %d", more, len(stops), seen+1)
		}
		if last := stops[len(stops)-1]; last.blocked || last.stdout != "{}" {
			t.Errorf("%q: the Stop hook answered %+v, want {} (an ended loop is no loop)", more, last)
		}
		seen = len(stops)
		// The transcript goes on: only the starts of this run are new.
		all := run.hookRuns("SessionStart")
		for _, s := range all[min(starts, len(all)):] {
			if strings.Contains(s.stdout, "additionalContext") {
				t.Errorf("%q: the resumed session was told of the ended loop: %s", more, s.stdout)
			}
		}
		starts = len(all)
	}
	if n := runs(); n != 1 {
		t.Errorf("the check ran %d times, want 1: an ended loop's stops run no check", n)
	}

	// A new session gets no loop context, and its stop is no loop's.
	fresh := scenario{name: "a new session", turns: []turn{{text: "Hello."}}, wantTurns: 1, noContext: true}
	api3 := newStubAPI(t, prompt, p.statePath(), fresh.turns)
	run3 := logged(t, api3, func() *claudeRun { return runClaude(t, claude, p, api3.URL(), prompt, otherSessionID) })
	if main := api3.mainRequests(); len(main) != 1 {
		t.Errorf("the new session took %d turns, want 1", len(main))
	} else {
		checkStops(t, fresh, run3, main, stopCommand(t, p.dir))
		checkSessionStart(t, fresh, run3, main[0])
	}
	if n := runs(); n != 1 {
		t.Errorf("the check ran %d times, want 1", n)
	}
}

// TestLinkedWorktrees: two Claude Code sessions at once in two linked
// worktrees of one repository, each with a loop of its own, are each held
// to their own loop (SPEC section 5: a session the open contract never
// governed is judged by its own loop).
func TestLinkedWorktrees(t *testing.T) {
	claude, loophook := setup(t)
	main := newProject(t, nil)
	git(t, main, "commit", "-q", "--allow-empty", "-m", "start")
	trees := []*project{}
	for i, name := range []string{"one", "two"} {
		dir := filepath.Join(filepath.Dir(main.dir), name)
		git(t, main, "worktree", "add", "-q", dir)
		p := &project{dir: dir, home: main.home, tmp: filepath.Join(main.tmp, name)}
		if err := os.MkdirAll(p.tmp, 0o755); err != nil {
			t.Fatal(err)
		}
		criterion := []string{"parser done", "printer done"}[i]
		if err := writeState(p.statePath(), loop(criterion)); err != nil {
			t.Fatal(err)
		}
		installHooks(t, p.dir, loophook)
		trees = append(trees, p)
	}
	ids := []string{sessionID, otherSessionID}
	type result struct {
		api *stubAPI
		run *claudeRun
	}
	results := make([]result, 2)
	done := make(chan int)
	for i, p := range trees {
		criterion := []string{"parser done", "printer done"}[i]
		// Each agent works its own loop: one turn of progress on it, then
		// the claim; held once each, by its own criterion.
		turns := []turn{
			{edit: bump("iteration"), text: "Working on " + criterion + "."},
			{edit: edits(meet(criterion), set("exit_signal", true)), text: criterion + "; done."},
		}
		api := newStubAPI(t, prompt, p.statePath(), turns)
		go func() {
			defer func() { done <- i }()
			results[i] = result{api: api, run: runClaude(t, claude, p, api.URL(), prompt, ids[i])}
		}()
	}
	<-done
	<-done
	for i, r := range results {
		if r.run == nil {
			t.Fatalf("session %d did not run", i+1)
		}
		criterion := []string{"parser done", "printer done"}[i]
		other := []string{"printer done", "parser done"}[i]
		main := r.api.mainRequests()
		if len(main) != 2 {
			t.Errorf("session %d took %d turns, want 2", i+1, len(main))
		}
		stops := r.run.hookRuns("Stop")
		if len(stops) != 2 || !stops[0].blocked || stops[1].blocked {
			t.Fatalf("session %d: Stop hook runs %+v, want a block, then the end", i+1, stops)
		}
		if !strings.Contains(stops[0].reason, criterion) || strings.Contains(stops[0].reason, other) {
			t.Errorf("session %d was held by another loop: %s", i+1, stops[0].reason)
		}
		var answer struct{ SystemMessage string }
		json.Unmarshal([]byte(stops[1].stdout), &answer)
		if !strings.Contains(answer.SystemMessage, "loop complete") {
			t.Errorf("session %d ended with %q, want loop complete", i+1, stops[1].stdout)
		}
	}
}

// git runs git in the project, in its sealed home.
func git(t *testing.T, p *project, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
	cmd.Dir = p.dir
	cmd.Env = append(os.Environ(), "HOME="+p.home, "GIT_CONFIG_NOSYSTEM=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
