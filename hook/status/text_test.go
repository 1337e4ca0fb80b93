package status

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/table"
)

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestWriteTextColour(t *testing.T) {
	st := Report{
		State: ".loop/state.json", Valid: true, Session: "s1", Guard: 1, GuardLimit: 3, LastRule: criteria.RuleUnmet,
		Verdict: Verdict{Rule: criteria.RuleUnmet, Reason: "go on"},
		Loop: &Loop{
			Spec: "ünïcode spec", Status: "in_progress", Iteration: 1, MaxIterations: 10, StuckLimit: 5,
			Criteria: []Criterion{
				{Name: "tests pass", Met: true, Verification: "execution output"},
				{Name: "dökumented", Met: false},
			},
			CompletedSteps: []string{"one"}, RemainingSteps: []string{"two"},
		},
	}
	var plain, colour bytes.Buffer
	if err := st.WriteText(&plain, false); err != nil {
		t.Fatal(err)
	}
	if err := st.WriteText(&colour, true); err != nil {
		t.Fatal(err)
	}
	if ansi.Match(plain.Bytes()) {
		t.Errorf("plain output has colour codes:\n%q", plain.String())
	}
	// Colour changes how it looks, not where anything is.
	if got := ansi.ReplaceAllString(colour.String(), ""); got != plain.String() {
		t.Errorf("colour output without its codes:\n%s\nwant:\n%s", got, plain.String())
	}
	for _, want := range []string{
		table.Bold + "CRITERION" + table.Reset + "   " + table.Bold + "MET" + table.Reset,
		table.Green + "yes" + table.Reset + "  execution output",
		"dökumented  " + table.Red + "no" + table.Reset + "   -",
	} {
		if !strings.Contains(colour.String(), want) {
			t.Errorf("colour output lacks %q:\n%q", want, colour.String())
		}
	}
}
