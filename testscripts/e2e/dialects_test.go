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

// The loop dialects (DIALECTS.md) in the real Claude Code: loops of
// on-loop, a loop controller and an orchestrator kept in their own files,
// and the rules that protect every loop (a done claim refused, the guard
// on a flip-flopping state, a removed criterion held until a person runs
// loophook accept), with loophook installed as TestLoop installs it.

// dialectPrompt is the task of every dialect session: it names no file,
// as the loop systems' own agents know where their state is.
const dialectPrompt = "Work the loop until it is done."

// dialectScenario is a scenario whose state is kept at file, relative to
// the project (.loop/state.json when empty). Its turns' edits get the path
// of .loop/state.json, as everywhere in the suite; in(file, e) makes e
// edit file instead, as onLoop does for the on-loop session.
type dialectScenario struct {
	scenario
	file string
	// wantEnd holds substrings of the last Stop answer's systemMessage.
	wantEnd []string
}

// Where the dialects keep their state, relative to the project.
const (
	controllerFile   = "domain-memory/billing/loop-state.json"
	orchestratorFile = "loop-state.json"
)

// in makes e edit the project's file rel instead of .loop/state.json.
func in(rel string, e edit) edit {
	return func(path string) error { return e(filepath.Join(filepath.Dir(filepath.Dir(path)), rel)) }
}

// onLoopFile is the on-loop session's state, relative to the project.
var onLoopFile = filepath.Join(".on-loop", "sessions", onLoopSession, "state.json")

// onLoopPipeline is an on-loop session at phase with the phases before it
// completed.
func onLoopPipeline(phase string, extra ...any) state {
	all := []string{"INIT", "SPEC", "PLAN", "CODE", "TEST", "SECURITY", "DOC", "BUILD", "REVIEW", "GIT"}
	var done []any
	for _, p := range all {
		if p == phase {
			break
		}
		done = append(done, p)
	}
	return with(state{
		"version": "1.1", "session_id": onLoopSession, "prompt": spec,
		"phase": phase, "phases_completed": done, "error": nil, "todos": []any{},
	}, extra...)
}

// controller is a loop controller's system at stage, every stage before it
// complete, every capability implemented and the deploy gate required with
// the status gate.
func controller(stage, gate string) state {
	all := []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP"}
	stages := map[string]any{}
	for _, s := range all {
		if s == stage {
			stages[s] = map[string]any{"status": "in-progress"}
			break
		}
		stages[s] = map[string]any{"status": "complete"}
	}
	return state{
		"systemId": "sys-007", "systemName": "Billing", "state": stage,
		"capabilities": map[string]any{"total": 3, "completed": 3, "current": nil, "remaining": []any{}},
		"stages":       stages,
		"gates":        map[string]any{"deploy": map[string]any{"required": true, "status": gate}},
	}
}

// finishStage completes the controller's current stage and moves it on
// to next.
func finishStage(next string) edit {
	return in(controllerFile, update(func(s state) {
		stages, _ := s["stages"].(map[string]any)
		stages[s["state"].(string)] = map[string]any{"status": "complete"}
		if next != "COMPLETE" {
			stages[next] = map[string]any{"status": "in-progress"}
		}
		s["state"] = next
	}))
}

// orchestrator is an orchestrator in EXECUTE, loop 2 of ~2, with the
// deployment system done and the testing one under way.
func orchestrator() state {
	return state{
		"orchestratorId": "orch-1", "mode": "brownfield-polish", "currentLoop": 2, "currentPhase": "EXECUTE",
		"scopeDiscovery": map[string]any{
			"completedAt":    "2026-01-21T10:15:00Z",
			"gaps":           []any{map[string]any{"description": spec}},
			"systems":        []any{map[string]any{"name": "deployment"}, map[string]any{"name": "testing"}},
			"estimatedLoops": 2,
		},
		"subAgents": []any{map[string]any{"id": "agent-testing", "system": "testing", "status": "running",
			"currentStage": "TEST", "lastHeartbeat": "2026-01-21T10:45:00Z"}},
		"completedSystems": []any{"deployment"},
		"gates":            map[string]any{"pending": []any{}, "approved": []any{}, "rejected": []any{}},
	}
}

