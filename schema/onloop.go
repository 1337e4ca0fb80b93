package schema

import (
	_ "embed"
	"encoding/json"
	"maps"
	"slices"
	"strings"

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

type onLoopPhase struct{ name, agent string }

// onLoopPhases are the phases a session passes through, each a criterion,
// with the agent that works in it.
var onLoopPhases = []onLoopPhase{
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

// onLoopVersion is the newest on-loop version whose phases loophook knows:
// a file of a newer one may hold a phase it does not, and is let through.
const onLoopVersionMajor, onLoopVersionMinor = 1, 1

func validateOnLoop(doc any) []string {
	var v validator
	counts := func(x any, at string) { v.objectOf(x, at, v.atLeast(0)) }
	v.object(doc, "", func(obj map[string]any) {
		v.required(obj, "", "phase")
		v.field(obj, "", "prompt", v.str)
		v.field(obj, "", "phase", v.str)
		if !onLoopNewer(obj["version"]) {
			// The phases are an enumeration, case and spaces included.
			v.field(obj, "", "phase", func(x any, at string) { v.enum(x, at, onLoopPhaseNames()) })
		}
		v.field(obj, "", "phases_completed", v.strings)
		v.field(obj, "", "retries", counts)
		v.field(obj, "", "max_retries", counts)
		v.field(obj, "", "error", v.types("string", "null"))
		v.field(obj, "", "pr_url", v.types("string", "null"))
		v.field(obj, "", "todos", v.types("array"))
	})
	return v.problems
}

// onLoopPhaseNames are the phases a file may be at.
func onLoopPhaseNames() []string {
	var names []string
	for _, p := range onLoopPhases {
		names = append(names, p.name)
	}
	return append(names, onLoopComplete, onLoopFailed)
}

// onLoopNewer reports whether a file's version is newer than the one
// loophook knows: a number above 1.1, or a string that begins with a
// major.minor above it; anything else (none, 1.0, "beta") is not. The
// schema's if/else says the same with a pattern.
func onLoopNewer(v any) bool {
	switch x := v.(type) {
	case float64:
		return x > float64(onLoopVersionMajor)+float64(onLoopVersionMinor)/10
	case string:
		major, rest := leadingDigits(x)
		if major == "" || !strings.HasPrefix(rest, ".") {
			return false
		}
		minor, _ := leadingDigits(rest[1:])
		if minor == "" {
			return false
		}
		major, minor = strings.TrimLeft(major, "0"), strings.TrimLeft(minor, "0")
		return len(major) > 1 || major > "1" || major == "1" && (len(minor) > 1 || minor > "1")
	}
	return false
}

// leadingDigits splits s after its leading ASCII digits.
func leadingDigits(s string) (digits, rest string) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return s[:i], s[i:]
}

// onLoopPosition is where a phase stands in the pipeline; DOC and BUILD
// stand side by side. -1 for a phase outside it.
func onLoopPosition(phase string) int {
	doc := slices.IndexFunc(onLoopPhases, func(p onLoopPhase) bool { return p.name == "DOC" })
	for i, p := range onLoopPhases {
		if p.name == phase {
			if i > doc {
				return i - 1 // BUILD shares DOC's place; the rest follow
			}
			return i
		}
	}
	return -1
}

func onLoopFromDocument(doc map[string]any) *criteria.Loop {
	phase := str(doc["phase"])
	done := strs(doc["phases_completed"])
	l := &criteria.Loop{Spec: str(doc["prompt"]), Uncounted: true, RecordIn: "phases_completed", DoneBy: tellOnLoopDoneBy()}
	at := onLoopPosition(phase)
	var left []string
	for _, p := range onLoopPhases {
		// A phase is met when on-loop recorded it and the loop is past
		// it: one sent back to CODE has CODE and every later phase to do
		// again, although on-loop's own rule left them recorded. Off the
		// pipeline (COMPLETE, FAILED, a newer version's phase) every
		// recorded phase counts.
		met := slices.Contains(done, p.name) && (at < 0 || onLoopPosition(p.name) < at || onLoopBeside(p.name, phase))
		l.Criteria = append(l.Criteria, criteria.Criterion{Name: p.name, Met: met})
		if !met {
			left = append(left, p.name)
		}
	}
	switch {
	case phase == onLoopComplete:
		l.DoneClaim = true
	case phase == onLoopFailed:
		l.Failed = tellOnLoopFailed(str(doc["error"]))
	case at < 0:
		// Only a newer on-loop's file gets here (validateOnLoop).
		l.Waiting = tellOnLoopUnknownPhase(phase, asWritten(doc["version"]))
	}
	retries, max := obj(doc["retries"]), obj(doc["max_retries"])
	l.Exhausted = onLoopExhausted(retries, max)
	l.NextStep = onLoopNext(phase, at >= 0, left, retries)
	for _, t := range list(doc["todos"]) {
		l.Notes = append(l.Notes, tellTodo(todoText(t)))
	}
	if url := str(doc["pr_url"]); url != "" {
		l.Notes = append(l.Notes, tellPullRequest(url))
	}
	var limits []string
	for _, kind := range slices.Sorted(maps.Keys(onLoopMaxRetries)) {
		limit := onLoopMaxRetries[kind]
		if m, ok := max[kind].(float64); ok {
			limit = m
		}
		limits = append(limits, tellRetries(kind, num(retries[kind]), limit))
	}
	l.Limits = []string{tellOnLoopRetryLimits(limits)}
	return l
}

// onLoopBeside reports whether a phase stands beside the current one: DOC
// and BUILD, which run side by side.
func onLoopBeside(p, phase string) bool {
	return p == "DOC" && phase == "BUILD" || p == "BUILD" && phase == "DOC"
}

// onLoopExhausted says which retries went past their limit; "" when none.
func onLoopExhausted(retries, max map[string]any) string {
	var over []string
	for _, kind := range slices.Sorted(maps.Keys(retries)) {
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

// onLoopSentBack are the retries that send a loop back to CODE, latest in
// the pipeline first, and what each retries after.
var onLoopSentBack = []struct{ kind, after string }{
	{"review_to_code", "review feedback"},
	{"security_to_code", "security findings"},
	{"test_to_code", "test failures"},
}

// onLoopNext is the phase to work in, its agent, and the phases left after
// it: at REVIEW with DOC or BUILD not done, that phase first; at CODE
// after a send-back, a retry.
func onLoopNext(phase string, known bool, left []string, retries map[string]any) string {
	switch {
	case phase == onLoopFailed:
		return tellOnLoopResume()
	case !known && phase != onLoopComplete:
		return ""
	case len(left) == 0:
		if phase == onLoopComplete {
			return ""
		}
		return tellOnLoopPhase(onLoopComplete, "orchestrator", "", nil)
	}
	next := phase
	switch {
	case phase == "REVIEW" && slices.Contains(left, "DOC"):
		next = "DOC"
	case phase == "REVIEW" && slices.Contains(left, "BUILD"):
		next = "BUILD"
	case !slices.Contains(left, phase):
		next = left[0]
	}
	retry := ""
	if next == "CODE" {
		for _, r := range onLoopSentBack {
			if num(retries[r.kind]) > 0 {
				retry = r.after
				break
			}
		}
	}
	after := slices.DeleteFunc(slices.Clone(left), func(p string) bool { return p == next })
	for _, p := range onLoopPhases {
		if p.name == next {
			return tellOnLoopPhase(next, p.agent, retry, after)
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
