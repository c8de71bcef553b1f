#!/bin/sh
# core.sh - the rules core: unit cases (FEN, SAN, rules queries, SAN round trip) and perft vectors.
# Run from the repository root with BIN set to the tree holding tests/unit and tests/perft
# (. or build/san). SANITIZED=1 picks smaller depths for the ~5-10x slower sanitizer build.
# Ends with one combined "N passed, N failed" line; exits non-zero on any failure.
BIN=${BIN:-.}
if [ -n "${SANITIZED:-}" ] && [ "${SANITIZED:-}" != 0 ]; then
    std_depth=3; c960_depth=3; stride=8
else
    std_depth=3; c960_depth=4; stride=4
fi
passed=0
failed=0
status=0
out=$(mktemp "${TMPDIR:-/tmp}/pgncheck-core.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT INT TERM

# Runs one program, echoes its output (its own summary line turned into a
# comment) and adds its counts to the totals.
run() {
    "$@" > "$out" 2>&1
    rc=$?
    sed 's/^\([0-9][0-9]* passed, [0-9][0-9]* failed\)$/# \1/' "$out"
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$out" | tail -n 1)
    if [ -z "$line" ]; then
        echo "FAIL $*: no summary line (exit $rc)"
        failed=$((failed + 1)); status=1
        return
    fi
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed}
    passed=$((passed + p)); failed=$((failed + f))
    if [ "$rc" -ne 0 ]; then
        status=1
        if [ "$f" -eq 0 ]; then
            echo "FAIL $*: exit $rc"
            failed=$((failed + 1))
        fi
    fi
}

run "$BIN/tests/unit" -s "$stride" tests
run "$BIN/tests/perft" tests/epd/standard.epd "$std_depth"
run "$BIN/tests/perft" tests/epd/chess960.epd "$c960_depth"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