// orch edits the orchestrator's loop-state.json.
func orch(fn func(s state)) edit { return in(orchestratorFile, update(fn)) }

// agentDone marks the orchestrator's sub-agent completed.
func agentDone(s state) {
	s["subAgents"].([]any)[0].(map[string]any)["status"] = "completed"
}

// systemDone records the testing system completed.
func systemDone(s state) {
	s["completedSystems"] = append(s["completedSystems"].([]any), "testing")
}

// handoff is an orchestrator's session handoff.
var handoff = map[string]any{
	"pausedAt":           "2026-01-21T12:00:00Z",
	"reason":             "session-end",
	"resumeInstructions": "Continue with agent-testing completion, then merge all worktrees",
	"pendingActions":     []any{"Wait for agent-testing to complete", "Merge ui-polish branch"},
}

func TestDialects(t *testing.T) {
	two := []string{"empty input parses", "bad UTF-8 is rejected"}
	flipA := with(loop(two...), "criteriaStatus", map[string]any{two[1]: true})
	flipB := with(loop(two...), "criteriaStatus", map[string]any{two[1]: false})

	scenarios := []dialectScenario{{
		// on-loop: a phase a turn, then COMPLETE with every phase done.
		scenario: scenario{
			name:  "on-loop pipeline to COMPLETE",
			state: onLoopPipeline("BUILD"),
			turns: []turn{
				{edit: advance("REVIEW"), text: "BUILD done."},
				{edit: advance("GIT"), text: "REVIEW done."},
				{edit: advance("COMPLETE"), text: "GIT done; the session is complete."},
			},
			wantTurns:      3,
			wantReasons:    [][]string{{"REVIEW", "GIT"}, {"GIT"}},
			wantContext:    []string{spec, "BUILD"},
			wantEndMessage: true,
		},
		file:    onLoopFile,
		wantEnd: []string{"complete"},
	}, {
		// on-loop: an unrecoverable error ends the loop; the message
		// says what failed and how to resume.
		scenario: scenario{
			name:  "on-loop pipeline FAILED",
			state: onLoopPipeline("SPEC"),
			turns: []turn{
				{edit: advance("PLAN"), text: "SPEC done."},
				{edit: onLoop(update(func(s state) { s["phase"], s["error"] = "FAILED", "npm install exited 1" })),
					text: "npm install fails; giving up."},
			},
			wantTurns:      2,
			wantReasons:    [][]string{{"PLAN"}},
			wantContext:    []string{spec},
			wantEndMessage: true,
		},
		file:    onLoopFile,
		wantEnd: []string{"npm install exited 1", "/on-loop-resume"},
	}, {
		// on-loop: a retry a turn; at max_retries it goes on, past it the
		// circuit opens.
		scenario: scenario{
			name: "on-loop retries exhausted",
			state: onLoopPipeline("CODE", "retries", map[string]any{"test_to_code": 2},
				"max_retries", map[string]any{"test_to_code": 3}),
			turns: repeat(4, turn{
				edit: onLoop(update(func(s state) {
					r := s["retries"].(map[string]any)
					r["test_to_code"] = number(r["test_to_code"]) + 1
				})),
				text: "The tests still fail; back to CODE.",
			}),
			wantTurns:      2,
			wantReasons:    [][]string{{"CODE"}},
			wantContext:    []string{spec},
			wantEndMessage: true,
		},
		file:    onLoopFile,
		wantEnd: []string{"retries are exhausted", "test_to_code 4 of 3"},
	}, {
		// loop-controller: a stage a turn, then COMPLETE with every stage
		// complete, every capability done and the gate approved.
		scenario: scenario{
			name:  "loop-controller to COMPLETE",
			state: controller("DOCUMENT", "approved"),
			turns: []turn{
				{edit: finishStage("REVIEW"), text: "Documented."},
				{edit: finishStage("SHIP"), text: "Reviewed."},
				{edit: finishStage("COMPLETE"), text: "Shipped."},
			},
			wantTurns:      3,
			wantReasons:    [][]string{{"REVIEW", "SHIP"}, {"SHIP"}},
			wantContext:    []string{"Billing", "DOCUMENT"},
			wantEndMessage: true,
		},
		file:    controllerFile,
		wantEnd: []string{"complete"},
	}, {
		// loop-controller: at REVIEW a required gate not approved waits
		// for a person (WAIT_FOR_APPROVAL).
		scenario: scenario{
			name:  "loop-controller waits at REVIEW for a gate",
			state: controller("VALIDATE", "pending"),
			turns: []turn{
				{edit: finishStage("DOCUMENT"), text: "Validated."},
				{edit: finishStage("REVIEW"), text: "Documented; ready for review."},
			},
			wantTurns:      2,
			wantReasons:    [][]string{{"DOCUMENT", "deploy"}},
			wantContext:    []string{"Billing", "VALIDATE"},
			wantEndMessage: true,
		},
		file:    controllerFile,
		wantEnd: []string{"WAIT_FOR_APPROVAL", "deploy"},
	}, {
		// orchestrator: the sub-agent finishes, its system is recorded,
		// then the phase goes to COMPLETE.
		scenario: scenario{
			name:  "orchestrator to COMPLETE",
			state: orchestrator(),
			turns: []turn{
				{edit: orch(agentDone), text: "agent-testing finished."},
				{edit: orch(func(s state) { systemDone(s); s["currentPhase"] = "RETROSPECT" }), text: "testing merged."},
				{edit: orch(func(s state) { s["currentPhase"] = "COMPLETE" }), text: "All work done."},
			},
			wantTurns:      3,
			wantReasons:    [][]string{{"system testing"}, {"RETROSPECT"}},
			wantContext:    []string{"EXECUTE", "testing"},
			wantEndMessage: true,
		},
		file:    orchestratorFile,
		wantEnd: []string{"complete"},
	}, {
		// orchestrator: a session handed off; the next one is told the
		// handoff's instructions, resumes (removing the handoff), works,
		// and hands off again, which waits for a person.
		scenario: scenario{
			name:  "orchestrator handoff",
			state: with(orchestrator(), "sessionHandoff", handoff),
			turns: []turn{
				{edit: orch(func(s state) { delete(s, "sessionHandoff"); agentDone(s) }), text: "Resumed; agent-testing finished."},
				{edit: orch(func(s state) { s["sessionHandoff"] = handoff }), text: "Handing off."},
			},
			wantTurns:      2,
			wantReasons:    [][]string{{"system testing"}},
			wantContext:    []string{handoff["resumeInstructions"].(string), "remove sessionHandoff"},
			wantEndMessage: true,
		},
		file:    orchestratorFile,
		wantEnd: []string{"handed off", "/orchestrator --resume"},
	}, {
		// A done claim with a criterion unmet is refused; with every
		// criterion met it is the exit.
		scenario: scenario{
			name:  "premature done claim refused",
			state: loop(two...),
			turns: []turn{
				{edit: edits(meet(two[0]), set("status", "complete")), text: "All done!"},
				{edit: meet(two[1]), text: "Now it really is done."},
			},
			wantTurns:      2,
			wantReasons:    [][]string{{"marked done", two[1]}},
			wantContext:    []string{spec, two[0], two[1]},
			wantEndMessage: true,
		},
		wantEnd: []string{"marked done"},
	}, {
		// Rule 9: a state flipping between two versions is no progress.
		// The first stop sees B, the second A (new to the Stop hook: the
		// session start does not count), then B, A, B are versions seen
		// before: 1, 2, 3, and the guard lets the agent stop.
		scenario: scenario{
			name:  "flip-flop ends at the guard",
			state: flipA,
			turns: []turn{
				{edit: replace(flipB), text: "Flip."},
				{edit: replace(flipA), text: "Flop."},
				{edit: replace(flipB), text: "Flip."},
				{edit: replace(flipA), text: "Flop."},
				{edit: replace(flipB), text: "Flip."},
				{edit: replace(flipA), text: "Flop."},
			},
			wantTurns:      5,
			wantReasons:    repeat(4, []string{two[0]}),
			wantContext:    []string{spec},
			wantEndMessage: true,
		},
		wantEnd: []string{"runaway guard"},
	}}

	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			runDialect(t, sc)
		})
	}

	t.Run("removed criterion until accept", func(t *testing.T) {
		t.Parallel()
		removedUntilAccept(t, two)
	})
}

