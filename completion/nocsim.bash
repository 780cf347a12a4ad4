# bash completion for nocsim: commands, db subcommands, plot figures and
# every command's flags.  The flags are read from `nocsim CMD --help` when
# completing, so they are always the ones the installed binary takes (one
# option table per command drives both its parser and its --help).
_nocsim()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local bin=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]:-} words
    if [ "$COMP_CWORD" -eq 1 ]; then
        words=$("$bin" --help 2>/dev/null | awk '/^commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }')
        COMPREPLY=($(compgen -W "$words --help --version" -- "$cur"))
        return
    fi
    local -a help=("$cmd")
    case $cmd in
        db|plot)
            if [ "$COMP_CWORD" -eq 2 ]; then
                if [ "$cmd" = db ]; then
                    words=$("$bin" db --help 2>/dev/null | awk '/^subcommands:/ { f = 1; next } f && /^  [a-z]/ { print $1 } f && /^$/ { f = 0 }')
                else
                    words="stack generations runs load"
                fi
                COMPREPLY=($(compgen -W "$words" -- "$cur"))
                return
            fi
            help+=("${COMP_WORDS[2]}") ;;
        sweep)
            # `nocsim sweep [ga|load] ...`: the runs' command first
            if [ "$COMP_CWORD" -eq 2 ] && [[ $cur != -* ]]; then
                COMPREPLY=($(compgen -W "ga load" -- "$cur"))
                return
            fi ;;
        cc)
            case ${COMP_WORDS[2]:-} in
                bounds) help+=(bounds) ;;
                verify|cycles) help+=(verify x) ;;
            esac
            if [ "$COMP_CWORD" -eq 2 ] && [[ $cur != -* ]]; then
                COMPREPLY=($(compgen -W "bounds verify cycles" -- "$cur"))
                return
            fi ;;
    esac
    if [[ $cur == -* ]]; then
        words=$("$bin" "${help[@]}" --help 2>/dev/null |
                sed -n -E 's/^  (-[a-zA-Z], |    )(--[a-z][a-z0-9-]*).*/\2/p')
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
        return
    fi
    # a value: names where the choices are few, else files
    local traffic="bcmp brev brot shfl torn trns randperm file:"
    [ "$cmd" = load ] || [ "$cmd ${COMP_WORDS[2]:-}" = "sweep load" ] &&
        traffic="uniform $traffic bitcomp bitrev shuffle transpose tornado neighbor"
    case $prev in
        --format) words="text json csv" ;;
        --traffic) words=$traffic ;;
        --topology)
            if [ "$cmd" = cc ]; then words="ring: mesh: torus: hypercube: octagon kautz: file:"
            else words="torus mesh"; fi ;;
        --kind) words="ga load cc sweep replay" ;;
        --table) words="run generations chromosomes points" ;;
        --vc-rule) words="any dateline" ;;
        --routing) words="dor yx o1turn valiant romm west-first north-last negative-first odd-even min-adaptive dor2" ;;
        --selection) words="credits random first" ;;
        --self) words="skip send" ;;
        --tie) words="nowrap plus minus" ;;
        --process) words="bernoulli periodic onoff:" ;;
        --cc) words="oab oas aab aas mnb mns" ;;
        --algo) if [ "$cmd" = cc ]; then words="sa umda ga hgsa"; else words="local paper"; fi ;;
        --switching) words="wh sf" ;;
    esac
    # a choice whose names its --help line lists ("--topology torus|mesh"):
    # the option table's own names (cli/opt_group.c), before any list above
    local choice
    choice=$("$bin" "${help[@]}" --help 2>/dev/null |
             sed -n -E "s/^  (-[a-zA-Z], |    )$prev ([a-zA-Z0-9-]+(\|[a-zA-Z0-9-]+)+)( .*)?\$/\2/p" | head -1)
    [ -n "$choice" ] && words=${choice//|/ }
    if [ -n "${words:-}" ]; then
        compopt +o filenames 2>/dev/null
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
        [[ ${COMPREPLY[0]:-} == *: ]] && compopt -o nospace 2>/dev/null
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _nocsim nocsim
