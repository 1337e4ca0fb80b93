package hook

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/loophook/loophook/criteria"
)

// RuleInternalError names a verdict given because loophook itself failed.
// It lets the agent stop: a broken hook must not trap a session.
const RuleInternalError criteria.Rule = "internal-error"

// Options are a person's settings for one evaluation.
type Options struct {
	Protocol   Protocol
	StatePath  string // --state: skips the search
	Dir        string // --dir: replaces the input's cwd
	ProjectDir string // $CLAUDE_PROJECT_DIR: the search's fallback
	Limits     criteria.Limits
}

// Result is one evaluation: the verdict and what it was drawn from.
type Result struct {
	criteria.Verdict
	Loaded  *Loaded // nil when there is no state file
	Session string
	Memory  Memory // the session's memory after the evaluation
}

// Stop answers one Stop hook call. It always writes exactly one JSON object
// to stdout, whatever happens; diagnostics go to stderr.
func Stop(o Options, stdin io.Reader, stdout, stderr io.Writer) {
	v := safely(stderr, func() criteria.Verdict {
		in, err := ReadInput(stdin)
		if err != nil {
			return criteria.Decide(criteria.Evaluation{BadInput: err.Error()}, o.Limits)
		}
		return evaluateMapped(o, in, stderr, loadMapped)
	})
	WriteJSON(stdout, o.Protocol.Stop(v))
}

// SessionStart answers one SessionStart hook call: the loop's context when an
// in-progress loop governs this session, and a reset of its guard count.
func SessionStart(o Options, stdin io.Reader, stdout, stderr io.Writer) {
	var context string
	safely(stderr, func() criteria.Verdict {
		in, err := ReadInput(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "loophook: %v\n", err)
			return criteria.Verdict{}
		}
		path := o.statePath(in)
		if path == "" {
			return criteria.Verdict{}
		}
		l := LoadState(path)
		if criteria.OtherSession(l.Session, in.SessionID) {
			return criteria.Verdict{}
		}
		err = StoreFor(path).Update(in.SessionID, func(prev Memory, _ bool) Memory {
			prev.Unchanged = 0
			return prev
		})
		if err != nil {
			fmt.Fprintf(stderr, "loophook: note: %v\n", err)
		}
		switch {
		case l.State == nil:
			context = criteria.InvalidContext(o.display(path, in), l.Problems, o.Limits)
		case l.State.Active():
			context = criteria.Context(o.display(path, in), l.State, o.Limits)
		}
		return criteria.Verdict{}
	})
	WriteJSON(stdout, o.Protocol.SessionStart(context))
}

// safely runs f, turning a panic into a verdict that lets the agent stop.
func safely(stderr io.Writer, f func() criteria.Verdict) (v criteria.Verdict) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "loophook: internal error: %v\n%s", r, debug.Stack())
			v = criteria.Verdict{OK: true, Rule: RuleInternalError, Reason: fmt.Sprintf("loophook failed (%v); letting the agent stop", r)}
		}
	}()
	return f()
}

// evaluateMapped is the hook's evaluation, with a large state file mapped
// into memory rather than read: load is loadMapped, or a test's stand-in.
// If another process truncates the file while it is mapped, touching a page
// past its new end faults. So faults panic here, and on one the evaluation
// runs again, reading the file as it now is; the memory is written only
// after the last touch of the state. The verdict returned shares no memory
// with the mapping, which is gone by then.
func evaluateMapped(o Options, in Input, stderr io.Writer, load func(string, *mappings) *Loaded) (v criteria.Verdict) {
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			fmt.Fprintf(stderr, "loophook: note: the state file changed while it was read (%v); reading it again\n", r)
			v = evaluate(o, in, true, stderr, LoadState).Verdict
		}
	}()
	var mapped mappings
	defer mapped.release()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	v = evaluate(o, in, true, stderr, func(path string) *Loaded { return load(path, &mapped) }).Verdict
	v.Reason = strings.Clone(v.Reason)
	return v
}

// loadMapped is LoadState, mapping a large file into memory and adding it
// to mapped.
func loadMapped(path string, mapped *mappings) *Loaded {
	return loadState(path, func(path string) ([]byte, error) { return readStateFile(path, mapped) })
}

// Evaluate runs one Stop evaluation for the input. With remember it updates
// the session's memory under its lock, as the hook does; without, it only
// reads the memory, as a person's dry run does.
func Evaluate(o Options, in Input, remember bool, stderr io.Writer) Result {
	return evaluate(o, in, remember, stderr, LoadState)
}

func evaluate(o Options, in Input, remember bool, stderr io.Writer, load func(string) *Loaded) Result {
	r := Result{Session: in.SessionID}
	path := o.statePath(in)
	if path == "" {
		r.Verdict = criteria.Decide(criteria.Evaluation{SessionID: in.SessionID}, o.Limits)
		return r
	}
	l := load(path)
	r.Loaded = l
	e := criteria.Evaluation{
		Path:           o.display(path, in),
		State:          l.State,
		Problems:       l.Problems,
		StateSession:   l.Session,
		SessionID:      in.SessionID,
		StopHookActive: in.StopHookActive,
		LastMessage: func() (string, error) {
			if in.LastAssistantMessage != nil {
				return *in.LastAssistantMessage, nil
			}
			return LastAssistantText(in.TranscriptPath)
		},
	}
	decide := func(prev Memory, ok bool) Memory {
		e.Unchanged = 0
		if in.StopHookActive && ok && prev.Fingerprint == l.Fingerprint {
			e.Unchanged = prev.Unchanged + 1
		}
		r.Verdict = criteria.Decide(e, o.Limits)
		r.Memory = Memory{Fingerprint: l.Fingerprint, Unchanged: e.Unchanged, Rule: r.Rule}
		return r.Memory
	}
	store := StoreFor(path)
	var err error
	switch {
	case criteria.OtherSession(l.Session, in.SessionID):
		// Another session's loop: nothing of this session to remember there.
		decide(Memory{}, false)
	case remember:
		err = store.Update(in.SessionID, decide)
	default:
		var prev Memory
		var ok bool
		prev, ok, err = store.Read(in.SessionID)
		decide(prev, ok)
	}
	if err != nil {
		fmt.Fprintf(stderr, "loophook: note: %v\n", err)
	}
	return r
}

func (o Options) statePath(in Input) string {
	if o.StatePath != "" {
		if _, err := os.Lstat(o.StatePath); err != nil {
			return ""
		}
		if abs, err := filepath.Abs(o.StatePath); err == nil {
			return abs
		}
		return o.StatePath
	}
	return FindState(o.dir(in), o.ProjectDir)
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
	dir, err := filepath.Abs(o.dir(in))
	if err != nil {
		return path
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return path
	}
	return rel
}
