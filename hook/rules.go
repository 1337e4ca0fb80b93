package hook

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/checks"
	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/internal/file"
)

// ChecksWithin is the time all checks of one stop stay inside: the hook
// timeout install writes into every registration is 10 minutes, and a
// host that kills the hook must never be the way a check ends.
const ChecksWithin = 9 * time.Minute

// rules are a person's .loophook.json as it applies to one hook call: the
// work tree's top, where the checks run, and the version in force.
type rules struct {
	top     string
	inForce config.InForce
}

// personRules reads the .loophook.json in force for the input's work tree,
// naming those between the loop's state, found, and the top that are not
// obeyed.
func (o Options) personRules(in Input, found state.Found) rules {
	statePath := found.Path
	wt := state.Climb(o.start(in), nil)
	top := wt.Top
	f := config.LoadFor(top, filepath.Dir(statePath))
	if f.Approval == nil {
		// A repository the agent makes within the tree (git init where the
		// host runs) must not shed the rules a person approved around it,
		// nor a linked worktree made there (git worktree add), which is a
		// checkout of its own: the approved checks run in it.
		outer := approvedAround(o.start(in), "")
		if outer == "" {
			// The loop judged is in another tree than the host's start
			// names now (its link pointed elsewhere): that tree's rules,
			// or those of the directory it was started in outside git.
			outer = approvedAround(filepath.Dir(statePath), state.StartOf(found))
		}
		if outer != "" {
			f = config.LoadFor(outer, filepath.Dir(statePath))
			if !state.LinkedBack(wt) {
				top = outer
			}
		}
	}
	return rules{top: top, inForce: f}
}

// approvedAround is the nearest directory at or above start, physical,
// whose .loophook.json a person approved (or withdrew) as a work tree's
// top, or outside git when it is own; "" when none. The top of an
// enclosing tree is among them (a repository the agent made within it),
// and so is a tree's own top that the climb passes since its .git was
// moved away; the climb from start decides neither.
func approvedAround(start, own string) string {
	if own != "" {
		own = file.PhysicalDir(own)
	}
	return config.ApprovedAbove(file.PhysicalDir(start), own)
}

// checks returns the function rule check-failed calls: it runs the checks
// in force, reusing results on an unchanged tree; nil when none are.
//
// With kept (a person's look) it runs nothing: it decides on the results
// a claim on the tree as it is would reuse.
func (p rules) checks(kept bool) func() []criteria.CheckFailure {
	cs := p.inForce.Checks()
	if len(cs) == 0 {
		return nil
	}
	return func() []criteria.CheckFailure {
		var failed []criteria.CheckFailure
		results := checks.Kept
		if !kept {
			results = func(top string, cs []config.Check) []checks.Result {
				return checks.Runner{Top: top, Within: ChecksWithin, Reuse: true}.Run(cs)
			}
		}
		for _, r := range results(p.top, cs) {
			if !r.Passed() {
				failed = append(failed, criteria.CheckFailure{
					Name: r.Name, Run: r.Run, Criterion: r.Criterion, Cause: r.Cause(), Tail: r.Tail,
				})
			}
		}
		return failed
	}
}

// failedChecks names the checks in force whose last result, at the loop's
// last claim, failed: the cache is read, nothing runs.
func (p rules) failedChecks() []string {
	var names []string
	for _, r := range checks.Last(p.top, p.inForce.Checks()) {
		if !r.Passed() {
			names = append(names, r.Name)
		}
	}
	return names
}

// notice is what the person must be told about the file in this session,
// the first time only; "" when nothing.
func (p rules) notice(session string) string {
	if !p.inForce.FirstTelling(session) {
		return ""
	}
	return Prefix + p.inForce.Tell()
}

// context tells a resumed agent which checks will run before its loop may
// end; "" when none will.
func (p rules) context() string {
	cs := p.inForce.Checks()
	if len(cs) == 0 {
		return ""
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = fmt.Sprintf(contextCheck, c.Name, c.Run)
		if c.Criterion != "" {
			names[i] += fmt.Sprintf(contextGuards, c.Criterion)
		}
	}
	return fmt.Sprintf(contextChecks, strings.Join(names, "; "))
}

// budget is the budget of the .loophook.json in force; none when no
// approved version is.
func (p rules) budget() memory.Budget {
	if p.inForce.Config != nil {
		return p.inForce.Config.Budget
	}
	return memory.Budget{}
}
