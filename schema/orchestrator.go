package schema

import (
	_ "embed"
	"slices"

	"github.com/loophook/loophook/criteria"
)

//go:embed orchestrator.schema.json
var orchestratorSchema []byte

// orchestrator is an orchestrator across systems: one loop-state.json at
// the project root, a name other systems use too, so it is told by content.
var orchestrator = Dialect{
	Name:     "orchestrator",
	File:     "loop-state.json",
	Shared:   true,
	Schema:   orchestratorSchema,
	ID:       "https://loophook.dev/schema/orchestrator.json",
	Tell:     [][]string{{"orchestratorId"}, {"currentPhase"}},
	Stage:    "currentPhase",
	validate: validateOrchestrator,
	loop:     orchestratorFromDocument,
}

// orchestratorPhases are the phases in order, what each does, and the one
// after it (RETROSPECT goes on to COMPLETE or back to EXECUTE).
var orchestratorPhases = []struct{ name, does, next string }{
	{"DETECT", "gathering signals, classifying mode", "DISCOVER"},
	{"DISCOVER", "running gap analysis, creating SCOPE-DISCOVERY.md", "PLAN"},
	{"PLAN", "decomposing work, identifying parallelization", "EXECUTE"},
	{"EXECUTE", "running engineering loop, spawning agents", "RETROSPECT"},
	{"RETROSPECT", "learning from loop, updating calibration", "COMPLETE or back to EXECUTE"},
	{"COMPLETE", "all work done, production-quality achieved", ""},
}

// subAgentStatuses are a sub-agent's statuses; the first three are unfinished.
var subAgentStatuses = []string{"spawning", "running", "waiting-gate", "completed", "failed"}

func orchestratorPhaseNames() []string {
	var names []string
	for _, p := range orchestratorPhases {
		names = append(names, p.name)
	}
	return names
}

func validateOrchestrator(doc any) []string {
	var v validator
	gates := func(x any, at string) {
		v.each(x, at, func(x any, at string) {
			v.object(x, at, func(g map[string]any) {
				for _, name := range []string{"id", "agent", "type", "description"} {
					v.field(g, at, name, v.str)
				}
			})
		})
	}
	v.object(doc, "", func(obj map[string]any) {
		v.required(obj, "", "currentPhase")
		v.field(obj, "", "orchestratorId", v.str)
		v.field(obj, "", "mode", v.types("string", "null"))
		v.field(obj, "", "modeDetection", func(x any, at string) {
			v.object(x, at, func(m map[string]any) {
				v.field(m, at, "detected", v.types("string", "null"))
				v.field(m, at, "confidence", v.types("number"))
				v.field(m, at, "confirmedByUser", v.boolean)
			})
		})
		v.field(obj, "", "scopeDiscovery", func(x any, at string) {
			v.object(x, at, func(s map[string]any) {
				v.field(s, at, "completedAt", v.types("string", "null"))
				v.field(s, at, "gaps", func(x any, at string) {
					v.each(x, at, func(x any, at string) {
						v.object(x, at, func(g map[string]any) { v.field(g, at, "description", v.str) })
					})
				})
				v.field(s, at, "systems", func(x any, at string) {
					v.each(x, at, func(x any, at string) {
						v.object(x, at, func(sys map[string]any) {
							v.required(sys, at, "name")
							v.field(sys, at, "name", v.str)
						})
					})
				})
				v.field(s, at, "estimatedLoops", v.nonNegative)
			})
		})
		v.field(obj, "", "currentLoop", v.atLeast(0))
		v.field(obj, "", "currentPhase", v.oneOf(orchestratorPhaseNames()))
		v.field(obj, "", "subAgents", func(x any, at string) {
			v.each(x, at, func(x any, at string) {
				v.object(x, at, func(a map[string]any) {
					v.required(a, at, "status")
					v.field(a, at, "id", v.str)
					v.field(a, at, "system", v.str)
					v.field(a, at, "status", v.oneOf(subAgentStatuses))
					v.field(a, at, "currentStage", v.types("string", "null"))
					v.field(a, at, "lastHeartbeat", v.types("string", "null"))
				})
			})
		})
		v.field(obj, "", "completedSystems", v.strings)
		v.field(obj, "", "gates", func(x any, at string) {
			v.object(x, at, func(g map[string]any) {
				for _, name := range []string{"pending", "approved", "rejected"} {
					v.field(g, at, name, gates)
				}
			})
		})
		v.field(obj, "", "sessionHandoff", func(x any, at string) {
			if !v.is(x, at, "object", "null") || x == nil {
				return
			}
			h := x.(map[string]any)
			v.field(h, at, "reason", v.str)
			v.field(h, at, "resumeInstructions", v.str)
			v.field(h, at, "pendingActions", v.strings)
		})
	})
	return v.problems
}

