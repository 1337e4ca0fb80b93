package main

import (
	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/state"
	"github.com/loophook/loophook/hook/statefile"
	"github.com/loophook/loophook/hook/status"
	"github.com/loophook/loophook/internal/jsontext"
)

func evalCommand() *cli.Command {
	return &cli.Command{
		Name:  "eval",
		Usage: "show what the Stop hook would decide now, and why (a dry run)",
		Description: "Evaluates the state exactly as the hook would, reading but never writing the hook's memory.\n" +
			"Exit 0: the agent would stop. 1: it would go on. 2: an error.\n\n" +
			"Examples:\n" +
			"   loophook eval\n" +
			"   loophook eval --stop-hook-active --json\n" +
			"   loophook eval --input hook-input.json   # replay what Claude Code sent",
		Flags: append(hookFlags(),
			&cli.BoolFlag{Name: "stop-hook-active", Usage: "evaluate as a stop that follows a block in the same turn"},
			&cli.StringFlag{Name: "last-message", Usage: "the agent's last message `TEXT`, for --require-marker"},
			&cli.StringFlag{Name: "input", Usage: "replay the hook input in `FILE` (- for stdin)"},
			&cli.StringFlag{Name: "session", Usage: "evaluate as session `ID` (default: the loop's session_id, else the session the hook saw last)"},
			&cli.BoolFlag{Name: "json", Usage: "print the evaluation as JSON"},
		),
		Action: func(c *cli.Context) error {
			o, err := commandOptions(c)
			if err != nil {
				return err
			}
			if err := o.Configured(); err != nil {
				// The hook lets the agent stop on a path that is not there
				// (misconfigured); a person who names one is told at once.
				return fail("", "%v", err)
			}
			in, err := evalInput(c, o.Host)
			if err != nil {
				return err
			}
			if c.IsSet("session") || c.String("input") == "" {
				// Without a replayed input, look at the loop as its own
				// session would, as status does.
				if found, err := statefile.Locate(o); err == nil {
					in.SessionID = statusSession(c, found, state.Load(found).Session)
				}
			}
			o.Note = tell(c.App.ErrWriter)
			r := hook.Evaluate(o, in, false)
			if c.Bool("json") {
				err = jsontext.Write(c.App.Writer, status.EvalOf(r))
			} else {
				err = status.EvalOf(r).WriteText(c.App.Writer)
			}
			if err != nil {
				return err
			}
			if !r.OK {
				return finding
			}
			return nil
		},
	}
}

// evalInput is the hook input to evaluate: a replayed one, or one made from flags.
func evalInput(c *cli.Context, h hook.Wire) (hook.Input, error) {
	var in hook.Input
	if name := c.String("input"); name != "" {
		var err error
		if in, err = status.Replay(name, c.App.Reader, h); err != nil {
			return in, err
		}
	}
	if c.IsSet("stop-hook-active") {
		in.StopHookActive = c.Bool("stop-hook-active")
	}
	if c.IsSet("last-message") {
		msg := c.String("last-message")
		in.LastAssistantMessage = &msg
	}
	return in, nil
}
