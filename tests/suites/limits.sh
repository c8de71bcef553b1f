#!/bin/sh
# limits.sh - the limits a user sets (ulimit -v, ulimit -n) never change a
# verdict silently.
#
# 1. An allocation failure is never a silent verdict.
# Under `ulimit -v` (address space from 4 to 40 MB) pgncheck checks a
# 240,000-ply game and a game after it.  At every limit the run either
# checks both games whole (exit 0, the long game's 240,000 plies) or says
# "pgncheck: out of memory" and exits 2; never an exit 0/1 with a game
# cut short or called invalid for want of memory and nothing said (issue
# 23, found 4: the old binary gave reason "invalid" with no message at
# 9-11 MB, and a game cut at 65,536 or 131,072 plies at 7-8 and 12 MB).
# Plain build only: the sanitizers reserve terabytes of address space.
#
# 2. Under a low open-file limit -j2 checks every file -j1 does: inputs in
# flight keep their files open until written, so on EMFILE the queue is
# written and the open tried again (issue 23, found 5: at ulimit -n 4 the
# old binary reported 99 of 124 files as "Too many open files").
#
# 3. PGNCHECK_FAIL_ALLOC=N, each N in turn: the same verdicts or "out of
# memory" and exit 2 (see below).
BIN=${BIN:-.}
P="$BIN/pgncheck"
. tests/lib.sh
fail_lines=8
scratch limits
mkdir "$tmp/many"
i=0
for f in corpus/laws/*.pgn; do
    i=$((i + 1))
    [ "$i" -le 124 ] || break
    cp "$f" "$tmp/many/$(printf '%03d' "$i").pgn"
done
while [ "$i" -lt 124 ]; do
    i=$((i + 1))
    cp tests/cli/good.pgn "$tmp/many/$(printf '%03d' "$i").pgn"
done
"$P" -j1 "$tmp"/many/*.pgn > "$tmp/o1" 2> "$tmp/e1"
s1=$?
for n in 4 7; do
    (ulimit -n "$n" 2> /dev/null && exec "$P" -j2 "$tmp"/many/*.pgn) > "$tmp/o2" 2> "$tmp/e2"
    s2=$?
    if [ "$s1" = "$s2" ] && cmp -s "$tmp/o1" "$tmp/o2" && cmp -s "$tmp/e1" "$tmp/e2"; then
        ok "ulimit -n $n: -j2 on 124 files equals -j1 (exit $s1)"
    else
        fail "ulimit -n $n: -j2 on 124 files differs from -j1 (exit $s1/$s2)" \
            "$(grep -c 'Too many open files' "$tmp/e2") files not opened; $(diff "$tmp/o1" "$tmp/o2" | head -n 3)"
    fi
done
# 3. Every allocation of the funnel (src/mem.h) made to fail in turn
# (PGNCHECK_FAIL_ALLOC=N, N = 1, 2, ... until a run needs no more): a short
# game, a 600-element game with 12 duplicate tags (reader findings past the
# first 8), a variation and long-algebraic moves (the checker's findings),
# and a short game, in each format at -j1 and -j2.  Each run gives the
# whole run's output (exit 0), or "out of memory" and exit 2 with only
# lines the whole run has too: no finding or record dropped silently, no
# verdict on a game not wholly checked, no record cut short.
awk 'BEGIN {
    r = "[Site \"?\"]\n[Date \"1990.01.01\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n";
    printf "[Event \"one\"]\n%s\n1. e2e4 e5 2. Nf3 (2. d4 exd4) 2... Nc6 *\n\n[Event \"two\"]\n%s", r, r;
    for (i = 0; i < 12; i++) printf "[Annotator \"x%d\"]\n", i;
    printf "\n1. e4 e5 (1... c5 2. Nf3) ";
    for (i = 0; i < 150; i++) printf "%d. Nf3 Nf6 %d. Ng1 Ng8 ", 2 * i + 2, 2 * i + 3;
    printf "*\n\n[Event \"three\"]\n%s\n1. g1f3 d5 *\n", r;
}' > "$tmp/oom.pgn"
for fj in text:1 text:2 jsonl:1 jsonl:2 tsv:1 tsv:2 github:1 github:2; do
    f=${fj%:*} j=${fj#*:}
    "$P" -j$j -f $f "$tmp/oom.pgn" | grep -v '"type":"summary"' > "$tmp/whole"
    n=1 bad=
    while [ "$n" -le 1000 ]; do
        PGNCHECK_FAIL_ALLOC=$n "$P" -j$j -f $f "$tmp/oom.pgn" > "$tmp/out" 2> "$tmp/err"
        st=$?
        grep -v '"type":"summary"' "$tmp/out" > "$tmp/recs"
        [ "$st" -ne 2 ] && break
        grep -qx 'pgncheck: out of memory' "$tmp/err" || bad="$bad n=$n: exit 2, nothing said;"
        grep -vxqF -f "$tmp/whole" "$tmp/recs" && bad="$bad n=$n: a record the whole run has not;"
        n=$((n + 1))
    done
    if [ "$st" -ne 0 ] || ! cmp -s "$tmp/recs" "$tmp/whole" || grep -q 'out of memory' "$tmp/err"; then
        bad="$bad n=$n: exit $st, not the whole run;"
    fi
    [ -z "$bad" ] && ok "-f $f -j$j: allocations 1 to $((n - 1)) failed in turn: out of memory or the same output" ||
        fail "-f $f -j$j: an allocation failure changed the output" "$bad"
done
if [ -n "${SANITIZED:-}" ]; then
    echo "ok memlimit # skip: the sanitizer build cannot run under ulimit -v"
    echo "$((passed + 1)) passed, $failed failed"
    [ "$failed" -eq 0 ]
    exit
fi
# 60,000 times "Nf3 Nf6 Ng1 Ng8": dated 1990, so the older laws let the
# game go on past the fivefold repetition to its end (R45).
awk 'BEGIN {
    printf "[Event \"long\"]\n[Site \"?\"]\n[Date \"1990.01.01\"]\n[Round \"1\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"1/2-1/2\"]\n\n";
    for (i = 0; i < 60000; i++) printf "%d. Nf3 Nf6 %d. Ng1 Ng8\n", 2 * i + 1, 2 * i + 2;
    printf "1/2-1/2\n\n[Event \"after\"]\n[Site \"?\"]\n[Date \"?\"]\n[Round \"2\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 *\n";
}' > "$tmp/long.pgn"
whole=0
cut=0
for kb in 4000 5000 6000 7000 8000 9000 10000 11000 12000 14000 16000 20000 30000 40000; do
    (ulimit -v "$kb" 2> /dev/null && exec "$P" -j1 -f jsonl "$tmp/long.pgn") > "$tmp/out" 2> "$tmp/err"
    st=$?
    if [ "$st" -eq 2 ] && grep -q '^pgncheck: out of memory$' "$tmp/err"; then
        cut=$((cut + 1))
        ok "ulimit -v $kb: out of memory, said, exit 2"
    elif [ "$st" -eq 0 ] && grep -q '"plies":240000,' "$tmp/out" && grep -q '"event":"after"' "$tmp/out"; then
        whole=$((whole + 1))
        ok "ulimit -v $kb: both games checked whole"
    else
        fail "ulimit -v $kb: exit $st, neither whole nor 'out of memory'" \
            "$(cat "$tmp/err"; grep -o '"reason":"[a-z-]*","plies":[0-9]*' "$tmp/out")"
    fi
done
# the range must hold both kinds, or it no longer tests the failure path
[ "$whole" -gt 0 ] && [ "$cut" -gt 0 ] && ok "limits both too small ($cut) and enough ($whole)" ||
    fail "the limits do not straddle the need: $cut out of memory, $whole whole"
finish