// runDialect is runScenario for a state kept at sc.file.
func runDialect(t *testing.T, sc dialectScenario) {
	claude, loophook := setup(t)
	p := newProject(t, nil)
	path := p.statePath()
	if sc.file != "" {
		path = filepath.Join(p.dir, sc.file)
	}
	if err := writeState(path, sc.state); err != nil {
		t.Fatal(err)
	}
	installHooks(t, p.dir, loophook)
	api := newStubAPI(t, dialectPrompt, p.statePath(), sc.turns)
	run := logged(t, api, func() *claudeRun { return runClaude(t, claude, p, api.URL(), dialectPrompt, sessionID) })
	checkSession(t, sc.scenario, api, run, stopCommand(t, p.dir))
	checkEndMessage(t, run, sc.wantEnd)
}

// checkEndMessage checks that the last Stop answer's systemMessage names
// each of want.
func checkEndMessage(t *testing.T, run *claudeRun, want []string) {
	t.Helper()
	stops := run.hookRuns("Stop")
	if len(stops) == 0 || len(want) == 0 {
		return
	}
	var answer struct {
		SystemMessage string `json:"systemMessage"`
	}
	if err := json.Unmarshal([]byte(stops[len(stops)-1].stdout), &answer); err != nil {
		t.Fatalf("the last Stop answer is not JSON: %v", err)
	}
	for _, sub := range want {
		if !strings.Contains(answer.SystemMessage, sub) {
			t.Errorf("the last Stop answer's systemMessage does not mention %q: %q", sub, answer.SystemMessage)
		}
	}
}

