package schema

import (
	_ "embed"
	"maps"
	"slices"

	"github.com/loophook/loophook/criteria"
)

//go:embed loop-controller.schema.json
var loopControllerSchema []byte

// loopController is a loop controller's state machine, one file per system
// under domain-memory/; the one updated last is the loop.
var loopController = Dialect{
	Name:     "loop-controller",
	File:     "domain-memory/*/loop-state.json",
	Newest:   "updatedAt",
	Schema:   loopControllerSchema,
	ID:       "https://loophook.dev/schema/loop-controller.json",
	Tell:     [][]string{{"systemId", "state", "stages"}},
	Stage:    "state",
	validate: validateLoopController,
	loop:     loopControllerFromDocument,
}

// The controller's states: the stages in order, then the rest.
var (
	lcStages = []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP"}
	lcStates = append(slices.Clone(lcStages), lcComplete, lcFailed, lcRetry, lcBlocked)
)

const (
	lcComplete = "COMPLETE"
	lcFailed   = "FAILED"
	lcRetry    = "RETRY"
	lcBlocked  = "BLOCKED"
)

// lcSkills is the skill each state runs (the controller's State to Skill
// Mapping).
var lcSkills = map[string]string{
	"INIT": "memory-manager", "SCAFFOLD": "scaffold", "IMPLEMENT": "implement",
	"TEST": "test-generation", "VERIFY": "code-verification", "VALIDATE": "code-validation",
	"DOCUMENT": "document", "REVIEW": "code-review", "SHIP": "git-workflow", "COMPLETE": "memory-manager",
}

// The controller's own limits: retries when the file names none, and
// failures in all before it is forced to BLOCKED.
const (
	lcDefaultRetries = 3
	lcMaxFailures    = 10
)

func validateLoopController(doc any) []string {
	var v validator
	v.object(doc, "", func(obj map[string]any) {
		v.required(obj, "", "state")
		v.field(obj, "", "systemId", v.str)
		v.field(obj, "", "systemName", v.str)
		v.field(obj, "", "githubIssue", v.types("integer", "string", "null"))
		v.field(obj, "", "state", v.oneOf(lcStates))
		v.field(obj, "", "blockedReason", v.types("string", "null"))
		v.field(obj, "", "capabilities", func(x any, at string) {
			v.object(x, at, func(c map[string]any) {
				v.field(c, at, "total", v.atLeast(0))
				v.field(c, at, "completed", v.atLeast(0))
				v.field(c, at, "current", v.types("string", "null"))
				v.field(c, at, "remaining", v.strings)
			})
		})
		v.field(obj, "", "stages", func(x any, at string) {
			v.objectOf(x, at, func(x any, at string) {
				v.object(x, at, func(s map[string]any) { v.field(s, at, "status", v.str) })
			})
		})
		v.field(obj, "", "failures", func(x any, at string) {
			v.object(x, at, func(f map[string]any) {
				v.field(f, at, "count", v.atLeast(0))
				v.field(f, at, "maxRetries", v.atLeast(0))
				v.field(f, at, "history", func(x any, at string) {
					v.each(x, at, func(x any, at string) {
						v.object(x, at, func(h map[string]any) {
							v.field(h, at, "stage", v.str)
							v.field(h, at, "error", v.str)
						})
					})
				})
			})
		})
		v.field(obj, "", "gates", func(x any, at string) {
			v.objectOf(x, at, func(x any, at string) {
				v.object(x, at, func(g map[string]any) {
					v.field(g, at, "required", v.boolean)
					v.field(g, at, "status", v.str)
					v.field(g, at, "approved", v.boolean)
				})
			})
		})
		v.field(obj, "", "updatedAt", v.str)
	})
	return v.problems
}

// lcGate is one gate as the rules see it.
type lcGate struct {
	name, status       string
	required, approved bool
}

