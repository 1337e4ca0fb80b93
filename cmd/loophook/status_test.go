package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/status"
	"github.com/loophook/loophook/internal/table"
)

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestPrintStatusColour(t *testing.T) {
	st := status.Report{
		State: ".loop/state.json", Valid: true, Session: "s1", Guard: 1, GuardLimit: 3, LastRule: criteria.RuleUnmet,
		Verdict: status.Verdict{Rule: criteria.RuleUnmet, Reason: "go on"},
		Loop: &status.Loop{
			Spec: "ünïcode spec", Status: "in_progress", Iteration: 1, MaxIterations: 10, StuckLimit: 5,
			Criteria: []status.Criterion{
				{Name: "tests pass", Met: true, Verification: "execution output"},
				{Name: "dökumented", Met: false},
			},
			CompletedSteps: []string{"one"}, RemainingSteps: []string{"two"},
		},
	}
	var plain, colour bytes.Buffer
	if err := printStatus(&plain, st, false); err != nil {
		t.Fatal(err)
	}
	if err := printStatus(&colour, st, true); err != nil {
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

func TestColourfulNotForFiles(t *testing.T) {
	var b bytes.Buffer
	if colourful(&b) {
		t.Error("colourful(buffer) = true")
	}
}
