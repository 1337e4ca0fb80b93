//go:build e2e

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/loophook/loophook/hook/config"
)

// Each reply of the stand-ins reports 10 input and 5 output tokens (reply,
// streamMessage; Gemini's usageMetadata): 15 a turn.
const tokensPerTurn = 15

// approveEnv, set to a project directory, makes the test binary approve
// that project's .loophook.json and exit (TestMain): run as a child with
// the project's HOME, the approval lands in the project's own
// configuration directory, never the real one, and no test's environment
// changes under another's.
const approveEnv = "LOOPHOOK_E2E_APPROVE"

// approveChild is the child's work, when it is one.
func approveChild() (code int, child bool) {
	dir := os.Getenv(approveEnv)
	if dir == "" {
		return 0, false
	}
	if _, err := config.Approve(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1, true
	}
	return 0, true
}

// approveConfig writes text as the project's .loophook.json and approves
// it as a person's loophook accept does.
func approveConfig(t *testing.T, p *project, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(p.dir, config.File), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + p.home, approveEnv + "=" + p.dir}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("approve %s: %v\n%s", config.File, err, out)
	}
}

// budgetScenario is a loop that makes progress every turn, ended by a
// budget of .loophook.json that loophook measures itself.
type budgetScenario struct {
	scenario
	config string // the approved .loophook.json
	// wantMessage is in the last stop's systemMessage: the figure and
	// the limit.
	wantMessage string
}

// TestBudgets runs loops ended by a budget in real Claude Code. A token
// budget of 40 is crossed by the third reply (45 tokens): the loop ends at
// exactly that turn's stop, though Claude Code writes its transcript
// behind the hook; a turns budget of 2 ends it at the third stop.
func TestBudgets(t *testing.T) {
	five := names(5)
	for _, sc := range []budgetScenario{{
		scenario: scenario{
			name:           "token budget",
			state:          loop(five...),
			turns:          progressAll(five),
			wantTurns:      3,
			wantReasons:    nextUnmet(five)[:2],
			wantContext:    []string{spec, "tokens: 40 left of 40"},
			wantEndMessage: true,
		},
		config:      `{"budget": {"tokens": 40}}`,
		wantMessage: fmt.Sprintf("token budget reached: %d tokens since the loop began, of 40", 3*tokensPerTurn),
	}, {
		scenario: scenario{
			name:           "turns budget",
			state:          loop(five...),
			turns:          progressAll(five),
			wantTurns:      3,
			wantReasons:    nextUnmet(five)[:2],
			wantContext:    []string{spec, "turns: 2 left of 2"},
			wantEndMessage: true,
		},
		config:      `{"budget": {"turns": 2}}`,
		wantMessage: "turn budget reached: 2 continuations since the loop began, of 2",
	}} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			claude, loophook := setup(t)
			p := newProject(t, sc.state)
			approveConfig(t, p, sc.config)
			installHooks(t, p.dir, loophook)
			api := newStubAPI(t, prompt, p.statePath(), sc.turns)
			run := logged(t, api, func() *claudeRun { return runClaude(t, claude, p, api.URL(), prompt, sessionID) })
			checkSession(t, sc.scenario, api, run, stopCommand(t, p.dir))
			stops := run.hookRuns("Stop")
			if len(stops) == 0 {
				return
			}
			if last := stops[len(stops)-1].stdout; !strings.Contains(last, sc.wantMessage) {
				t.Errorf("the last Stop answer %s does not say %q", last, sc.wantMessage)
			}
		})
	}
}

// tokenBudgetLoop is the same token budget in another host: progress every
// turn, and the stop after the third reply's 45 tokens ends the loop.
func tokenBudgetLoop() hostLoop {
	five := names(5)
	return hostLoop{
		name:        "token budget",
		state:       loop(five...),
		turns:       progressAll(five),
		config:      `{"budget": {"tokens": 40}}`,
		wantRules:   []string{"unmet", "unmet", "budget"},
		wantReasons: nextUnmet(five)[:2],
	}
}
