package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/checks"
	"github.com/loophook/loophook/hook/config"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/hook/statefile"
	"github.com/loophook/loophook/hook/status"
)

func checkCommand() *cli.Command {
	return &cli.Command{
		Name:  "check",
		Usage: "run the checks of the approved .loophook.json now",
		Description: "Runs each check a person approved in " + config.File + " at the top of the work tree, as the\n" +
			"Stop hook runs them when a loop claims done, and prints each result with its time. The\n" +
			"results fill the cache the hook reads: on an unchanged tree a claim reuses them. A file\n" +
			"changed since its approval is not what runs: the approved version is, and check says so.\n" +
			"Exit 0: every check passed. 1: one failed. 2: nothing could run (no " + config.File + ",\n" +
			"none approved, or no checks in it), so that a CI step never passes having run nothing.\n\n" +
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
			f := config.LoadFor(top, loopDir(c.String("dir"), ""))
			if tell := f.Tell(); tell != "" {
				say(c.App.ErrWriter, tagNote, "%s", tell)
			}
			cs := f.Checks()
			switch {
			case f.Config == nil && f.State == config.StateNone:
				return fail(hintCheckNone, msgCheckNoFile, shown(f.Path))
			case f.Config == nil:
				return fail(hintCheckApprove, msgCheckNotApproved, shown(f.Path))
			case len(cs) == 0:
				return fail("", msgNoChecks, shown(f.Path))
			}
			results := (checks.Runner{Top: top}).Run(cs)
			status.WriteChecks(c.App.Writer, results)
			for _, r := range results {
				if !r.Passed() {
					return finding
				}
			}
			return nil
		},
	}
}

// loopDir is the directory of the loop's state a person's command names
// (--state, else the one found from --dir or here), else where the person
// is: where the search for .loophook.json files that are not obeyed
// starts.
func loopDir(dir, stateFile string) string {
	if found, err := statefile.Locate(hook.Options{StatePath: stateFile, Dir: dir}); err == nil && found.Path != "" {
		return filepath.Dir(found.Path)
	}
	if dir != "" {
		return dir
	}
	wd, _ := os.Getwd()
	return wd
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
	var inv *config.Invalid
	if errors.As(err, &inv) {
		for _, p := range inv.Problems {
			say(w, "", "%s: %s", shown(acc.Path), p)
		}
		return false, fail(hintSchemaConfig, msgApproveInvalid, shown(acc.Path))
	}
	if err != nil {
		return false, fail(hintSchemaConfig, msgApprove, shown(acc.Path), err)
	}
	for _, line := range acc.Said(shown(acc.Path)) {
		say(w, "", "%s", line)
	}
	if n := config.LoadFor(top, loopDir(dir, stateFile)).TellIgnored(); n != "" {
		say(w, tagNote, "%s", n)
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
