package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/internal/jsontext"
	"github.com/loophook/loophook/schema"
)

// Seeds beside the corpus files in testdata/fuzz/<name>/: the shapes the
// fuzzer should start from.
var inputSeeds = []string{
	`{"session_id":"s1","cwd":"/p","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done <loop-complete>"}`,
	`{"session_id":"s1","stop_hook_active":true,"effort":{"level":"medium"},"background_tasks":[]}`,
	`{"last_assistant_message":null,"stop_hook_active":null}`,
	`{"stop_hook_active":"true"}`,
	`{"session_id":["x"]}`,
	` {"session_id":"s1"} `,
	`{"session_id":"s1"} {}`,
	`{"session_id":"s`,
	`[{"session_id":"s1"}]`,
	`{"cwd":"\u0000\ud800"}`,
	"\xef\xbb\xbf{}",
	`{"a":{"a":{"a":{"a":1}}}}`,
	`{"x":1e400}`,
	``,
	`null`,
	"not json",
}

var stateSeeds = []string{
	`{"criteria":["tests pass"]}`,
	`{"criteria":["tests pass"],"criteriaStatus":{"tests pass":true},"exit_signal":true,"iteration":2}`,
	`{"criteria":["a","b"],"criteriaStatus":{"a":{"met":true,"verification":"assumption"},"b":true},"exit_signal":true}`,
	`{"criteria":["a"],"criteriaStatus":{"a":"yes"},"status":"running"}`,
	`{"session_id":"other","criteria":["a"]}`,
	`{"session_id":"s1","iteration":-1}`,
	`{"status":"paused"}`,
	`{"mustNot":["rm -rf"],"mustNotStatus":{"rm -rf":true}}`,
	`{"circuitBreaker":{"stuckCount":5,"lastUnmet":["a"]}}`,
	`{"iteration":10,"maxIterations":10}`,
	`{"cost":3.5,"budget":3}`,
	`{"status":"blocked","criteria":["a"],"metadata":{"errors":["disk\u001b[31m full"]}}`,
	`{"status":"failed","errors":["x"]}`,
	`{"status":"complete","criteria":["a"],"criteriaStatus":{"a":true}}`,
	`{"status":"completed"}`,
	`{"shape":"colleague","criteria":["a"]}`,
	`{"criteria":["a"],"criteriaStatus":{"a":true},"metadata":{"iteration":60,"maxIterations":100,"cost":30,"budget":500}}`,
	`{"criteria":["line\nbreak","quote\"d","tab\tand\u0007bell"],"remainingSteps":["next\r\nstep"]}`,
	`{"criteria":["a","a"]}`,
	`{"criteria":["x"],"criteria":["y"]}`,
	"\xef\xbb\xbf{\r\n\"criteria\": [\"a\"]\r\n}",
	`{"criteria":["` + "\xff\xfe" + `"]}`,
	`{"iteration":1e400}`,
	`{"iteration":1e300,"maxIterations":1e301}`,
	`[[[[[[[[[[]]]]]]]]]]`,
	`NaN`,
	``,
	"\x00\x01\x02",
}

// FuzzReadInput: any stdin either decodes to an Input or is refused with a
// short message that quotes none of it, and the refusal renders as one JSON
// object in every protocol.
func FuzzReadInput(f *testing.F) {
	for _, s := range inputSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := ReadInput(bytes.NewReader(data))
		if err == nil {
			trimmed := bytes.TrimSpace(data)
			dec := json.NewDecoder(bytes.NewReader(trimmed))
			dec.UseNumber()
			var obj map[string]any
			if !json.Valid(trimmed) || dec.Decode(&obj) != nil || obj == nil {
				t.Fatalf("accepted %q, which is not one JSON object", data)
			}
			return
		}
		msg := err.Error()
		if len(msg) > 200 || !utf8.ValidString(msg) || strings.ContainsFunc(msg, func(r rune) bool { return r < 0x20 }) {
			t.Fatalf("refusal is not one short clean line: %q", msg)
		}
		v := criteria.Decide(criteria.Evaluation{BadInput: msg}, criteria.DefaultLimits())
		if !v.OK || v.Rule != criteria.RuleBadInput {
			t.Fatalf("bad input decided %+v", v)
		}
		checkAnswers(t, v)
	})
}

// FuzzDecide: any state file's bytes, loaded as the hook loads them and
// decided under a few evaluations and limits, give a known rule, a reason
// within the cap that renders as one clean JSON line, and a verdict that
// keeps the agent working only for the rules that may.
func FuzzDecide(f *testing.F) {
	for _, s := range stateSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := schema.Dialects[0].Read(data)
		state, problems, session := r.Loop, r.Problems, r.Session
		if (state == nil) == (len(problems) == 0) {
			t.Fatalf("Parse gave state %v with problems %q", state != nil, problems)
		}
		var doc any
		decodeErr := json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &doc)
		if state != nil {
			if decodeErr != nil {
				t.Fatalf("Parse accepted what encoding/json refuses: %v", decodeErr)
			}
			if p := schema.Dialects[0].Validate(doc); len(p) > 0 {
				t.Fatalf("Parse accepted a state the schema refuses: %q", p)
			}
		}
		if obj, ok := doc.(map[string]any); ok && decodeErr == nil {
			if want, _ := obj["session_id"].(string); session != want {
				t.Fatalf("session %q, want %q", session, want)
			}
		}
		for _, lim := range fuzzLimits {
			for _, sit := range situations {
				e := sit
				e.Path = ".loop/state.json"
				e.Loop, e.Problems, e.StateSession = state, problems, session
				v := criteria.Decide(e, lim)
				checkVerdict(t, e, lim, v)
				checkAnswers(t, v)
			}
		}
	})
}

