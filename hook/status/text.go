package status

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/checks"
	"github.com/loophook/loophook/hook/memory"
	"github.com/loophook/loophook/hook/table"
	"github.com/loophook/loophook/internal/file"
	"github.com/loophook/loophook/schema"
)

// The reports as a person reads them: loophook status, eval, why and check
// print these. Files are named as shown names them; --json names them in
// full.

// WriteText writes the report: a bar of the criteria met, where the loop
// stands, then its criteria, its steps and what a resumed agent is told,
// each a table. colour styles it for a terminal.
func (st Report) WriteText(w io.Writer, colour bool) error {
	if l := st.Loop; l != nil && len(l.Criteria) > 0 {
		if _, err := fmt.Fprintln(w, progressBar(l.Met(), len(l.Criteria), colour)); err != nil {
			return err
		}
	}
	var g table.Grid
	row := func(label, text string) { g.Row(table.Cell{Text: label}, table.Cell{Text: text}) }
	row("state:", shown(st.State))
	row("dialect:", st.Dialect)
	if l := st.Loop; l != nil {
		if st.Ended != nil {
			// Not the file's "in_progress": the loop in it ended.
			l.Status = fmt.Sprintf(msgEnded, criteria.EndedHow(st.Ended.How), st.Ended.At.Local().Format(timeShown))
		}
		l.rows(row, st.Dialect)
	} else {
		row("problems:", strconv.Itoa(len(st.Problems)))
	}
	session, rule := st.Session, string(st.LastRule)
	if session == "" {
		session = "none"
	}
	if rule == "" {
		rule = "-"
	}
	if st.Session != "" && !st.SessionSeen {
		session = fmt.Sprintf(msgSessionUnseen, oneLine(session))
	} else {
		session = oneLine(session)
	}
	row("session:", session)
	if st.Host != "" {
		row("host:", st.Host)
	}
	row("guard:", fmt.Sprintf("%d of %d", st.Guard, st.GuardLimit))
	for _, m := range st.Budgets {
		bar := table.Cell{Text: budgetBar(m)}
		if m.Reached() {
			bar.Style = table.Red
		}
		g.Row(table.Cell{Text: string(m.Measure) + ":"}, bar)
	}
	st.Config.rows(&g)
	row("last rule:", rule)
	row("verdict:", fmt.Sprintf("%s (%s)", decision(st.Verdict.OK), st.Verdict.Rule))
	if st.Loop != nil {
		// A failing check's lines, which the agent reads as lines, on one row.
		row("reason:", reasonLine(st.Verdict.Reason))
	}
	if err := g.Write(w, colour); err != nil {
		return err
	}
	if st.Loop == nil {
		fmt.Fprintln(w)
		for _, p := range st.Problems {
			fmt.Fprintln(w, table.OneLine(p))
		}
		return nil
	}
	return st.Loop.tables(w, colour)
}

// rows are the lines of where a valid loop stands.
func (l *Loop) rows(row func(label, text string), dialect string) {
	spec := oneLine(l.Spec)
	if spec == "" {
		spec = "-"
	}
	row("spec:", spec)
	if dialect != schema.Hope.Name && strings.HasPrefix(l.Status, msgEndedPrefix) {
		row("status:", l.Status)
	}
	if dialect == schema.Hope.Name {
		row("status:", l.Status)
		row("iteration:", number(l.Iteration)+" of "+number(l.MaxIterations))
		row("stuck:", number(l.StuckCount)+" of "+strconv.Itoa(l.StuckLimit))
		switch {
		case l.Budget != nil:
			row("cost:", number(l.Cost)+" of "+number(*l.Budget))
		case l.Cost > 0:
			row("cost:", number(l.Cost)+" (no budget)")
		}
		row("exit signal:", strconv.FormatBool(l.ExitSignal))
	} else {
		row("stage:", oneLine(l.Stage))
		if !l.CancelledAt.IsZero() {
			row("cancelled:", fmt.Sprintf(msgCancelledAt, l.CancelledAt.Local().Format(timeShown)))
		}
	}
	for _, r := range []struct{ label, text string }{
		{"waiting:", l.Waiting}, {"failed:", l.Failed}, {"exhausted:", l.Exhausted},
	} {
		if r.text != "" {
			row(r.label, oneLine(r.text))
		}
	}
	if l.DoneClaim {
		row("done claim:", "yes")
	}
	row("criteria:", fmt.Sprintf("%d of %d met", l.Met(), len(l.Criteria)))
	if n := len(l.CompletedSteps) + len(l.RemainingSteps); n > 0 {
		row("steps:", fmt.Sprintf("%d of %d done", len(l.CompletedSteps), n))
	}
	if l.NextStep != "" {
		row("next step:", oneLine(l.NextStep))
	}
}

