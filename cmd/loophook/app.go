package main

import (
	"fmt"
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
	if completeValue(args, stdout) {
		return 0
	}
	only := commandFor(args)
	if only != "" && !askedForHelp(args) && !slices.Contains(args, "--generate-bash-completion") {
		answerHook(hook.Event(only), args[2:], stdin, stdout, stderr)
		return 0
	}
	app := newApp(stdin, stdout, stderr, only)
	if len(args) > 1 && !strings.HasPrefix(args[1], "-") && app.Command(args[1]) == nil {
		hint := hintHelp
		if near := nearest(args[1], app.VisibleCommands()); near != "" {
			hint = fmt.Sprintf(hintDidYouMean, near)
		}
		return report(stderr, fail(hint, msgUnknownCommand, args[1]))
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

// nearest is the command a mistyped name most likely meant: one whose name
// it begins, or that it begins, or within a third of its length in edits
// (two at most); "" when none is near, or two are as near.
func nearest(typed string, commands []*cli.Command) string {
	best, bestDist, tie := "", 0, false
	for _, c := range commands {
		d := editDistance(strings.ToLower(typed), c.Name)
		if len(typed) >= 3 && (strings.HasPrefix(c.Name, typed) || strings.HasPrefix(typed, c.Name)) {
			d = min(d, 1)
		}
		if d > min(2, max(1, len(c.Name)/3)) {
			continue
		}
		switch {
		case best == "" || d < bestDist:
			best, bestDist, tie = c.Name, d, false
		case d == bestDist:
			tie = true
		}
	}
	if tie {
		return ""
	}
	return best
}

// editDistance is the Damerau-Levenshtein distance between a and b (with
// adjacent transpositions, the commonest typo), in bytes.
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
