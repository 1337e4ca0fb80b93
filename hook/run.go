// Package hook is one evaluation outside the decision: the hook input, the
// facts gathered for it, and a verdict rendered in a host's wire. The state
// file is found and read in hook/state, the loop's memory is hook/memory's,
// the transcript's tail hook/transcript's.
package hook

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/hook/usage"
	"github.com/loophook/loophook/internal/file"
	"github.com/loophook/loophook/internal/jsontext"
	"github.com/loophook/loophook/schema"
)

// Event is what a host runs the hook for.
type Event string

// The events loophook answers.
const (
	EventStop         Event = "stop"
	EventSessionStart Event = "session-start"
)

// Options are a person's settings for one evaluation.
type Options struct {
	Host      Wire
	StatePath string // --state: skips the search
	Dir       string // --dir: where the search starts, before all else
	Limits    criteria.Limits
	// StandAside, when set, says why this call leaves the answer to another
	// registration of the same hook (the plugin beside an install): it
	// lets the agent go, counts nothing and reads no state.
	StandAside string
	// Misconfigured, when set, is what is wrong with the hook's flags: the
	// agent is let go, and the person told.
	Misconfigured error
	// Note tells a person something on stderr; nil discards it.
	Note func(msg string)
	// Getenv reads the environment; nil is os.Getenv.
	Getenv func(string) string

	// Dialect, when set, is the one dialect looked for (--dialect); else a
	// file named by --state is told by its content.
	Dialect string
	// NoChecks keeps the evaluation from running the checks of a
	// .loophook.json: a person's look (status) runs no command, and
	// decides on the results a claim on the tree as it is would reuse.
	NoChecks bool
	// Started is when the host started the hook; zero is when Run is
	// called. Two evaluations of one stop that ran at the same time are
	// told by it (Answered.sameStop).
	Started time.Time
}

// Result is one evaluation: the verdict and what it was drawn from.
type Result struct {
	criteria.Verdict
	Loaded  *state.Loaded // nil when there is no state file
	Session string
	Host    string        // the host's name: whose session this is
	Memory  memory.Memory // the session's memory after the evaluation
	Context string        // for a session start: what the agent is told
	// Budgets are the loop's measured budgets at this evaluation, and
	// Tokens the tokens counted (nil when none was asked for).
	Budgets []criteria.Measured
	Tokens  *usage.Usage
	// Began is when the loop's contract began (budgets are measured from
	// it); zero when there is none.
	Began time.Time
	// Notice is what the person is told beside the answer, whatever it
	// is: the state of a .loophook.json, once a session.
	Notice string
	// Removed are the contract's criteria that the state no longer lists:
	// unmet, so that what a person reads agrees with the verdict.
	Removed []string
}

// Run answers one hook call: it reads the input, finds the state, decides
// and renders the answer in the host's wire. It always writes exactly one
// JSON object to stdout, whatever happens.
func Run(ev Event, o Options, stdin io.Reader, stdout io.Writer) {
	if o.Started.IsZero() {
		o.Started = time.Now()
	}
	var r Result
	defer func() {
		if p := recover(); p != nil {
			o.note(fmt.Sprintf(noteInternal, p, debug.Stack()))
			r = Result{Verdict: criteria.Verdict{OK: true, Rule: criteria.RuleInternalError, Reason: criteria.ReasonInternalError(p)}}
		}
		jsontext.Write(stdout, o.answer(ev, r))
	}()
	if o.StandAside != "" {
		o.note(o.StandAside)
		r.Verdict = criteria.Verdict{OK: true, Rule: criteria.RuleStandAside, Reason: o.StandAside}
		return
	}
	if o.Misconfigured != nil {
		r.Verdict = criteria.Misconfigured(o.Misconfigured)
		return
	}
	in, err := o.Host.ReadInput(stdin)
	switch {
	case err != nil:
		o.note(fmt.Sprintf(noteError, err))
		r.Verdict = criteria.Decide(criteria.Evaluation{BadInput: err.Error()}, o.Limits)
	case ev == EventSessionStart:
		r = Begin(o, in)
	default:
		r = Evaluate(o, in, true)
	}
}

