package criteria

import "time"

// Measure names a budget of .loophook.json that loophook measures itself
// (SPEC section 6), rather than one the agent reports.
type Measure string

// The measured budgets, in the order they are tried and shown.
const (
	MeasureTokens   Measure = "tokens"
	MeasureTurns    Measure = "turns"
	MeasureDuration Measure = "duration"
)

// Measured is one budget and what the loop has used of it since its
// contract began. Durations are in nanoseconds.
type Measured struct {
	Measure Measure `json:"measure"`
	Used    int64   `json:"used"`
	Limit   int64   `json:"limit"`
	// Unrecorded: the host records no tokens, so Used is unknown and the
	// budget cannot be reached.
	Unrecorded bool `json:"unrecorded,omitempty"`
}

// Reached reports whether the loop has used all of the budget.
func (m Measured) Reached() bool { return !m.Unrecorded && m.Limit > 0 && m.Used >= m.Limit }

// Left is what is left of the budget, never below zero.
func (m Measured) Left() int64 { return max(0, m.Limit-m.Used) }

// measuredBudget is the part of rule budget for the budgets loophook
// measured: the first one reached decides.
func measuredBudget(e Evaluation) (Verdict, bool) {
	for _, m := range e.Budgets {
		if m.Reached() {
			return stop(RuleBudget, reasonMeasured(m)), true
		}
	}
	return Verdict{}, false
}

// Figure writes an amount of the budget's measure as a person reads it.
func (m Measured) Figure(n int64) string {
	if m.Measure == MeasureDuration {
		return time.Duration(n).Round(time.Second).String()
	}
	return thousands(n)
}
