package main

import (
	"runtime/debug"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
)

func stopCommand(answered *bool) *cli.Command {
	return &cli.Command{
		Name:  "stop",
		Usage: "answer Claude Code's Stop hook: may the agent stop?",
		Description: "Reads the hook input JSON on stdin, finds .loop/state.json and prints one JSON verdict.\n" +
			"Always exits 0, whatever happens; diagnostics go to stderr.\n\n" +
			"Example (what Claude Code runs, see loophook install):\n" +
			"   echo '{\"session_id\":\"s1\",\"cwd\":\".\",\"stop_hook_active\":false}' | loophook stop --protocol claude",
		Flags:        append(evalFlags(), protocolFlag),
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			o, err := options(c)
			if err != nil {
				return err
			}
			shortLived()
			hook.Stop(o, c.App.Reader, c.App.Writer, c.App.ErrWriter)
			*answered = true
			return nil
		},
	}
}

func sessionStartCommand(answered *bool) *cli.Command {
	return &cli.Command{
		Name:  "session-start",
		Usage: "answer Claude Code's SessionStart hook: tell the agent where its loop stands",
		Description: "Reads the SessionStart input JSON on stdin; when an in-progress loop governs the session,\n" +
			"prints its spec, iteration, unmet criteria, next step and limits for the agent, and resets\n" +
			"the session's runaway-guard count. Always exits 0.\n\n" +
			"Example:\n" +
			"   echo '{\"session_id\":\"s1\",\"cwd\":\".\",\"source\":\"resume\"}' | loophook session-start --protocol claude",
		Flags:        append(evalFlags(), protocolFlag),
		OnUsageError: usageError,
		Action: func(c *cli.Context) error {
			o, err := options(c)
			if err != nil {
				return err
			}
			shortLived()
			hook.SessionStart(o, c.App.Reader, c.App.Writer, c.App.ErrWriter)
			*answered = true
			return nil
		},
	}
}

// shortLived tunes the garbage collector for a process that lives for one
// evaluation: collecting would only spend time the turn is waiting for, so it
// runs only if the heap nears a ceiling far above what a capped state needs.
func shortLived() {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(512 << 20)
}
