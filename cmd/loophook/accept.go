package main

import (
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/statefile"
)

func acceptCommand() *cli.Command {
	return &cli.Command{
		Name:  "accept",
		Usage: "make the loop's current criteria its contract, and approve .loophook.json",
		Description: "The hook remembers the criteria it first saw for a loop: its contract. A state that\n" +
			"later drops or renames one of them keeps it unmet (\"removed\") until a person agrees,\n" +
			"so an agent cannot finish a loop by deleting what it could not do. accept is that\n" +
			"agreement: the criteria the state lists now become the contract. It prints what\n" +
			"changed. Criteria added to a state need no accept; loophook init starts a new contract.\n\n" +
			"accept also approves the work tree's .loophook.json as it is now: the hook obeys only\n" +
			"the version a person approved (the copy is kept in the user's configuration directory,\n" +
			"never in the project). It prints what the new version changes. With the file deleted,\n" +
			"accept approves having no checks and no budgets.\n\n" +
			"accept is a person's act: it refuses (exit 2) unless its standard input is a terminal\n" +
			"and no agent host's marker (CLAUDECODE, GEMINI_CLI...) is in its environment, so that\n" +
			"an agent's shell tool cannot accept its own contract. No flag skips this.\n\n" +
			"accept --revoke withdraws the approval of .loophook.json: the hook no longer obeys it (its\n" +
			"checks do not run, its budgets do not apply) until a person accepts it again. The loop's\n" +
			"contract is left as it is. It is a person's act too.\n\n" +
			"Examples:\n" +
			"   loophook accept\n" +
			"   loophook accept --revoke\n" +
			"   loophook accept --state path/to/.loop/state.json",
		Flags: []cli.Flag{stateFlag, dirFlag,
			&cli.BoolFlag{Name: "revoke", Usage: "withdraw the approval of .loophook.json instead: the hook obeys no version of it until the next accept"},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fail("name the file with --state FILE", msgNoArguments, "accept")
			}
			if err := personOnly("accept", c.App.Reader, os.Getenv); err != nil {
				return err
			}
			if c.Bool("revoke") {
				return revokeConfig(c.App.ErrWriter, c.String("dir"), c.String("state"))
			}
			approved, err := acceptConfig(c.App.ErrWriter, c.String("dir"), c.String("state"))
			if err != nil {
				return err
			}
			found, err := statefile.Locate(hook.Options{StatePath: c.String("state"), Dir: c.String("dir")})
			if err != nil && approved {
				return nil // no loop to accept the criteria of: the file was the point
			}
			if err != nil {
				return err
			}
			acc, err := statefile.Accept(found, time.Now())
			if err != nil {
				return err
			}
			if acc.Loop == nil {
				err := invalidState(shown(found.Path), found.Dialect.Name, acc.Problems)
				err.(*failure).hint = hintAcceptInvalid
				return err
			}
			if acc.Uncancel != nil {
				say(c.App.ErrWriter, tagNote, "%v", acc.Uncancel)
			}
			for _, line := range acc.Said() {
				say(c.App.ErrWriter, "", "%s", line)
			}
			return nil
		},
	}
}
