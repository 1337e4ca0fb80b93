package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// validateHope checks a decoded JSON document against state.schema.json.
// Every sentence a person reads from this package is in this file: a state
// file's problems, and, at its end, what the dialects tell.
//
// The checks are written out in Go rather than run by a JSON Schema library,
// because the hook starts once per turn and a general validator's start-up
// costs more than the whole evaluation. validate_test.go holds them to the
// schema file: it runs santhosh-tekuri/jsonschema/v5 on the same documents
// and requires the same lines. Each dialect's validate is held to its own
// schema file the same way.
func validateHope(doc any) []string {
	var v validator
	v.object(doc, "", func(obj map[string]any) {
		v.field(obj, "", "spec", v.str)
		v.field(obj, "", "criteria", v.uniqueStrings)
		v.field(obj, "", "criteriaStatus", func(x any, at string) { v.objectOf(x, at, v.criterionStatus) })
		v.field(obj, "", "exit_signal", v.boolean)
		v.field(obj, "", "status", func(x any, at string) { v.enum(x, at, statuses) })
		v.level(obj, "")
		v.field(obj, "", "circuitBreaker", func(x any, at string) {
			v.object(x, at, func(cb map[string]any) {
				v.field(cb, at, "stuckCount", func(x any, at string) { v.integer(x, at, 0) })
				v.field(cb, at, "lastUnmet", v.lastUnmet)
			})
		})
		for _, name := range []string{"steps", "completedSteps", "remainingSteps", "mustNot"} {
			v.field(obj, "", name, v.strings)
		}
		v.field(obj, "", "mustNotStatus", func(x any, at string) { v.objectOf(x, at, v.boolean) })
		v.field(obj, "", "session_id", v.str)
		v.field(obj, "", "metadata", func(x any, at string) {
			v.object(x, at, func(md map[string]any) { v.level(md, at) })
		})
	})
	return v.problems
}

// level checks the members that the top level and metadata both may hold.
func (v *validator) level(obj map[string]any, at string) {
	v.field(obj, at, "iteration", func(x any, at string) { v.integer(x, at, 0) })
	v.field(obj, at, "maxIterations", func(x any, at string) { v.integer(x, at, 1) })
	v.field(obj, at, "cost", v.nonNegative)
	v.field(obj, at, "budget", v.nonNegative)
	v.field(obj, at, "shape", v.str)
}

var (
	statuses      = []string{"in_progress", "active", "paused", "complete", "completed", "cancelled", "blocked", "failed"}
	verifications = []string{"execution output", "observation", "measurement", "code review", "assumption"}
)

type validator struct {
	problems []string
	// failures counts every failure, those of a dry run too.
	failures int
	// dry runs a check without building pointers or messages, only to count
	// its failures: a member is checked dry first and again at its pointer
	// only when it fails, so that a valid state of 10,000 criteria builds
	// none of their pointers.
	dry bool
}

func (v *validator) fail(at, format string, args ...any) {
	v.failures++
	if v.dry {
		return
	}
	if at == "" {
		at = "/"
	}
	v.problems = append(v.problems, at+": "+fmt.Sprintf(format, args...))
}

// is checks x's JSON type against the allowed ones, as the schema's "type".
func (v *validator) is(x any, at string, types ...string) bool {
	t := jsonType(x)
	for _, want := range types {
		if t == want || want == "integer" && t == "number" && isInt(x.(float64)) {
			return true
		}
	}
	v.fail(at, "expected %s, got %s", strings.Join(types, " or "), t)
	return false
}

// field checks the named member of the object at "at", if it is there.
func (v *validator) field(obj map[string]any, at, name string, check func(any, string)) {
	if x, ok := obj[name]; ok {
		v.member(x, at, name, check)
	}
}

// member checks x, the member name of the object at "at", building its
// pointer only when x fails the check.
func (v *validator) member(x any, at, name string, check func(any, string)) {
	switch {
	case v.dry:
		check(x, at) // only counted: the pointer is never read
	case !v.passes(x, check):
		check(x, at+"/"+escape(name))
	}
}