func (o Options) answer(ev Event, r Result) any {
	if ev == EventSessionStart {
		if r.Rule == criteria.RuleMisconfigured {
			// A session-start has no verdict to carry it: the person is
			// told where the host shows them a hook's message.
			r.Notice = Prefix + r.Reason
		}
		return withNotice(o.Host.SessionStart(r.Context), r.Notice, o.Host.Tells)
	}
	return withNotice(o.Host.Stop(r.Verdict), r.Notice, o.Host.Tells)
}

// Evaluate runs one Stop evaluation for the input. With remember it updates
// the session's memory under its lock, as the hook does; without, it only
// reads the memory, as a person's dry run does.
func Evaluate(o Options, in Input, remember bool) Result {
	r, found, ok := o.locate(in)
	if !ok {
		return r
	}
	open, held, vanished := o.openContract(in, found, remember)
	switch {
	case vanished:
		return o.vanished(r, held, in, remember)
	case held.Path != "":
		// One open contract per work tree and session (SPEC section 5):
		// whatever discovery finds now, its loop judges this stop.
		found = held
	case found.Path == "":
		r.Verdict = criteria.Decide(criteria.Evaluation{SessionID: in.SessionID, LookedFor: o.lookedFor(), Searched: found.Searched}, o.Limits)
		return r
	}
	s := o.gather(r, found, in, remember)
	s.open = open
	if s.ended && s.end.Told {
		// Its end was told: the file is no loop. It runs no check and
		// counts nothing; the first stop after a person's cancel told it.
		s.r.Verdict = criteria.Ended(o.display(found.Path, in), s.end.By)
		return s.r
	}
	var err error
	switch {
	case !s.governed:
		// Another session's loop: nothing of this session to remember there.
		s.decide(memory.Memory{}, false, nil)
	case remember:
		err = s.store.Update(in.SessionID, s.decide)
		if s.checksDue {
			// The decision reached the checks: they run outside the
			// memory's lock, which a check of minutes must not hold, and
			// their results are merged under it in a second decision.
			s.runChecks()
			err = s.store.Update(in.SessionID, s.decide)
		}
	default:
		var prev memory.Memory
		var ok bool
		prev, ok, err = s.store.Read(in.SessionID)
		s.decide(prev, ok, nil)
	}
	s.finish(err)
	return s.r
}

// evaluation is one Stop evaluation: the facts gathered once, then one
// decision (decide), which the memory's Update may call again.
type evaluation struct {
	o        Options
	in       Input
	remember bool
	l        *state.Loaded
	store    memory.Store
	// governed says the state's loop governs this session: it names no
	// other session.
	governed bool
	key      string // the stop's key, for a second registration
	budget   memory.Budget
	e        criteria.Evaluation
	r        Result

	// checks runs the approved checks; checked holds their failures once
	// they ran, and checksDue says a decision reached them before.
	checks    func() []criteria.CheckFailure
	checked   *[]criteria.CheckFailure
	checksDue bool

	changed, again                  bool
	contractErr, budgetErr, lostErr error

	// end is how the loop's contract ended; ended says it did, in this
	// very file: a loop that ended stays ended.
	end   memory.Ending
	ended bool
	// open are the work tree's open contracts by session; nil when none
	// are kept (--state, no session).
	open *memory.Open
}

