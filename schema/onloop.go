package schema

import (
	_ "embed"
	"encoding/json"
	"slices"

	"github.com/loophook/loophook/criteria"
)

//go:embed on-loop.schema.json
var onLoopSchema []byte

// onLoop is on-loop's phase pipeline: one state.json per session, the
// newest session (its directory's name begins with the time) the loop.
var onLoop = Dialect{
	Name:     "on-loop",
	File:     ".on-loop/sessions/*/state.json",
	Schema:   onLoopSchema,
	ID:       "https://loophook.dev/schema/on-loop.json",
	Tell:     [][]string{{"phase", "phases_completed"}},
	Stage:    "phase",
	validate: validateOnLoop,
	loop:     onLoopFromDocument,
	// session_id is on-loop's own, never the host's: no session field.
}

// onLoopPhases are the phases a session passes through, each a criterion,
// with the agent that works in it.
var onLoopPhases = []struct{ name, agent string }{
	{"INIT", "orchestrator"},
	{"SPEC", "architect"},
	{"PLAN", "orchestrator"},
	{"CODE", "coding"},
	{"TEST", "testing"},
	{"SECURITY", "security"},
	{"DOC", "documentation"},
	{"BUILD", "build"},
	{"REVIEW", "reviewer"},
	{"GIT", "orchestrator"},
}

// The phases that are not work: the done claim and the failure.
const (
	onLoopComplete = "COMPLETE"
	onLoopFailed   = "FAILED"
)

// onLoopMaxRetries are on-loop's own limits, for a file that names none.
var onLoopMaxRetries = map[string]float64{"test_to_code": 3, "security_to_code": 2, "review_to_code": 2}

func validateOnLoop(doc any) []string {
	var v validator
	counts := func(x any, at string) { v.objectOf(x, at, v.atLeast(0)) }
	v.object(doc, "", func(obj map[string]any) {
		v.required(obj, "", "phase")
		v.field(obj, "", "prompt", v.str)
		v.field(obj, "", "phase", v.str)
		v.field(obj, "", "phases_completed", v.strings)
		v.field(obj, "", "retries", counts)
		v.field(obj, "", "max_retries", counts)
		v.field(obj, "", "error", v.types("string", "null"))
		v.field(obj, "", "pr_url", v.types("string", "null"))
		v.field(obj, "", "todos", v.types("array"))
	})
	return v.problems
}

func onLoopFromDocument(doc map[string]any) *criteria.Loop {
	phase := str(doc["phase"])
	done := strs(doc["phases_completed"])
	l := &criteria.Loop{Spec: str(doc["prompt"]), HasExitSignal: true, Uncounted: true, RecordIn: "phases_completed"}
	var left []string
	known := phase == onLoopComplete || phase == onLoopFailed
	for _, p := range onLoopPhases {
		met := slices.Contains(done, p.name)
		l.Criteria = append(l.Criteria, criteria.Criterion{Name: p.name, Met: met})
		if !met {
			left = append(left, p.name)
		}
		known = known || phase == p.name
	}
	switch {
	case phase == onLoopComplete:
		l.DoneClaim, l.ExitSignal = true, true
	case phase == onLoopFailed:
		l.Failed = tellOnLoopFailed(str(doc["error"]))
	case !known:
		l.Waiting = tellOnLoopUnknownPhase(phase)
	}
	l.Exhausted = onLoopExhausted(obj(doc["retries"]), obj(doc["max_retries"]))
	l.NextStep = onLoopNext(phase, known, left)
	for _, t := range list(doc["todos"]) {
		l.Notes = append(l.Notes, tellTodo(todoText(t)))
	}
	if url := str(doc["pr_url"]); url != "" {
		l.Notes = append(l.Notes, tellPullRequest(url))
	}
	return l
}

// onLoopExhausted says which retries went past their limit; "" when none.
func onLoopExhausted(retries, max map[string]any) string {
	var over []string
	for _, kind := range sortedKeys(retries) {
		limit, ok := max[kind].(float64)
		if !ok {
			if limit, ok = onLoopMaxRetries[kind]; !ok {
				continue // no limit to exceed
			}
		}
		if n := num(retries[kind]); n > limit {
			over = append(over, tellRetries(kind, n, limit))
		}
	}
	if len(over) == 0 {
		return ""
	}
	return tellOnLoopExhausted(over)
}

// onLoopNext is the phase to work in, its agent, and the phases after it.
func onLoopNext(phase string, known bool, left []string) string {
	switch {
	case phase == onLoopFailed:
		return tellOnLoopResume()
	case !known:
		return ""
	}
	if phase == onLoopComplete || !slices.Contains(left, phase) {
		if len(left) == 0 {
			if phase == onLoopComplete {
				return ""
			}
			return tellOnLoopPhase(onLoopComplete, "orchestrator", nil)
		}
		phase = left[0]
	}
	i := slices.Index(left, phase)
	after := append(slices.Clone(left[:i]), left[i+1:]...)
	for _, p := range onLoopPhases {
		if p.name == phase {
			return tellOnLoopPhase(phase, p.agent, after)
		}
	}
	return ""
}

// todoText is a todo as a person reads it: a string as it is, an object by
// its text, else as JSON.
func todoText(t any) string {
	if s, ok := t.(string); ok {
		return s
	}
	if m, ok := t.(map[string]any); ok {
		for _, k := range []string{"content", "text", "title", "description", "task"} {
			if s := str(m[k]); s != "" {
				if status := str(m["status"]); status != "" {
					return s + " (" + status + ")"
				}
				return s
			}
		}
	}
	b, _ := json.Marshal(t)
	return string(b)
}