// item checks x, the item i of the array at "at", as member does.
func (v *validator) item(x any, at string, i int, check func(any, string)) {
	switch {
	case v.dry:
		check(x, at) // only counted: the pointer is never read
	case !v.passes(x, check):
		check(x, at+"/"+strconv.Itoa(i))
	}
}

// passes runs check on x dry and reports whether x passed it.
func (v *validator) passes(x any, check func(any, string)) bool {
	n := v.failures
	v.dry = true
	check(x, "")
	v.dry = false
	return v.failures == n
}

func (v *validator) object(x any, at string, check func(map[string]any)) {
	if v.is(x, at, "object") {
		check(x.(map[string]any))
	}
}

// objectOf checks every member of an object, as "additionalProperties".
func (v *validator) objectOf(x any, at string, check func(any, string)) {
	v.object(x, at, func(obj map[string]any) {
		for name, member := range obj {
			v.member(member, at, name, check)
		}
	})
}

// types checks x's type against one or more, as a schema's "type" list.
func (v *validator) types(types ...string) func(any, string) {
	return func(x any, at string) { v.is(x, at, types...) }
}

// required reports the members an object lacks, as "required" does.
func (v *validator) required(obj map[string]any, at string, names ...string) {
	var missing []string
	for _, name := range names {
		if _, ok := obj[name]; !ok {
			missing = append(missing, quoteName(name))
		}
	}
	if len(missing) > 0 {
		v.fail(at, "missing properties: %s", strings.Join(missing, ", "))
	}
}

// each checks every item of an array, as "items".
func (v *validator) each(x any, at string, check func(any, string)) {
	if v.is(x, at, "array") {
		for i, item := range x.([]any) {
			v.item(item, at, i, check)
		}
	}
}

// oneOf is an enum of strings, as a checker.
func (v *validator) oneOf(values []string) func(any, string) {
	return func(x any, at string) { v.enum(x, at, values) }
}

// atLeast is an integer with a minimum, as a checker.
func (v *validator) atLeast(min float64) func(any, string) {
	return func(x any, at string) { v.integer(x, at, min) }
}

func (v *validator) str(x any, at string) { v.is(x, at, "string") }

func (v *validator) boolean(x any, at string) { v.is(x, at, "boolean") }

func (v *validator) strings(x any, at string) {
	if v.is(x, at, "array") {
		for i, item := range x.([]any) {
			v.item(item, at, i, v.str)
		}
	}
}

// uniqueStrings is an array of strings with "uniqueItems": the first pair of
// equal items is reported, as the schema library does.
func (v *validator) uniqueStrings(x any, at string) {
	if !v.is(x, at, "array") {
		return
	}
	items := x.([]any)
	// A string is its own key, a string of the items' own; other values
	// meet under canonical, whose keys never meet a string's.
	first := make(map[string]int, len(items))
	var others map[string]int
	dup := false
	for i, item := range items {
		v.item(item, at, i, v.str)
		if dup {
			continue
		}
		seen, key := first, ""
		if s, ok := item.(string); ok {
			key = s
		} else {
			if others == nil {
				others = map[string]int{}
			}
			seen, key = others, canonical(item)
		}
		if j, ok := seen[key]; ok {
			v.fail(at, "items at index %d and %d are equal", j, i)
			dup = true
			continue
		}
		seen[key] = i
	}
}

func (v *validator) enum(x any, at string, values []string) {
	if s, ok := x.(string); ok {
		for _, want := range values {
			if s == want {
				return
			}
		}
	}
	quoted := make([]string, len(values))
	for i, s := range values {
		quoted[i] = strconv.Quote(s)
	}
	v.fail(at, "value must be one of %s", strings.Join(quoted, ", "))
}

func (v *validator) integer(x any, at string, min float64) {
	if v.is(x, at, "integer") {
		v.minimum(x.(float64), at, min)
	}
}

func (v *validator) nonNegative(x any, at string) {
	if v.is(x, at, "number") {
		v.minimum(x.(float64), at, 0)
	}
}

func (v *validator) minimum(f float64, at string, min float64) {
	if f < min {
		v.fail(at, "must be >= %v but found %v", min, f)
	}
}

