package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/loophook/loophook/hook/config"
)

// benchCase is one scenario: the same stdin and working directory are given
// to loophook and to the floor.
type benchCase struct {
	name   string   // as shown in the table
	dir    string   // the child's working directory (also the input's cwd)
	args   []string // loophook's arguments; the floor gets none
	stdin  []byte   // the hook input
	wantOK bool     // the verdict a correct loophook gives
	about  string   // what the case holds, for the progress log
	env    []string // more environment for both programs
	// fresh is a directory removed before each loophook run, untimed: the
	// hook's memory, so that every run is a first stop.
	fresh string
	// floor is a command timed in the floor's place, its output dropped
	// and not checked: cat of the transcript.
	floor []string
}

// caseNames lists every case in the order they run. The last one's name
// follows -big.
func caseNames(bigName string) []string {
	return []string{"no state", "typical", "large", "marker 1KB", bigName, budgetName(bigName),
		"codex", "gemini", "copilot", "claude", "qwen", "droid", "on-loop", "loop-controller", "orchestrator", "deep nothing"}
}

// normName makes "marker 1GB", "marker-1gb" and "Marker1GB" the same name.
func normName(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '_', '\t':
			return -1
		}
		return r
	}, strings.ToLower(s))
}

const sessionID = "ed1eaa62-084b-4a0a-95e5-38cedf206129"

// hookInput mirrors what Claude Code 2.1.330 sends to a Stop hook (see
// shared/claude-code/samples/stop-first.json), field order included.
type hookInput struct {
	SessionID            string         `json:"session_id"`
	TranscriptPath       string         `json:"transcript_path"`
	Cwd                  string         `json:"cwd"`
	PromptID             string         `json:"prompt_id"`
	PermissionMode       string         `json:"permission_mode"`
	Effort               map[string]any `json:"effort"`
	HookEventName        string         `json:"hook_event_name"`
	StopHookActive       bool           `json:"stop_hook_active"`
	LastAssistantMessage *string        `json:"last_assistant_message,omitempty"`
	BackgroundTasks      []any          `json:"background_tasks"`
	SessionCrons         []any          `json:"session_crons"`
}

func makeInput(cwd, transcript string, lastMessage *string) []byte {
	in := hookInput{
		SessionID:            sessionID,
		TranscriptPath:       transcript,
		Cwd:                  cwd,
		PromptID:             "751197a5-e9aa-409e-ac6d-e41f788bda2d",
		PermissionMode:       "default",
		Effort:               map[string]any{"level": "medium"},
		HookEventName:        "Stop",
		StopHookActive:       false,
		LastAssistantMessage: lastMessage,
		BackgroundTasks:      []any{},
		SessionCrons:         []any{},
	}
	return marshal(in, "")
}

// loopState is a .loop/state.json as SPEC.md section 1 describes it.
type loopState struct {
	Spec           string                `json:"spec"`
	Criteria       []string              `json:"criteria"`
	CriteriaStatus map[string]critStatus `json:"criteriaStatus"`
	ExitSignal     bool                  `json:"exit_signal"`
	Status         string                `json:"status"`
	Iteration      int                   `json:"iteration"`
	MaxIterations  int                   `json:"maxIterations"`
	Cost           float64               `json:"cost"`
	Budget         float64               `json:"budget"`
	CircuitBreaker circuitBreaker        `json:"circuitBreaker"`
	Steps          []string              `json:"steps"`
	CompletedSteps []string              `json:"completedSteps"`
	RemainingSteps []string              `json:"remainingSteps"`
	MustNot        []string              `json:"mustNot"`
	MustNotStatus  map[string]bool       `json:"mustNotStatus"`
}

type critStatus struct {
	Met          bool   `json:"met"`
	Verification string `json:"verification"`
}

type circuitBreaker struct {
	StuckCount int      `json:"stuckCount"`
	LastUnmet  []string `json:"lastUnmet"`
}