// tables are a valid loop's criteria, steps and what a resumed agent is
// told, each a table after an empty line; none for what the loop has none of.
func (l *Loop) tables(w io.Writer, colour bool) error {
	bold := func(text string) table.Cell { return table.Cell{Text: text, Style: table.Bold} }
	var grids []table.Grid
	if len(l.Criteria) > 0 {
		var g table.Grid
		g.Row(bold("CRITERION"), bold("MET"), bold("VERIFICATION"))
		for _, c := range l.Criteria {
			met := table.Cell{Text: "no", Style: table.Red}
			if c.Met {
				met = table.Cell{Text: "yes", Style: table.Green}
			}
			g.Row(table.Cell{Text: oneLine(c.Name)}, met, table.Cell{Text: c.verification()})
		}
		grids = append(grids, g)
	}
	if len(l.CompletedSteps)+len(l.RemainingSteps) > 0 {
		var g table.Grid
		g.Row(bold("STEP"), bold("STATE"))
		for _, s := range l.CompletedSteps {
			g.Row(table.Cell{Text: oneLine(s)}, table.Cell{Text: "done"})
		}
		for i, s := range l.RemainingSteps {
			state := "left"
			if i == 0 {
				state = "next"
			}
			g.Row(table.Cell{Text: oneLine(s)}, table.Cell{Text: state})
		}
		grids = append(grids, g)
	}
	if len(l.Notes) > 0 {
		var g table.Grid
		g.Row(bold("A RESUMED AGENT IS TOLD"))
		for _, n := range l.Notes {
			g.Row(table.Cell{Text: oneLine(n)})
		}
		grids = append(grids, g)
	}
	for _, g := range grids {
		fmt.Fprintln(w)
		if err := g.Write(w, colour); err != nil {
			return err
		}
	}
	return nil
}

// rows are status's lines of the .loophook.json in force; none without one.
func (rep *Config) rows(g *table.Grid) {
	if rep == nil {
		return
	}
	g.Row(table.Cell{Text: "checks:"}, table.Cell{Text: fmt.Sprintf(msgConfigState, shown(rep.Path), rep.State)})
	for _, f := range rep.Ignored {
		g.Row(table.Cell{Text: ""}, table.Cell{Text: fmt.Sprintf(msgConfigIgnored, shown(f))})
	}
	for _, c := range rep.Checks {
		text := fmt.Sprintf(msgCheckNever, c.Name)
		switch {
		case c.Result != "" && c.Tree == "":
			// Outside git no tree is told apart: a claim runs it again.
			text = fmt.Sprintf(msgCheckOutside, c.Name, c.Result, c.At.Local().Format(timeShown))
		case c.Result != "":
			tree := msgTreeChanged
			if c.Current {
				tree = msgTreeSame
			}
			text = fmt.Sprintf(msgCheckLast, c.Name, c.Result, c.At.Local().Format(timeShown), shortTree(c.Tree), tree)
		}
		g.Row(table.Cell{Text: ""}, table.Cell{Text: text})
	}
}

func shortTree(t string) string {
	if t == "" {
		return msgNoTree
	}
	return t[:min(12, len(t))]
}

// progressBar is one line: a bar of the criteria met, and the count.
func progressBar(met, total int, colour bool) string {
	const width = 24
	full := met * width / total
	bar := strings.Repeat("#", full) + strings.Repeat("-", width-full)
	if colour {
		bar = table.Green + bar[:full] + table.Reset + bar[full:]
	}
	return fmt.Sprintf("[%s] "+msgProgress(met, total), bar)
}

// budgetBar shows a measured budget as used of limit, with a bar.
func budgetBar(m criteria.Measured) string {
	if m.Unrecorded {
		return fmt.Sprintf(msgUnrecorded, m.Figure(m.Limit))
	}
	const width = 24
	full := int(min(m.Used, m.Limit) * width / m.Limit)
	bar := strings.Repeat("#", full) + strings.Repeat("-", width-full)
	return fmt.Sprintf("[%s] "+msgBudget, bar, m.Figure(m.Used), m.Figure(m.Limit))
}

