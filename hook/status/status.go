// Package status is what loophook status, eval, why and check show of a
// loop: the report as data (its --json), and as the text a person reads
// (text.go, in the words of words.go); the command line prints it.
package status

import (
	"path/filepath"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/checks"
	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/schema"
)

// Report is what status shows, and its --json.
type Report struct {
	State    string   `json:"state"`
	Dialect  string   `json:"dialect"`
	Valid    bool     `json:"valid"`
	Problems []string `json:"problems,omitempty"`
	Loop     *Loop    `json:"loop,omitempty"`
	Session  string   `json:"session"` // "" when there is none
	// SessionSeen says the hook has a memory of the session: one it never
	// saw is shown as such, not as if it were real.
	SessionSeen bool          `json:"sessionSeen,omitempty"`
	Host        string        `json:"host,omitempty"` // the host whose hook last evaluated the session
	Guard       int           `json:"guard"`
	GuardLimit  int           `json:"guardLimit"`
	LastRule    criteria.Rule `json:"lastRule,omitempty"`
	// Budgets are the approved .loophook.json's budgets, as the hook
	// measured them (durations in nanoseconds).
	Budgets []criteria.Measured `json:"budgets,omitempty"`
	// Ended is how and when the loop in this file ended, while the file is
	// as it was then: an ended loop is no loop (SPEC section 5).
	Ended *Ended `json:"ended,omitempty"`
	// Config is the .loophook.json in force and its checks' last results.
	Config  *Config `json:"config,omitempty"`
	Verdict Verdict `json:"verdict"`
}

// Ended is how and when a loop ended.
type Ended struct {
	How string    `json:"how"` // the rule that ended it (complete), or cancel
	At  time.Time `json:"at,omitzero"`
}

// endedOf is how the loop of the state loaded ended, while its file is
// as it was then; nil when it did not.
func endedOf(l *state.Loaded) *Ended {
	if l == nil {
		return nil
	}
	end, ok := memory.For(l.Path).Ending()
	if !ok || end.Last != l.Progress {
		return nil
	}
	return &Ended{How: end.By, At: end.At}
}

// NoLoop is status --json when there is no loop to show.
type NoLoop struct {
	Found  bool   `json:"found"`
	Reason string `json:"reason"`
}

// Loop is where a valid loop stands.
type Loop struct {
	Spec           string      `json:"spec"`
	Status         string      `json:"status"`
	Iteration      float64     `json:"iteration"`
	MaxIterations  float64     `json:"maxIterations"`
	StuckCount     float64     `json:"stuckCount"`
	StuckLimit     int         `json:"stuckLimit"`
	Cost           float64     `json:"cost"`
	Budget         *float64    `json:"budget,omitempty"`
	ExitSignal     bool        `json:"exit_signal"`
	Criteria       []Criterion `json:"criteria"`
	CompletedSteps []string    `json:"completedSteps"`
	RemainingSteps []string    `json:"remainingSteps"`
	// Where another loop system's loop stands, and what it tells.
	Stage     string   `json:"stage,omitempty"`
	DoneClaim bool     `json:"doneClaim,omitempty"`
	Waiting   string   `json:"waiting,omitempty"`
	Failed    string   `json:"failed,omitempty"`
	Exhausted string   `json:"exhausted,omitempty"`
	NextStep  string   `json:"nextStep,omitempty"`
	Notes     []string `json:"notes,omitempty"`
	// CancelledAt is when a person ran loophook cancel on another loop
	// system's loop, whose file loophook leaves as it is: the hook's own
	// record of the cancel, in force while the state stays as it was.
	CancelledAt time.Time `json:"cancelledAt,omitzero"`
}

// Met is how many of the loop's criteria are met.
func (l *Loop) Met() int {
	met := 0
	for _, c := range l.Criteria {
		if c.Met {
			met++
		}
	}
	return met
}

// Verdict is what the Stop hook would decide now.
type Verdict struct {
	OK     bool          `json:"ok"`
	Rule   criteria.Rule `json:"rule"`
	Reason string        `json:"reason"`
}

// Criterion is a criterion as status and eval show it.
type Criterion struct {
	Name         string `json:"name"`
	Met          bool   `json:"met"`
	Verification string `json:"verification,omitempty"`
	// Removed says the criterion is the contract's and the state no
	// longer lists it: unmet until a person runs loophook accept.
	Removed bool `json:"removed,omitempty"`
}

// criteriaOf are the criteria of an evaluation, the contract's removed
// ones last, as the verdict counts them.
func criteriaOf(r hook.Result) []Criterion {
	out := []Criterion{}
	if r.Loaded == nil || r.Loaded.Loop == nil {
		return out
	}
	for _, c := range r.Loaded.Loop.Criteria {
		out = append(out, Criterion{Name: c.Name, Met: c.Met, Verification: c.Verification})
	}
	for _, name := range r.Removed {
		out = append(out, Criterion{Name: name, Removed: true})
	}
	return out
}