func loopControllerFromDocument(doc map[string]any) *criteria.Loop {
	state := str(doc["state"])
	caps := obj(doc["capabilities"])
	failures := obj(doc["failures"])
	history := list(failures["history"])
	var gates []lcGate
	gatesMap := obj(doc["gates"])
	for _, name := range slices.Sorted(maps.Keys(gatesMap)) {
		g := obj(gatesMap[name])
		status := str(g["status"])
		gates = append(gates, lcGate{name: name, status: status, required: g["required"] == true,
			approved: status == "approved" || g["approved"] == true})
	}

	l := &criteria.Loop{
		Spec:      tellSystem(str(doc["systemName"]), str(doc["systemId"]), asWritten(doc["githubIssue"])),
		Uncounted: true,
		RecordIn:  "stages, capabilities and gates",
		DoneBy:    tellLoopControllerDoneBy(),
	}
	stages := obj(doc["stages"])
	for _, s := range lcStages {
		status := str(obj(stages[s])["status"])
		l.Criteria = append(l.Criteria, criteria.Criterion{Name: s, Met: status == "complete" || status == "skipped"})
	}
	remaining := strs(caps["remaining"])
	l.Criteria = append(l.Criteria, criteria.Criterion{Name: criterionCapabilities,
		Met: len(remaining) == 0 && num(caps["completed"]) >= num(caps["total"])})
	var unapproved, requested []string
	for _, g := range gates {
		if g.required && !g.approved {
			unapproved = append(unapproved, tellGate(g.name, g.status))
		}
		if g.status == "requested" {
			requested = append(requested, tellGate(g.name, g.status))
		}
	}
	l.Criteria = append(l.Criteria, criteria.Criterion{Name: criterionGates, Met: len(unapproved) == 0})

	capability := ""
	if current := str(caps["current"]); current != "" {
		capability = tellCapability(num(caps["completed"])+1, num(caps["total"]), current)
	}
	count, maxRetries := num(failures["count"]), float64(lcDefaultRetries)
	if m, ok := failures["maxRetries"].(float64); ok {
		maxRetries = m
	}
	if total := max(count, float64(len(history))); total >= lcMaxFailures {
		// "Total failures: 10 max before forced BLOCKED", in any state.
		l.Exhausted = tellEscalateTotal(total)
	}
	l.Limits = []string{tellFailureLimits(count, maxRetries, lcMaxFailures)}
	// decideNextAction, in its order.
	waitFor := requested
	if state == "REVIEW" || state == "SHIP" {
		waitFor = slices.Concat(unapproved, requested)
		slices.Sort(waitFor)
		waitFor = slices.Compact(waitFor)
	}
	switch {
	case state == lcBlocked:
		reason := str(doc["blockedReason"])
		if reason == "" && len(history) > 0 {
			last := obj(history[len(history)-1])
			reason = tellFailure(str(last["stage"]), str(last["error"]))
		}
		l.Waiting = tellBlocked(reason)
	case len(waitFor) > 0:
		l.Waiting = tellWaitForApproval(waitFor)
	case state == lcFailed || state == lcRetry:
		switch {
		case l.Exhausted != "":
		case count >= maxRetries:
			l.Exhausted = tellEscalate(count, maxRetries)
		default:
			stage, cause := "", ""
			if len(history) > 0 {
				last := obj(history[len(history)-1])
				stage, cause = str(last["stage"]), str(last["error"])
			}
			l.NextStep = tellRetry(stage, cause, count, maxRetries)
		}
	case state == lcComplete:
		l.DoneClaim = true
	default:
		l.NextStep = tellNextState(state, lcNextState(state, len(remaining) > 0), lcSkills, capability, unapproved)
	}
	if capability != "" {
		l.Notes = append(l.Notes, capability)
	}
	if len(gates) > 0 {
		var all []string
		for _, g := range gates {
			all = append(all, tellGate(g.name, g.status))
		}
		l.Notes = append(l.Notes, tellGates(all))
	}
	return l
}

// lcNextState is the controller's getNextState; "" after COMPLETE.
func lcNextState(state string, capabilitiesLeft bool) string {
	switch state {
	case "VERIFY":
		if capabilitiesLeft {
			return "IMPLEMENT"
		}
		return "VALIDATE"
	case "SHIP":
		return lcComplete // once the PR is merged
	case lcComplete:
		return ""
	}
	if i := slices.Index(lcStages, state); i >= 0 && i+1 < len(lcStages) {
		return lcStages[i+1]
	}
	return ""
}

// asWritten is a value that a file may write as a number or a string (a
// GitHub issue, a version), for a person.
func asWritten(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return number(x)
	}
	return ""
}
