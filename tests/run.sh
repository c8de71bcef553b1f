#!/bin/sh
# Runs every test against the binaries under $1 (the repository root or a
# sanitizer build tree), under the heading $2 (the pass: "normal build",
# ...), and ends with "N passed, N failed".
# Each suite prints lines "ok ..." / "FAIL ..." and its own "N passed, N
# failed"; a test it could not run is "ok ... # skip REASON" and a part it
# could not run a line "note: ... skipped ...".  Here a skipped test is not
# counted as passed, and a suite that passed nothing is said to be skipped,
# with its reason, never passed.
# With TEST_TOTALS set, the pass's counts and skipped suites are added to
# that file; "tests/run.sh --total FILE [PASSES]" then prints the passes'
# counts, the suites skipped and why, and one total, failing if fewer
# than PASSES passes (default 1) wrote their counts (make test does this).
if [ "${1:-}" = --total ]; then
    f=$2
    [ -f "$f" ] || { echo "tests/run.sh: no test counts in $f"; echo "0 passed, 1 failed"; exit 1; }
    awk -F '\t' -v want="${3:-1}" '
        $1 == "pass" {
            passes++; p += $3; x += $4; s += $5; ss += $6
            printf "%s: %d passed, %d failed; skipped: %d tests, %d suites\n", $2, $3, $4, $5, $6
        }
        $1 == "skip" { skips[++n] = "  " $3 " (" $2 "): " $4 }
        $1 == "fail" { fails[++m] = "  [" $3 "] (" $2 "): " $4 }
        END {
            if (passes < want) { printf "FAIL %d of %d passes did not run to their end\n", want - passes, want; x++ }
            if (n) { print "suites skipped:"; for (i = 1; i <= n; i++) print skips[i] }
            if (m) { print "tests failed:"; for (i = 1; i <= m; i++) print fails[i] }
            printf "all passes: %d passed, %d failed; skipped: %d tests, %d suites\n", p, x, s, ss
            printf "%d passed, %d failed\n", p, x
            exit x > 0
        }' "$f"
    exit $?
fi
bin=${1:-.}
label=${2:-tests}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
passed=0
failed=0
skipped=0
suites_skipped=0
log=$(mktemp "${TMPDIR:-/tmp}/pgncheck-test.XXXXXX")
trap 'rm -rf "$log" "$log.skips"' EXIT INT TERM
: > "$log.skips"
echo "== $label: tests/suites/*.sh with the binaries in $bin"
run_suite() {
    name=$1; shift
    "$@" > "$log" 2>&1
    status=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "FAIL $name: no summary line (exit $status)"; sed 's/^/    /' "$log" | tail -n 20
        printf 'fail\t%s\t%s\tno summary line (exit %s)\n' "$label" "$name" "$status" >> "$log.skips"
        failed=$((failed + 1)); return
    fi
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed}
    # tests skipped, and why: "ok NAME # skip WHY" lines, "note: ... skipped"
    # lines (not a count such as "note: compared: 9 (skipped as variants: 2)")
    k=$(grep -c '^ok .* # skip ' "$log")
    why=$( { sed -n 's/^ok .* # skip //p' "$log"; sed -n 's/^note: \([^(]*skipped.*\)$/\1/p' "$log"; } |
           awk '!seen[$0]++' | head -n 3 | awk 'NR > 1 { printf "; " } { printf "%s", $0 } END { print "" }')
    p=$((p - k))
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + k))
    if [ "$f" -ne 0 ] || [ "$status" -ne 0 ]; then
        grep -E '^(FAIL|not ok)' "$log" | head -n 40 | sed "s/^/[$name] /"
        # the failures again at the very end of make test, where a CI log's tail shows them
        grep -E '^(FAIL|not ok)' "$log" | head -n 10 | cut -c 1-300 |
            awk -v l="$label" -v n="$name" '{ printf "fail\t%s\t%s\t%s\n", l, n, $0 }' >> "$log.skips"
        [ "$f" -eq 0 ] && { echo "FAIL $name: exit $status"; failed=$((failed + 1));
            printf 'fail\t%s\t%s\tFAIL exit %s\n' "$label" "$name" "$status" >> "$log.skips"; }
    fi
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
        [ -n "$why" ] || why=$(grep -m 1 '^note: ' "$log" | sed 's/^note: //')
        [ -n "$why" ] || why="it ran no test"
        echo "$name: skipped: $why"
        suites_skipped=$((suites_skipped + 1))
        printf 'skip\t%s\t%s\t%s\n' "$label" "$name" "$why" >> "$log.skips"
    elif [ "$k" -gt 0 ]; then
        echo "$name: $p passed, $f failed ($k skipped; not run: $why)"
    elif [ -n "$why" ]; then
        echo "$name: $p passed, $f failed (not run: $why)"
    else
        echo "$name: $p passed, $f failed"
    fi
}
for t in tests/suites/*.sh; do
    [ -f "$t" ] || continue
    n=$(basename "$t" .sh)
    run_suite "$n" env BIN="$bin" SANITIZED="${SANITIZED:-}" sh "$t"
done
if [ -n "${TEST_TOTALS:-}" ]; then
    printf 'pass\t%s\t%d\t%d\t%d\t%d\n' "$label" "$passed" "$failed" "$skipped" "$suites_skipped" >> "$TEST_TOTALS"
    cat "$log.skips" >> "$TEST_TOTALS"
fi
echo "$label: $passed passed, $failed failed; skipped: $skipped tests, $suites_skipped suites"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