// Pools for criterion names that read like the ones agents write.
var (
	critSubjects = []string{
		"GET /api/v2/orders/{id}", "POST /api/v1/sessions", "the billing worker",
		"the CSV importer", "the rate limiter", "the search indexer",
		"the retry queue", "the auth middleware", "the nightly export job",
		"the webhook dispatcher", "the config loader", "the response cache",
		"migration 0042_add_orders_index", "the CLI's --dry-run flag",
		"the Prometheus exporter", "the password reset flow",
		"DELETE /api/v2/users/{id}", "the PDF invoice renderer",
		"the feature-flag client", "the S3 upload handler",
	}
	critPredicates = []string{
		"returns 429 with a Retry-After header past the limit",
		"rejects a malformed payload with 400 and a JSON error body",
		"handles an empty input without panicking",
		"keeps p99 latency under 200 ms at 500 requests per second",
		"logs one structured error line carrying the request id",
		"retries three times with exponential backoff and jitter",
		"passes go test -race ./... with no data race reported",
		"is covered by an integration test against a real database",
		"survives a restart without losing queued jobs",
		"emits a metric for every rejected request",
		"is documented in docs/operations.md with an example",
		"reads its limits from the environment with sane defaults",
		"does not allocate on the hot path (benchmark shows 0 allocs/op)",
		"times out after 5 s instead of hanging the caller",
		"returns results sorted by creation time, newest first",
	}
	stepTexts = []string{
		"write a failing test for", "implement", "wire metrics into",
		"document", "load-test", "review error handling of", "refactor",
	}
)

// criterionNames returns n unique names of 60 to 100 bytes, the same every run.
func criterionNames(n int) []string {
	rng := rand.New(rand.NewPCG(42, 7))
	names := make([]string, 0, n)
	for i := 1; len(names) < n; {
		s := fmt.Sprintf("%s %s (#%d)",
			critSubjects[rng.IntN(len(critSubjects))],
			critPredicates[rng.IntN(len(critPredicates))], i)
		if len(s) < 60 || len(s) > 100 {
			continue
		}
		names = append(names, s)
		i++
	}
	return names
}

// makeState builds a state with n criteria of which met are met.
func makeState(n, met int, exitSignal bool, nSteps int) loopState {
	names := criterionNames(n)
	st := loopState{
		Spec:           "Add per-client rate limiting to the public HTTP API, with metrics, docs and a load test that shows it holds at 500 rps.",
		Criteria:       names,
		CriteriaStatus: make(map[string]critStatus, n),
		ExitSignal:     exitSignal,
		Status:         "in_progress",
		Iteration:      3,
		MaxIterations:  10,
		Cost:           1.84,
		Budget:         25,
		MustNot:        []string{"tests deleted or skipped to make them pass", "force-push to main"},
		MustNotStatus:  map[string]bool{"tests deleted or skipped to make them pass": false, "force-push to main": false},
	}
	var unmet []string
	for i, name := range names {
		ok := (i+1)*met/n > i*met/n // met of the n, spread evenly
		st.CriteriaStatus[name] = critStatus{Met: ok, Verification: "execution output"}
		if !ok {
			unmet = append(unmet, name)
		}
	}
	st.CircuitBreaker = circuitBreaker{StuckCount: 1, LastUnmet: unmet[:min(3, len(unmet))]}
	if len(unmet) == 0 {
		st.CircuitBreaker = circuitBreaker{StuckCount: 0, LastUnmet: []string{}}
	}
	for i := 0; i < nSteps; i++ {
		st.Steps = append(st.Steps, fmt.Sprintf("%s %s", stepTexts[i%len(stepTexts)], critSubjects[i%len(critSubjects)]))
	}
	done := nSteps * 3 / 8
	if exitSignal {
		done = nSteps
	}
	st.CompletedSteps = append([]string{}, st.Steps[:done]...)
	st.RemainingSteps = append([]string{}, st.Steps[done:]...)
	return st
}

// countMet counts the met criteria of st.
func countMet(st loopState) int {
	n := 0
	for _, s := range st.CriteriaStatus {
		if s.Met {
			n++
		}
	}
	return n
}

// writeCaseDir makes dir a fresh git work tree root (a .git directory
// holding HEAD is all the search looks for) holding st as
// .loop/state.json, or no .loop when st is nil. It returns the state's
// size.
func writeCaseDir(dir string, st *loopState) (int, error) {
	if err := os.RemoveAll(dir); err != nil {
		return 0, err
	}
	if err := gitTop(dir); err != nil {
		return 0, err
	}
	if st == nil {
		return 0, nil
	}
	if err := os.MkdirAll(filepath.Join(dir, ".loop"), 0o755); err != nil {
		return 0, err
	}
	b := append(marshal(st, "  "), '\n')
	return len(b), os.WriteFile(filepath.Join(dir, ".loop", "state.json"), b, 0o644)
}