var fuzzLimits = []criteria.Limits{
	criteria.DefaultLimits(),
	{StuckLimit: 5, MaxIterations: 10, GuardLimit: 3, RequireMarker: true},
	{StuckLimit: 1, MaxIterations: 1, GuardLimit: 1, AllowInvalid: true, RequireMarker: true},
}

var situations = []criteria.Evaluation{
	{SessionID: "s1", LastMessage: func() (string, error) { return "done " + criteria.Marker, nil }},
	{SessionID: "", StopHookActive: true, Unchanged: 1, LastMessage: func() (string, error) { return "not yet", nil }},
	{SessionID: "other", StopHookActive: true, Unchanged: 5, LastMessage: func() (string, error) { return "", errors.New("transcript: no such file or directory") }},
	{SessionID: "s1", StopHookActive: true, Unchanged: 3},
	{SessionID: "s1", LastMessage: func() (string, error) {
		return criteria.StatusBlockStart + "\nEXIT_SIGNAL: true\n" + criteria.StatusBlockEnd + "\n" + criteria.Marker, nil
	}},
}

// goOnRules are the only rules that may keep the agent working.
var goOnRules = map[criteria.Rule]bool{
	criteria.RuleInvalidState: true,
	criteria.RuleUnmet:        true,
	criteria.RuleAssumption:   true,
	criteria.RuleNoExitSignal: true,
	criteria.RuleNoMarker:     true,
	criteria.RuleCheckFailed:  true,
}

var knownRules = map[criteria.Rule]bool{
	criteria.RuleBadInput: true, criteria.RuleNoState: true, criteria.RuleOtherSession: true,
	criteria.RuleInvalidState: true, criteria.RuleInactive: true, criteria.RuleWaiting: true,
	criteria.RuleFailed: true, criteria.RuleMustNot: true, criteria.RuleCheckpoint: true,
	criteria.RuleCircuitOpen: true, criteria.RuleIterationLimit: true, criteria.RuleBudget: true,
	criteria.RuleGuard: true, criteria.RuleUnmet: true, criteria.RuleAssumption: true,
	criteria.RuleNoExitSignal: true, criteria.RuleNoMarker: true, criteria.RuleComplete: true,
	criteria.RuleCheckFailed: true,
}

func checkVerdict(t *testing.T, e criteria.Evaluation, lim criteria.Limits, v criteria.Verdict) {
	t.Helper()
	if !knownRules[v.Rule] {
		t.Fatalf("unknown rule %q", v.Rule)
	}
	wantOK := !goOnRules[v.Rule] || v.Rule == criteria.RuleInvalidState && lim.AllowInvalid
	if v.OK != wantOK {
		t.Fatalf("rule %s gave ok=%v", v.Rule, v.OK)
	}
	if e.Loop == nil && v.Rule != criteria.RuleOtherSession && v.Rule != criteria.RuleGuard && v.Rule != criteria.RuleInvalidState {
		t.Fatalf("an invalid state was decided by %s", v.Rule)
	}
	if v.Reason == "" || len(v.Reason) > criteria.MaxReason || !utf8.ValidString(v.Reason) {
		t.Fatalf("reason of %d bytes (valid UTF-8: %v): %q", len(v.Reason), utf8.ValidString(v.Reason), v.Reason)
	}
	// A reason may reach a person's terminal as a systemMessage: no raw
	// control characters, so no escape sequences and no broken lines.
	if strings.ContainsFunc(v.Reason, unicode.IsControl) {
		t.Fatalf("raw control characters in the reason: %q", v.Reason)
	}
}

// checkAnswers renders v in the strict protocol: one line, valid JSON, valid
// UTF-8, no raw control characters, an object, and the reason intact
// (hook/host's FuzzAnswers renders every host's).
func checkAnswers(t *testing.T, v criteria.Verdict) {
	t.Helper()
	for _, p := range []Wire{host("ok")} {
		name := p.Name
		var buf bytes.Buffer
		if err := jsontext.Write(&buf, p.Stop(v)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		line := buf.Bytes()
		if bytes.IndexByte(line, '\n') != len(line)-1 {
			t.Fatalf("%s: not one line: %q", name, line)
		}
		line = line[:len(line)-1]
		if !json.Valid(line) || !utf8.Valid(line) || bytes.ContainsFunc(line, func(r rune) bool { return r < 0x20 }) {
			t.Fatalf("%s: not one clean JSON line: %q", name, line)
		}
		var obj map[string]any
		if err := json.Unmarshal(line, &obj); err != nil || obj == nil {
			t.Fatalf("%s: not an object: %q", name, line)
		}
		if name == "ok" && obj["reason"] != v.Reason {
			t.Fatalf("ok: reason %q did not survive the wire: %q", v.Reason, obj["reason"])
		}
	}
}
