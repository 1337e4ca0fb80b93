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
	if len(args) > 1 && args[1] == "help" {
		// "loophook help stop" is "loophook stop --help".
		args = append(append([]string{args[0]}, args[2:]...), "--help")
	}
	var answered bool
	app := newApp(stdin, stdout, stderr, &answered)
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && app.Command(args[1]) == nil {
		return report(stderr, fail("see loophook --help", "unknown command %q", args[1]))
	}
	err := app.Run(args)
	if isHook(args) && !answered && !completing(args) && !askedForHelp(args) {
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
	app := &cli.App{
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
	app.Version, cli.VersionPrinter = buildVersion(), printVersion // loophook --version
	for _, c := range app.Commands {
		c.OnUsageError = usageError // one line and a hint, never the help on stdout
	}
	return app
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

// askedForHelp reports whether the app printed help rather than an answer.
func askedForHelp(args []string) bool {
	for _, a := range args[1:] {
		switch a {
		case "-h", "--help", "-help", "help":
			return true
		}
	}
	return false
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
