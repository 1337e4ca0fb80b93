package criteria

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"unicode"

	"github.com/loophook/loophook/internal/clip"
)

// Every sentence the rules write for the agent or a person is in this file.

func reasonBadInput(why string) string {
	return fmt.Sprintf("the hook could not read its input (%s); letting the agent stop", why)
}

// reasonNoState names what the search looked for, and where.
func reasonNoState(files, dirs []string) string {
	what := "no loop: no state file"
	if len(files) > 0 {
		what += " (" + strings.Join(files, ", ") + ")"
	}
	switch len(dirs) {
	case 0:
		return what
	case 1:
		return fmt.Sprintf("%s in %s", what, filepath.ToSlash(dirs[0]))
	}
	return fmt.Sprintf("%s in the %d directories from %s up to %s", what, len(dirs), filepath.ToSlash(dirs[0]), filepath.ToSlash(dirs[len(dirs)-1]))
}

func reasonEnded(path, how string) string {
	return fmt.Sprintf("no loop: the loop in %s has ended (%s); nothing to enforce until a new one begins", path, EndedHow(how))
}

// EndedHow says how a loop ended, from the rule that ended it or a
// person's command.
func EndedHow(how string) string {
	switch how {
	case string(RuleComplete):
		return "complete"
	case "cancel":
		return "cancelled by loophook cancel"
	case "":
		return "ended"
	}
	return clipName(how)
}

func reasonOtherSessionGoverned(path, session string) string {
	return fmt.Sprintf("the loop in %s now names session %s, but its contract, unfinished, governed this session; letting the agent stop, with the contract not met", path, clipName(session))
}

func reasonVanished(path string, contract []string) string {
	head := fmt.Sprintf("the loop in %s vanished (moved or deleted) with its contract unfinished; letting the agent stop, with nothing to work from", path)
	if len(contract) == 0 {
		return head
	}
	head += fmt.Sprintf(". Its contract's %s: ", count(len(contract), "criterion", "criteria"))
	tail := ". A person restores the file, or starts a new loop with loophook init"
	return head + list(contract, len(contract), budgetFor(head+tail)) + tail
}

func reasonOtherSession(path, session string) string {
	return fmt.Sprintf("the loop in %s belongs to session %s, not this one", path, clipName(session))
}

func reasonInvalidAllowed(path string, problems []string) string {
	return fmt.Sprintf("%s is not a valid loop state (%s); --on-invalid allow lets the agent stop", path, problemList(problems))
}

func reasonInvalid(path string, problems []string) string {
	return fmt.Sprintf("%s is not a valid loop state: %s. Fix the file so that `loophook validate` passes (`loophook schema` prints the schema), then stop again", path, problemList(problems))
}

func reasonInactive(status string) string {
	return fmt.Sprintf("loop is %s; nothing to enforce", clipName(status))
}

// reasonInactiveUnmet tells the person that a loop stopped with work unmet,
// what is unmet and how to resume it.
func reasonInactiveUnmet(l *Loop, path string, missing []string, n int, removed []string, byInit bool) string {
	head := fmt.Sprintf("loop is %s with %s unmet: ", clipName(l.LoopStatus), ofCriteria(n+len(removed), l.Criteria.Len()+len(removed)))
	tail := fmt.Sprintf("; to resume it, set status to in_progress in %s (or /loop continue)", path)
	switch {
	case byInit:
		// loophook init wrote it: the hope skill's command is not the way.
		tail = fmt.Sprintf("; to resume it, set status to in_progress in %s", path)
	case l.CancelRecorded:
		tail = fmt.Sprintf("; loophook cancel left %s as it was and recorded the cancel: to resume the loop, run loophook accept", path)
	}
	if l.Criteria.Len() == 0 && len(removed) == 0 {
		return fmt.Sprintf("loop is %s and lists no criteria", clipName(l.LoopStatus)) + tail
	}
	return head + list(append(missing[:len(missing):len(missing)], removed...), n+len(removed), budgetFor(head+tail)) + tail
}

func reasonWaiting(what string) string {
	return "loop paused for a person: " + what
}

func reasonFailed(what string) string {
	return "loop failed: " + what
}

func reasonMustNot(happened []string) string {
	const head, tail = "a must-not condition happened: ", "; stopping so a person can look"
	return head + list(happened, len(happened), budgetFor(head+tail)) + tail
}