// WriteText writes eval's verdict, rule and reason, the state it read, and
// its criteria.
func (e Eval) WriteText(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "verdict:\t%s\n", decision(e.OK))
	fmt.Fprintf(tw, "rule:\t%s\n", e.Rule)
	fmt.Fprintf(tw, "reason:\t%s\n", reasonLine(e.Reason))
	if e.State != "" {
		fmt.Fprintf(tw, "state:\t%s\n", table.OneLine(shown(e.State)))
		fmt.Fprintf(tw, "dialect:\t%s\n", e.Dialect)
		fmt.Fprintf(tw, "guard:\t%d\n", e.Guard)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(e.Criteria) == 0 {
		return nil
	}
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CRITERION\tMET\tVERIFICATION")
	for _, c := range e.Criteria {
		met := "no"
		if c.Met {
			met = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", oneLine(c.Name), met, table.OneLine(c.verification()))
	}
	return tw.Flush()
}

// WriteTimeline writes one line an evaluation: the time, the verdict, the
// rule and its reason, shortened to a line.
//
// began is when the loop now in the file began (zero when unknown): a line
// marks where it began, after the verdicts of the loop before it.
func WriteTimeline(w io.Writer, entries []memory.Entry, began time.Time) error {
	sessions := map[string]bool{}
	for _, e := range entries {
		sessions[e.Session] = true
	}
	for i, e := range entries {
		if !began.IsZero() && i > 0 && entries[i-1].Time.Before(began) && !e.Time.Before(began) {
			if _, err := fmt.Fprintf(w, msgLoopBegan+"\n", began.Local().Format("15:04:05")); err != nil {
				return err
			}
		}
		verdict := "go on  "
		if e.OK {
			verdict = "stopped"
		}
		line := fmt.Sprintf("%s  %s  %-16s %s", e.Time.Local().Format("15:04:05"), verdict, table.OneLine(string(e.Rule)), reasonLine(e.Reason))
		if !e.Changed {
			line += " " + fmt.Sprintf(msgUnchanged, e.Guard)
		}
		if len(e.Budgets) > 0 {
			var figures []string
			for _, m := range e.Budgets {
				if m.Unrecorded {
					figures = append(figures, fmt.Sprintf(msgWhyUnrecorded, m.Measure))
					continue
				}
				figures = append(figures, fmt.Sprintf(msgWhyBudget, m.Measure, m.Figure(m.Used), m.Figure(m.Limit)))
			}
			line += " " + fmt.Sprintf(msgWhyBudgets, strings.Join(figures, ", "))
		}
		if len(sessions) > 1 {
			line += "  [" + table.OneLine(e.Session) + "]"
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " ")); err != nil {
			return err
		}
	}
	return nil
}

// WriteFailedChecks writes, for each check in force at top whose last run
// failed, how it ended, the last lines it printed, and the file that keeps
// its whole output (its last MiB).
func WriteFailedChecks(w io.Writer, top string) {
	for _, r := range failedChecks(top) {
		fmt.Fprintf(w, "\n"+msgFailedCheck+"\n", table.OneLine(r.Name), table.OneLine(r.Run), table.OneLine(r.Cause()), r.At.Local().Format("15:04:05"))
		for _, line := range strings.Split(r.Tail, "\n") {
			fmt.Fprintf(w, "  | %s\n", table.Visible(line))
		}
		if r.Output != "" {
			fmt.Fprintf(w, "  "+msgWholeOutput+"\n", table.OneLine(r.Output))
		}
	}
}

// WriteChecks writes the results of loophook check, in columns that do not
// move with a name's length: ok or FAIL, the check's name, its time and
// command; under a failure, how it ended and the last lines it printed.
func WriteChecks(w io.Writer, results []checks.Result) {
	var g table.Grid
	for _, r := range results {
		verdict := table.Cell{Text: "ok  ", Style: table.Green} // as wide as FAIL, in every run
		if !r.Passed() {
			verdict = table.Cell{Text: "FAIL", Style: table.Red}
		}
		g.Row(verdict, table.Cell{Text: r.Name}, table.Cell{Text: r.Took.String()}, table.Cell{Text: r.Run})
	}
	var b strings.Builder
	g.Write(&b, table.Colourful(w))
	rows := strings.SplitAfter(b.String(), "\n")
	for i, r := range results {
		io.WriteString(w, rows[i])
		if r.Passed() {
			continue
		}
		fmt.Fprintf(w, "      %s\n", table.OneLine(r.Cause()))
		for _, line := range strings.Split(r.Tail, "\n") {
			if line != "" {
				fmt.Fprintf(w, "      | %s\n", table.Visible(line))
			}
		}
		if r.Output != "" {
			fmt.Fprintf(w, "      "+msgWholeOutput+"\n", table.OneLine(r.Output))
		}
	}
}

func decision(ok bool) string {
	if ok {
		return "stop"
	}
	return "go on"
}

// oneLine keeps a criterion's name on its row of a table.
func oneLine(s string) string {
	q := fmt.Sprintf("%q", s)
	if q[1:len(q)-1] == s {
		return s
	}
	return q
}

// reasonLine is a verdict's reason on one line: a failing check's lines,
// which the agent reads as lines, joined, and nothing in it a terminal
// would act on.
func reasonLine(s string) string { return table.OneLine(strings.Join(strings.Fields(s), " ")) }

// number prints a JSON number as a person writes it: 3, not 3e+00.
func number(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// shown names a file for a person (file.Shown).
var shown = file.Shown
