package schema

import (
	"slices"
	"strings"
	"testing"
)

// reading is what a test expects of a dialect's reading of one document:
// each string field holds a fragment the loop's field must contain ("" for
// a field that must be empty), unmet the names of the criteria not met.
type reading struct {
	waiting, failed, exhausted, next string
	done                             bool
	unmet                            []string
	notes                            []string // fragments, each in some note
}

func TestDialectReadings(t *testing.T) {
	allPhases := `"INIT","SPEC","PLAN","CODE","TEST","SECURITY","DOC","BUILD","REVIEW","GIT"`
	allStages := `"stages":{"INIT":{"status":"complete"},"SCAFFOLD":{"status":"complete"},"IMPLEMENT":{"status":"complete"},"TEST":{"status":"complete"},"VERIFY":{"status":"complete"},"VALIDATE":{"status":"skipped"},"DOCUMENT":{"status":"complete"},"REVIEW":{"status":"complete"},"SHIP":{"status":"complete"}}`
	for _, c := range []struct {
		name string
		d    Dialect
		doc  string
		want reading
	}{
		{"on-loop at work", onLoop,
			`{"phase":"CODE","phases_completed":["INIT","SPEC","PLAN"],"todos":["write the handler",{"content":"add a test","status":"pending"}],"pr_url":null}`,
			reading{next: "phase CODE with the coding agent, then TEST, SECURITY, DOC, BUILD, REVIEW, GIT",
				unmet: []string{"CODE", "TEST", "SECURITY", "DOC", "BUILD", "REVIEW", "GIT"},
				notes: []string{"todo: write the handler", "todo: add a test (pending)"}}},
		{"on-loop complete", onLoop,
			`{"phase":"COMPLETE","phases_completed":[` + allPhases + `],"pr_url":"https://example.com/pr/7"}`,
			reading{done: true, notes: []string{"pull request: https://example.com/pr/7"}}},
		{"on-loop complete with phases missing", onLoop,
			`{"phase":"COMPLETE","phases_completed":["INIT","SPEC","PLAN","CODE","TEST","SECURITY","DOC","BUILD","GIT"]}`,
			reading{done: true, next: "phase REVIEW with the reviewer agent", unmet: []string{"REVIEW"}}},
		{"on-loop failed", onLoop,
			`{"phase":"FAILED","phases_completed":["INIT"],"error":"npm install failed"}`,
			reading{failed: "on-loop failed: npm install failed; resume with /on-loop-resume", next: "resume with /on-loop-resume",
				unmet: []string{"SPEC", "PLAN", "CODE", "TEST", "SECURITY", "DOC", "BUILD", "REVIEW", "GIT"}}},
		{"on-loop retries at their limit", onLoop,
			`{"phase":"CODE","phases_completed":[],"retries":{"test_to_code":3},"max_retries":{"test_to_code":3}}`,
			reading{next: "phase CODE", unmet: []string{"INIT", "SPEC", "PLAN", "CODE", "TEST", "SECURITY", "DOC", "BUILD", "REVIEW", "GIT"}}},
		{"on-loop retries past their limit", onLoop,
			`{"phase":"CODE","phases_completed":[],"retries":{"test_to_code":1,"security_to_code":3},"max_retries":{"test_to_code":3}}`,
			reading{exhausted: "security_to_code 3 of 2", next: "phase CODE", unmet: []string{"INIT", "SPEC", "PLAN", "CODE", "TEST", "SECURITY", "DOC", "BUILD", "REVIEW", "GIT"}}},
		{"on-loop unknown phase of a newer version", onLoop,
			`{"version":"1.2","phase":"DEPLOY","phases_completed":[` + allPhases + `]}`,
			reading{waiting: `on-loop is at phase "DEPLOY", which this loophook does not know (the file's version 1.2 is newer than 1.1)`}},
		{"on-loop sent back from TEST to CODE", onLoop,
			`{"phase":"CODE","phases_completed":["INIT","SPEC","PLAN","CODE","TEST"],"retries":{"test_to_code":1}}`,
			reading{next: "phase CODE with the coding agent (retry after test failures), then TEST, SECURITY, DOC, BUILD, REVIEW, GIT",
				unmet: []string{"CODE", "TEST", "SECURITY", "DOC", "BUILD", "REVIEW", "GIT"}}},
		{"on-loop sent back from REVIEW to CODE", onLoop,
			`{"phase":"CODE","phases_completed":["INIT","SPEC","PLAN","CODE","TEST","SECURITY","DOC","BUILD","REVIEW"],"retries":{"test_to_code":1,"review_to_code":1}}`,
			reading{next: "phase CODE with the coding agent (retry after review feedback), then TEST",
				unmet: []string{"CODE", "TEST", "SECURITY", "DOC", "BUILD", "REVIEW", "GIT"}}},
		{"on-loop at REVIEW without BUILD", onLoop,
			`{"phase":"REVIEW","phases_completed":["INIT","SPEC","PLAN","CODE","TEST","SECURITY","DOC"]}`,
			reading{next: "phase BUILD with the build agent, then REVIEW, GIT", unmet: []string{"BUILD", "REVIEW", "GIT"}}},
		{"on-loop at DOC with BUILD done beside it", onLoop,
			`{"phase":"DOC","phases_completed":["INIT","SPEC","PLAN","CODE","TEST","SECURITY","BUILD"]}`,
			reading{next: "phase DOC with the documentation agent, then REVIEW, GIT", unmet: []string{"DOC", "REVIEW", "GIT"}}},

		{"loop-controller implementing, gates pending", loopController,
			`{"state":"IMPLEMENT","stages":{"INIT":{"status":"complete"},"SCAFFOLD":{"status":"complete"}},"capabilities":{"total":5,"completed":2,"current":"assign","remaining":["a","b"]},"gates":{"security":{"required":true,"status":"pending"},"database":{"required":true,"status":"approved"}}}`,
			reading{next: "finish IMPLEMENT (implement) on capability 3 of 5: assign, then TEST (test-generation); gates to approve before REVIEW and SHIP: security (pending)",
				unmet: []string{"IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP", criterionCapabilities, criterionGates},
				notes: []string{"capability 3 of 5: assign", "gates: database (approved), security (pending)"}}},
		{"loop-controller verify with capabilities left", loopController,
			`{"state":"VERIFY","capabilities":{"remaining":["a"]}}`,
			reading{next: "finish VERIFY (code-verification), then IMPLEMENT (implement) the next capability",
				unmet: []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP", criterionCapabilities}}},
		{"loop-controller blocked", loopController,
			`{"state":"BLOCKED","failures":{"history":[{"stage":"VERIFY","error":"flaky test"}]}}`,
			reading{waiting: "BLOCKED (WAIT_FOR_HUMAN): VERIFY: flaky test",
				unmet: []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP"}}},
		{"loop-controller blocked with a reason", loopController,
			`{"state":"BLOCKED","blockedReason":"needs a DBA","failures":{"history":[{"stage":"VERIFY","error":"flaky test"}]}}`,
			reading{waiting: "BLOCKED (WAIT_FOR_HUMAN): needs a DBA",
				unmet: []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP"}}},
		{"loop-controller review waits for a required gate", loopController,
			`{"state":"REVIEW","gates":{"deploy":{"required":true,"status":"pending"},"ux":{"required":false,"status":"requested"}}}`,
			reading{waiting: "WAIT_FOR_APPROVAL) of 2 gates: deploy (pending), ux (requested)",
				unmet: []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP", criterionGates}}},
		{"loop-controller requested gate waits at any stage", loopController,
			`{"state":"TEST","gates":{"ux":{"status":"requested"}}}`,
			reading{waiting: "of 1 gate: ux (requested)",
				unmet: []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP"}}},
		{"loop-controller failed with retries left", loopController,
			`{"state":"FAILED","failures":{"count":2,"history":[{"stage":"TEST","error":"x"},{"stage":"VERIFY","error":"lint"}]}}`,
			reading{next: "RETRY VERIFY: lint (2 of 3 retries used)",
				unmet: []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP"}}},
		{"loop-controller failed, retries used up", loopController,
			`{"state":"FAILED","failures":{"count":2,"maxRetries":2,"history":[{"stage":"VERIFY","error":"lint"}]}}`,
			reading{exhausted: "ESCALATE: Max retries exceeded (2 failures, 2 retries allowed)",
				unmet: []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP"}}},
		{"loop-controller failed ten times", loopController,
			`{"state":"FAILED","failures":{"count":0,"history":[{},{},{},{},{},{},{},{},{},{}]}}`,
			reading{exhausted: "10 failures in all",
				unmet: []string{"INIT", "SCAFFOLD", "IMPLEMENT", "TEST", "VERIFY", "VALIDATE", "DOCUMENT", "REVIEW", "SHIP"}}},
		{"loop-controller complete", loopController,
			`{"state":"COMPLETE",` + allStages + `,"capabilities":{"total":2,"completed":2,"remaining":[]},"gates":{"deploy":{"required":true,"status":"approved"}}}`,
			reading{done: true, notes: []string{"gates: deploy (approved)"}}},

		{"orchestrator executing", orchestrator,
			`{"currentPhase":"EXECUTE","currentLoop":2,"scopeDiscovery":{"completedAt":"t","systems":[{"name":"api"},{"name":"ui"}],"estimatedLoops":3},"completedSystems":["api"],"subAgents":[{"id":"agent-ui","system":"ui","status":"running","lastHeartbeat":"2026-01-21T10:45:00Z"},{"id":"agent-db","status":"failed"}],"gates":{"rejected":[{"id":"gate-002","type":"visual-review"}]}}`,
			reading{next: "EXECUTE (loop 2 of ~3): running engineering loop, spawning agents, then RETROSPECT; systems left: ui; rejected gates: gate-002 (visual-review); failed sub-agents: agent-db",
				unmet: []string{"system ui", criterionAgents},
				notes: []string{"phase EXECUTE, loop 2 of ~3", "systems done: api", "systems left: ui", "sub-agent agent-ui (ui): running, last heartbeat 2026-01-21T10:45:00Z", "sub-agent agent-db: failed, no heartbeat"}}},
		{"orchestrator handed off", orchestrator,
			`{"currentPhase":"EXECUTE","sessionHandoff":{"reason":"session-end","resumeInstructions":"Continue with agent-testing","pendingActions":["Merge ui-polish branch","Run full test suite"]}}`,
			reading{waiting: "handed off (session-end); resume with `/orchestrator --resume`", next: "EXECUTE",
				unmet: []string{criterionScope},
				notes: []string{"resume instructions: Continue with agent-testing", "pending action: Merge ui-polish branch", "pending action: Run full test suite", "remove sessionHandoff"}}},
		{"orchestrator gate pending, nobody working", orchestrator,
			`{"currentPhase":"EXECUTE","subAgents":[{"id":"a","status":"waiting-gate"}],"gates":{"pending":[{"id":"gate-001","agent":"a","type":"visual-review","description":"dark mode"}]}}`,
			reading{waiting: "waiting-gate: Agent is paused, waiting for human approval of gate-001 (visual-review, a): dark mode", next: "EXECUTE",
				unmet: []string{criterionScope, criterionAgents, criterionNoGate},
				notes: []string{"gate pending: gate-001 (visual-review, a): dark mode"}}},
		{"orchestrator gate pending while an agent runs", orchestrator,
			`{"currentPhase":"EXECUTE","subAgents":[{"id":"a","status":"running"}],"gates":{"pending":[{"id":"gate-001"}]}}`,
			reading{next: "EXECUTE", unmet: []string{criterionScope, criterionAgents, criterionNoGate}}},
		{"orchestrator mode to confirm", orchestrator,
			`{"currentPhase":"DETECT","modeDetection":{"detected":"brownfield-polish","confidence":0.87,"confirmedByUser":false}}`,
			reading{waiting: "detected mode brownfield-polish (confidence 0.87); a person confirms it", next: "DETECT",
				unmet: []string{criterionScope}}},
		{"orchestrator mode confirmed", orchestrator,
			`{"currentPhase":"DETECT","modeDetection":{"detected":"brownfield-polish","confirmedByUser":true}}`,
			reading{next: "DETECT: gathering signals, classifying mode, then DISCOVER", unmet: []string{criterionScope}}},
		{"orchestrator complete", orchestrator,
			`{"currentPhase":"COMPLETE","scopeDiscovery":{"completedAt":"t","systems":[{"name":"api"}]},"completedSystems":["api"],"subAgents":[{"status":"completed"}]}`,
			reading{done: true, next: "COMPLETE"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.d.Read([]byte(c.doc))
			if len(r.Problems) > 0 {
				t.Fatalf("problems: %q", r.Problems)
			}
			l := r.Loop
			for _, f := range []struct{ name, got, want string }{
				{"Waiting", l.Waiting, c.want.waiting},
				{"Failed", l.Failed, c.want.failed},
				{"Exhausted", l.Exhausted, c.want.exhausted},
				{"NextStep", l.NextStep, c.want.next},
			} {
				if f.want == "" && f.got != "" || !strings.Contains(f.got, f.want) {
					t.Errorf("%s = %q, want %q", f.name, f.got, f.want)
				}
			}
			// The done claim is these systems' only exit signal.
			if l.DoneClaim != c.want.done || l.ExitSignal || l.HasExitSignal || l.DoneBy == "" {
				t.Errorf("done claim %v, exit signal %v (has %v, done by %q); want %v", l.DoneClaim, l.ExitSignal, l.HasExitSignal, l.DoneBy, c.want.done)
			}
			unmet, _ := l.Unmet(100)
			if !slices.Equal(unmet, c.want.unmet) {
				t.Errorf("unmet %q, want %q", unmet, c.want.unmet)
			}
			for _, want := range c.want.notes {
				if !slices.ContainsFunc(l.Notes, func(n string) bool { return strings.Contains(n, want) }) {
					t.Errorf("no note holds %q: %q", want, l.Notes)
				}
			}
			if r.Session != "" || l.SessionID != "" {
				t.Errorf("session %q / %q: a dialect without a host session has none", r.Session, l.SessionID)
			}
			if l.Dialect != c.d.Name {
				t.Errorf("dialect %q", l.Dialect)
			}
		})
	}
}

// on-loop's session_id is its own: it never binds the loop to a host session.
func TestOnLoopSessionIsItsOwn(t *testing.T) {
	r := onLoop.Read([]byte(`{"phase":"CODE","session_id":"20260426_143052_x"}`))
	if r.Session != "" || r.Loop.SessionID != "" {
		t.Errorf("session %q / %q", r.Session, r.Loop.SessionID)
	}
	r = onLoop.Read([]byte(`{"phase":7,"session_id":"20260426_143052_x"}`))
	if r.Session != "" {
		t.Errorf("an invalid on-loop state has session %q", r.Session)
	}
}

// TestProgress: every dialect's fingerprint is its whole document (SPEC
// rule 9): any change is progress but a timestamp's new value.
func TestProgress(t *testing.T) {
	const t1, t2 = `"2026-04-26T14:30:52Z"`, `"2026-04-26T15:01:00.5+02:00"`
	for _, c := range []struct {
		d            Dialect
		a, b         string
		wantProgress bool
	}{
		{onLoop, `{"phase":"CODE","updated_at":` + t1 + `}`, `{"phase":"CODE","updated_at":` + t2 + `}`, false},
		{onLoop, `{"phase":"CODE","current_agent":"coding"}`, `{"phase":"CODE","current_agent":"x"}`, true},
		{onLoop, `{"phase":"CODE"}`, `{"phase":"TEST"}`, true},
		{onLoop, `{"phase":"CODE","todos":[{"t":"a","doneAt":` + t1 + `}]}`, `{"phase":"CODE","todos":[{"t":"a","doneAt":` + t2 + `}]}`, false},
		{onLoop, `{"phase":"CODE","todos":["a"]}`, `{"phase":"CODE","todos":["a","b"]}`, true},
		{onLoop, `{"phase":"CODE","retries":{"a":1}}`, `{"phase":"CODE","retries":{"a":2}}`, true},
		{loopController, `{"state":"TEST","stages":{"TEST":{"status":"in-progress","startedAt":` + t1 + `}},"updatedAt":` + t1 + `}`, `{"state":"TEST","stages":{"TEST":{"status":"in-progress","startedAt":` + t2 + `}},"updatedAt":` + t2 + `}`, false},
		{loopController, `{"state":"TEST","stages":{"TEST":{"status":"in-progress"}}}`, `{"state":"TEST","stages":{"TEST":{"status":"complete"}}}`, true},
		{loopController, `{"state":"TEST","capabilities":{"completed":1}}`, `{"state":"TEST","capabilities":{"completed":2}}`, true},
		{loopController, `{"state":"TEST","failures":{"count":1}}`, `{"state":"TEST","failures":{"count":2}}`, true},
		{loopController, `{"state":"TEST","checkpoints":[]}`, `{"state":"TEST","checkpoints":[{"hash":"a"}]}`, true},
		{orchestrator, `{"currentPhase":"EXECUTE","subAgents":[{"status":"running","lastHeartbeat":` + t1 + `}]}`, `{"currentPhase":"EXECUTE","subAgents":[{"status":"running","lastHeartbeat":` + t2 + `}]}`, false},
		{orchestrator, `{"currentPhase":"EXECUTE","subAgents":[{"status":"running","progress":"a"}]}`, `{"currentPhase":"EXECUTE","subAgents":[{"status":"running","progress":"b"}]}`, true},
		{orchestrator, `{"currentPhase":"EXECUTE","subAgents":[{"status":"running"}]}`, `{"currentPhase":"EXECUTE","subAgents":[{"status":"completed"}]}`, true},
		{orchestrator, `{"currentPhase":"EXECUTE","gates":{"pending":[{"id":"g","requestedAt":` + t1 + `}]}}`, `{"currentPhase":"EXECUTE","gates":{"pending":[{"id":"g","requestedAt":` + t2 + `}]}}`, false},
		{orchestrator, `{"currentPhase":"EXECUTE","gates":{"pending":[{"id":"g"}]}}`, `{"currentPhase":"EXECUTE","gates":{"pending":[],"approved":[{"id":"g"}]}}`, true},
		{orchestrator, `{"currentPhase":"EXECUTE","currentLoop":1}`, `{"currentPhase":"EXECUTE","currentLoop":2}`, true},
		// A phase's completedAt that goes from null to set is progress.
		{orchestrator, `{"currentPhase":"DISCOVER","scopeDiscovery":{"completedAt":null}}`, `{"currentPhase":"DISCOVER","scopeDiscovery":{"completedAt":` + t1 + `}}`, true},
		{orchestrator, `{"currentPhase":"DISCOVER","scopeDiscovery":{}}`, `{"currentPhase":"DISCOVER","scopeDiscovery":{"completedAt":` + t1 + `}}`, true},
		{loopController, `{"state":"TEST","metadata":{"lastCheckpoint":` + t1 + `}}`, `{"state":"TEST","metadata":{"lastCheckpoint":` + t2 + `}}`, false},
	} {
		pa, pb := c.d.Read([]byte(c.a)).Progress, c.d.Read([]byte(c.b)).Progress
		if pa == "" || pb == "" {
			t.Fatalf("%s: no progress fingerprint", c.d.Name)
		}
		if (pa != pb) != c.wantProgress {
			t.Errorf("%s: %s → %s: progress %v, want %v", c.d.Name, c.a, c.b, pa != pb, c.wantProgress)
		}
	}
}

func TestTell(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{`{"criteria":["a"]}`, "hope"},
		{`{"phase":"CODE"}`, "hope"}, // a hope loop may keep a phase of its own
		{`{"phase":"CODE","phases_completed":[]}`, "on-loop"},
		{`{"systemId":"s","state":"INIT","stages":{}}`, "loop-controller"},
		{`{"orchestratorId":"o"}`, "orchestrator"},
		{`{"currentPhase":"PLAN"}`, "orchestrator"},
		{`{"currentPhase": "PLAN",`, "orchestrator"}, // broken, and still told
		{`not json "phase" "phases_completed"`, "on-loop"},
		{`not json "phases_completed"`, "hope"},
		{`{"spec":"x","notes":{"currentPhase":"PLAN"}}`, "hope"}, // not at the top
		{`not json`, "hope"},
		{`[1]`, "hope"},
	} {
		if got := Tell([]byte(c.doc)).Name; got != c.want {
			t.Errorf("%s: told %s, want %s", c.doc, got, c.want)
		}
	}
}

// edgeSeeds are texts at the edges of JSON and of the hope schema, for
// FuzzRead: syntax errors, escapes, repeated names, numbers out of range,
// deep nesting, and every member of a hope state in its valid and invalid
// forms.
var edgeSeeds = []string{
	`null`, `true`, `0`, `-0`, `1.5e3`, `""`, `"é"`, ` {"a" : [ 1 , "b" ] } `, `{"a":1,"a":{"b":2}}`,
	`{"a":"b\"c"}`, `{"a\u0062":1}`, `"\ud800"`, "\"\xff\"", `1e400`, `01`, `1.`, `{"a":1,}`, `[1,]`,
	`{"a"}`, `{"a":1} x`, `{"a":1}{}`, `tru`, `[`, `{`, `"`, "[1]\x00",
	`{}`, `[]`, ``, `{"criteria":["a"]}`,
	`{"spec":"s","criteria":["a","b"],"criteriaStatus":{"a":true,"b":{"met":false,"verification":"observation","note":{"x":[1,2,{"y":null}]}},"c":{"met":true}},"exit_signal":true,"status":"active","iteration":3,"maxIterations":5,"cost":1.5,"budget":10,"circuitBreaker":{"stuckCount":0,"lastUnmet":null,"extra":1},"steps":["x"],"completedSteps":[],"remainingSteps":["x"],"mustNot":["m"],"mustNotStatus":{"m":false},"session_id":"abc","x-extra":{"any":[1,2,"\u00e9\n"]}}`,
	`{"criteriaStatus":{"b":true,"a":false},"criteria":["z"]}`,
	`{"criteria":["a","a"]}`,
	`{"criteria":["caf\u00e9"]}`,
	`{"criteria":["café"],"criteriaStatus":{"café":true}}`,
	`{"spec":"a","spec":"b"}`,
	`{"iteration":1.0,"maxIterations":2e0,"cost":0,"budget":-0}`,
	`{"iteration":1.5}`, `{"iteration":1e400}`, `{"status":"done"}`,
	`{"circuitBreaker":{"lastUnmet":["a","b"]}}`, `{"circuitBreaker":{"lastUnmet":"a"}}`,
	"\xef\xbb\xbf{\r\n\"criteria\": [\"a\"]\r\n}\r\n",
	`{"criteriaStatus":{"a":{"verification":"observation"}}}`,
	`{"mustNotStatus":{"a":true,"a":false}}`,
	`{"x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	`{"criteria":["a"]} x`, `{"criteria":["a"],}`, `{"a":01}`, `{"a":"\x"}`, `{"a":"\u12"}`,
	// Listed names that no entry vouches for, and that are not plain.
	"{\"criteria\":[\"a\x01\"]}", "{\"criteria\":[\"a\xff\"],\"criteriaStatus\":{\"b\":true}}",
	`{"criteria":["a\\"]}`, `{"criteria":["a\"b"]}`, `{"criteria":["a\\"],"criteriaStatus":{"a\\":true}}`,
	// The status's meanings; numbers, shape and errors from metadata when
	// the top level lacks them; a member of metadata read twice.
	`{"status":"complete","criteria":["a"]}`, `{"status":"completed"}`, `{"status":"blocked"}`,
	`{"status":"failed","errors":["npm: EACCES"]}`, `{"status":"failed","errors":["x",{"e":1}]}`,
	`{"status":"blocked","metadata":{"errors":[1,"disk full"]}}`, `{"status":"failed","errors":null,"metadata":{"errors":["m"]}}`,
	`{"status":"failed","metadata":{"errors":["a\nb"]}}`, `{"status":"failed","errors":[]}`,
	`{"metadata":{"iteration":3,"maxIterations":5,"cost":1.5,"budget":10,"shape":"colleague","startedAt":"t"}}`,
	`{"iteration":1,"cost":0,"metadata":{"iteration":3,"maxIterations":5,"cost":1.5}}`,
	`{"metadata":{"cost":1,"cost":2,"shape":"tool","shape":"Colleague","errors":["a"],"errors":5}}`,
	`{"shape":"colleague","metadata":{"shape":"tool"}}`, `{"shape":"tool","shape":"colleague"}`,
	`{"metadata":{"iteration":-1}}`, `{"metadata":{"shape":7}}`, `{"metadata":[]}`, `{"metadata":{"x":{"y":[1]}}}`,
	`{"metadata":{"budget":5},"metadata":{}}`, `{"errors":["a"],"errors":["b"]}`, `{"metadata":{"sh\u0061pe":"colleague"}}`,
}

// FuzzRead: any bytes, read as each dialect, give a loop or problems, never
// both and never a panic; a loop only from what the schema accepts, with
// criteria, and no host session where the file names none.
func FuzzRead(f *testing.F) {
	for _, d := range Dialects {
		for _, text := range documents[d.Name] {
			f.Add([]byte(text))
		}
	}
	for _, text := range edgeSeeds {
		f.Add([]byte(text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range Dialects {
			r := d.Read(data)
			if (r.Loop == nil) == (len(r.Problems) == 0) {
				t.Fatalf("%s: loop %v with problems %q", d.Name, r.Loop != nil, r.Problems)
			}
			if d.session == "" && r.Session != "" {
				t.Fatalf("%s: session %q", d.Name, r.Session)
			}
			if r.Loop == nil || d.Name == hope.Name {
				continue
			}
			if r.Loop.Criteria.Len() == 0 {
				t.Fatalf("%s: no criteria", d.Name)
			}
			if r.Progress == "" {
				t.Fatalf("%s: no progress fingerprint", d.Name)
			}
			d.Tells(data)
		}
	})
}
