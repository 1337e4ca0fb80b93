package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook/completion"
	"github.com/loophook/loophook/hook/host"
	"github.com/loophook/loophook/schema"
)

func completionCommand() *cli.Command {
	shells := host.OrList(completion.Shells)
	return &cli.Command{
		Name:      "completion",
		Usage:     "print the shell completion script for " + shells,
		ArgsUsage: strings.Join(completion.Shells, "|"),
		Description: "Prints a script that makes the shell complete loophook's commands, flags and the values\n" +
			"of --host, --scope, --dialect, --protocol and --shell. The shell is the argument, or --shell.\n" +
			"The bash script works best with the bash-completion package installed.\n\n" +
			"Examples:\n" +
			"   source <(loophook completion bash)                # this bash session\n" +
			"   loophook completion bash > ~/.local/share/bash-completion/completions/loophook\n" +
			"   loophook completion zsh > \"${fpath[1]}/_loophook\"   # then restart zsh\n" +
			"   loophook completion fish > ~/.config/fish/completions/loophook.fish",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "shell", Usage: "the shell, `bash`, zsh or fish (or give it as the argument)"},
		},
		Action: func(c *cli.Context) error {
			shell := c.String("shell")
			switch {
			case c.NArg() > 1:
				return fail(hintCompletion, msgCompletionArgs, c.Args().Get(1))
			case c.NArg() == 1 && shell != "" && shell != c.Args().First():
				return fail(hintCompletion, msgCompletionTwice, shell, c.Args().First())
			case c.NArg() == 1:
				shell = c.Args().First()
			}
			script, ok := completion.Scripts[shell]
			switch {
			case shell == "":
				return fail(hintCompletion, msgCompletionNoShell, shells)
			case !ok:
				return fail("", msgCompletionShell, shells, shell)
			}
			_, err := io.WriteString(c.App.Writer, script)
			return err
		},
	}
}

// completeValue answers a completion asked for right after a flag that
// takes one of a few values (--host, --scope, --dialect, --protocol,
// --shell, --on-invalid), typed as "--host VALUE" or "--host=VALUE": it
// prints the values, and reports whether it did. urfave/cli would read
// the completion flag as the flag's value, and complete nothing.
func completeValue(args []string, stdout io.Writer) bool {
	n := len(args)
	if n < 4 || args[n-1] != "--generate-bash-completion" {
		return false
	}
	word, prefix := args[n-2], ""
	if word == "=" { // bash without bash-completion splits --host=VALUE at =
		word = args[n-3]
	} else if name, _, ok := strings.Cut(word, "="); ok {
		word, prefix = name, name+"="
	}
	if !strings.HasPrefix(word, "-") {
		return false
	}
	values := valuesOf(args[1], strings.TrimLeft(word, "-"), args[2:n-2])
	if values == nil {
		return false
	}
	for _, v := range values {
		fmt.Fprintln(stdout, prefix+v)
	}
	return true
}

// valuesOf are the values flag name of the command takes, given the
// other arguments (--scope's depend on --host); nil for a flag whose
// values are not a short list.
func valuesOf(command, name string, others []string) []string {
	switch name {
	case "host":
		if command == "install" || command == "uninstall" {
			return host.InstallableNames()
		}
		return nil
	case "protocol":
		return host.Names()
	case "dialect":
		return schema.Names()
	case "shell":
		return completion.Shells
	case "on-invalid":
		return []string{"block", "allow"}
	case "scope":
		hosts := host.Installable()
		if h, err := host.Lookup(valueOf("host", others)); err == nil && h.Install != nil {
			hosts = []host.Host{h}
		}
		var scopes []string
		for _, h := range hosts {
			for _, s := range h.Install.Scopes {
				if !slices.Contains(scopes, s.Name) {
					scopes = append(scopes, s.Name)
				}
			}
		}
		return scopes
	}
	return nil
}

// valueOf is the value given to flag name in args, "" when none is.
func valueOf(name string, args []string) string {
	for i, a := range args {
		if v, ok := strings.CutPrefix(strings.TrimLeft(a, "-"), name+"="); ok && strings.HasPrefix(a, "-") {
			return v
		}
		if strings.HasPrefix(a, "-") && strings.TrimLeft(a, "-") == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}
