package main

import (
	"io"
	"slices"
	"strings"

	"github.com/loophook/loophook/hook"
	"github.com/urfave/cli/v2"
)

// run answers a hook call, or builds the app and runs it, and returns the
// exit code. A hook call runs at the end of every turn: it goes straight to
// answerHook, and urfave/cli serves its help and completion only.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 1 && args[1] == "help" {
		// "loophook help stop" is "loophook stop --help".
		args = append(append([]string{args[0]}, args[2:]...), "--help")
	}
	if n := len(args); n > 2 && args[n-1] == "--generate-bash-completion" && args[n-2] == "--" {
		// The shell completes "--": the flag parser would read it as the
		// end of the flags, and run the command; "-" asks for every flag.
		args = append(args[:n-2:n-2], "-", args[n-1])
	}
	only := commandFor(args)
	if only != "" && !askedForHelp(args) && !slices.Contains(args, "--generate-bash-completion") {
		answerHook(hook.Event(only), args[2:], stdin, stdout, stderr)
		return 0
	}
	app := newApp(stdin, stdout, stderr, only)
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
	{"init", initCommand}, {"cancel", cancelCommand}, {"why", whyCommand}, {"accept", acceptCommand}, {"check", checkCommand},
	{"install", installCommand}, {"uninstall", uninstallCommand}, {"completion", completionCommand},
}

// commandFor is the name of a hook command the arguments call, "" for
// anything else: help for a hook builds its own command alone, not the
// dozen a person's command line offers.
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
	app.Version, cli.VersionPrinter = buildVersion(), printVersion
	for _, c := range app.Commands {
		c.HideHelpCommand = true // "loophook stop help" is no command, nor a word to complete
		if c.OnUsageError == nil {
			c.OnUsageError = usageError // one line and a hint, never the help on stdout
		}
	}
	return app
}

// usageError keeps urfave/cli from printing help into stdout.
func usageError(c *cli.Context, err error, _ bool) error {
	var flags []cli.Flag
	if c != nil && c.Command != nil {
		flags = c.Command.Flags
	}
	return flagError(err, flags)
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
