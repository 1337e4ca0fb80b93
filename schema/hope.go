package schema

import (
	"slices"
	"strings"

	"github.com/loophook/loophook/criteria"
)

// hopeFromDocument builds a loop from a hope document that has passed the
// schema, so every field it reads has the type the schema gives it. Fields of
// another type are ignored rather than trusted.
func hopeFromDocument(doc map[string]any) *criteria.Loop {
	_, hasExit := doc["exit_signal"]
	l := &criteria.Loop{
		Spec:           str(doc["spec"]),
		ExitSignal:     doc["exit_signal"] == true,
		HasExitSignal:  hasExit,
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
		l.Budget, l.HasBudget = b, true
	}
	if cb, ok := doc["circuitBreaker"].(map[string]any); ok {
		l.StuckCount = num(cb["stuckCount"])
	}
	var list criteria.Criteria
	index := map[string]int{}
	for _, name := range strs(doc["criteria"]) {
		if _, dup := index[name]; !dup {
			index[name] = len(list)
			list = append(list, criteria.Criterion{Name: name})
		}
	}
	cs, _ := doc["criteriaStatus"].(map[string]any)
	var extra criteria.Criteria
	for name, v := range cs {
		c := criteria.Criterion{Name: name}
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
	slices.SortFunc(extra, func(a, b criteria.Criterion) int { return strings.Compare(a.Name, b.Name) })
	if list = append(list, extra...); len(list) > 0 {
		l.Criteria = list
	}
	if ms, ok := doc["mustNotStatus"].(map[string]any); ok {
		l.MustNotStatus = map[string]bool{}
		for k, v := range ms {
			l.MustNotStatus[k] = v == true
		}
	}
	return l
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
