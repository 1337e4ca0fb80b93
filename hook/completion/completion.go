// Package completion holds the shell completion scripts loophook
// completion prints. After urfave/cli v2's autocomplete/bash_autocomplete
// and zsh_autocomplete with PROG set to loophook (fish's alike): the shell
// asks loophook itself for the words that fit, a flag's values included,
// through the hidden --generate-bash-completion flag.
package completion

import _ "embed"

var (
	//go:embed loophook.bash
	bash string
	//go:embed loophook.zsh
	zsh string
	//go:embed loophook.fish
	fish string
)

// Scripts are the completion scripts by the shell's name.
var Scripts = map[string]string{"bash": bash, "zsh": zsh, "fish": fish}

// Shells are the shells there is a script for, in the order help names them.
var Shells = []string{"bash", "zsh", "fish"}
