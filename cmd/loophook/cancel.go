package main

import (
	"io"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/statefile"
	"github.com/loophook/loophook/schema"
)

func cancelCommand() *cli.Command {
	return &cli.Command{
		Name:  "cancel",
		Usage: "end the loop: set the state's status to cancelled, or record the cancel",
		Description: "Sets \"status\" to \"cancelled\" in the state the hook would find (or --state), so that the\n" +
			"Stop hook lets the agent stop. Only that value changes: every other byte stays as it was,\n" +
			"key order, spacing, line ends and a byte order mark included. The file is replaced\n" +
			"atomically and keeps its permissions. A state it cannot edit into a valid, cancelled one\n" +
			"(not JSON, not an object, failing the schema, unreadable) is moved aside as it is, to\n" +
			"state.json.broken-<time> beside it, so that the loop ends all the same and nothing is lost.\n" +
			"Refuses to write through a symbolic link.\n" +
			"Another loop system's state (on-loop, loop controller, orchestrator) is left untouched:\n" +
			"loophook records the cancel in its own per-user memory of that file, and the hook treats the\n" +
			"loop as cancelled (status shows it) until the state changes, or init or accept is run.\n\n" +
			"Examples:\n" +
			"   loophook cancel\n" +
			"   loophook cancel --state path/to/.loop/state.json",
		Flags: []cli.Flag{stateFlag, dirFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fail("name the file with --state FILE", "cancel takes no arguments")
			}
			found, err := locateState(hook.Options{StatePath: c.String("state"), Dir: c.String("dir")})
			if err != nil {
				return err
			}
			path := found.Path
			if found.Dialect.Name != schema.Hope.Name {
				// loophook never writes another loop system's file: it
				// keeps its own record of the cancel.
				record, err := hook.CancelLoop(found, time.Now())
				if err != nil {
					return fail(hintCancelDialect, msgCancelDialectFailed, shown(path), err)
				}
				say(c.App.ErrWriter, "", "%s", msgCancelledDialect(shown(path), found.Dialect.Name, record))
			} else if err := cancelLoop(c.App.ErrWriter, path, time.Now()); err != nil {
				return err
			}
			// A person ended the loop: so ends its contract (SPEC section 5).
			if err := hook.EndLoop(found); err != nil {
				say(c.App.ErrWriter, tagNote, msgEndContract, err)
			}
			return nil
		},
	}
}

// cancelLoop ends the hope loop whose state is at path, and says how.
func cancelLoop(w io.Writer, path string, now time.Time) error {
	done, err := statefile.Cancel(path, now)
	if err != nil {
		return err
	}
	switch {
	case done.Aside != "":
		say(w, "", "%s", msgMovedAside(shown(path), shown(done.Aside), done.Why))
	case done.Was == "":
		say(w, "", "%s", msgAlreadyCancelled(shown(path)))
	default:
		say(w, "", "%s", msgCancelled(shown(path), done.Was))
	}
	return nil
}
