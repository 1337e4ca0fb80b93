package main

import (
	"flag"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook"
)

// runHook answers stop and session-start without urfave/cli's parsing, which
// costs a hook call more than its whole evaluation: the library runs a
// regular expression for each flag name it looks up, a hundred times a call.
// It reads the flags the commands declare, with their defaults and
// environment variables, and hands everything else — help, completion, a
// value it cannot take — to the app (handled false), which then says what is
// wrong exactly as it would have.
func runHook(args []string, stdin io.Reader, stdout, stderr io.Writer) (handled bool) {
	if len(args) < 2 {
		return false
	}
	var cmd *cli.Command
	var answer func(hook.Options, io.Reader, io.Writer, io.Writer)
	switch args[1] {
	case "stop":
		cmd, answer = stopCommand(nil), hook.Stop
	case "session-start":
		cmd, answer = sessionStartCommand(nil), hook.SessionStart
	default:
		return false
	}
	fs := flag.NewFlagSet(args[1], flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	env := map[string][]string{}
	for _, f := range cmd.Flags {
		switch f := f.(type) {
		case *cli.StringFlag:
			fs.String(f.Name, f.Value, "")
			env[f.Name] = f.EnvVars
		case *cli.IntFlag:
			fs.Int(f.Name, f.Value, "")
			env[f.Name] = f.EnvVars
		case *cli.BoolFlag:
			fs.Bool(f.Name, f.Value, "")
			env[f.Name] = f.EnvVars
		default:
			return false
		}
	}
	if fs.Parse(args[2:]) != nil || fs.NArg() > 0 {
		return false
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	for name, vars := range env {
		if given[name] {
			continue
		}
		for _, v := range vars {
			if val := os.Getenv(v); val != "" {
				if fs.Set(name, val) != nil {
					return false
				}
				break
			}
		}
	}
	o, err := options(flagSetValues{fs})
	if err != nil {
		return false
	}
	shortLived()
	answer(o, stdin, stdout, stderr)
	return true
}

// flagSetValues reads a flag set as options reads a *cli.Context.
type flagSetValues struct{ fs *flag.FlagSet }

func (v flagSetValues) get(name string) any {
	if f := v.fs.Lookup(name); f != nil {
		return f.Value.(flag.Getter).Get()
	}
	return nil
}

func (v flagSetValues) String(name string) string { s, _ := v.get(name).(string); return s }
func (v flagSetValues) Int(name string) int       { n, _ := v.get(name).(int); return n }
func (v flagSetValues) Bool(name string) bool     { b, _ := v.get(name).(bool); return b }
