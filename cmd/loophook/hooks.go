package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
	"github.com/loophook/loophook/hook/handler"
	"github.com/loophook/loophook/hook/host"
)

func stopCommand() *cli.Command {
	return newHookCommand(hook.EventStop, "answer Claude Code's Stop hook, or another host's end-of-turn hook: may the agent stop?",
		"Reads the hook input JSON on stdin, finds the loop's state and prints one JSON verdict.\n"+
			"Always exits 0, whatever happens; diagnostics go to stderr.\n\n"+
			"Example (what Claude Code runs, see loophook install):\n"+
			"   echo '{\"session_id\":\"s1\",\"cwd\":\".\",\"stop_hook_active\":false}' | loophook stop --protocol claude")
}

func sessionStartCommand() *cli.Command {
	return newHookCommand(hook.EventSessionStart, "answer the host's SessionStart hook: tell the agent where its loop stands",
		"Reads the SessionStart input JSON on stdin; when an in-progress loop governs the session,\n"+
			"prints its spec, iteration, unmet criteria, next step and limits for the agent, and resets\n"+
			"the session's runaway-guard count. Always exits 0.\n\n"+
			"Example:\n"+
			"   echo '{\"session_id\":\"s1\",\"cwd\":\".\",\"source\":\"resume\"}' | loophook session-start --protocol claude")
}

// started is when the process started, as near as Go can tell: a hook
// that began before another's verdict on the same stop was given ran beside
// it (hook.Options.Started).
var started = time.Now()

// answerHook is a hook call's one way to its verdict: stop or
// session-start, asking for neither help nor completion. It reads the
// flags once, with the standard library's parser: urfave/cli would look
// each up by every name of every flag, cleaning each name with a regular
// expression, which cost a hook call a tenth of its time. A flag that
// cannot be read does not break the hook: it answers, lets the agent stop
// and says why.
func answerHook(ev hook.Event, args []string, stdin io.Reader, stdout, stderr io.Writer) {
	o, err := hookOptions(hookFlags(), args)
	if o.Host.Name == host.Strict().Name && !protocolNamed(args) {
		// Wired by hand, as ralph-loop READMEs teach: a host obeys only
		// its own protocol, not {"ok": ...}.
		if h, ok := host.Caller(os.Getenv); ok {
			say(stderr, tagNote, msgWrongProtocol, ev, h.Title, h.Name, h.Name)
		}
	}
	o.Host = handler.CallWire(string(ev), o.Host)
	o.Note = tell(stderr)
	o.Started = started
	if where, ok := handler.PluginBeside(string(ev)); ok {
		o.StandAside = fmt.Sprintf(msgStandAside, shown(where))
	}
	if err != nil {
		say(stderr, tagError, "%s", errText(err))
		o.Misconfigured = err
	}
	hook.Run(ev, o, stdin, stdout)
}

// hookFlags are the flags of stop and session-start.
func hookFlags() []cli.Flag { return append(evalFlags(), protocolFlag) }

// newHookCommand is stop or session-start as urfave/cli knows it: for its
// help and the completion of its flags; answerHook answers the hook.
func newHookCommand(ev hook.Event, usage, description string) *cli.Command {
	return &cli.Command{
		Name:            string(ev),
		Usage:           usage,
		Description:     description,
		Flags:           hookFlags(),
		SkipFlagParsing: true,
		Action: func(c *cli.Context) error {
			return cli.ShowCommandHelp(c.Lineage()[1], c.Command.Name)
		},
	}
}

// hookOptions reads a hook's flags, with their defaults and environment
// variables.
func hookOptions(flags []cli.Flag, args []string) (hook.Options, error) {
	fs := flag.NewFlagSet("hook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	env := map[string][]string{}
	for _, f := range flags {
		switch f := f.(type) {
		case *cli.StringFlag:
			fs.String(f.Name, f.Value, "")
			env[f.Name] = f.EnvVars
		case *cli.IntFlag:
			fs.Int(f.Name, f.Value, "")
			env[f.Name] = f.EnvVars
		case *cli.Float64Flag:
			fs.Float64(f.Name, f.Value, "")
			env[f.Name] = f.EnvVars
		case *cli.BoolFlag:
			fs.Bool(f.Name, f.Value, "")
			env[f.Name] = f.EnvVars
		}
	}
	fallback := hook.Options{Host: guessHost(args)}
	if err := fs.Parse(args); err != nil {
		return fallback, flagError(err, nil)
	}
	if fs.NArg() > 0 {
		return fallback, fail("", msgArgument, fs.Arg(0))
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name, vars := range env {
		for _, v := range vars {
			if val := os.Getenv(v); val != "" && !given[name] {
				if err := fs.Set(name, val); err != nil {
					return fallback, fail(hintHelp, msgEnv, v, val, dashed(name), wants(name, nil))
				}
				break
			}
		}
	}
	o, err := options(flagSetValues{fs})
	if err != nil {
		o.Host = fallback.Host
	}
	return o, err
}

// guessHost reads --protocol from raw arguments, for an answer in the
// host's wire when the flags as a whole cannot be read.
func guessHost(args []string) hook.Wire {
	name := os.Getenv("LOOPHOOK_PROTOCOL")
	for i, a := range args {
		switch {
		case (a == "--protocol" || a == "-protocol") && i+1 < len(args):
			name = args[i+1]
		case len(a) > 11 && a[:11] == "--protocol=":
			name = a[11:]
		}
	}
	if h, err := host.Lookup(name); err == nil {
		return h.Wire
	}
	return host.Strict().Wire
}

// protocolNamed reports whether the hook call names its protocol, in its
// arguments or LOOPHOOK_PROTOCOL.
func protocolNamed(args []string) bool {
	if os.Getenv("LOOPHOOK_PROTOCOL") != "" {
		return true
	}
	for _, a := range args {
		if a == "--protocol" || a == "-protocol" || strings.HasPrefix(a, "--protocol=") || strings.HasPrefix(a, "-protocol=") {
			return true
		}
	}
	return false
}

// flagSetValues reads a flag set as options reads a *cli.Context.
type flagSetValues struct{ fs *flag.FlagSet }

func (v flagSetValues) get(name string) any {
	if f := v.fs.Lookup(name); f != nil {
		return f.Value.(flag.Getter).Get()
	}
	return nil
}

func (v flagSetValues) String(name string) string   { s, _ := v.get(name).(string); return s }
func (v flagSetValues) Int(name string) int         { n, _ := v.get(name).(int); return n }
func (v flagSetValues) Float64(name string) float64 { f, _ := v.get(name).(float64); return f }
func (v flagSetValues) Bool(name string) bool       { b, _ := v.get(name).(bool); return b }