// openContract is the unfinished contract that governs the input's session
// in its work tree, when it is another file's than the one found: held is
// that file, or, when it vanished, vanished says so. It reads one small
// file; a person's --state names the file to judge, and a stop with no
// session cannot be told apart from another.
func (o Options) openContract(in Input, found state.Found, remember bool) (open *memory.Open, held state.Found, vanished bool) {
	if o.StatePath != "" || in.SessionID == "" {
		return nil, state.Found{}, false
	}
	start := o.start(in)
	top := found.Top // the climb's, when the search climbed
	if top == "" {
		top = state.Top(start)
	}
	open = memory.OpenFor(top)
	g, ok := open.Governing(in.SessionID)
	// Each resolution of links costs an lstat a level: a path 30 levels
	// deep is resolved once.
	physTop := open.Top()
	if physTop == "" {
		physTop = file.PhysicalDir(top)
	}
	if !ok && physTop != top {
		// The work tree moved away, a link left in its place: its open
		// contracts are where they were recorded.
		around := memory.OpenAt(top)
		if g, ok = around.Governing(in.SessionID); ok {
			open = around
		}
	}
	if !ok {
		// A repository the agent makes where the host runs (git init) must
		// not hide the loop of the tree around it, nor a .git moved away
		// the loop of the tree the host runs in: the open contract of any
		// directory at or above where the host runs holds.
		physStart := physTop
		if abs, err := filepath.Abs(start); err != nil || abs != top {
			physStart = file.PhysicalDir(start)
		}
		for around := range memory.OpenAbove(physStart, physTop) {
			if g, ok = around.Governing(in.SessionID); ok {
				open = around
				break
			}
		}
	}
	if !ok || found.Path != "" && g.State == file.Physical(found.Path) {
		return open, state.Found{}, false
	}
	if !memory.ForPhysical(g.State).Unfinished() {
		// Its loop ended: the session is free for the file found.
		if remember {
			if err := open.Drop(in.SessionID, g.State); err != nil {
				o.note(fmt.Sprintf(noteNote, err))
			}
		}
		return open, state.Found{}, false
	}
	d, err := schema.Lookup(g.Dialect)
	if err != nil {
		d = schema.Hope
	}
	held = state.Found{Path: g.State, Dialect: d}
	// A directory on its path replaced by a link (.loop moved away, a link
	// to it left) puts another file there, with no contract: the loop's
	// own file is gone.
	if _, err := os.Lstat(g.State); err != nil || file.Physical(g.State) != g.State {
		return open, held, true
	}
	if d.Name != schema.Hope.Name {
		// Another system's file is told by its content: one that no
		// longer holds that system's loop is gone as a loop.
		data, err := state.ReadFile(g.State)
		if err != nil || schema.Tell(data).Name != d.Name {
			return open, held, true
		}
		held.Data = data
	}
	return open, held, false
}

// vanished is the verdict when the state of the unfinished contract that
// governs the session is gone: the agent is let go, the person told which
// loop and its contract's criteria, and the loop's journal records it.
func (o Options) vanished(r Result, held state.Found, in Input, remember bool) Result {
	store := memory.ForPhysical(held.Path)
	r.Verdict = criteria.Vanished(o.display(held.Path, in), store.ContractCriteria())
	if remember {
		e := memory.Entry{Time: time.Now().UTC(), Session: in.SessionID, Host: o.Host.Name, Dialect: held.Dialect.Name, OK: r.OK, Rule: r.Rule, Reason: r.Reason, Changed: true}
		if err := store.Journal().Append(e); err != nil {
			o.note(fmt.Sprintf(noteNote, err))
		}
	}
	return r
}