func reasonCircuitOpen(stuck float64, limit int) string {
	return fmt.Sprintf("circuit breaker open: stuck for %s iterations (limit %d); stopping so a person can look", number(stuck), limit)
}

func reasonExhausted(what string) string {
	return "circuit breaker open: " + what + "; stopping so a person can look"
}

func reasonIterationLimit(l *Loop, lim Limits) string {
	max := MaxIterations(l, lim)
	capped := ""
	if l.MaxIterations > max {
		capped = fmt.Sprintf(" (the state's maxIterations %s is above the ceiling)", number(l.MaxIterations))
	}
	return fmt.Sprintf("iteration limit reached: %s of %s%s; the loop ends here", number(l.Iteration), number(max), capped)
}

func reasonBudget(l *Loop, lim Limits, budget float64) string {
	of := fmt.Sprintf("budget %s", number(budget))
	switch {
	case !l.HasBudget:
		of = fmt.Sprintf("the default budget %s (the state sets none)", number(budget))
	case l.Budget > budget:
		of += fmt.Sprintf(" (the state's budget %s is above the ceiling)", number(l.Budget))
	}
	return fmt.Sprintf("budget spent: cost %s of %s; the loop ends here", number(l.Cost), of)
}

func reasonMeasured(m Measured) string {
	switch m.Measure {
	case MeasureTokens:
		return fmt.Sprintf("token budget reached: %s tokens since the loop began, of %s; the loop ends here", m.Figure(m.Used), m.Figure(m.Limit))
	case MeasureTurns:
		return fmt.Sprintf("turn budget reached: %s continuations since the loop began, of %s; the loop ends here", m.Figure(m.Used), m.Figure(m.Limit))
	}
	return fmt.Sprintf("time budget reached: %s since the loop began, of %s; the loop ends here", m.Figure(m.Used), m.Figure(m.Limit))
}

