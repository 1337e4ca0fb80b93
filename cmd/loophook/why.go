package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/hook/statefile"
	"github.com/loophook/loophook/hook/status"
	"github.com/loophook/loophook/internal/jsontext"
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
				return fail("", msgAtLeastOne, dashed("n"), c.Int("n"))
			}
			found, err := statefile.Locate(hook.Options{StatePath: c.String("state"), Dir: c.String("dir")})
			if err != nil {
				// A loop whose file vanished keeps its journal: --state
				// names where it was.
				gone, ok := status.Vanished(c.String("state"))
				if !ok {
					return err
				}
				found = gone
			}
			entries, err := status.Timeline(found, c.String("session"), c.Int("n"))
			if err != nil {
				return fail("", msgReadJournal, err)
			}
			if c.Bool("json") {
				return jsontext.Write(c.App.Writer, entries)
			}
			if len(entries) == 0 {
				fmt.Fprintf(c.App.Writer, msgNoJournal+"\n", shown(found.Path))
				return nil
			}
			if err := status.WriteTimeline(c.App.Writer, entries, status.LoopBegan(found)); err != nil {
				return err
			}
			if status.CheckFailed(entries) {
				top, err := state.TopFor(c.String("dir"), "")
				if err != nil {
					return err
				}
				status.WriteFailedChecks(c.App.Writer, top)
			}
			return nil
		},
	}
}