// reportOf is the report of an evaluation r of the state at path, with the
// session's memory.
func reportOf(r hook.Result, lim criteria.Limits, path, session string, mem memory.Memory, seen bool) Report {
	st := Report{
		SessionSeen: seen,
		State:       filepath.ToSlash(path),
		Valid:       r.Loaded != nil && r.Loaded.Loop != nil,
		Dialect:     schema.Hope.Name,
		Session:     session,
		Guard:       mem.Unchanged,
		GuardLimit:  lim.GuardLimit,
		LastRule:    mem.Rule,
		Verdict:     Verdict{OK: r.OK, Rule: r.Rule, Reason: r.Reason},
		Budgets:     r.Budgets,
	}
	if r.Loaded != nil {
		st.Dialect = r.Loaded.Dialect.Name
	}
	if !st.Valid {
		if r.Loaded != nil {
			st.Problems = r.Loaded.Problems
		}
		return st
	}
	s := r.Loaded.Loop
	l := &Loop{
		Spec:           s.Spec,
		Status:         s.LoopStatus,
		Iteration:      s.Iteration,
		MaxIterations:  criteria.MaxIterations(s, lim),
		StuckCount:     s.StuckCount,
		StuckLimit:     lim.StuckLimit,
		Cost:           s.Cost,
		ExitSignal:     s.ExitSignal,
		Criteria:       []Criterion{},
		CompletedSteps: append([]string{}, s.CompletedSteps...),
		RemainingSteps: append([]string{}, s.RemainingSteps...),
		Stage:          r.Loaded.Stage,
		DoneClaim:      s.DoneClaim,
		Waiting:        s.Waiting,
		Failed:         s.Failed,
		Exhausted:      s.Exhausted,
		NextStep:       s.NextStep,
		Notes:          s.Notes,
	}
	if l.Status == "" {
		l.Status = "in_progress"
	}
	if b, ok := criteria.Budget(s, lim); ok {
		l.Budget = &b
	}
	l.Criteria = criteriaOf(r)
	if s.CancelRecorded {
		found := state.Found{Path: r.Loaded.Path, Dialect: r.Loaded.Dialect}
		l.CancelledAt, _ = memory.For(found.Path).Cancelled(r.Loaded, false)
	}
	st.Loop = l
	return st
}

// Session is the session whose guard a look at the loop shows when none is
// named: the one the state belongs to, else the one the hook saw last, else
// none. The error says the memory could not be read.
func Session(found state.Found, stateSession string) (string, error) {
	if stateSession != "" {
		return stateSession, nil
	}
	session, _, err := memory.For(found.Path).LatestSession()
	return session, err
}

// lastHost is the protocol of the session's last evaluation in the journal,
// which tells the host that governs it; "" when none is journalled.
func lastHost(found state.Found, session string) string {
	if entries, _ := memory.For(found.Path).Journal().Read(session); len(entries) > 0 {
		return entries[len(entries)-1].Host
	}
	return ""
}

// Check is a check's last result, for status.
type Check struct {
	Name   string    `json:"name"`
	Run    string    `json:"run"`
	Result string    `json:"result"` // "passed", "exited with status 1", ...; "" when never run
	At     time.Time `json:"at,omitzero"`
	Tree   string    `json:"tree,omitempty"` // the work tree's fingerprint it ran on
	// Current says the result was taken on the tree as it is now: a claim
	// would reuse it.
	Current bool   `json:"current"`
	Output  string `json:"output,omitempty"`
}

// Config is the .loophook.json in force, for status.
type Config struct {
	Path   string       `json:"path"`
	State  config.State `json:"state"`
	Tell   string       `json:"tell,omitempty"`
	Checks []Check      `json:"checks,omitempty"`
	// Ignored are the .loophook.json files between the loop and the top,
	// which are not obeyed.
	Ignored []string `json:"ignored,omitempty"`
}

// configOf is the .loophook.json of top and the last result of each check
// in force, with those between from and top that are not obeyed; nil when
// there is no file and none approved, and none ignored.
func configOf(top, from string) *Config {
	f := config.LoadFor(top, from)
	if f.State == config.StateNone && len(f.Ignored) == 0 {
		return nil
	}
	rep := &Config{Path: filepath.ToSlash(f.Path), State: f.State, Tell: f.Tell(), Ignored: f.Ignored}
	cs := f.Checks()
	if len(cs) == 0 {
		return rep
	}
	last := map[string]checks.Result{}
	for _, r := range checks.Last(top, cs) {
		last[r.Run] = r
	}
	tree := checks.Fingerprint(top)
	for _, ch := range cs {
		cr := Check{Name: ch.Name, Run: ch.Run}
		if r, ok := last[ch.Run]; ok {
			cr.Result, cr.At, cr.Tree, cr.Output = r.Cause(), r.At, r.Tree, r.Output
			cr.Current = tree != "" && r.Tree == tree
		}
		rep.Checks = append(rep.Checks, cr)
	}
	return rep
}

// Eval is eval's --json: the hook's verdict and what it read.
type Eval struct {
	OK       bool          `json:"ok"`
	Reason   string        `json:"reason"`
	Rule     criteria.Rule `json:"rule"`
	State    string        `json:"state,omitempty"`
	Dialect  string        `json:"dialect,omitempty"`
	Guard    int           `json:"guard"`
	Problems []string      `json:"problems,omitempty"`
	Criteria []Criterion   `json:"criteria,omitempty"`
}

// EvalOf is the Eval of the hook's result r.
func EvalOf(r hook.Result) Eval {
	out := Eval{OK: r.OK, Reason: r.Reason, Rule: r.Rule, Guard: r.Memory.Unchanged}
	if r.Loaded != nil {
		out.State = filepath.ToSlash(r.Loaded.Path) // as hook.Relative shows paths
		out.Dialect = r.Loaded.Dialect.Name
		out.Problems = r.Loaded.Problems
		if r.Loaded.Loop != nil {
			out.Criteria = criteriaOf(r)
		}
	}
	return out
}
