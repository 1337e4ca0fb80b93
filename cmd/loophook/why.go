package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/hook/status"
)

func whyCommand() *cli.Command {
	return &cli.Command{
		Name:  "why",
		Usage: "show the last verdicts of this loop as a timeline: why did my agent stop, or go on?",
		Description: "Reads the journal the Stop hook keeps beside its memory: each evaluation's time, session,\n" +
			"host, rule and reason, and whether the state had changed since the one before. The journal\n" +
			"is bounded; the oldest entries go first.\n\n" +
			"Examples:\n" +
			"   loophook why\n" +
			"   loophook why -n 3 --session 9b2e6f0c-5d1a-4c1e-8f3b-2a7d4e6c1b90\n" +
			"   loophook why --json | jq '.[].rule'",
		Flags: []cli.Flag{
			stateFlag, dirFlag,
			&cli.StringFlag{Name: "session", Usage: "only session `ID`'s evaluations"},
			&cli.IntFlag{Name: "n", Value: 10, Usage: "the last `N` evaluations"},
			&cli.BoolFlag{Name: "json", Usage: "print the evaluations as a JSON array"},
		},
		Action: func(c *cli.Context) error {
			if err := noArguments(c); err != nil {
				return err
			}
			if c.Int("n") < 1 {
				return fail("", msgAtLeastOne, "n", c.Int("n"))
			}
			found, err := findLoop(hook.Options{StatePath: c.String("state"), Dir: c.String("dir"), Host: host.Strict().Wire})
			if err != nil {
				return err
			}
			entries, err := status.Timeline(found, c.String("session"), c.Int("n"))
			if err != nil {
				return fail("", msgReadJournal, err)
			}
			if c.Bool("json") {
				return hook.WriteJSON(c.App.Writer, entries)
			}
			if len(entries) == 0 {
				fmt.Fprintf(c.App.Writer, msgNoJournal+"\n", shown(found.Path))
				return nil
			}
			if err := printTimeline(c.App.Writer, entries); err != nil {
				return err
			}
			if status.CheckFailed(entries) {
				top, err := workTreeTop(c.String("dir"))
				if err != nil {
					return err
				}
				printFailedChecks(c.App.Writer, top)
			}
			return nil
		},
	}
}

// printFailedChecks shows, for each check in force whose last run failed,
// how it ended, the last lines it printed, and the file that keeps its
// whole output (its last MiB).
func printFailedChecks(w io.Writer, top string) {
	for _, r := range status.FailedChecks(top) {
		fmt.Fprintf(w, "\n"+msgFailedCheck+"\n", r.Name, r.Run, r.Cause(), r.At.Local().Format("15:04:05"))
		for _, line := range strings.Split(r.Tail, "\n") {
			fmt.Fprintf(w, "  | %s\n", line)
		}
		if r.Output != "" {
			fmt.Fprintf(w, "  "+msgWholeOutput+"\n", r.Output)
		}
	}
}

// printTimeline prints one line an evaluation: the time, the verdict, the
// rule and its reason, shortened to a line.
func printTimeline(w io.Writer, entries []hook.Entry) error {
	sessions := map[string]bool{}
	for _, e := range entries {
		sessions[e.Session] = true
	}
	for _, e := range entries {
		verdict := "go on  "
		if e.OK {
			verdict = "stopped"
		}
		line := fmt.Sprintf("%s  %s  %-16s %s", e.Time.Local().Format("15:04:05"), verdict, e.Rule, strings.Join(strings.Fields(e.Reason), " "))
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
			line += "  [" + e.Session + "]"
		}
		if _, err := fmt.Fprintln(w, strings.TrimRight(line, " ")); err != nil {
			return err
		}
	}
	return nil
}