// gather reads the facts of a stop of the state found: the state, the
// person's rules, the cancel a person recorded.
func (o Options) gather(r Result, found state.Found, in Input, remember bool) *evaluation {
	l := state.Load(found)
	r.Loaded = l
	s := &evaluation{o: o, in: in, remember: remember, l: l, store: memory.For(found.Path), r: r, changed: true,
		governed: !criteria.OtherSession(l.Session, in.SessionID),
		key:      memory.WithTranscript(in.StopKey, in.TranscriptPath)}
	// A loop a person cancelled with loophook cancel, in a file loophook
	// does not write, is cancelled while its state stays as it was.
	if err := s.store.ApplyCancel(l, remember); err != nil {
		o.note(fmt.Sprintf(noteNote, err))
	}
	// A loop that ended stays ended (SPEC section 5): its own file, seen
	// again, is no loop once a stop told its end (Evaluate).
	end, ended := s.store.Ending()
	s.end, s.ended = end, ended && end.Last == l.Progress && s.governed
	s.e = criteria.Evaluation{
		Path:           o.display(found.Path, in),
		Loop:           l.Loop,
		Problems:       l.Problems,
		StateSession:   l.Session,
		SessionID:      in.SessionID,
		StopHookActive: in.StopHookActive,
		LastMessage:    func() (string, error) { return o.Host.LastMessage(in) },
	}
	p := o.personRules(in, found)
	s.budget = p.budget()
	if s.governed {
		s.e.FailedChecks = p.failedChecks
	}
	if l.Loop != nil && l.Loop.Inactive() {
		s.e.ByInit = s.store.ByInit()
	}
	if !s.governed && in.SessionID != "" {
		// The state names another session: if its unfinished contract
		// governed this one (its memory says so), the person hears of it.
		if _, ok, _ := s.store.Read(in.SessionID); ok && s.store.Unfinished() {
			s.e.WasGoverned = true
		}
	}
	if l.Loop != nil && s.governed {
		s.checks = p.checks(o.NoChecks)
		if remember {
			s.r.Notice = p.notice(in.SessionID)
		}
	}
	return s
}

// runChecks runs the approved checks, one evaluation of the loop at a
// time: a second registration of the same stop waits, and reuses the
// results on the unchanged tree.
func (s *evaluation) runChecks() {
	unlock, err := s.store.LockChecks()
	if err == nil {
		defer unlock()
	}
	failed := s.checks()
	s.checked = &failed
}

// decide is the one decision of a stop on the session's memory prev.
func (s *evaluation) decide(prev memory.Memory, ok bool, lost error) memory.Memory {
	in, l, e := s.in, s.l, &s.e
	// Only a stop with stop_hook_active counts anything, so only such
	// a stop is remembered for a second registration; a turn's first
	// stop evaluated twice changes nothing, and writes nothing.
	if s.remember && ok && in.StopHookActive && prev.Last.SameStop(s.key, s.o.Started, time.Now()) {
		// The same stop again: the verdict it was given, nothing
		// counted twice.
		s.r.Verdict, s.r.Memory, s.changed, s.again, s.checksDue = prev.Last.Verdict(), prev, false, true, false
		return prev
	}
	// The contract is checked at every stop, whatever the state's
	// progress: a dropped criterion must never pass unnoticed.
	e.Removed, s.r.Removed, s.contractErr = nil, nil, nil
	if l.Loop != nil && (s.governed || e.WasGoverned) {
		var check memory.ContractCheck
		check, s.contractErr = s.store.Check(l.Loop, l.Progress, s.remember && s.governed, time.Now())
		e.Removed, s.r.Began, s.r.Removed = check.Removed, check.Began, check.Removed
	}
	s.changed = !ok || len(prev.Seen) == 0 || prev.Seen[len(prev.Seen)-1] != l.Progress
	e.Unchanged, e.Continuations, e.Unenforced, s.lostErr = 0, 0, "", lost
	if lost != nil {
		e.Unenforced = lost.Error()
	}
	if in.StopHookActive {
		e.Continuations = prev.Continuations + 1
		if slices.Contains(prev.Seen, l.Progress) {
			e.Unchanged = prev.Unchanged + 1
		}
	}
	e.Budgets, s.r.Tokens = nil, nil
	if l.Loop != nil && memory.AnyBudget(s.budget) && s.contractErr == nil {
		var m memory.Measured
		m, s.budgetErr = s.store.Measure(s.budget, s.o.usage(in), in.SessionID, s.remember, time.Now())
		e.Budgets, s.r.Tokens = m.Budgets, &m.Tokens
	}
	// The checks run outside the memory's lock: a decision that reaches
	// them before they ran keeps the memory as it was, and is taken again
	// with their results.
	e.Checks, s.checksDue = nil, false
	switch {
	case s.checks == nil:
	case s.checked != nil:
		failed := *s.checked
		e.Checks = func() []criteria.CheckFailure { return failed }
	case !s.remember:
		// A dry run holds no lock.
		e.Checks = s.checks
	default:
		e.Checks = func() []criteria.CheckFailure {
			s.checksDue = true
			return nil
		}
	}
	s.r.Verdict = criteria.Decide(*e, s.o.Limits)
	s.r.Budgets = e.Budgets
	if s.checksDue {
		return prev
	}
	s.r.Memory = memory.Memory{
		Seen:          memory.AddProgress(prev.Seen, l.Progress),
		Unchanged:     e.Unchanged,
		Continuations: e.Continuations,
		Rule:          s.r.Rule,
		Last:          prev.Last,
	}
	if in.StopHookActive {
		s.r.Memory.Last = &memory.Answered{Key: s.key, At: time.Now().UnixNano(), OK: s.r.OK, Reason: s.r.Reason, Rule: s.r.Rule, Unfinished: s.r.Unfinished}
	}
	return s.r.Memory
}

