# pgncheck.bash - bash completion for pgncheck (installed by make install
# as share/bash-completion/completions/pgncheck).  The options and the
# codes are asked of the program itself (--help, --list-checks), so the
# completion always matches the binary on the PATH.

_pgncheck_options()
{
    pgncheck --help 2> /dev/null |
        sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z0-9-]*=\{0,1\}\).*/\2/p'
}

_pgncheck()
{
    local cur prev word values
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD-1]}
    COMPREPLY=()
    # "--opt=value" as one word (COMP_WORDBREAKS without '=') or three
    if [[ $cur == --*=* ]]; then
        word=${cur%%=*}
        cur=${cur#*=}
    elif [[ $cur == = ]]; then
        word=$prev
        cur=
    elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
        word=${COMP_WORDS[COMP_CWORD-2]}
    elif [[ $prev == -f || $prev == -o || $prev == -j ]]; then
        word=$prev
    else
        word=
    fi
    case $word in
    --ignore|--error|--warn)
        # a comma-separated list: complete its last item
        local head=
        [[ $cur == *,* ]] && head=${cur%,*},
        values="note warning error $(pgncheck --list-checks 2> /dev/null | awk '{ print $1 }')"
        COMPREPLY=($(compgen -P "$head" -W "$values" -- "${cur##*,}"))
        ;;
    -f|--format) COMPREPLY=($(compgen -W "text jsonl tsv github" -- "$cur")) ;;
    --select) COMPREPLY=($(compgen -W "valid invalid unique" -- "$cur")) ;;
    --min-severity) COMPREPLY=($(compgen -W "note warning error" -- "$cur")) ;;
    --color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")) ;;
    --rules) COMPREPLY=($(compgen -W "auto 2014 1997" -- "$cur")) ;;
    -j|--jobs|--unwin-nodes|--duplicates-memory|--label) ;;
    -o|--output|--report|--baseline|--write-baseline|--summary-md)
        COMPREPLY=($(compgen -f -- "$cur"))
        ;;
    *)
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$(_pgncheck_options)" -- "$cur"))
            # an option that takes a value: no space after its '='
            [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2> /dev/null
        else
            COMPREPLY=($(compgen -f -X '!*.@(pgn|PGN|pgn.gz|pgn.xz|pgn.bz2|pgn.zst)' -- "$cur") $(compgen -d -- "$cur"))
        fi
        ;;
    esac
}
complete -F _pgncheck pgncheck
