package main

import (
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook/checks"
	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/hook/status"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "run the checks of the approved .loophook.json now",
		Description: "Runs each check a person approved in " + config.File + " at the top of the work tree, as the\n" +
			"Stop hook runs them when a loop claims done, and prints each result with its time. The\n" +
			"results fill the cache the hook reads: on an unchanged tree a claim reuses them. Exit 1\n" +
			"when a check fails. A file never approved, or changed since, is not what runs: the\n" +
			"approved version is, and check says so.\n\n" +
			"Examples:\n" +
			"   loophook check\n" +
			"   loophook check --dir path/to/project",
		Flags: []cli.Flag{&cli.StringFlag{Name: "dir", Usage: "the work tree of `DIR` instead of the current directory's"}},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fail(hintHelp, msgNoArguments, "check")
			}
			top, err := state.TopFor(c.String("dir"), "")
			if err != nil {
				return err
			}
			f := config.Load(top)
			if tell := f.Tell(); tell != "" {
				say(c.App.ErrWriter, tagNote, "%s", tell)
			}
			cs := f.Checks()
			if len(cs) == 0 {
				fmt.Fprintf(c.App.Writer, msgNoChecks+"\n", shown(f.Path))
				return nil
			}
			failed := false
			for _, r := range (checks.Runner{Top: top}).Run(cs) {
				status.WriteCheck(c.App.Writer, r)
				failed = failed || !r.Passed()
			}
			if failed {
				return finding
			}
			return nil
		},
	}
}

// acceptConfig approves the .loophook.json of the work tree of dir, else
// of the state file, the part of accept SPEC section 6 adds, and prints
// what changed. The caller has made sure a person runs it.
//
// approved says there was a file, or an approval, to act on.
func acceptConfig(w io.Writer, dir, stateFile string) (approved bool, err error) {
	top, err := state.TopFor(dir, stateFile)
	if err != nil {
		return false, err
	}
	acc, err := config.Approve(top)
	if err != nil {
		return false, fail(hintSchemaConfig, msgApprove, shown(acc.Path), err)
	}
	for _, line := range acc.Said(shown(acc.Path)) {
		say(w, "", "%s", line)
	}
	return !acc.Nothing, nil
}

// revokeConfig withdraws the approval of the work tree's .loophook.json
// (accept --revoke), and says what is no longer in force.
func revokeConfig(w io.Writer, dir, stateFile string) error {
	top, err := state.TopFor(dir, stateFile)
	if err != nil {
		return err
	}
	r, err := config.Revoke(top)
	if err != nil {
		return fail("", msgRevoke, shown(r.Path), err)
	}
	for _, line := range r.Said(shown(r.Path)) {
		say(w, "", "%s", line)
	}
	return nil
}
