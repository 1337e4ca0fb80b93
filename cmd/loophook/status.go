package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/hook/statefile"
	"github.com/loophook/loophook/hook/status"
	"github.com/loophook/loophook/hook/table"
	"github.com/loophook/loophook/internal/jsontext"
)

func statusCommand() *cli.Command {
	return &cli.Command{
		Name:  "status",
		Usage: "show the loop at a glance: criteria, steps, limits, and what the hook would decide",
		Description: "Prints the spec, the iteration and its limit, each criterion met or not and how it was\n" +
			"verified, the steps done and left, the stuck count, the runaway guard's count and the\n" +
			"rule that last decided (from the hook's memory in the user cache), and the verdict\n" +
			"the Stop hook would give now. For another loop system's state (--dialect), its phase or\n" +
			"stage, what it waits for, the next step and what a resumed agent is told.\n" +
			"Reads; never writes.\n" +
			"The guard is the --session's; without it, the state's session_id's, else the session\n" +
			"the hook saw last.\n" +
			"Exit 0: shown. 1: the state is invalid (its problems are shown). 2: no state, or unreadable.\n\n" +
			"Examples:\n" +
			"   loophook status\n" +
			"   loophook status --json | jq .loop.iteration\n" +
			"   loophook status --state path/to/state.json --session 9b2e6f0c-5d1a-4c1e-8f3b-2a7d4e6c1b90",
		Flags: append(evalFlags(),
			&cli.StringFlag{Name: "session", Usage: "show the runaway guard of session `ID`"},
			&cli.BoolFlag{Name: "json", Usage: "print the status as JSON"},
			&cli.BoolFlag{Name: "watch", Usage: "redraw the status whenever the state file changes, until interrupted"},
		),
		Action: func(c *cli.Context) error {
			o, err := commandOptions(c)
			if err != nil {
				return err
			}
			found, err := statefile.Locate(o)
			if err != nil && c.Bool("json") {
				// A script reading --json gets JSON that says there is no loop.
				jsontext.Write(c.App.Writer, status.NoLoop{Found: false, Reason: err.Error()})
				return &failure{code: exitError}
			}
			if err != nil {
				return err
			}
			if c.Bool("watch") {
				if c.Bool("json") {
					return fail("", msgWatchJSON)
				}
				return watchStatus(c, o, found)
			}
			return showStatus(c, o, found)
		},
	}
}

// statusSession is the session whose guard status shows: the one named, else
// the one the loop belongs to, else the one the hook saw last, else none.
func statusSession(c *cli.Context, found state.Found, stateSession string) string {
	if c.IsSet("session") {
		return c.String("session")
	}
	session, err := status.Session(found, stateSession)
	if err != nil {
		say(c.App.ErrWriter, tagNote, "%v", err)
	}
	return session
}

// showStatus prints the status of the loop found.
func showStatus(c *cli.Context, o hook.Options, found state.Found) error {
	path := found.Path
	if _, err := state.ReadFile(path); err != nil {
		return fail("", msgFileError, shown(path), err)
	}
	session := statusSession(c, found, state.Load(found).Session)
	// --json names files in full, so that a script's result does not
	// depend on where it ran; the text shows them as a person reads them.
	st := status.Look(o, found, session, func(err error) { say(c.App.ErrWriter, tagNote, "%v", err) })
	var err error
	if c.Bool("json") {
		err = jsontext.Write(c.App.Writer, st)
	} else {
		err = st.WriteText(c.App.Writer, table.Colourful(c.App.Writer))
	}
	if err != nil {
		return err
	}
	if !st.Valid {
		return invalidState(shown(st.State), st.Dialect, len(st.Problems))
	}
	return nil
}

// watchStatus redraws the status whenever the state file changes, until
// the person interrupts it: on a terminal in place, elsewhere one drawing
// after another.
func watchStatus(c *cli.Context, o hook.Options, found state.Found) error {
	status.Watch(found.Path, func(again bool) {
		switch {
		case table.Terminal(c.App.Writer):
			fmt.Fprint(c.App.Writer, clearScreen)
		case again:
			fmt.Fprintln(c.App.Writer) // a pipe gets each drawing after the last, no screen codes
		}
		if err := showStatus(c, o, found); err != nil {
			report(c.App.ErrWriter, err)
		}
	})
	return nil
}
