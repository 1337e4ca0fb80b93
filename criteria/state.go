// Package criteria is loophook's decision: a loop state and the facts of one
// Stop evaluation in, a verdict and the rule that decided out. It touches no
// files, no clock and no stdin; SPEC.md section 2 is its contract.
package criteria

import "sort"

// Verifications are the ways a criterion can have been checked.
var Verifications = []string{"execution output", "observation", "measurement", "code review", "assumption"}

// Statuses are the values of the state's status field.
var Statuses = []string{"in_progress", "active", "paused", "complete", "completed", "cancelled", "blocked", "failed"}

// State is the agent's .loop/state.json, as far as the rules need it.
type State struct {
	Spec           string
	Criteria       []string // as listed, then criteriaStatus entries it does not name, sorted
	Status         map[string]CriterionStatus
	ExitSignal     bool
	LoopStatus     string // "" means in_progress
	Iteration      float64
	MaxIterations  float64 // 0: not set
	Cost           float64
	Budget         float64
	HasBudget      bool
	StuckCount     float64
	Steps          []string
	CompletedSteps []string
	RemainingSteps []string
	MustNot        []string
	MustNotStatus  map[string]bool
	SessionID      string
}

// CriterionStatus is one criteriaStatus entry.
type CriterionStatus struct {
	Met          bool
	Verification string // "" when the entry is a bare boolean
}

// Active reports whether the loop's status asks the hook to enforce it.
func (s *State) Active() bool {
	return s.LoopStatus == "" || s.LoopStatus == "in_progress" || s.LoopStatus == "active"
}

// Met reports whether the named criterion is met.
func (s *State) Met(name string) bool { return s.Status[name].Met }

// Unmet lists the criteria that are not met, in the order of Criteria.
func (s *State) Unmet() []string {
	var unmet []string
	for _, c := range s.Criteria {
		if !s.Met(c) {
			unmet = append(unmet, c)
		}
	}
	return unmet
}

// FromDocument builds a State from a decoded JSON document that has passed
// the schema, so every field it reads has the type the schema gives it.
// Fields of another type are ignored rather than trusted.
func FromDocument(doc map[string]any) *State {
	s := &State{
		Spec:           str(doc["spec"]),
		ExitSignal:     doc["exit_signal"] == true,
		LoopStatus:     str(doc["status"]),
		Iteration:      num(doc["iteration"]),
		MaxIterations:  num(doc["maxIterations"]),
		Cost:           num(doc["cost"]),
		Steps:          strs(doc["steps"]),
		CompletedSteps: strs(doc["completedSteps"]),
		RemainingSteps: strs(doc["remainingSteps"]),
		MustNot:        strs(doc["mustNot"]),
		SessionID:      str(doc["session_id"]),
		Status:         map[string]CriterionStatus{},
	}
	if b, ok := doc["budget"].(float64); ok {
		s.Budget, s.HasBudget = b, true
	}
	if cb, ok := doc["circuitBreaker"].(map[string]any); ok {
		s.StuckCount = num(cb["stuckCount"])
	}
	named := map[string]bool{}
	for _, c := range strs(doc["criteria"]) {
		if !named[c] {
			named[c] = true
			s.Criteria = append(s.Criteria, c)
		}
	}
	cs, _ := doc["criteriaStatus"].(map[string]any)
	var extra []string
	for name, v := range cs {
		switch v := v.(type) {
		case bool:
			s.Status[name] = CriterionStatus{Met: v}
		case map[string]any:
			s.Status[name] = CriterionStatus{Met: v["met"] == true, Verification: str(v["verification"])}
		default:
			continue
		}
		if !named[name] {
			extra = append(extra, name)
		}
	}
	sort.Strings(extra)
	s.Criteria = append(s.Criteria, extra...)
	if ms, ok := doc["mustNotStatus"].(map[string]any); ok {
		s.MustNotStatus = map[string]bool{}
		for k, v := range ms {
			s.MustNotStatus[k] = v == true
		}
	}
	return s
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) float64 {
	f, _ := v.(float64)
	return f
}

func strs(v any) []string {
	list, _ := v.([]any)
	if len(list) == 0 {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