// finish keeps what the decision counted beyond the session's memory: a
// turn of the budget, the end of the contract, the journal.
func (s *evaluation) finish(err error) {
	r, l := &s.r, s.l
	if s.remember && !s.again && !r.OK && len(r.Budgets) > 0 {
		// A continuation granted: the turns budget counts it, once.
		s.budgetErr = errors.Join(s.budgetErr, s.store.CountTurn(time.Now()))
	}
	switch {
	case s.remember && r.Rule == criteria.RuleComplete && l.Loop != nil:
		// The hook let the loop end, and said so: so ends its contract.
		s.contractErr = errors.Join(s.contractErr, s.store.EndContract(l.Progress, string(r.Rule), true, time.Now()))
	case s.remember && s.ended:
		// A person's cancel, told now: the next stop finds no loop.
		s.contractErr = errors.Join(s.contractErr, s.store.EndContract(l.Progress, s.end.By, true, time.Now()))
	}
	for _, err := range []error{s.contractErr, s.budgetErr, err} {
		if err != nil {
			s.o.note(fmt.Sprintf(noteNote, err))
		}
	}
	if s.remember && s.lostErr == nil && (s.governed || s.e.WasGoverned) {
		s.o.journal(s.store, *r, l, s.in, s.changed)
	}
	if s.remember && s.open != nil && s.governed && l.Loop != nil {
		// The session's open contract: this loop's while it is unfinished.
		path := file.Physical(l.Path)
		var err error
		if r.Rule == criteria.RuleComplete || s.ended {
			err = s.open.Drop(s.in.SessionID, path)
		} else if !s.open.Holds(s.in.SessionID, path) && s.store.Unfinished() {
			err = s.open.Set(s.in.SessionID, path, l.Dialect.Name, time.Now())
		}
		if err != nil {
			s.o.note(fmt.Sprintf(noteNote, err))
		}
	}
}

// usage is where the host records the tokens of the input's session; nil
// when it records none.
func (o Options) usage(in Input) *usage.Source {
	if o.Host.Usage == nil {
		return nil
	}
	src := o.Host.Usage(in)
	return &src
}

// journal appends the evaluation to the loop's journal; a journal that
// cannot be written is noted, and costs nothing else.
func (o Options) journal(store memory.Store, r Result, l *state.Loaded, in Input, changed bool) {
	e := memory.Entry{
		Time: time.Now().UTC(), Session: in.SessionID, Host: o.Host.Name, Dialect: l.Dialect.Name,
		OK: r.OK, Rule: r.Rule, Reason: r.Reason, Fingerprint: l.Progress, Changed: changed, Guard: r.Memory.Unchanged,
		Budgets: r.Budgets,
	}
	if err := store.Journal().Append(e); err != nil {
		o.note(fmt.Sprintf(noteNote, err))
	}
}