// BudgetsLeft tells a resumed agent what is left of each budget loophook
// measures; "" when there is none.
func BudgetsLeft(budgets []Measured) string {
	var parts []string
	for _, m := range budgets {
		switch {
		case m.Unrecorded:
			parts = append(parts, fmt.Sprintf("%s: %s (not recorded by this host)", m.Measure, m.Figure(m.Limit)))
		default:
			parts = append(parts, fmt.Sprintf("%s: %s left of %s", m.Measure, m.Figure(m.Left()), m.Figure(m.Limit)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " Budgets loophook measures for this loop: " + strings.Join(parts, "; ") + "; reaching one ends the loop."
}

// thousands writes a whole number with its thousands apart: 2,000,000.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

func reasonUnenforced(why string) string {
	return fmt.Sprintf("the hook cannot keep its memory (%s), so the runaway guard cannot count this session's stops and the loop is not enforced; letting the agent stop. Make that directory writable, or set %s to a writable one", why, cacheVars())
}

// cacheVars name what moves the per-user cache (os.UserCacheDir) here.
func cacheVars() string {
	switch runtime.GOOS {
	case "windows":
		return "LOCALAPPDATA"
	case "darwin", "ios", "plan9":
		return "HOME"
	}
	return "HOME or XDG_CACHE_HOME"
}

func reasonGuard(unchanged int, path string) string {
	return fmt.Sprintf("runaway guard: %s in a row with no new progress in %s; letting the agent stop. Record progress in the state file to keep a loop going", count(unchanged, "stop", "stops"), path)
}

// reasonWorkLeft names the work a runaway leaves undone, after the guard's
// or the continuation limit's own words; "" when none is known.
func reasonWorkLeft(missing []string, n, total int, removed []string, none bool, failed []string) string {
	var parts []string
	if none {
		parts = append(parts, "it lists no criteria")
	}
	if n+len(removed) > 0 {
		names := append(missing[:len(missing):len(missing)], removed...)
		parts = append(parts, fmt.Sprintf("%s unmet: %s", ofCriteria(n+len(removed), total+len(removed)), list(names, n+len(removed), MaxReason/2)))
	}
	if len(failed) > 0 {
		parts = append(parts, fmt.Sprintf("%s at the last claim of completion: %s", count(len(failed), "check failed", "checks failed"), list(failed, len(failed), MaxReason/4)))
	}
	if len(parts) == 0 {
		return ""
	}
	return ". The loop is not done: " + strings.Join(parts, "; ")
}

func reasonCheckpoint(l *Loop, lim Limits) string {
	_, n := l.Unmet(0)
	return fmt.Sprintf("checkpoint at %s (%s met): the loop pauses for you after each unit of work; reply to go on", where(l, lim), ofCriteria(l.Criteria.Len()-n, l.Criteria.Len()))
}

func reasonContinuationLimit(n, limit int) string {
	return fmt.Sprintf("continuation limit: the agent was kept working %s in a row (limit %d); letting it stop so a person can look. --max-continuations sets the limit", count(n, "time", "times"), limit)
}

func reasonUnmet(l *Loop, lim Limits, path string, missing []string, n int, removed []string) string {
	head := fmt.Sprintf("%s: %s unmet: ", where(l, lim), ofCriteria(n+len(removed), l.Criteria.Len()+len(removed)))
	if l.DoneClaim {
		head = fmt.Sprintf("%s: the loop is marked done, but %s unmet: ", where(l, lim), ofCriteria(n+len(removed), l.Criteria.Len()+len(removed)))
	}
	record := "criteriaStatus"
	if l.RecordIn != "" {
		record = l.RecordIn
	}
	tail := ". Work on them, verify each, and record it in " + record + " in " + path + " before you stop"
	if next := l.Next(); next != "" {
		tail = ". Next step: " + clipName(next) + tail
	}
	if len(removed) == 0 {
		return head + list(missing, n, budgetFor(head+tail)) + tail
	}
	gone := "removed from the state, but the loop's contract until a person runs `loophook accept`: "
	room := budgetFor(head + "; " + gone + tail)
	if n == 0 {
		return head + gone + list(removed, len(removed), room) + tail
	}
	shown := list(missing, n, room/2)
	return head + shown + "; " + gone + list(removed, len(removed), room-len(shown)) + tail
}

func reasonNoCriteria(l *Loop, lim Limits, path string) string {
	what := "the loop lists no criteria"
	if l.DoneClaim {
		what = "the loop is marked done, but it lists no criteria"
	}
	return fmt.Sprintf("%s: %s. Write the success criteria into criteria in %s, then verify each and record it in criteriaStatus before you stop", where(l, lim), what, path)
}

func reasonAssumption(l *Loop, lim Limits, assumed []string) string {
	head := fmt.Sprintf("%s: %s only assumed met: ", where(l, lim), count(len(assumed), "criterion is", "criteria are"))
	tail := ". Verify them by execution output, observation, measurement or code review and record that verification in criteriaStatus"
	return head + list(assumed, len(assumed), budgetFor(head+tail)) + tail
}

func reasonNoExitSignal(l *Loop, lim Limits, path string) string {
	switch {
	case l.DoneBy != "":
		// Another loop system: its own done claim is the exit signal.
		next := ""
		if n := l.Next(); n != "" {
			next = " Next step: " + clipName(n) + "."
		}
		return fmt.Sprintf("%s: every criterion is met, but %s does not mark the loop done yet.%s Once you have verified everything, %s", where(l, lim), path, next, l.DoneBy)
	case !l.HasExitSignal:
		// The loop-mechanics protocol: the marker, not a field the file lacks.
		return fmt.Sprintf("%s: every criterion is met, but your last message does not say %s. Once you have verified everything, end your message with %s", where(l, lim), Marker, Marker)
	}
	return fmt.Sprintf("%s: every criterion is met, but exit_signal is not true. Once you have verified everything, set exit_signal to true in %s", where(l, lim), path)
}

func reasonNoMarker(l *Loop, lim Limits, how exitKind, err error) string {
	why := "your last message lacks " + Marker
	if err != nil {
		why = "your last message could not be read (" + clipName(err.Error()) + ")"
	}
	return fmt.Sprintf("%s: all criteria met and %s, but %s. End your final message with %s to finish", where(l, lim), exitText(how), why, Marker)
}

// reasonCheckFailed names each failed check, its command, how it ended,
// the criterion it keeps unmet and the last lines of its output, the
// output shared out so that the reason stays within MaxReason.
func reasonCheckFailed(l *Loop, lim Limits, failed []CheckFailure) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: every criterion is met, but loophook ran the checks a person set in .loophook.json and %s failed.", where(l, lim), count(len(failed), "check", "checks"))
	room := max(200, (MaxReason-600)/len(failed))
	for _, f := range failed {
		fmt.Fprintf(&b, " Check %q (%s) %s", f.Name, escapeControls(f.Run, false), escapeControls(f.Cause, false))
		if f.Criterion != "" {
			fmt.Fprintf(&b, "; criterion %q is unmet whatever the state says", clipName(f.Criterion))
		}
		tail := f.Tail
		if len(tail) > room {
			tail = "…" + tail[len(tail)-room:]
		}
		if tail != "" {
			fmt.Fprintf(&b, ". Its last lines:\n%s\n", tail)
		} else {
			b.WriteString(", printing nothing.")
		}
	}
	b.WriteString(" Fix what the checks report, then claim done again; loophook check runs them now, and loophook why shows their whole output.")
	return b.String()
}

func reasonComplete(l *Loop, lim Limits, how exitKind) string {
	ending := ""
	for _, e := range l.Ending {
		ending += "; " + clipName(e)
	}
	if l.Uncounted {
		return fmt.Sprintf("%s is complete: %s met and %s%s", where(l, lim), count(l.Criteria.Len(), "criterion", "criteria"), exitText(how), ending)
	}
	return fmt.Sprintf("loop complete at %s: %s met and %s%s", where(l, lim), count(l.Criteria.Len(), "criterion", "criteria"), exitText(how), ending)
}

// exitText says what gave the loop its exit signal.
func exitText(how exitKind) string {
	switch how {
	case exitDoneClaim:
		return "the loop is marked done"
	case exitMarker:
		return "your last message says " + Marker
	}
	return "exit_signal is true"
}

// ReasonInternalError is the verdict's reason when loophook itself failed.
func ReasonInternalError(cause any) string {
	return fmt.Sprintf("loophook failed (%v); letting the agent stop", cause)
}

// reasonMisconfigured names what is wrong with the hook's flags; the host
// shows it to the person, who alone can fix it.
func reasonMisconfigured(err error) string {
	if err == nil {
		err = errors.New("no answer")
	}
	return "the hook is misconfigured (" + err.Error() + "); no loop is enforced until its flags are fixed"
}

// where says where the loop stands, for the agent reading the reason.
func where(l *Loop, lim Limits) string {
	if l.Uncounted {
		if l.Dialect != "" {
			return "the " + l.Dialect + " loop"
		}
		return "the loop"
	}
	return fmt.Sprintf("iteration %s of %s", number(l.Iteration), number(MaxIterations(l, lim)))
}

// MaxProblems is how many schema problems a reason names.
const MaxProblems = 5

// problemList joins the first MaxProblems problems.
func problemList(problems []string) string {
	shown := strings.Join(problems[:min(len(problems), MaxProblems)], "; ")
	if extra := len(problems) - MaxProblems; extra > 0 {
		shown += fmt.Sprintf("; … and %d more", extra)
	}
	return shown
}

// MaxReason caps a reason so that a huge state cannot flood the agent's context.
const MaxReason = 2000

// maxName caps one name inside a reason.
const maxName = 200

// list quotes names and joins them within n bytes, ending "… and N more" when
// they do not all fit. Quoting keeps newlines, quotes and control characters
// in a name from breaking the reason into lines.
func list(names []string, total, n int) string {
	var b strings.Builder
	for i, name := range names {
		item := strconv.Quote(clipName(name))
		more := 0 // the length of " … and N more" after it
		if rest := total - i - 1; rest > 0 {
			more = len(" … and  more") + len(strconv.Itoa(rest))
		}
		if i > 0 && b.Len()+2+len(item)+more > n {
			fmt.Fprintf(&b, " … and %d more", total-i)
			return b.String()
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(item)
	}
	if rest := total - len(names); rest > 0 {
		fmt.Fprintf(&b, " … and %d more", rest)
	}
	return b.String()
}

// listable is as many names as a list can show: each takes at least four
// bytes ("" and a comma and space) of a reason's MaxReason.
const listable = MaxReason / 4

// budgetFor is the room a list has beside the fixed text around it.
func budgetFor(fixed string) int {
	return max(MaxReason-len(fixed)-maxName, maxName)
}

// clip shortens s to maxName bytes on a rune boundary.
func clipName(s string) string {
	return clip.Clip(s, maxName)
}

// capReason is the last line of defence for the cap; lists keep within it.
// It also escapes control characters that the state brought in unquoted (a
// step, a session id, a schema pointer), so that a reason stays one line and
// carries no terminal escape sequence to the person who sees it.
func capReason(s string) string {
	return capText(escapeControls(s, false))
}

// capLines is capReason for a reason that carries a check's output: its
// newlines and tabs stay, so that the agent reads the lines as lines, not
// one line with \n between them that cannot be told from the test's own
// escapes; every other control character is escaped.
func capLines(s string) string {
	return capText(escapeControls(s, true))
}

func capText(s string) string {
	if len(s) <= MaxReason {
		return s
	}
	return clip.Clip(s, MaxReason-len(clip.Ellipsis))
}

// escapeControls writes each control character of s as Go escapes it: \n,
// \x1b; with lines, newlines and tabs stay as they are.
func escapeControls(s string, lines bool) string {
	escaped := func(r rune) bool { return unicode.IsControl(r) && !(lines && (r == '\n' || r == '\t')) }
	if !strings.ContainsFunc(s, escaped) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if escaped(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// number prints a JSON number as a person writes it: 3, not 3.000000e+00.
func number(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// Context tells an agent starting or resuming a session where its loop
// stands: the spec, the iteration, what is unmet, the next step, what its
// loop system keeps for a resumed agent (Notes) and the limits.
func Context(path string, s *Loop, lim Limits) string {
	var b strings.Builder
	fmt.Fprintf(&b, "A loop is under way in %s (%s).", path, where(s, lim))
	if s.Spec != "" {
		fmt.Fprintf(&b, " Spec: %s.", strconv.Quote(clipName(s.Spec)))
	}
	switch {
	case s.Waiting != "":
		fmt.Fprintf(&b, " It waits for a person: %s.", clipName(s.Waiting))
	case s.Failed != "":
		fmt.Fprintf(&b, " It failed: %s.", clipName(s.Failed))
	}
	tail := contextLimits(s, lim) + " The Stop hook keeps you working until every criterion is met and verified and " + doneBy(s) + "."
	if len(s.Notes) > 0 {
		tail = " Notes: " + strings.Join(s.Notes, "; ") + "." + tail
	}
	if next := s.Next(); next != "" {
		tail = " Next step: " + strconv.Quote(clipName(next)) + "." + tail
	}
	if missing, n := s.Unmet(listable); n > 0 {
		fmt.Fprintf(&b, " Unmet criteria (%d of %d): %s.", n, s.Criteria.Len(), list(missing, n, budgetFor(b.String()+tail)))
	} else if s.Criteria.Len() == 1 {
		b.WriteString(" Its one criterion is met.")
	} else {
		fmt.Fprintf(&b, " All %d criteria are met.", s.Criteria.Len())
	}
	b.WriteString(tail)
	return capReason(b.String())
}

// contextLimits are the limits that really apply to the loop, in its own
// system's terms: a loop that counts no iterations is told of none.
func contextLimits(s *Loop, lim Limits) string {
	var limits []string
	if !s.Uncounted {
		ends := fmt.Sprintf("the loop ends at iteration %s or after %s", number(MaxIterations(s, lim)), count(lim.StuckLimit, "stuck iteration", "stuck iterations"))
		if b, ok := Budget(s, lim); ok {
			ends += fmt.Sprintf(", or when cost reaches %s", number(b))
		}
		limits = append(limits, ends)
	}
	limits = append(limits, s.Limits...)
	if len(limits) == 0 {
		return ""
	}
	return " Limits: " + strings.Join(limits, "; ") + "."
}

// doneBy says what ends the loop once its criteria are met.
func doneBy(s *Loop) string {
	switch {
	case s.DoneBy != "":
		return "you " + s.DoneBy
	case !s.HasExitSignal:
		return "your last message says " + Marker
	}
	return "exit_signal is true"
}

// ofCriteria says "1 of 1 criterion" or "2 of 3 criteria": the noun
// agrees with the total.
func ofCriteria(n, total int) string {
	if total == 1 {
		return fmt.Sprintf("%d of 1 criterion", n)
	}
	return fmt.Sprintf("%d of %d criteria", n, total)
}

// count says "1 criterion" or "3 criteria".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// InvalidContext tells an agent starting a session that its loop's state file
// is broken, so it can repair it before the Stop hook insists.
func InvalidContext(path string, problems []string, lim Limits) string {
	shown := problemList(problems)
	until := "until then the Stop hook keeps you working"
	if lim.AllowInvalid {
		until = "until then the Stop hook does not enforce the loop"
	}
	return capReason(fmt.Sprintf("A loop is set up in %s, but the file is not a valid loop state: %s. Repair it so that `loophook validate` passes; %s.", path, shown, until))
}