// removedUntilAccept: the agent meets a criterion, then drops the other
// and claims the loop done; the dropped one stays unmet (SPEC section 5)
// and the guard ends the session. (The contract is what the first Stop
// saw: the session start does not record it, so the agent works a turn
// before it drops one.) A person then runs loophook accept, and the next session
// completes the loop.
func removedUntilAccept(t *testing.T, two []string) {
	claude, loophook := setup(t)
	p := newProject(t, loop(two...))
	installHooks(t, p.dir, loophook)
	command := stopCommand(t, p.dir)

	first := scenario{
		name: "removed criterion",
		turns: []turn{progress(two[0]), {
			edit: edits(set("criteria", []string{two[0]}), set("exit_signal", true)),
			text: "Dropped the UTF-8 criterion; the rest is done.",
		}},
		wantTurns:      5,
		wantReasons:    append([][]string{{two[1]}}, repeat(3, []string{"removed", "loophook accept", two[1]})...),
		wantContext:    []string{spec, two[0], two[1]},
		wantEndMessage: true,
	}
	api := newStubAPI(t, dialectPrompt, p.statePath(), first.turns)
	run := logged(t, api, func() *claudeRun { return runClaude(t, claude, p, api.URL(), dialectPrompt, sessionID) })
	checkSession(t, first, api, run, command)
	checkEndMessage(t, run, []string{"runaway guard"})
	if t.Failed() {
		return
	}

	// The person agrees to the drop, at a terminal (script(1) gives
	// loophook accept one), as SPEC section 5 asks.
	accept := exec.Command("script", "-qec", loophook+" accept", "/dev/null")
	accept.Dir = p.dir
	accept.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + p.home, "TMPDIR=" + p.tmp}
	out, err := accept.CombinedOutput()
	if err != nil {
		t.Fatalf("loophook accept: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "removed") || !strings.Contains(string(out), two[1]) {
		t.Errorf("loophook accept said %q, want it to name the removed %q", out, two[1])
	}

	// A new session: the loop is complete at its first stop.
	second := scenario{name: "after accept", wantTurns: 1, wantEndMessage: true}
	api2 := newStubAPI(t, dialectPrompt, p.statePath(), nil)
	run2 := logged(t, api2, func() *claudeRun { return runClaude(t, claude, p, api2.URL(), dialectPrompt, otherSessionID) })
	if main := api2.mainRequests(); len(main) != 1 {
		t.Errorf("the session after accept took %d turns, want 1", len(main))
	} else {
		checkStops(t, second, run2, main, command)
	}
	checkEndMessage(t, run2, []string{"complete"})
}
