# tests/lib.sh - the helpers the shell suites share.  A suite sources it
# from the repository top (`. tests/lib.sh`) and may redefine any of them.
#   ok NAME, skip NAME WHY, fail NAME [DETAIL]: one "ok"/"FAIL" line each,
#       counted in $passed and $failed (a skip is an "ok NAME # skip WHY"
#       line, counted as passed: tests/run.sh counts them apart); fail
#       shows DETAIL's first $fail_lines lines (15 unless set), indented.
#   finish: the "N passed, N failed" line tests/run.sh reads; exits 1 if
#       anything failed, else 0.
#   add_counts NAME LOG: the counts of the "N passed, N failed" line of
#       LOG (a checker's output) added to the suite's; without one, a
#       failure "NAME gave no summary".
#   need_bin FILE: without the binary FILE the suite fails at once.
#   scratch NAME: $tmp, a new directory removed at exit (kept with KEEP=1).
#   run CMD...: stdout in $tmp/out, stderr in $tmp/err, status in $st; then
#       status_is NAME N; out_is / err_is NAME TEXT (the whole of it);
#       out_empty / err_empty NAME; out_has / out_lacks / err_has NAME ERE;
#       same NAME FILE1 FILE2 (byte for byte).
#   have_py; jget FILE EXPR and jcheck NAME FILE EXPR WANT: a python
#       expression over the JSON records L of FILE (skipped without python3).
passed=0
failed=0

ok() { echo "ok $1"; passed=$((passed + 1)); }
skip() { echo "ok $1 # skip $2"; passed=$((passed + 1)); }
fail() {
    echo "FAIL $1"
    [ -n "${2:-}" ] && printf '%s\n' "$2" | head -n "${fail_lines:-15}" | sed 's/^/    /'
    failed=$((failed + 1))
}
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

add_counts() {
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$2" | tail -n 1)
    if [ -z "$line" ]; then
        fail "$1 gave no summary" "$(tail -n 10 "$2")"
        return
    fi
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed}
    passed=$((passed + p)); failed=$((failed + f))
}

need_bin() { [ -x "$1" ] || { fail "no binary $1"; finish; }; }

# (made writable first: a test may leave a directory unreadable)
scratch() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgncheck-$1.XXXXXX") || exit 2
    [ -n "${KEEP:-}" ] || trap 'chmod -R u+rwx "$tmp" 2> /dev/null; rm -rf "$tmp"' EXIT INT TERM
}

run() { "$@" > "$tmp/out" 2> "$tmp/err"; st=$?; }
status_is() { [ "$st" -eq "$2" ] && ok "$1: exit $2" || fail "$1: exit $st, want $2" "$(cat "$tmp/err")"; }
out_is() { printf '%s\n' "$2" > "$tmp/want"; cmp -s "$tmp/want" "$tmp/out" && ok "$1: stdout" ||
    fail "$1: stdout" "$(diff "$tmp/want" "$tmp/out")"; }
err_is() { printf '%s\n' "$2" > "$tmp/want"; cmp -s "$tmp/want" "$tmp/err" && ok "$1: stderr" ||
    fail "$1: stderr" "$(diff "$tmp/want" "$tmp/err")"; }
out_empty() { [ ! -s "$tmp/out" ] && ok "$1: stdout empty" || fail "$1: stdout not empty" "$(cat "$tmp/out")"; }
err_empty() { [ ! -s "$tmp/err" ] && ok "$1: stderr empty" || fail "$1: stderr not empty" "$(cat "$tmp/err")"; }
out_has() { grep -q -E -e "$2" "$tmp/out" && ok "$1: stdout has /$2/" || fail "$1: stdout lacks /$2/" "$(cat "$tmp/out")"; }
out_lacks() { grep -q -E -e "$2" "$tmp/out" && fail "$1: stdout has /$2/" "$(cat "$tmp/out")" || ok "$1: stdout lacks /$2/"; }
err_has() { grep -q -E -e "$2" "$tmp/err" && ok "$1: stderr has /$2/" || fail "$1: stderr lacks /$2/" "$(cat "$tmp/err")"; }
same() { cmp -s "$2" "$3" && ok "$1" || fail "$1" "$(diff "$2" "$3" | head -n 10)"; }

have_py() { command -v python3 > /dev/null 2>&1; }
jget() { python3 -c 'import json,sys
L=[json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
print(eval(sys.argv[2]))' "$1" "$2"; }
jcheck() {
    if ! have_py; then skip "$1" "no python3"; return; fi
    got=$(jget "$2" "$3" 2>&1)
    [ "$got" = "$4" ] && ok "$1" || fail "$1: got '$got', want '$4'"
}
