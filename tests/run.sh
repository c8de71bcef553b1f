#!/bin/sh
# Runs every test against the binaries under $1 (the repository root or a
# sanitizer build tree) and ends with "N passed, N failed".
# Each suite prints lines "ok ..." / "FAIL ..." and its own "N passed, N failed".
bin=${1:-.}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
passed=0
failed=0
log=$(mktemp "${TMPDIR:-/tmp}/pgncheck-test.XXXXXX")
trap 'rm -f "$log"' EXIT INT TERM
run_suite() {
    name=$1; shift
    "$@" > "$log" 2>&1
    status=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "FAIL $name: no summary line (exit $status)"; sed 's/^/    /' "$log" | tail -n 20
        failed=$((failed + 1)); return
    fi
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed}
    passed=$((passed + p)); failed=$((failed + f))
    if [ "$f" -ne 0 ] || [ "$status" -ne 0 ]; then
        grep -E '^(FAIL|not ok)' "$log" | head -n 40 | sed "s/^/[$name] /"
        [ "$f" -eq 0 ] && { echo "FAIL $name: exit $status"; failed=$((failed + 1)); }
    fi
    echo "$name: $line"
}
for t in tests/suites/*.sh; do
    [ -f "$t" ] || continue
    n=$(basename "$t" .sh)
    run_suite "$n" env BIN="$bin" SANITIZED="${SANITIZED:-}" sh "$t"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
