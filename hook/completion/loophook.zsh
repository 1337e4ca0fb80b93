#compdef loophook
# zsh completion for loophook; load it with: source <(loophook completion zsh)
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