// Begin answers a session start: the loop's context when an in-progress
// loop governs this session, and a reset of its guard count.
func Begin(o Options, in Input) Result {
	r, found, ok := o.locate(in)
	if !ok {
		return r
	}
	// A resumed session's loop is its open contract's, whatever discovery
	// finds now (SPEC section 5); a vanished one has nothing to announce.
	open, held, vanished := o.openContract(in, found, false)
	switch {
	case vanished:
		return r
	case held.Path != "":
		found = held
	}
	if found.Path == "" {
		return r
	}
	l := state.Load(found)
	r.Loaded = l
	if criteria.OtherSession(l.Session, in.SessionID) {
		return r
	}
	p := o.personRules(in, found)
	store := memory.For(found.Path)
	if err := store.ApplyCancel(l, true); err != nil {
		o.note(fmt.Sprintf(noteNote, err))
	}
	if end, ok := store.Ending(); ok && end.Last == l.Progress {
		// An ended loop is no loop: nothing to announce (SPEC section 5).
		return r
	}
	err := store.Update(in.SessionID, func(prev memory.Memory, _ bool, _ error) memory.Memory {
		prev.Unchanged = 0
		return prev
	})
	if err != nil {
		o.note(fmt.Sprintf(noteNote, err))
	}
	if l.Loop != nil {
		// The contract begins before the agent's first turn: a criterion
		// dropped in that turn is still the contract's.
		if _, err := store.Check(l.Loop, l.Progress, true, time.Now()); err != nil {
			o.note(fmt.Sprintf(noteNote, err))
		}
		// It governs the session from now: a loop the agent writes nearer
		// in its first turn, before any stop, is no loop of its own.
		path := file.Physical(l.Path)
		if open != nil && !open.Holds(in.SessionID, path) && store.Unfinished() {
			if err := open.Set(in.SessionID, path, l.Dialect.Name, time.Now()); err != nil {
				o.note(fmt.Sprintf(noteNote, err))
			}
		}
	}
	switch {
	case l.Loop == nil:
		r.Context = criteria.InvalidContext(o.display(found.Path, in), l.Problems, o.Limits)
	case !l.Loop.Inactive() && !finished(l.Loop):
		// Waiting and failed loops too: a resumed agent is told what its
		// loop waits for, or how it failed.
		r.Context = criteria.Context(o.display(found.Path, in), l.Loop, o.Limits)
		if b := p.budget(); memory.AnyBudget(b) {
			// As the last stop measured them: the transcript is read at
			// stops only.
			// With remember: a session start is a hook call that sees the
			// loop, and a loop's clock starts at its first (SPEC section 6).
			m, err := store.Measure(b, o.usage(Input{}), "", true, time.Now())
			if err != nil {
				o.note(fmt.Sprintf(noteNote, err))
			}
			r.Budgets = m.Budgets
			r.Context += criteria.BudgetsLeft(m.Budgets)
			if slices.ContainsFunc(m.Budgets, func(b criteria.Measured) bool { return b.Reached() }) {
				// A budget ended the loop: no loop is under way to announce.
				r.Context = ""
			}
		}
	}
	r.Notice = p.notice(in.SessionID)
	if r.Context != "" {
		r.Context += p.context()
	}
	if r.Context != "" && o.Host.Title != "" {
		r.Context += fmt.Sprintf(contextHost, o.Host.Title)
	}
	return r
}

// finished reports whether a loop claims it is done and is: nothing for a
// resumed agent to go on with.
func finished(l *criteria.Loop) bool {
	_, unmet := l.Unmet(0)
	return l.DoneClaim && unmet == 0 && l.Criteria.Len() > 0
}

func (o Options) note(msg string) {
	if o.Note != nil {
		o.Note(msg)
	}
}

