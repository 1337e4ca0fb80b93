package main

import (
	"io"
	"strings"

	"github.com/urfave/cli/v2"
)

// run builds the app, runs it and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 1 && args[1] == "help" {
		// "loophook help stop" is "loophook stop --help".
		args = append(append([]string{args[0]}, args[2:]...), "--help")
	}
	app := newApp(stdin, stdout, stderr)
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && app.Command(args[1]) == nil {
		return report(stderr, fail(hintHelp, msgUnknownCommand, args[1]))
	}
	return report(stderr, app.Run(args))
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *cli.App {
	app := &cli.App{
		Name:                   "loophook",
		Usage:                  appUsage,
		Description:            appDescription,
		Reader:                 stdin,
		Writer:                 stdout,
		ErrWriter:              stderr,
		HideHelpCommand:        true,
		EnableBashCompletion:   true,
		UseShortOptionHandling: false,
		ExitErrHandler:         func(*cli.Context, error) {},
		OnUsageError:           usageError,
		Commands: []*cli.Command{
			stopCommand(),
			sessionStartCommand(),
			evalCommand(),
			validateCommand(),
			schemaCommand(),
			statusCommand(),
			initCommand(),
			cancelCommand(),
			whyCommand(),
			acceptCommand(),
			installCommand(),
			uninstallCommand(),
			completionCommand(),
		},
	}
	app.Version, cli.VersionPrinter = buildVersion(), printVersion // loophook --version
	for _, c := range app.Commands {
		if c.OnUsageError == nil {
			c.OnUsageError = usageError // one line and a hint, never the help on stdout
		}
	}
	return app
}

// usageError keeps urfave/cli from printing help into stdout.
func usageError(_ *cli.Context, err error, _ bool) error {
	return fail(hintHelp, "%s", err)
}

// askedForHelp reports whether the arguments ask for help.
func askedForHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "--help", "-help", "help":
			return true
		}
	}
	return false
}

func errText(err error) string {
	if err == nil {
		return "no answer"
	}
	return err.Error()
}
