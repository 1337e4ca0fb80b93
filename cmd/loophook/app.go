package main

import (
	"io"
	"slices"
	"strings"

	"github.com/loophook/loophook/hook"
	"github.com/urfave/cli/v2"
)

// run builds the app, runs it and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 1 && args[1] == "help" {
		// "loophook help stop" is "loophook stop --help".
		args = append(append([]string{args[0]}, args[2:]...), "--help")
	}
	only := commandFor(args)
	app := newApp(stdin, stdout, stderr, only)
	if only != "" && !askedForHelp(args) && !slices.Contains(args, "--generate-bash-completion") {
		defer bare(app)()
	}
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && app.Command(args[1]) == nil {
		return report(stderr, fail(hintHelp, msgUnknownCommand, args[1]))
	}
	return report(stderr, app.Run(args))
}

// commands are the app's commands, built only when asked for.
var commands = []struct {
	name  string
	build func() *cli.Command
}{
	{"stop", stopCommand}, {"session-start", sessionStartCommand}, {"eval", evalCommand},
	{"validate", validateCommand}, {"schema", schemaCommand}, {"status", statusCommand},
	{"init", initCommand}, {"cancel", cancelCommand}, {"why", whyCommand}, {"accept", acceptCommand},
	{"install", installCommand}, {"uninstall", uninstallCommand}, {"completion", completionCommand},
}

// commandFor is the name of a hook command the arguments call, "" for
// anything else. A hook runs at the end of every turn: its app builds its
// own command alone, not the dozen a person's command line offers.
func commandFor(args []string) string {
	if len(args) > 1 && (args[1] == string(hook.EventStop) || args[1] == string(hook.EventSessionStart)) {
		return args[1]
	}
	return ""
}

// newApp builds the app: every command, or only the one named.
func newApp(stdin io.Reader, stdout, stderr io.Writer, only string) *cli.App {
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
	}
	for _, c := range commands {
		if only == "" || c.name == only {
			app.Commands = append(app.Commands, c.build())
		}
	}
	// loophook --version; the version is read from the build when printed.
	app.Version, cli.VersionPrinter = "-", printVersion
	for _, c := range app.Commands {
		if c.OnUsageError == nil {
			c.OnUsageError = usageError // one line and a hint, never the help on stdout
		}
	}
	return app
}

// bare strips a hook call's app down to its one command. The hook reads its
// own flags (hookOptions); urfave/cli would look each declared flag up by
// every name of every flag, cleaning each name with a regular expression, a
// tenth of the whole process's time. Help and completion keep them all.
// It returns what puts back urfave/cli's help flag, which it looks for even
// where help is hidden.
func bare(app *cli.App) (restore func()) {
	app.HideHelp, app.Version, app.EnableBashCompletion = true, "", false
	app.Compiled = started // not the executable's time, which costs a stat
	app.Commands[0].Flags, app.Commands[0].HideHelp = nil, true
	help := cli.HelpFlag
	cli.HelpFlag = nil
	return func() { cli.HelpFlag = help }
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
