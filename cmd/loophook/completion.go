package main

import (
	"io"

	"github.com/urfave/cli/v2"
)

// Completion scripts, after urfave/cli v2's autocomplete/bash_autocomplete and
// zsh_autocomplete with PROG set to loophook: the shell asks loophook itself
// for the words that fit, through the hidden --generate-bash-completion flag.
var completionScripts = map[string]string{
	"bash": `# bash completion for loophook; load it with: source <(loophook completion --shell bash)

_loophook_bash_autocomplete() {
  if [[ "${COMP_WORDS[0]}" != "source" ]]; then
    local cur opts words cword
    COMPREPLY=()
    if declare -F _init_completion >/dev/null 2>&1; then
      _init_completion -n "=:" || return
    else
      # Without the bash-completion package, as the shell splits the line.
      cur="${COMP_WORDS[COMP_CWORD]}"
      words=("${COMP_WORDS[@]}")
      cword=$COMP_CWORD
    fi
    words=("${words[@]:0:$cword}")
    if [[ "$cur" == "-"* ]]; then
      opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
    else
      opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
    fi
    COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
    return 0
  fi
}

complete -o bashdefault -o default -o nospace -F _loophook_bash_autocomplete loophook
`,
	"zsh": `#compdef loophook
# zsh completion for loophook; load it with: source <(loophook completion --shell zsh)
# or save it as _loophook in a directory of $fpath.

_loophook() {
  local -a opts
  local cur
  cur=${words[-1]}
  if [[ "$cur" == "-"* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion)}")
  fi

  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}

if [[ "${funcstack[1]}" == "_loophook" ]]; then
  # Autoloaded from $fpath: this file is the completion function itself.
  _loophook "$@"
else
  compdef _loophook loophook
fi
`,
}

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
			script, ok := completionScripts[shell]
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
