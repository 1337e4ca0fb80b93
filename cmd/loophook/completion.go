package main

import (
	"io"

	"github.com/urfave/cli/v2"

	"github.com/loophook/loophook/hook/completion"
)

func completionCommand() *cli.Command {
	return &cli.Command{
		Name:  "completion",
		Usage: "print the shell completion script for bash or zsh",
		Description: "Prints a script that makes the shell complete loophook's commands and flags.\n" +
			"The bash script works best with the bash-completion package installed.\n\n" +
			"Examples:\n" +
			"   source <(loophook completion --shell bash)                # this bash session\n" +
			"   loophook completion --shell bash > ~/.local/share/bash-completion/completions/loophook\n" +
			"   loophook completion --shell zsh > \"${fpath[1]}/_loophook\"   # then restart zsh",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "shell", Usage: "the shell, `bash` or zsh (required)"},
		},
		Action: func(c *cli.Context) error {
			shell := c.String("shell")
			script, ok := completion.Scripts[shell]
			switch {
			case shell == "":
				return fail("loophook completion --shell bash", "--shell is required: bash or zsh")
			case !ok:
				return fail("", "--shell must be bash or zsh, not %q", shell)
			}
			_, err := io.WriteString(c.App.Writer, script)
			return err
		},
	}
}
