#!/bin/sh
# oom.sh - every allocation that fails ends clean (issue 19).
#
# Every allocation of the program goes through src/mem.h, whose test hook
# PGNCHECK_FAIL_ALLOC=N makes allocation N of the run fail (once), and
# PGNCHECK_FAIL_ALLOC=count makes none fail and says on standard error
# "pgncheck: allocations: C" at the end.  For each run below: the run
# without the hook, its count C, then the run with N = 1 to C.  Each must
# end in one of two ways:
#  - exit status 2 with "pgncheck: out of memory" on standard error
#    (what was written before that is not looked at: the run stopped), or
#  - exactly the run without the hook: exit status, standard output and
#    standard error byte for byte.  This is an allocation whose failure is
#    recovered by design: the table of repetition counts (rules.c: the
#    replay then looks back over the plies instead), the elements the
#    reader's movetext fast path reserves (pgn_movetext.c elems_reserve:
#    the slow path then reads the game, and asks again), and N = C + 1.
# Never anything else: no crash or timeout, no sanitizer report (leaks
# included: an out of memory frees what it held), and never exit 0 or 1
# with another output (a game lost or judged otherwise for want of memory,
# said nowhere).
#
# Runs (20): text, -f jsonl, -f tsv, --select=valid, --fix-results,
# --export, --duplicates, --strict, --unwin-nodes, -j1 and -j2, a regular
# file (whole, and in pieces), standard input from a pipe, a gzip file and
# gzip through a pipe, -r on a directory; the games hold variations,
# comments, a FEN start, errors, a wrong result, a duplicate and a long
# quiet repetition.
#
# N values: every one from 1 to C when C is at most $ALL (60; 30 under
# SANITIZED=1, whose runs are ~10 times slower), else a deterministic
# spread of $ALL: 1 to 10, the last 5, and the rest evenly spaced between
# (C / $ALL apart), so the first allocations (options, the run's set-up),
# the last (the summary and the frees) and the middle (per game and per
# batch, a pattern repeated for each of the 9 games) are all met.
# OOM_ALL=N sets the count; OOM_ALL=0 runs every N (C is about 70 to 170:
# some 1,800 runs, 30 s on an idle machine).
BIN=${BIN:-.}
P="$(cd "$BIN" && pwd)/pgncheck"
. tests/lib.sh
fail_lines=12
need_bin "$P"
scratch oom
if [ -n "${SANITIZED:-}" ] && [ "${SANITIZED:-}" != 0 ]; then
    ALL=${OOM_ALL:-30}
    TMO=120
else
    ALL=${OOM_ALL:-60}
    TMO=30
fi
# leaks are reports too; an exit status of the sanitizers' own is a crash
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:exitcode=99"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1:exitcode=98"
export LSAN_OPTIONS="${LSAN_OPTIONS:+$LSAN_OPTIONS:}exitcode=97"
unset PGNCHECK_FAIL_ALLOC

