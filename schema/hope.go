package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/internal/clip"
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
		Steps:          strs(doc["steps"]),
		CompletedSteps: strs(doc["completedSteps"]),
		RemainingSteps: strs(doc["remainingSteps"]),
		MustNot:        strs(doc["mustNot"]),
		SessionID:      str(doc["session_id"]),
	}
	if cb, ok := doc["circuitBreaker"].(map[string]any); ok {
		l.StuckCount = num(cb["stuckCount"])
	}
	names := strs(doc["criteria"])
	list := make(criteria.Criteria, 0, len(names))
	index := make(map[string]int, len(names))
	for _, name := range names {
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
	meta, _ := doc["metadata"].(map[string]any)
	hopeFinish(l, hopeLevelOf(doc), hopeLevelOf(meta))
	return l
}

// hopeLevel is what one object of a hope file, its top level or its
// metadata, holds of the loop's numbers, its shape and its errors:
// hopeFromDocument gathers the two levels and leaves the rest to
// hopeFinish.
type hopeLevel struct {
	iteration, maxIterations, cost, budget float64
	shape                                  string
	lastError                              string // the last entry of errors, when it is a string
	has                                    uint8  // which members the object holds
}

// The members of a hopeLevel, as bits of has.
const (
	hasIteration uint8 = 1 << iota
	hasMaxIterations
	hasCost
	hasBudget
	hasShape
	hasErrors
)

// hopeLevelOf reads a hopeLevel from a document's object; nil is empty.
func hopeLevelOf(obj map[string]any) hopeLevel {
	var h hopeLevel
	for _, n := range []struct {
		key string
		bit uint8
		to  *float64
	}{{"iteration", hasIteration, &h.iteration}, {"maxIterations", hasMaxIterations, &h.maxIterations}, {"cost", hasCost, &h.cost}, {"budget", hasBudget, &h.budget}} {
		if f, ok := obj[n.key].(float64); ok {
			*n.to, h.has = f, h.has|n.bit
		}
	}
	if s, ok := obj["shape"].(string); ok {
		h.shape, h.has = s, h.has|hasShape
	}
	if v, ok := obj["errors"]; ok {
		h.has |= hasErrors
		if list, _ := v.([]any); len(list) > 0 {
			h.lastError, _ = list[len(list)-1].(string)
		}
	}
	return h
}

// or is h, with each member h lacks taken from meta.
func (h hopeLevel) or(meta hopeLevel) hopeLevel {
	take := meta.has &^ h.has
	if take&hasIteration != 0 {
		h.iteration = meta.iteration
	}
	if take&hasMaxIterations != 0 {
		h.maxIterations = meta.maxIterations
	}
	if take&hasCost != 0 {
		h.cost = meta.cost
	}
	if take&hasBudget != 0 {
		h.budget = meta.budget
	}
	if take&hasShape != 0 {
		h.shape = meta.shape
	}
	if take&hasErrors != 0 {
		h.lastError = meta.lastError
	}
	h.has |= take
	return h
}

// hopeFinish completes a loop read from a hope file: its numbers, shape and
// errors from the top level, else from metadata, and what its status says.
func hopeFinish(l *criteria.Loop, top, meta hopeLevel) {
	h := top.or(meta)
	l.Iteration, l.MaxIterations = h.iteration, h.maxIterations
	l.Cost, l.HasCost = h.cost, h.has&hasCost != 0
	l.Budget, l.HasBudget = h.budget, h.has&hasBudget != 0
	l.Checkpoints = strings.EqualFold(h.shape, shapeColleague)
	switch l.LoopStatus {
	case "complete", "completed":
		l.DoneClaim = true
	case "blocked":
		l.Waiting = hopeBlocked(h.lastError)
	case "failed":
		l.Failed = hopeFailed(h.lastError)
	}
}

// shapeColleague is the shape of a loop that checks in with its person after
// each unit of work (a spec score of 5 to 7).
const shapeColleague = "colleague"

// What a hope loop that is blocked or failed says to the person; the rules
// put it in their reasons.
func hopeBlocked(lastError string) string {
	if lastError == "" {
		return "it is blocked and asks for help (status blocked); resume with /loop continue once it is unblocked"
	}
	return fmt.Sprintf("it is blocked and asks for help (status blocked, last error %s); resume with /loop continue once it is unblocked", quoteClipped(lastError))
}

func hopeFailed(lastError string) string {
	if lastError == "" {
		return "status failed, with no error recorded; see what went wrong, then resume with /loop continue"
	}
	return fmt.Sprintf("status failed, last error %s; see to it, then resume with /loop continue", quoteClipped(lastError))
}

// maxQuoted caps the text of the state that a loop's message quotes.
const maxQuoted = 300

// quoteClipped quotes s, cut to maxQuoted bytes on a rune boundary: one line,
// however long or strange the agent's text.
func quoteClipped(s string) string {
	return strconv.Quote(clip.Clip(s, maxQuoted))
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
