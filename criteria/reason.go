package criteria

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

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
		item := strconv.Quote(clip(name))
		more := ""
		if rest := total - i - 1; rest > 0 {
			more = fmt.Sprintf(" … and %d more", rest)
		}
		if i > 0 && b.Len()+2+len(item)+len(more) > n {
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
func clip(s string) string {
	if len(s) <= maxName {
		return s
	}
	cut := maxName
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// capReason is the last line of defence for the cap; lists keep within it.
// It also escapes control characters that the state brought in unquoted (a
// step, a session id, a schema pointer), so that a reason stays one line and
// carries no terminal escape sequence to the person who sees it.
func capReason(s string) string {
	s = escapeControls(s)
	if len(s) <= MaxReason {
		return s
	}
	cut := MaxReason - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// escapeControls writes each control character of s as Go escapes it: \n, \x1b.
func escapeControls(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
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
// stands: the spec, the iteration, what is unmet, the next step and the limits.
func Context(path string, s *State, lim Limits) string {
	var b strings.Builder
	fmt.Fprintf(&b, "A loop is under way in %s (%s).", path, where(s, lim))
	if s.Spec != "" {
		fmt.Fprintf(&b, " Spec: %s.", strconv.Quote(clip(s.Spec)))
	}
	tail := fmt.Sprintf(" Limits: the loop ends at iteration %s or after %d stuck iterations", number(maxIterations(s, lim)), lim.StuckLimit)
	if s.HasBudget {
		tail += fmt.Sprintf(", or when cost reaches %s", number(s.Budget))
	}
	tail += ". The Stop hook keeps you working until every criterion is met and verified and exit_signal is true."
	if len(s.RemainingSteps) > 0 {
		tail = " Next step: " + strconv.Quote(clip(s.RemainingSteps[0])) + "." + tail
	}
	if missing, n := s.Unmet(listable); n > 0 {
		fmt.Fprintf(&b, " Unmet criteria (%d of %d): %s.", n, s.Criteria.Len(), list(missing, n, budgetFor(b.String()+tail)))
	} else {
		fmt.Fprintf(&b, " All %d criteria are met.", s.Criteria.Len())
	}
	b.WriteString(tail)
	return capReason(b.String())
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
	shown := strings.Join(problems[:min(len(problems), MaxProblems)], "; ")
	if extra := len(problems) - MaxProblems; extra > 0 {
		shown += fmt.Sprintf("; … and %d more", extra)
	}
	until := "until then the Stop hook keeps you working"
	if lim.AllowInvalid {
		until = "until then the Stop hook does not enforce the loop"
	}
	return capReason(fmt.Sprintf("A loop is set up in %s, but the file is not a valid loop state: %s. Repair it so that `loophook validate` passes; %s.", path, shown, until))
}