# ------------------------------------------------------------- the inputs
G="$tmp/games.pgn"
{
    # 1 a plain game, 1-0 by resignation
    printf '[Event "plain"]\n[Site "?"]\n[Date "2020.01.01"]\n[Round "1"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n'
    printf '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 1-0\n\n'
    # 2 variations, nested, with comments and NAGs
    printf '[Event "variations"]\n[Site "?"]\n[Date "2020.01.01"]\n[Round "2"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n'
    printf '1. d4 {the queen pawn} (1. e4 e5 (1... c5 2. Nf3 {Sicilian} d6) 2. Nf3) 1... d5 $1 2. c4 ; rest of line\n'
    printf 'e6 (2... c6 3. Nc3 (3. Nf3 Nf6) 3... Nf6) 3. Nc3 {a long comment to grow a buffer: %s} Nf6 *\n\n' \
        "$(printf 'x%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30)"
    # 3 from a FEN
    printf '[Event "fen"]\n[Site "?"]\n[Date "2020.01.01"]\n[Round "3"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n'
    printf '[SetUp "1"]\n[FEN "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"]\n\n1. Ra8# 1-0\n\n'
    # 4 a wrong result: Black mates, 1-0 declared
    printf '[Event "wrong result"]\n[Site "?"]\n[Date "2020.01.01"]\n[Round "4"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n\n'
    printf '1. f3 e5 2. g4 Qh4# 1-0\n\n'
    # 5 an illegal move
    printf '[Event "illegal"]\n[Site "?"]\n[Date "2020.01.01"]\n[Round "5"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n'
    printf '1. e4 e5 2. Ke3 Nc6 *\n\n'
    # 6 game 1 again (--duplicates)
    printf '[Event "again"]\n[Site "?"]\n[Date "2020.01.02"]\n[Round "6"]\n[White "c"]\n[Black "d"]\n[Result "1-0"]\n\n'
    printf '1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 1-0\n\n'
    # 7 broken syntax, then a game read again after it
    printf '[Event "broken"\n[Site "?"]\n\n1. e4 e5 2. Nf3 ) Nc6 @@ 3. Bc4 *\n\n'
    # 8 dated 1990: the knights go back and forth for 124 plies, past the
    # fivefold repetition (the older laws let it go on) and with the
    # clock past 100 plies (the repetition table)
    printf '[Event "quiet"]\n[Site "?"]\n[Date "1990.01.01"]\n[Round "8"]\n[White "a"]\n[Black "b"]\n[Result "1/2-1/2"]\n\n'
    i=0
    while [ "$i" -lt 31 ]; do
        printf '%d. Nf3 Nf6 %d. Ng1 Ng8\n' $((2 * i + 1)) $((2 * i + 2))
        i=$((i + 1))
    done
    printf '1/2-1/2\n\n'
    # 9 White lost on time with K+B v K+B on opposite colours: Black can
    # mate only by a helpmate, which the search (--unwin-nodes) finds
    printf '[Event "flag"]\n[Site "?"]\n[Date "2020.01.01"]\n[Round "9"]\n[White "a"]\n[Black "b"]\n[Result "0-1"]\n'
    printf '[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/8/2B1Kb2 w - - 0 1"]\n[Termination "time forfeit"]\n\n1. Kd1 Bg2 0-1\n\n'
} > "$G"
mkdir -p "$tmp/dir/sub" "$tmp/dir/empty"
cp "$G" "$tmp/dir/a.pgn"
gzip -c "$G" > "$tmp/dir/sub/b.pgn.gz"
printf 'not a game\n' > "$tmp/dir/notes.txt"
cp "$tmp/dir/sub/b.pgn.gz" "$tmp/games.pgn.gz"

# ---------------------------------------------------------------- the runs
# name|how the input is given|options.  file: $G named; pieces: the same
# cut in pieces of 400 bytes (-j2 checks them at once); pipe: $G on a
# pipe; gz: the gzip file named; gzpipe: it on a pipe; dir: -r on $tmp/dir.
RUNS='text|file|-j1
jsonl|file|-j1 -f jsonl
tsv|file|-j1 -f tsv
jsonl -j2|file|-j2 -f jsonl
pieces -j2|pieces|-j2 -f tsv
valid|file|-j1 --select=valid
fix-results|file|-j1 --fix-results
fix-results -j2|file|-j2 --fix-results
export|file|-j1 --export
export -j2|pipe|-j2 --export --select=valid
duplicates|file|-j1 -f jsonl --duplicates
duplicates -j2|file|-j2 --duplicates
strict|file|-j1 --strict
unwin|file|-j1 -f jsonl --unwin-nodes=2000
pipe|pipe|-j1 -f jsonl
pipe -j2|pipe|-j2
gzip|gz|-j1 -f tsv
gzip pipe|gzpipe|-j1
dir|dir|-j1 -r -f jsonl --stats
dir -j2|dir|-j2 -r -s'

