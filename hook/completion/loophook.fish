# fish completion for loophook; load it with: loophook completion fish | source
# or save it as ~/.config/fish/completions/loophook.fish

function __loophook_complete
    set -l words (commandline -opc)
    set -l cur (commandline -ct)
    set -l opts
    if string match -q -- '-*' $cur
        set opts ($words $cur --generate-bash-completion 2>/dev/null)
    else
        set opts ($words --generate-bash-completion 2>/dev/null)
    end
    if test (count $opts) -gt 0
        printf '%s\n' $opts
    else
        __fish_complete_path $cur
    end
end

complete -c loophook -f -a '(__loophook_complete)'