// Transcript lines, modelled on shared/claude-code/samples/transcript.jsonl.

func jstr(s string) string {
	return string(marshal(s, ""))
}

// marshal encodes v as the JSON that Claude Code and agents write, which
// leaves <, > and & alone (encoding/json would write <loop-complete> as
// \u003cloop-complete\u003e), without a trailing newline.
func marshal(v any, indent string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", indent)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

type lineMaker struct {
	rng  *rand.Rand
	t    time.Time
	prev string
}

func (m *lineMaker) uuid() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(m.rng.Uint32())
	}
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// common returns the fields every message line ends with and advances the
// parent chain.
func (m *lineMaker) common(uuid string) string {
	m.t = m.t.Add(173 * time.Millisecond)
	s := fmt.Sprintf(`"uuid":%q,"timestamp":%q,"userType":"external","entrypoint":"sdk-cli","cwd":"/home/user/project","sessionId":%q,"version":"2.1.330","gitBranch":"main"}`,
		uuid, m.t.Format("2006-01-02T15:04:05.000Z"), sessionID)
	m.prev = uuid
	return s
}

func (m *lineMaker) user(content string, meta bool) string {
	u := m.uuid()
	metaField := ""
	if meta {
		metaField = `"isMeta":true,`
	}
	return fmt.Sprintf(`{"parentUuid":%q,"isSidechain":false,"promptId":"751197a5-e9aa-409e-ac6d-e41f788bda2d","type":"user","message":{"role":"user","content":%s},%s`, m.prev, jstr(content), metaField) + m.common(u)
}

func (m *lineMaker) assistant(contentJSON string, n int) string {
	u := m.uuid()
	return fmt.Sprintf(`{"parentUuid":%q,"isSidechain":false,"message":{"id":"msg_%d","type":"message","role":"assistant","model":"claude-opus-5-5","content":%s,"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":%d,"cache_creation_input_tokens":0,"cache_read_input_tokens":%d,"output_tokens":%d,"service_tier":"standard"}},"requestId":"req_%s","type":"assistant",`,
		m.prev, n, contentJSON, 1200+n%900, 40000+n%7000, 80+n%400, strings.ReplaceAll(u, "-", "")[:24]) + m.common(u)
}

func (m *lineMaker) assistantText(text string, n int) string {
	return m.assistant(`[{"type":"text","text":`+jstr(text)+`}]`, n)
}

func (m *lineMaker) toolUse(n int, cmd string) string {
	id := "toolu_" + strings.ReplaceAll(m.uuid(), "-", "")[:24]
	return m.assistant(fmt.Sprintf(`[{"type":"tool_use","id":%q,"name":"Bash","input":{"command":%s,"description":"Run the tests"}}]`, id, jstr(cmd)), n)
}

func (m *lineMaker) toolResult(output string) string {
	u := m.uuid()
	return fmt.Sprintf(`{"parentUuid":%q,"isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_%s","type":"tool_result","content":%s,"is_error":false}]},`,
		m.prev, strings.ReplaceAll(u, "-", "")[:24], jstr(output)) + m.common(u)
}

func (m *lineMaker) stopSummary() string {
	u := m.uuid()
	return fmt.Sprintf(`{"parentUuid":%q,"isSidechain":false,"type":"system","subtype":"stop_hook_summary","hookCount":1,"hookInfos":[{"command":"/usr/local/bin/loophook stop --protocol claude"}],"hookErrors":["Criteria unmet: 3 of 20. Next step: load-test the rate limiter."],"failedHookErrorIndexes":[],"hookAdditionalContext":[],"preventedContinuation":false,"stopReason":"","hasOutput":true,"level":"suggestion",`, m.prev) + m.common(u)
}