func (v *validator) criterionStatus(x any, at string) {
	if !v.is(x, at, "boolean", "object") {
		return
	}
	obj, ok := x.(map[string]any)
	if !ok {
		return
	}
	if met, ok := obj["met"]; ok {
		v.member(met, at, "met", v.boolean)
	} else {
		v.fail(at, "missing properties: 'met'")
	}
	v.field(obj, at, "verification", func(x any, at string) { v.enum(x, at, verifications) })
}

func (v *validator) lastUnmet(x any, at string) {
	if !v.is(x, at, "string", "array", "null") {
		return
	}
	if items, ok := x.([]any); ok {
		for i, item := range items {
			v.item(item, at, i, v.str)
		}
	}
}

func jsonType(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", x)
}

func isInt(f float64) bool {
	return !math.IsInf(f, 0) && f == math.Trunc(f)
}

// canonical is a key under which equal JSON values, and only those, meet.
func canonical(x any) string {
	if s, ok := x.(string); ok {
		return "s" + s
	}
	b, _ := json.Marshal(x)
	return jsonType(x)[:1] + string(b)
}

// quoteName quotes a member's name as the schema library does in a
// "missing properties" message.
func quoteName(s string) string {
	s = strconv.Quote(s)
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `'`, `\'`)
	return "'" + s[1:len(s)-1] + "'"
}

// escape makes a JSON pointer token of a name, as RFC 6901 says.
func escape(name string) string {
	if !strings.ContainsAny(name, "~/") {
		return name
	}
	return pointerEscaper.Replace(name)
}

// pointerEscaper is built once: a Replacer's first use builds its tables.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// problemEmpty is the problem of a file with nothing in it.
const problemEmpty = "the file is empty"

// JSONError says what is wrong with a JSON document and where, without
// quoting its content: the document may be anything.
func JSONError(data []byte, err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return "not valid JSON"
	case strings.Contains(err.Error(), "exceeded max depth"):
		// A *json.SyntaxError too, but its position would read as a typo.
		return "nested too deeply (more than 10000 levels)"
	case strings.Contains(err.Error(), "unexpected end"):
		// A *json.SyntaxError too, whose position is just past the end.
		return "not valid JSON: it ends too soon"
	case errors.As(err, &syn):
		line, col := position(data, syn.Offset-1)
		return fmt.Sprintf("not valid JSON at line %d, column %d", line, col)
	case errors.As(err, &typ) && typ.Field == "":
		// Decoding into any fails this way only on a number out of float64's
		// range; typ.Value would quote the number, at any length.
		line, col := position(data, typ.Offset)
		return fmt.Sprintf("a number out of range before line %d, column %d", line, col)
	case errors.As(err, &typ):
		return fmt.Sprintf("%s: expected %s, got %s", typ.Field, typ.Type, typ.Value)
	}
	return "not valid JSON"
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// What the dialects tell the agent and the person: waiting, failures, the
// next step and the notes of a resumed session (DIALECTS.md).

func tellOnLoopFailed(err string) string {
	if err == "" {
		return "on-loop failed (no error recorded); resume with /on-loop-resume"
	}
	return "on-loop failed: " + err + "; resume with /on-loop-resume"
}

func tellOnLoopUnknownPhase(phase, version string) string {
	return fmt.Sprintf("on-loop is at phase %q, which this loophook does not know (the file's version %s is newer than %d.%d); see to the session yourself, or update loophook", phase, version, onLoopVersionMajor, onLoopVersionMinor)
}

func tellOnLoopResume() string { return "resume with /on-loop-resume" }

func tellOnLoopDoneBy() string { return "set phase to COMPLETE in the session's state.json" }

func tellOnLoopPhase(phase, agent, retry string, after []string) string {
	s := fmt.Sprintf("phase %s with the %s agent", phase, agent)
	if retry != "" {
		s += " (retry after " + retry + ")"
	}
	switch {
	case len(after) > 0:
		s += ", then " + strings.Join(after, ", ")
	case phase != onLoopComplete:
		s += ", then " + onLoopComplete
	}
	return s
}

