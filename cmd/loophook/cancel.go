package main

import (
	"os"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/statefile"
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
			"cancel is a person's act: it refuses (exit 2) when an agent host's marker (CLAUDECODE,\n" +
			"GEMINI_CLI...) is in its environment, so that an agent's shell tool cannot end its own\n" +
			"loop. A person's script, with no terminal, may run it. No flag skips this.\n\n" +
			"Examples:\n" +
			"   loophook cancel\n" +
			"   loophook cancel --state path/to/.loop/state.json",
		Flags: []cli.Flag{stateFlag, dirFlag},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return fail("name the file with --state FILE", msgNoArguments, "cancel")
			}
			if err := notAgent("cancel", os.Getenv); err != nil {
				return err
			}
			found, err := statefile.Locate(hook.Options{StatePath: c.String("state"), Dir: c.String("dir")})
			if err != nil {
				return err
			}
			done, err := statefile.End(found, time.Now())
			if err != nil {
				return err
			}
			say(c.App.ErrWriter, "", "%s", done.Said())
			for _, n := range done.Notes() {
				say(c.App.ErrWriter, tagNote, "%s", n)
			}
			return nil
		},
	}
}