// fillerBlock returns a few complete turns of a working session (about 60
// KB of JSON Lines), none of whose assistant messages holds the marker.
func fillerBlock() []byte {
	m := &lineMaker{rng: rand.New(rand.NewPCG(1, 2)), t: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)}
	m.prev = m.uuid()
	var b bytes.Buffer
	var testOut strings.Builder
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&testOut, "=== RUN   TestRateLimiter/case_%02d\n--- PASS: TestRateLimiter/case_%02d (0.%02ds)\n", i, i, i)
	}
	testOut.WriteString("PASS\nok  \tgithub.com/example/api/limiter\t1.284s\n")
	for turn := 0; turn < 8; turn++ {
		lines := []string{
			m.user(fmt.Sprintf("Stop hook feedback:\nCriteria unmet: %d of 20. Next step: load-test the rate limiter.", 10-turn), true),
			m.assistantText("I'll keep going: the limiter's 429 path still lacks a Retry-After header. Let me look at the middleware and the failing test first.", turn*4+1),
			m.toolUse(turn*4+2, "go test ./internal/limiter/... -run TestRateLimiter -count=1 -v"),
			m.toolResult(testOut.String()),
			m.assistantText("The tests pass now. I updated criteriaStatus in .loop/state.json with verification \"execution output\" and moved the step to completedSteps. Remaining: the load test and the docs.", turn*4+3),
			m.stopSummary(),
			`{"type":"last-prompt","lastPrompt":"Add per-client rate limiting to the public HTTP API","leafUuid":"` + m.prev + `","sessionId":"` + sessionID + `"}`,
		}
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}

// transcriptTail is the whole "marker 1KB" transcript and the end of the big
// one: a hook's feedback, then the assistant's final message with the marker.
func transcriptTail() []byte {
	m := &lineMaker{rng: rand.New(rand.NewPCG(3, 4)), t: time.Date(2026, 11, 21, 11, 30, 8, 0, time.UTC)}
	m.prev = m.uuid()
	return []byte(m.user("Stop hook feedback:\nSet exit_signal to true once everything is verified.", true) + "\n" +
		m.assistantText("All 20 criteria are met and verified by execution output; exit_signal is set.\n\n<loop-complete>", 99) + "\n")
}

// writeTranscript writes a transcript of about size bytes at path: filler
// turns, then transcriptTail, so that its end is byte for byte the small
// one's.
func writeTranscript(path string, size int64) error {
	tail := transcriptTail()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 4<<20)
	room := size - int64(len(tail))
	if room > 0 {
		block := fillerBlock()
		// Repeat the block into a chunk longer than w's buffer, which w
		// then writes straight through: few writes, no copying.
		chunk := bytes.Repeat(block, (4<<20)/len(block)+1)
		for room >= int64(len(chunk)) {
			if _, err := w.Write(chunk); err != nil {
				f.Close()
				return err
			}
			room -= int64(len(chunk))
		}
		// Then whole lines while they fit.
		for rest := chunk; room > 0; {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 || int64(i+1) > room {
				break
			}
			w.Write(rest[:i+1])
			room -= int64(i + 1)
			rest = rest[i+1:]
		}
	}
	w.Write(tail)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	// Flush to disk now, so that writeback does not run during the timings.
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// generatorVersion changes whenever writeTranscript's output does, so that
// -keep does not reuse a transcript of another kind.
const generatorVersion = 2

// ensureTranscript writes path unless keep is set and the transcript there
// was written, whole, for this size by this generator (a stamp file beside
// it says so). It reports whether it reused the file.
func ensureTranscript(path string, size int64, keep bool) (bool, error) {
	stampPath := path + ".stamp"
	if keep {
		if b, err := os.ReadFile(stampPath); err == nil {
			var v, want, got int64
			if _, err := fmt.Sscanf(string(b), "v%d %d %d", &v, &want, &got); err == nil && v == generatorVersion && want == size {
				if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() == got {
					return true, nil
				}
			}
		}
	}
	os.Remove(stampPath)
	if err := writeTranscript(path, size); err != nil {
		return false, err
	}
	if keep {
		fi, err := os.Stat(path)
		if err != nil {
			return false, err
		}
		return false, os.WriteFile(stampPath, fmt.Appendf(nil, "v%d %d %d\n", generatorVersion, size, fi.Size()), 0o644)
	}
	return false, nil
}