# one run: $1 input kind, $2 options, $3 the hook (or empty); output in
# $tmp/o, $tmp/e, the exit status in st
run1() {
    (
        [ -n "$3" ] && PGNCHECK_FAIL_ALLOC=$3 && export PGNCHECK_FAIL_ALLOC
        case $1 in
        file) exec timeout "$TMO" "$P" $2 "$G" ;;
        pieces) PGNCHECK_PIECE=400 exec timeout "$TMO" "$P" $2 "$G" ;;
        pipe) cat "$G" | timeout "$TMO" "$P" $2 - ;;
        gz) exec timeout "$TMO" "$P" $2 "$tmp/games.pgn.gz" ;;
        gzpipe) cat "$tmp/games.pgn.gz" | timeout "$TMO" "$P" $2 ;;
        dir) cd "$tmp" && exec timeout "$TMO" "$P" $2 dir ;;
        esac
    ) > "$tmp/o" 2> "$tmp/e"
    st=$?
    # the seconds a run took are no part of its output here
    for f in o e; do
        sed -E 's/"seconds":[0-9.]+/"seconds":S/; s/; [0-9.]+ s, [0-9]+ games\/s$/; S/' "$tmp/$f" > "$tmp/$f.n" &&
            mv "$tmp/$f.n" "$tmp/$f"
    done
}

# the N values for a count C
values() {
    awk -v c="$1" -v all="$ALL" 'BEGIN {
        if (all == 0 || c <= all) { for (n = 1; n <= c; n++) print n; exit }
        for (n = 1; n <= 10; n++) print n
        k = all - 15; step = (c - 15) / (k + 1)
        for (i = 1; i <= k; i++) { n = int(10 + i * step); if (n > 10 && n <= c - 5) print n }
        for (n = c - 4; n <= c; n++) if (n > 10) print n
    }' | uniq
}

total_oom=0
total_n=0
echo "$RUNS" | {
    while IFS='|' read -r name kind opts; do
        run1 "$kind" "$opts" ""
        st0=$st
        mv "$tmp/o" "$tmp/o0"
        mv "$tmp/e" "$tmp/e0"
        if [ "$st0" -gt 2 ] || grep -q 'Sanitizer\|runtime error' "$tmp/e0"; then
            fail "$name: exit $st0 without the hook" "$(cat "$tmp/e0")"
            continue
        fi
        run1 "$kind" "$opts" count
        c=$(sed -n 's/^pgncheck: allocations: \([0-9]*\)$/\1/p' "$tmp/e" | tail -n 1)
        sed '/^pgncheck: allocations: [0-9]*$/d' "$tmp/e" > "$tmp/e1"
        if [ -z "$c" ] || [ "$st" != "$st0" ] || ! cmp -s "$tmp/o" "$tmp/o0" || ! cmp -s "$tmp/e1" "$tmp/e0"; then
            fail "$name: PGNCHECK_FAIL_ALLOC=count changes the run (exit $st0/$st)" "$(tail -n 3 "$tmp/e")"
            continue
        fi
        oom=0 same=0 bad=0 list=
        for n in $(values "$c") $((c + 1)); do
            run1 "$kind" "$opts" "$n"
            total_n=$((total_n + 1))
            if grep -q 'Sanitizer\|runtime error' "$tmp/e"; then
                why="a sanitizer report"
            elif [ "$st" -eq 2 ] && grep -q '^pgncheck: out of memory$' "$tmp/e"; then
                oom=$((oom + 1))
                continue
            elif [ "$st" = "$st0" ] && cmp -s "$tmp/o" "$tmp/o0" && cmp -s "$tmp/e" "$tmp/e0"; then
                same=$((same + 1))
                continue
            elif [ "$st" -eq 124 ]; then
                why="no end in $TMO s"
            elif [ "$st" -gt 2 ]; then
                why="exit $st (a crash)"
            else
                why="exit $st (without: $st0), another output, no out of memory"
            fi
            bad=$((bad + 1))
            [ "$bad" -le 3 ] && list="${list:+$list
}N=$n: $why
$( { diff "$tmp/e0" "$tmp/e"; diff "$tmp/o0" "$tmp/o"; } | grep '^[<>]' | head -n 3)"
        done
        total_oom=$((total_oom + oom))
        if [ "$bad" -eq 0 ]; then
            ok "$name: $c allocations, $oom failures out of memory, $same recovered (exit $st0)"
        else
            fail "$name: $c allocations, $bad of the failures end badly" "$list"
        fi
    done
    # the suite must be able to fail: the hook made runs fail
    [ "$total_oom" -gt 0 ] && ok "the hook: $total_oom runs out of memory in $total_n" ||
        fail "the hook made no run fail in $total_n"
    finish
}
