// Package criteria is loophook's decision: a loop state and the facts of one
// Stop evaluation in, a verdict and the rule that decided out. It touches no
// files, no clock and no stdin; SPEC.md section 2 is its contract.
package criteria

import (
	"slices"
	"strings"
)

// Verifications are the ways a criterion can have been checked.
var Verifications = []string{"execution output", "observation", "measurement", "code review", "assumption"}

// Statuses are the values of the state's status field.
var Statuses = []string{"in_progress", "active", "paused", "complete", "completed", "cancelled", "blocked", "failed"}

// State is the agent's .loop/state.json, as far as the rules need it.
type State struct {
	Spec           string
	Criteria       Criteria
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

// Criterion is one success criterion and its criteriaStatus entry.
type Criterion struct {
	Name         string
	Met          bool
	Verification string // "" when the entry is a bare boolean or missing
}

// Active reports whether the loop's status asks the hook to enforce it.
func (s *State) Active() bool {
	return s.LoopStatus == "" || s.LoopStatus == "in_progress" || s.LoopStatus == "active"
}

// Unmet returns the names of the first max criteria that are not met, in
// order, and how many are not met in all.
func (s *State) Unmet(max int) (names []string, total int) {
	for i, p := range s.Criteria.status {
		if p&1 == 0 {
			if total < max {
				names = append(names, s.Criteria.At(i).Name)
			}
			total++
		}
	}
	return names, total
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
	}
	if b, ok := doc["budget"].(float64); ok {
		s.Budget, s.HasBudget = b, true
	}
	if cb, ok := doc["circuitBreaker"].(map[string]any); ok {
		s.StuckCount = num(cb["stuckCount"])
	}
	var list []Criterion
	index := map[string]int{}
	for _, name := range strs(doc["criteria"]) {
		if _, dup := index[name]; !dup {
			index[name] = len(list)
			list = append(list, Criterion{Name: name})
		}
	}
	cs, _ := doc["criteriaStatus"].(map[string]any)
	var extra []Criterion
	for name, v := range cs {
		c := Criterion{Name: name}
		switch v := v.(type) {
		case bool:
			c.Met = v
		case map[string]any:
			c.Met, c.Verification = v["met"] == true, str(v["verification"])
		default:
			continue
		}
		if i, ok := index[name]; ok {
			list[i] = c
		} else {
			extra = append(extra, c)
		}
	}
	slices.SortFunc(extra, func(a, b Criterion) int { return strings.Compare(a.Name, b.Name) })
	if list = append(list, extra...); len(list) > 0 {
		s.Criteria = CriteriaOf(list...)
	}
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