// buildCases writes every selected case under work and returns them.
// Transcripts go to work/transcripts, like Claude Code's own directory
// outside the project.
func buildCases(work string, selected map[string]bool, bigSize int64, bigName string, keep bool, logf func(string, ...any)) ([]benchCase, error) {
	tdir := filepath.Join(work, "transcripts")
	if err := os.MkdirAll(tdir, 0o755); err != nil {
		return nil, err
	}
	small := filepath.Join(tdir, "transcript-1KB.jsonl")
	if err := os.WriteFile(small, transcriptTail(), 0o644); err != nil {
		return nil, err
	}
	lastMsg := "I've added the limiter middleware; the 429 tests pass, the load test is next."
	var cases []benchCase
	add := func(name string, st *loopState, args []string, transcript string, withLast bool, wantOK bool, about string) error {
		if !selected[normName(name)] {
			return nil
		}
		dir := filepath.Join(work, "cases", normName(name))
		size, err := writeCaseDir(dir, st)
		if err != nil {
			return err
		}
		var lm *string
		if withLast {
			lm = &lastMsg
		}
		if st != nil {
			about = fmt.Sprintf("state %s, %d criteria (%d met)%s", humanBytes(int64(size)), len(st.Criteria), countMet(*st), about)
		}
		cases = append(cases, benchCase{
			name: name, dir: dir, args: args,
			stdin: makeInput(dir, transcript, lm), wantOK: wantOK, about: about,
		})
		return nil
	}
	stop := []string{"stop"}
	marker := []string{"stop", "--require-marker"}

	typical := makeState(20, 10, false, 8)
	large := makeState(10000, 5000, false, 200)
	done := makeState(20, 20, true, 8)

	if err := add("no state", nil, stop, small, true, true, "no .loop in a git work tree"); err != nil {
		return nil, err
	}
	if err := add("typical", &typical, stop, small, true, false, ""); err != nil {
		return nil, err
	}
	if err := add("large", &large, stop, small, true, false, ""); err != nil {
		return nil, err
	}
	if err := add("marker 1KB", &done, marker, small, false, true, fmt.Sprintf(", exit_signal, transcript %s", humanBytes(int64(len(transcriptTail()))))); err != nil {
		return nil, err
	}
	unended(cases, "marker 1KB")
	// A stop in each host's protocol, on the typical state.
	for _, host := range []string{"codex", "gemini", "copilot", "claude", "qwen", "droid"} {
		if err := add(host, &typical, []string{"stop", "--protocol", host}, small, true, false, ", --protocol "+host); err != nil {
			return nil, err
		}
	}
	// Each other loop system's example state, laid out as it keeps it.
	for _, dialect := range []string{"on-loop", "loop-controller", "orchestrator"} {
		if !selected[normName(dialect)] {
			continue
		}
		dir := filepath.Join(work, "cases", normName(dialect))
		if err := copyExample(filepath.Join("schema", "examples", dialect), dir); err != nil {
			return nil, fmt.Errorf("%s: %w (run benchhook from the module's root)", dialect, err)
		}
		cases = append(cases, benchCase{name: dialect, dir: dir, args: stop, stdin: makeInput(dir, small, &lastMsg), about: "schema/examples/" + dialect})
	}
	// Nothing found, 30 levels down a work tree with 20 folders a level.
	if selected[normName("deep nothing")] {
		dir := filepath.Join(work, "cases", "deepnothing")
		deep, err := writeDeepTree(dir, 30, 20)
		if err != nil {
			return nil, err
		}
		cases = append(cases, benchCase{name: "deep nothing", dir: deep, args: stop, stdin: makeInput(deep, small, &lastMsg), wantOK: true, about: "cwd 30 levels deep, no state"})
	}
	if selected[normName(bigName)] || selected[normName(budgetName(bigName))] {
		big := filepath.Join(tdir, "transcript-"+strings.TrimPrefix(bigName, "marker ")+".jsonl")
		start := time.Now()
		reused, err := ensureTranscript(big, bigSize, keep)
		if err != nil {
			return nil, fmt.Errorf("writing the %s transcript: %w", bigName, err)
		}
		fi, err := os.Stat(big)
		if err != nil {
			return nil, err
		}
		if reused {
			logf("reusing %s (%s)", big, humanBytes(fi.Size()))
		} else {
			logf("wrote %s (%s) in %v", big, humanBytes(fi.Size()), time.Since(start).Round(time.Millisecond))
		}
		if err := add(bigName, &done, marker, big, false, true, fmt.Sprintf(", exit_signal, transcript %s", humanBytes(fi.Size()))); err != nil {
			return nil, err
		}
		unended(cases, bigName)
		if name := budgetName(bigName); selected[normName(name)] {
			c, err := addBudget(work, name, big, &typical, fi)
			if err != nil {
				return nil, err
			}
			cases = append(cases, c)
		}
	}
	// A cache and a configuration of the run's own, not the machine's: what
	// a stop finds there (the open contracts of every tree a loop ran in)
	// would change what it costs, and the runs would leave it to the user.
	for i := range cases {
		home := []string{"XDG_CACHE_HOME=" + filepath.Join(work, "cache"), "XDG_CONFIG_HOME=" + filepath.Join(work, "config-home")}
		cases[i].env = append(home, cases[i].env...) // a case's own come last, and win
	}
	return cases, nil
}