func tellRetries(kind string, n, limit float64) string {
	return fmt.Sprintf("%s %s of %s", kind, number(n), number(limit))
}

func tellOnLoopRetryLimits(limits []string) string {
	return "on-loop's retries (a person looks when one is exceeded): " + strings.Join(limits, ", ")
}

func tellOnLoopExhausted(over []string) string {
	return "on-loop's retries are exhausted (" + strings.Join(over, ", ") + "); a person must look"
}

func tellTodo(s string) string        { return "todo: " + s }
func tellPullRequest(s string) string { return "pull request: " + s }

const (
	criterionCapabilities = "All capabilities implemented"
	criterionGates        = "All required gates approved"
)

func tellSystem(name, id, issue string) string {
	var about []string
	if id != "" && name != "" {
		about = append(about, id)
	}
	if issue != "" {
		about = append(about, "issue #"+strings.TrimPrefix(issue, "#"))
	}
	if name == "" {
		name = id
	}
	if len(about) == 0 {
		return name
	}
	return strings.TrimSpace(name + " (" + strings.Join(about, ", ") + ")")
}

func tellGate(name, status string) string {
	if status == "" {
		status = "no status"
	}
	return name + " (" + status + ")"
}

func tellGates(gates []string) string { return "gates: " + strings.Join(gates, ", ") }

func tellCapability(k, total float64, current string) string {
	if total == 0 {
		return "capability: " + current
	}
	return fmt.Sprintf("capability %s of %s: %s", number(k), number(total), current)
}

func tellFailure(stage, err string) string {
	switch {
	case stage == "":
		return err
	case err == "":
		return "a failure at " + stage
	}
	return stage + ": " + err
}

func tellBlocked(reason string) string {
	if reason == "" {
		reason = "no reason recorded"
	}
	return "the loop controller is BLOCKED (WAIT_FOR_HUMAN): " + reason + ". To resume, resolve it, set state in loop-state.json to the stage to resume, and run the loop controller"
}

func tellWaitForApproval(gates []string) string {
	return "the loop controller waits for approval (WAIT_FOR_APPROVAL) of " + count(len(gates), "gate", "gates") + ": " + strings.Join(gates, ", ")
}

func tellEscalate(failures, max float64) string {
	return fmt.Sprintf("ESCALATE: Max retries exceeded (%s failures, %s retries allowed); a person must look", number(failures), number(max))
}

func tellEscalateTotal(n float64) string {
	return fmt.Sprintf("ESCALATE: Max retries exceeded (%s failures in all, %d at most before BLOCKED); a person must look", number(n), lcMaxFailures)
}

func tellFailureLimits(count, max float64, total int) string {
	return fmt.Sprintf("the controller's retries: %s of %s failures, then ESCALATE; %d failures in all force BLOCKED", number(count), number(max), total)
}

func tellLoopControllerDoneBy() string { return "set state to COMPLETE in its loop-state.json" }

func tellOrchestratorDoneBy() string { return "set currentPhase to COMPLETE in loop-state.json" }

func tellRetry(stage, cause string, failures, max float64) string {
	s := "RETRY " + stage
	if stage == "" {
		s = "RETRY the failed stage"
	}
	if cause != "" {
		s += ": " + cause
	}
	return s + fmt.Sprintf(" (%s of %s retries used)", number(failures), number(max))
}

func tellNextState(state, next string, skills map[string]string, capability string, unapproved []string) string {
	s := "finish " + state + " (" + skills[state] + ")"
	if capability != "" && (state == "IMPLEMENT" || state == "TEST" || state == "VERIFY") {
		s += " on " + capability
	}
	switch {
	case state == "SHIP":
		s += ", then COMPLETE once the PR is merged"
	case state == "VERIFY" && next == "IMPLEMENT":
		s += ", then IMPLEMENT (implement) the next capability"
	case next != "":
		s += ", then " + next + " (" + skills[next] + ")"
	}
	if len(unapproved) > 0 {
		s += "; gates to approve before REVIEW and SHIP: " + strings.Join(unapproved, ", ")
	}
	return s
}

