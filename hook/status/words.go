package status

import "fmt"

// The sentences of the reports as a person reads them.
const (
	msgBudget        = "%s of %s"
	msgUnrecorded    = "limit %s, not recorded by this host"
	msgLoopBegan     = "%s  ── a new loop began here; the lines above are the loop before it ──"
	msgEndedPrefix   = "ended: "
	msgEnded         = msgEndedPrefix + "%s at %s; its file, unchanged since, is no loop"
	msgCancelledAt   = "%s by loophook cancel; holds while the state stays as it is"
	timeShown        = "2006-01-02 15:04:05"
	msgConfigState   = "%s (%s)"
	msgConfigIgnored = "%s: not obeyed; only the one at the top of the work tree is"
	msgCheckNever    = "%s: not run yet"
	msgCheckLast     = "%s: %s at %s on tree %s (%s)"
	msgCheckOutside  = "%s: %s at %s, outside git (a claim runs it again)"
	msgSessionUnseen = "%s (never seen by the hook: no memory of it)"
	msgTreeSame      = "the tree as it is now"
	msgTreeChanged   = "the tree has changed since"
	msgNoTree        = "outside git"
	msgWholeOutput   = "whole output: %s"
	msgUnchanged     = "(state unchanged, guard %d)"
	msgWhyBudgets    = "(budgets: %s)"
	msgWhyBudget     = "%s %s of %s"
	msgWhyUnrecorded = "%s not recorded by this host"
	msgFailedCheck   = "check %q (%s) %s at %s:"
	errReadInput     = "read the hook input %s: %v"
	hintInput        = "--input names a file that holds one hook input JSON object, as the host sent it, or - for stdin"
	hintInputObject  = "the file should hold one hook input JSON object, as Claude Code sends it"
)

// verification is a criterion's VERIFICATION column.
func (c Criterion) verification() string {
	switch {
	case c.Removed:
		return "removed from the state: unmet until loophook accept"
	case c.Verification == "":
		return "-"
	}
	return c.Verification
}

// msgProgress is the bar's caption: the noun agrees with the total.
func msgProgress(met, total int) string {
	if total == 1 {
		return fmt.Sprintf("%d of 1 criterion met", met)
	}
	return fmt.Sprintf("%d of %d criteria met", met, total)
}