// budgetName is the first budgeted stop's case, on the big transcript.
func budgetName(bigName string) string { return "budget " + strings.TrimPrefix(bigName, "marker ") }

// addBudget is the first budgeted stop on the big transcript against cat
// of it: a loop with an approved token budget, whose first stop reads the
// whole transcript once (SPEC section 6), the hook's memory removed before
// each run. The approval goes to a configuration directory of the case's
// own.
func addBudget(work, name, transcript string, typical *loopState, fi os.FileInfo) (benchCase, error) {
	dir := filepath.Join(work, "cases", normName(name))
	if _, err := writeCaseDir(dir, typical); err != nil {
		return benchCase{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, ".loophook.json"), []byte(`{"budget": {"tokens": 1000000000000}}`+"\n"), 0o644); err != nil {
		return benchCase{}, err
	}
	configDir, cacheDir := filepath.Join(work, "config"), filepath.Join(work, "cache-"+normName(name))
	old, had := os.LookupEnv("XDG_CONFIG_HOME")
	os.Setenv("XDG_CONFIG_HOME", configDir)
	_, err := config.Approve(dir)
	if had {
		os.Setenv("XDG_CONFIG_HOME", old)
	} else {
		os.Unsetenv("XDG_CONFIG_HOME")
	}
	if err != nil {
		return benchCase{}, fmt.Errorf("approving the budget: %w", err)
	}
	cat, err := exec.LookPath("cat")
	if err != nil {
		return benchCase{}, err
	}
	return benchCase{
		name: name, dir: dir, args: []string{"stop"},
		stdin: makeInput(dir, transcript, nil), wantOK: false,
		about: fmt.Sprintf("first stop with a token budget, transcript %s, against cat of it", humanBytes(fi.Size())),
		env:   []string{"XDG_CONFIG_HOME=" + configDir, "XDG_CACHE_HOME=" + cacheDir},
		fresh: cacheDir, floor: []string{cat, transcript},
	}, nil
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// copyExample copies an example state's tree into dir, a git work tree.
func copyExample(from, dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := gitTop(dir); err != nil {
		return err
	}
	return filepath.WalkDir(from, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
}

// writeDeepTree makes a git work tree at dir with width folders at each of
// depth levels, and returns the deepest folder.
func writeDeepTree(dir string, depth, width int) (string, error) {
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := gitTop(dir); err != nil {
		return "", err
	}
	at := dir
	for level := range depth {
		for i := range width {
			if err := os.MkdirAll(filepath.Join(at, fmt.Sprintf("d%02d-%02d", level, i)), 0o755); err != nil {
				return "", err
			}
		}
		at = filepath.Join(at, fmt.Sprintf("d%02d-%02d", level, 0))
	}
	return at, nil
}

// gitTop makes dir the top of a git work tree as the search tells one: a
// .git directory holding HEAD.
func gitTop(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
}

// unended keeps the named case's loop from ending: a loop that completed
// stays ended (SPEC section 5), and its file seen again is no loop, which
// reads no transcript. The case's memory has no place (its cache is a
// file), so the hook keeps no contract, and every run decides the claim
// anew, reading the transcript as a loop's one completing stop does.
func unended(cases []benchCase, name string) {
	for i := range cases {
		if cases[i].name == name {
			cache := filepath.Join(cases[i].dir, "cache-is-a-file")
			if os.WriteFile(cache, nil, 0o644) == nil {
				cases[i].env = append(cases[i].env, "XDG_CACHE_HOME="+cache)
			}
		}
	}
}
