#!/bin/sh
# Docs suite: every example of README.md and man/pgncheck.1 is run, and
# what it prints is what the document shows.
#
# An example is a line "$ COMMAND" in a code block (README: a ``` fence or
# a block indented by 4 spaces; man page: a .Bd -literal display, roff
# escapes undone); the lines after it, up to the next "$ " line or the end
# of the block, are its output: standard output and standard error as a
# terminal shows them (2>&1), never nothing.  A line "run: pgncheck ..." in a block (a CI
# step) is run for its exit status only: 0 where it names a --baseline
# (the CI recipe: the baseline committed in corpus/examples holds every
# finding), and its --summary-md file written.  A command that starts with
# ./pgncheck runs in the repository (the README's first example names
# files of corpus/); the others run as written from the top of a fresh
# clone, with pgncheck installed: a scratch directory holding a copy of
# corpus/examples (the only files they name), pgncheck on the PATH.
# Times ("0.00 s, 9082 games/s") are the only text not compared.
# Run from the repository root with BIN=. or BIN=build/san.
BIN=${BIN:-.}
D=tests/cli
. tests/lib.sh
scratch docs
fail_lines=20
need_bin "$BIN/pgncheck"
bindir=$(cd "$BIN" && pwd)
top=$(pwd)

# The code blocks of each document, one "@@ SOURCE" line before each.
{
    awk '
        /^```/ { if (fence) fence = 0; else { fence = 1; print "@@ README.md:" NR } next }
        fence { print; next }
        /^    / { if (!ind) print "@@ README.md:" NR; ind = 1; print substr($0, 5); next }
        { ind = 0 }
    ' README.md
    awk '
        /^\.Bd -literal/ { lit = 1; print "@@ man/pgncheck.1:" NR; next }
        /^\.Ed/ { lit = 0; next }
        lit { print }
    ' man/pgncheck.1 | sed 's/\\(aq/'"'"'/g; s/\\&//g; s/\\-/-/g; s/\\e/\\/g'
} > "$tmp/blocks"

# Each example into $tmp/ex/N.cmd, N.src and (when it shows output) N.want.
mkdir -p "$tmp/ex"
awk -v dir="$tmp/ex" '
    function close_cur() { if (cur) { close(cur ".want"); cur = "" } }
    /^@@ / { close_cur(); src = $2; next }
    /^\$ / {
        close_cur(); n++; cur = dir "/" n
        print substr($0, 3) > (cur ".cmd"); close(cur ".cmd")
        print src > (cur ".src"); close(cur ".src")
        printf "" > (cur ".want")
        next
    }
    /^ *(- )?run: pgncheck / {
        close_cur(); n++
        c = $0; sub(/^ *(- )?run: /, "", c)
        print c > (dir "/" n ".cmd"); close(dir "/" n ".cmd")
        print src > (dir "/" n ".src"); close(dir "/" n ".src")
        next
    }
    cur { print > (cur ".want") }
' "$tmp/blocks"

n_ex=$(ls "$tmp/ex" | grep -c '\.cmd$')
n_out=$(for f in "$tmp/ex"/*.want; do [ -s "$f" ] && echo; done | wc -l | tr -d ' ')
# README: the output sample, 5 in Formats, the CI step, parallel; the man
# page: 7 in EXAMPLES and the CI step
[ "$n_ex" -ge 15 ] && ok "examples found: $n_ex, $n_out with output" || fail "examples found: only $n_ex"

ex="$tmp/scratch"
times='s/[0-9][0-9.]* s, [0-9][0-9]* games\/s/T s, N games\/s/'
i=0
while [ "$i" -lt "$n_ex" ]; do
    i=$((i + 1))
    cmd=$(cat "$tmp/ex/$i.cmd")
    where=$(cat "$tmp/ex/$i.src")
    case $cmd in
    *parallel*) command -v parallel > /dev/null 2>&1 || { skip "$where: $cmd" "GNU parallel not installed"; continue; } ;;
    esac
    case $cmd in
    *jq*) command -v jq > /dev/null 2>&1 || { skip "$where: $cmd" "jq not installed"; continue; } ;;
    esac
    # a fresh scratch directory for each (examples write files)
    rm -rf "$ex"; mkdir -p "$ex/corpus"
    cp -R corpus/examples "$ex/corpus/"
    case $cmd in
    ./pgncheck*) dir=$top; cmd="\"$bindir/pgncheck\"${cmd#./pgncheck}" ;;
    *) dir=$ex ;;
    esac
    rm -f "$tmp/summary.md"
    (cd "$dir" && PATH="$bindir:$PATH" GITHUB_STEP_SUMMARY="$tmp/summary.md" sh -c "$cmd") > "$tmp/got" 2>&1
    s=$?
    # exit 0 or 1 (the sample data has errors), never trouble
    if [ "$s" -gt 1 ]; then
        fail "$where: exit $s: $cmd" "$(cat "$tmp/got")"
        continue
    fi
    if [ ! -f "$tmp/ex/$i.want" ]; then
        case $cmd in
        *--baseline=*) [ "$s" -eq 0 ] || { fail "$where: exit $s with the baseline: $cmd" "$(cat "$tmp/got")"; continue; } ;;
        esac
        case $cmd in
        *--summary-md=*) grep -q '^| file | games' "$tmp/summary.md" 2> /dev/null ||
            { fail "$where: no summary written: $cmd" "$(cat "$tmp/got")"; continue; } ;;
        esac
        ok "$where: runs (exit $s): $cmd"
        continue
    fi
    # an example shows what it prints: one that shows nothing is a
    # command without its result (or one that prints nothing, as
    # "pgncheck -q -f jsonl | jq 'select(.type == \"game\")'" did)
    if [ ! -s "$tmp/ex/$i.want" ]; then
        fail "$where: shows no output: $cmd" "$(head -n 5 "$tmp/got")"
        continue
    fi
    sed "$times" "$tmp/ex/$i.want" > "$tmp/want"
    sed "$times" "$tmp/got" > "$tmp/gotn"
    if cmp -s "$tmp/want" "$tmp/gotn"; then
        ok "$where: output as shown: $cmd"
    else
        fail "$where: output differs (- shown, + real): $cmd" "$(diff "$tmp/want" "$tmp/gotn")"
    fi
done

finish
