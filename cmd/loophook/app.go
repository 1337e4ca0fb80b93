package main

import (
	"io"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/criteria"
	"github.com/loophook/loophook/hook"
)

// run builds the app, runs it and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if runHook(args, stdin, stdout, stderr) {
		return exitOK
	}
	var answered bool
	app := newApp(stdin, stdout, stderr, &answered)
	err := app.Run(args)
	if isHook(args) && !answered && !completing(args) {
		// A hook must answer even when its flags are wrong: let the agent
		// stop, and say why where a person will look.
		report(stderr, err)
		hook.WriteJSON(stdout, guessProtocol(args).Stop(criteria.Verdict{
			OK: true, Rule: criteria.RuleBadInput,
			Reason: "loophook is misconfigured (" + errText(err) + "); letting the agent stop",
		}))
		return exitOK
	}
	return report(stderr, err)
}

// newApp builds the command line; answered is set once a hook command has
// written its answer.
func newApp(stdin io.Reader, stdout, stderr io.Writer, answered *bool) *cli.App {
	return &cli.App{
		Name:  "loophook",
		Usage: "decide whether an AI coding agent's work loop may stop",
		Description: "loophook reads the loop's .loop/state.json and answers Claude Code's Stop hook:\n" +
			"go on while criteria are unmet, stop when every criterion is met and exit_signal is true,\n" +
			"or when a limit, the circuit breaker or the runaway guard ends the loop.\n\n" +
			"Start here:\n" +
			"   loophook init --spec \"add a --json flag\" --criterion \"tests pass\"\n" +
			"   loophook install\n" +
			"   loophook status",
		Reader:                 stdin,
		Writer:                 stdout,
		ErrWriter:              stderr,
		HideHelpCommand:        true,
		EnableBashCompletion:   true,
		UseShortOptionHandling: false,
		ExitErrHandler:         func(*cli.Context, error) {},
		OnUsageError:           usageError,
		Commands: []*cli.Command{
			stopCommand(answered),
			sessionStartCommand(answered),
			evalCommand(),
			validateCommand(),
			schemaCommand(),
			statusCommand(),
			initCommand(),
			cancelCommand(),
			installCommand(),
			uninstallCommand(),
			completionCommand(),
		},
	}
}

// usageError keeps urfave/cli from printing help into a hook's stdout.
func usageError(_ *cli.Context, err error, _ bool) error {
	return fail("see loophook --help", "%s", err)
}

// completing reports whether the shell asked for completions, which are all
// the hook commands should print then.
func completing(args []string) bool {
	return len(args) > 0 && args[len(args)-1] == "--generate-bash-completion"
}

func isHook(args []string) bool {
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		return a == "stop" || a == "session-start"
	}
	return false
}

// guessProtocol reads --protocol from raw args when flag parsing has failed.
func guessProtocol(args []string) hook.Protocol {
	name := os.Getenv("LOOPHOOK_PROTOCOL")
	for i, a := range args {
		switch {
		case (a == "--protocol" || a == "-protocol") && i+1 < len(args):
			name = args[i+1]
		case strings.HasPrefix(a, "--protocol="):
			name = strings.TrimPrefix(a, "--protocol=")
		}
	}
	if p, err := hook.LookupProtocol(name); err == nil {
		return p
	}
	return hook.Protocols["ok"]
}

func errText(err error) string {
	if err == nil {
		return "no answer"
	}
	return err.Error()
}
