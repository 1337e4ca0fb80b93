package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook/statefile"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:  "init",
		Usage: "start a loop: write a new .loop/state.json",
		Description: "Writes DIR/.loop/state.json (DIR is --dir, else the current directory, even inside a\n" +
			"git work tree) for the agent to work through: the spec, the criteria all unmet, the steps\n" +
			"all left, iteration 0, status in_progress. Also writes .loop/.gitignore, which keeps the\n" +
			"hook's memory out of commits, and starts the loop's contract: the criteria an agent cannot\n" +
			"drop without a person's loophook accept. The hook finds the loop from sessions working\n" +
			"in DIR or below.\n" +
			"Give --criterion and --step once per item; commas inside an item are kept.\n" +
			"Refuses to replace an existing state unless --force, and to write through a symbolic link.\n" +
			"Starting a loop over an unfinished one (its contract under way, even with its file gone) is\n" +
			"a person's act: it refuses (exit 2) when an agent host's marker (CLAUDECODE, GEMINI_CLI...)\n" +
			"is in its environment. An agent may start a loop where none is unfinished.\n\n" +
			"Examples:\n" +
			"   loophook init --spec \"add a --json flag\" --criterion \"tests pass\" --criterion \"docs updated\"\n" +
			"   loophook init --spec \"fix the flaky test\" --criterion \"go test -count=20 passes\" \\\n" +
			"       --step \"reproduce\" --step \"fix\" --step \"verify\" --max-iterations 5",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "spec", Usage: "the loop works on the request in `TEXT` (required)"},
			&cli.GenericFlag{Name: "criterion", Value: &repeated{}, Usage: "add the success criterion `TEXT` (at least one; repeat the flag for each)"},
			&cli.GenericFlag{Name: "step", Value: &repeated{}, Usage: "add `TEXT` as the plan's next step (repeat the flag for each, in order)"},
			&cli.IntFlag{Name: "max-iterations", Value: criteria.DefaultMaxIterations, Usage: fmt.Sprintf("end the loop after `N` iterations (the hook holds a loop to at most %d)", criteria.DefaultIterationCeiling)},
			&cli.StringFlag{Name: "dir", Usage: "write `DIR`/.loop/state.json instead of ./.loop/state.json"},
			&cli.BoolFlag{Name: "force", Usage: "replace an existing state"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fail(`loophook init --spec "add a --json flag" --criterion "tests pass"`, "init takes flags only, not %q", c.Args().First())
			}
			if path, ok := statefile.Unfinished(c.String("dir")); ok {
				if err := notAgent(fmt.Sprintf(msgInitOver, shown(path)), os.Getenv); err != nil {
					return err
				}
			}
			l := statefile.Loop{Spec: c.String("spec"), Criteria: *c.Generic("criterion").(*repeated), Steps: *c.Generic("step").(*repeated), MaxIterations: c.Int("max-iterations")}
			started, err := statefile.Start(c.String("dir"), l, c.Bool("force"))
			if err != nil {
				return err
			}
			say(c.App.ErrWriter, "", "%s", started.Said())
			for _, n := range started.Notes() {
				say(c.App.ErrWriter, tagNote, "%s", n)
			}
			return nil
		},
	}
}

// repeated is a flag given once per value. Unlike cli.StringSliceFlag it
// never splits a value at commas, which criteria often hold.
type repeated []string

func (r *repeated) Set(s string) error {
	*r = append(*r, s)
	return nil
}

func (r *repeated) String() string { return "" }