func orchestratorFromDocument(doc map[string]any) *criteria.Loop {
	phase := str(doc["currentPhase"])
	scope := obj(doc["scopeDiscovery"])
	done := strs(doc["completedSystems"])
	gates := obj(doc["gates"])
	pending, rejected := list(gates["pending"]), list(gates["rejected"])
	agents := list(doc["subAgents"])

	var gaps []string
	for _, g := range list(scope["gaps"]) {
		if d := str(obj(g)["description"]); d != "" {
			gaps = append(gaps, d)
		}
	}
	l := &criteria.Loop{Spec: tellOrchestratorSpec(str(doc["mode"]), gaps), Uncounted: true, RecordIn: "completedSystems, subAgents and gates", DoneBy: tellOrchestratorDoneBy()}

	l.Criteria = append(l.Criteria, criteria.Criterion{Name: criterionScope, Met: str(scope["completedAt"]) != ""})
	var systems, left []string
	for _, s := range list(scope["systems"]) {
		name := str(obj(s)["name"])
		if slices.Contains(systems, name) {
			continue
		}
		systems = append(systems, name)
		met := slices.Contains(done, name)
		if !met {
			left = append(left, name)
		}
		l.Criteria = append(l.Criteria, criteria.Criterion{Name: tellSystemCriterion(name), Met: met})
	}
	busy, unfinished := false, false
	var failed, agentNotes []string
	for _, a := range agents {
		a := obj(a)
		status := str(a["status"])
		switch status {
		case "spawning", "running":
			busy = true
			unfinished = true
		case "waiting-gate":
			unfinished = true
		case "failed":
			failed = append(failed, tellAgent(str(a["id"]), str(a["system"])))
		}
		agentNotes = append(agentNotes, tellAgentNote(str(a["id"]), str(a["system"]), status, str(a["currentStage"]), str(a["lastHeartbeat"])))
	}
	l.Criteria = append(l.Criteria,
		criteria.Criterion{Name: criterionAgents, Met: !unfinished},
		criteria.Criterion{Name: criterionNoGate, Met: len(pending) == 0})

	var pendingGates, rejectedGates []string
	for _, g := range pending {
		g := obj(g)
		pendingGates = append(pendingGates, tellOrchestratorGate(str(g["id"]), str(g["type"]), str(g["agent"]), str(g["description"])))
	}
	for _, g := range rejected {
		g := obj(g)
		rejectedGates = append(rejectedGates, tellOrchestratorGate(str(g["id"]), str(g["type"]), str(g["agent"]), str(g["description"])))
	}

	detection := obj(doc["modeDetection"])
	handoff, handedOff := doc["sessionHandoff"].(map[string]any)
	switch {
	case handedOff:
		l.Waiting = tellHandedOff(str(handoff["reason"]))
	case len(pending) > 0 && !busy:
		l.Waiting = tellWaitingGate(pendingGates)
	case phase == "DETECT" && str(detection["detected"]) != "" && detection["confirmedByUser"] != true:
		l.Waiting = tellConfirmMode(str(detection["detected"]), detection["confidence"])
	}
	if phase == "COMPLETE" {
		l.DoneClaim = true
	}
	l.Ending = tellEnding(rejectedGates, failed)
	// A completed system the scope no longer lists is still met: a
	// system once discovered stays in the contract (SPEC section 5).
	for _, name := range done {
		if !slices.Contains(systems, name) {
			l.MetUnlisted = append(l.MetUnlisted, tellSystemCriterion(name))
		}
	}

	round := tellRound(doc["currentLoop"], scope["estimatedLoops"])
	for _, p := range orchestratorPhases {
		if p.name == phase {
			l.NextStep = tellOrchestratorNext(phase, round, p.does, p.next, left, rejectedGates, failed)
		}
	}

	l.Notes = append(l.Notes, tellPhaseNote(phase, round))
	if len(done) > 0 {
		l.Notes = append(l.Notes, tellSystemsDone(done))
	}
	if len(left) > 0 {
		l.Notes = append(l.Notes, tellSystemsLeft(left))
	}
	l.Notes = append(l.Notes, agentNotes...)
	for _, g := range pendingGates {
		l.Notes = append(l.Notes, tellGatePending(g))
	}
	if handedOff {
		if s := str(handoff["resumeInstructions"]); s != "" {
			l.Notes = append(l.Notes, tellResumeInstructions(s))
		}
		for _, a := range strs(handoff["pendingActions"]) {
			l.Notes = append(l.Notes, tellPendingAction(a))
		}
		l.Notes = append(l.Notes, tellRemoveHandoff())
	}
	return l
}