func (o Options) getenv(key string) string {
	if o.Getenv != nil {
		return o.Getenv(key)
	}
	return os.Getenv(key)
}

// projectDir is the project directory the host names, if any.
func (o Options) projectDir() string {
	for _, v := range o.Host.ProjectDir {
		if dir := o.getenv(v); dir != "" {
			return dir
		}
	}
	return ""
}

// locate begins a stop's or a session start's result, and finds the state
// for the input. A --state or --dir that is not there is told, not taken
// for no loop (issue 23, item 3): ok is false, and r holds the
// misconfigured verdict.
func (o Options) locate(in Input) (r Result, found state.Found, ok bool) {
	r = Result{Session: in.SessionID, Host: o.Host.Name}
	if err := o.Configured(); err != nil {
		r.Verdict = o.misconfigured(err)
		return r, found, false
	}
	return r, o.find(in), true
}

// find finds the state for the input: --state, else the search. Its
// callers have checked the paths a person gave (Configured).
func (o Options) find(in Input) state.Found {
	var only *schema.Dialect
	if o.Dialect != "" {
		if d, err := schema.Lookup(o.Dialect); err == nil {
			only = &d
		}
	}
	if o.StatePath != "" {
		// Configured has seen it there: a file gone since is Load's problem.
		path := o.StatePath
		if abs, err := filepath.Abs(path); err == nil {
			path = abs
		}
		if only != nil {
			return state.Found{Path: path, Dialect: *only}
		}
		data, err := state.ReadFile(path)
		if err != nil {
			return state.Found{Path: path, Dialect: schema.Hope} // Load says what is wrong
		}
		return state.Found{Path: path, Dialect: schema.Tell(data), Data: data}
	}
	return state.Find(o.start(in), only)
}

// Configured says what is wrong with the paths a person gave the hook: a
// --state file or a --dir that is not there. A loop the person pointed the
// hook at must not go unenforced in silence (rule misconfigured).
func (o Options) Configured() error {
	if o.StatePath != "" {
		if _, err := os.Lstat(o.StatePath); err != nil {
			return fmt.Errorf(configNoState, o.StatePath, file.PathCause(err))
		}
	}
	if o.Dir != "" {
		fi, err := os.Stat(o.Dir)
		switch {
		case err != nil:
			return fmt.Errorf(configNoDir, o.Dir, file.PathCause(err))
		case !fi.IsDir():
			return fmt.Errorf(configDirNotDir, o.Dir)
		}
	}
	return nil
}

// misconfigured is the verdict on paths a person gave the hook that are
// not there, said on stderr too: on every host, and the only place a host
// that shows a person no message of a hook's (Copilot CLI: its debug log)
// keeps it.
func (o Options) misconfigured(err error) criteria.Verdict {
	v := criteria.Misconfigured(err)
	o.note(fmt.Sprintf(noteError, v.Reason))
	return v
}

// lookedFor are the file names the search looks for.
func (o Options) lookedFor() []string {
	var files []string
	for _, d := range schema.Dialects {
		if o.Dialect == "" || o.Dialect == d.Name {
			files = append(files, d.File)
		}
	}
	return files
}

// start is where the search starts: --dir, else the project directory the
// host names, else the input's cwd.
func (o Options) start(in Input) string {
	if o.Dir != "" {
		return o.Dir
	}
	if dir := o.projectDir(); dir != "" {
		return dir
	}
	return o.dir(in)
}

// Find finds the state a person's command looks at from dir.
func (o Options) Find(dir string) state.Found {
	return o.find(Input{Cwd: dir})
}

func (o Options) dir(in Input) string {
	switch {
	case o.Dir != "":
		return o.Dir
	case in.Cwd != "":
		return in.Cwd
	}
	wd, _ := os.Getwd()
	return wd
}

// display names the state file for the agent: relative to where it works
// when the file is below it, else in full.
func (o Options) display(path string, in Input) string {
	return file.Relative(o.dir(in), path)
}
