# bash completion for loophook; load it with: source <(loophook completion bash)

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
