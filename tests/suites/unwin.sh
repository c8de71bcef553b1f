#!/bin/sh
# unwin.sh - "can this colour ever checkmate?" (src/unwin.c; R22, R29, R43):
# the hand-worked cases of tests/unwin/cases.txt, every question decided,
# and a sample of CHA's public test vector (every 20th position, both
# colours; every 60th under the sanitizers): no unsound verdict (unwinnable
# where the vector says winnable), every helpmate replayed to a mate, at
# least 89% of the questions decided at 200,000 nodes (82% of the smaller
# sample, where the hardest weigh more); and
# tests/unwin/budget.txt, positions too hard for 20,000 nodes: each must
# end at its budget, undetermined (never unwinnable).  The whole vector is
# `make unwin-full`.
# Ends with "N passed, N failed"; exits non-zero on any failure.
BIN=${BIN:-.}
T="$BIN/tests/test_unwin"
vector=${PGNCHECK_CORPUS:-../shared/corpus}/edge/gh-d3-chess/test-vector.txt
if [ -n "${SANITIZED:-}" ] && [ "${SANITIZED:-}" != 0 ]; then
    every=60 minpct=82
else
    every=20 minpct=89
fi
passed=0
failed=0
status=0
for args in "tests/unwin/cases.txt 1 200000 100" "-u tests/unwin/budget.txt 20000" "$vector $every 200000 $minpct"; do
    set -- $args
    f=$1
    [ "$1" = -u ] && f=$2
    if [ ! -f "$f" ]; then
        echo "ok unwin $f # skip: not found"
        passed=$((passed + 1))
        continue
    fi
    out=$("$T" "$@" 2>&1)
    rc=$?
    echo "$out" | grep -v '^# undetermined' | grep -v '^[0-9]* passed'
    if [ "$rc" -eq 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1)); status=1
    fi
done
echo "$passed passed, $failed failed"
exit $status