const (
	criterionScope  = "scope discovered"
	criterionAgents = "no sub-agent unfinished"
	criterionNoGate = "no gate pending"
)

func tellSystemCriterion(name string) string { return "system " + name }

func tellOrchestratorSpec(mode string, gaps []string) string {
	switch {
	case len(gaps) == 0:
		return mode
	case mode == "":
		return strings.Join(gaps, "; ")
	}
	return mode + ": " + strings.Join(gaps, "; ")
}

func tellAgent(id, system string) string {
	if system == "" || system == id {
		return id
	}
	return id + " (" + system + ")"
}

func tellAgentNote(id, system, status, stage, heartbeat string) string {
	s := "sub-agent " + tellAgent(id, system) + ": " + status
	if stage != "" {
		s += " at " + stage
	}
	if heartbeat == "" {
		return s + ", no heartbeat"
	}
	return s + ", last heartbeat " + heartbeat
}

func tellOrchestratorGate(id, kind, agent, description string) string {
	var about []string
	for _, s := range []string{kind, agent} {
		if s != "" {
			about = append(about, s)
		}
	}
	s := id
	if len(about) > 0 {
		s += " (" + strings.Join(about, ", ") + ")"
	}
	if description != "" {
		s += ": " + description
	}
	return strings.TrimSpace(s)
}

func tellHandedOff(reason string) string {
	if reason != "" {
		reason = " (" + reason + ")"
	}
	return "the orchestrator's session was handed off" + reason + "; resume with `/orchestrator --resume`"
}

func tellWaitingGate(gates []string) string {
	return "waiting-gate: Agent is paused, waiting for human approval of " + strings.Join(gates, "; ")
}

func tellConfirmMode(mode string, confidence any) string {
	if c, ok := confidence.(float64); ok {
		mode += " (confidence " + number(c) + ")"
	}
	return "the orchestrator detected mode " + mode + "; a person confirms it (modeDetection.confirmedByUser) or overrides it"
}

func tellRound(current, estimated any) string {
	n, ok := current.(float64)
	if !ok {
		return ""
	}
	if e, ok := estimated.(float64); ok && e > 0 {
		return fmt.Sprintf("loop %s of ~%s", number(n), number(e))
	}
	return "loop " + number(n)
}

func tellOrchestratorNext(phase, round, does, next string, left, rejected, failed []string) string {
	s := phase
	if round != "" {
		s += " (" + round + ")"
	}
	s += ": " + does
	if next != "" {
		s += ", then " + next
	}
	if len(left) > 0 {
		s += "; systems left: " + strings.Join(left, ", ")
	}
	if len(rejected) > 0 {
		s += "; rejected gates: " + strings.Join(rejected, "; ")
	}
	if len(failed) > 0 {
		s += "; failed sub-agents: " + strings.Join(failed, ", ")
	}
	return s
}

// tellEnding is what an orchestrator loop that ends names to the person:
// its rejected gates and failed sub-agents (DIALECTS.md).
func tellEnding(rejected, failed []string) []string {
	var out []string
	if len(rejected) > 0 {
		out = append(out, "with "+count(len(rejected), "rejected gate", "rejected gates")+": "+strings.Join(rejected, "; "))
	}
	if len(failed) > 0 {
		out = append(out, "with "+count(len(failed), "failed sub-agent", "failed sub-agents")+": "+strings.Join(failed, ", "))
	}
	return out
}

func tellPhaseNote(phase, round string) string {
	if round == "" {
		return "phase " + phase
	}
	return "phase " + phase + ", " + round
}

func tellSystemsDone(s []string) string      { return "systems done: " + strings.Join(s, ", ") }
func tellSystemsLeft(s []string) string      { return "systems left: " + strings.Join(s, ", ") }
func tellGatePending(g string) string        { return "gate pending: " + g }
func tellResumeInstructions(s string) string { return "resume instructions: " + s }
func tellPendingAction(s string) string      { return "pending action: " + s }
func tellRemoveHandoff() string              { return "remove sessionHandoff from loop-state.json when you resume" }

// count says "1 gate" or "3 gates".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// number prints a JSON number as a person writes it: 3, not 3e+00.
func number(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}
