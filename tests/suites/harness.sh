#!/bin/sh
# Harness suite: what tests/run.sh reports, on made-up suites in a scratch
# copy of the tree: a test skipped is not counted as passed, a suite that
# passed nothing is "skipped" with its reason (never "passed"), a failure
# fails the pass, and --total prints each pass, the skipped suites and one
# total, and fails when a pass is missing.
. tests/lib.sh
fail_lines=20
scratch harness
mkdir -p "$tmp/tests/suites"
cp tests/run.sh "$tmp/tests/"
cd "$tmp" || exit 2
# a: two tests, one skipped; b: skips itself whole; c: one test, a part
# not run and a count that is no skip; d: (added below) a failure; e:
# runs nothing under SANITIZED (which the first pass here has empty, also
# when this suite runs in make check).
cat > tests/suites/a.sh <<'EOF'
echo "ok one"; echo "ok two # skip no frobnicator"; echo "2 passed, 0 failed"
EOF
cat > tests/suites/b.sh <<'EOF'
echo "note: b suite skipped: python3 is not installed"; echo "0 passed, 0 failed"
EOF
cat > tests/suites/c.sh <<'EOF'
echo "ok x"; echo "note: the peer run skipped: node not installed"
echo "note: compared: 12 (skipped as variants by both: 3)"; echo "1 passed, 0 failed"
EOF
cat > tests/suites/e.sh <<'EOF'
[ -n "$SANITIZED" ] && { echo "0 passed, 0 failed"; exit 0; }; echo "ok z"; echo "1 passed, 0 failed"
EOF
SANITIZED= TEST_TOTALS=tot sh tests/run.sh . "pass 1 of 2: normal" > out1 2>&1; s1=$?
SANITIZED=1 TEST_TOTALS=tot sh tests/run.sh . "pass 2 of 2: sanitizers" > out2 2>&1; s2=$?
sh tests/run.sh --total tot 2 > total 2>&1; s3=$?
# pass 1: a 1 passed (1 skipped), b skipped, c 1, e 1: 3 passed, 1 test
# and 1 suite skipped; pass 2 the same but e skipped: 2 passed, 2 suites.
cat > want1 <<'EOF'
== pass 1 of 2: normal: tests/suites/*.sh with the binaries in .
a: 1 passed, 0 failed (1 skipped; not run: no frobnicator)
b: skipped: b suite skipped: python3 is not installed
c: 1 passed, 0 failed (not run: the peer run skipped: node not installed)
e: 1 passed, 0 failed
pass 1 of 2: normal: 3 passed, 0 failed; skipped: 1 tests, 1 suites
3 passed, 0 failed
EOF
cmp -s want1 out1 && ok "a pass: each suite, skips apart, the pass's count" || fail "pass 1 report" "$(diff want1 out1)"
[ "$s1" -eq 0 ] && [ "$s2" -eq 0 ] && ok "passes without failures: exit 0" || fail "exit $s1 $s2"
grep -q '^e: skipped: it ran no test$' out2 && ok "a suite that ran nothing: skipped" || fail "e in pass 2" "$(cat out2)"
cat > want3 <<'EOF'
pass 1 of 2: normal: 3 passed, 0 failed; skipped: 1 tests, 1 suites
pass 2 of 2: sanitizers: 2 passed, 0 failed; skipped: 1 tests, 2 suites
suites skipped:
  b (pass 1 of 2: normal): b suite skipped: python3 is not installed
  b (pass 2 of 2: sanitizers): b suite skipped: python3 is not installed
  e (pass 2 of 2: sanitizers): it ran no test
all passes: 5 passed, 0 failed; skipped: 2 tests, 3 suites
5 passed, 0 failed
EOF
cmp -s want3 total && [ "$s3" -eq 0 ] && ok "--total: both passes, the skipped suites, one total" || fail "--total (exit $s3)" "$(diff want3 total)"
# a failing suite fails its pass and the total
cat > tests/suites/d.sh <<'EOF'
echo "ok x"; echo "FAIL y"; echo "1 passed, 1 failed"; exit 1
EOF
rm -f tot
SANITIZED= TEST_TOTALS=tot sh tests/run.sh . "p" > out4 2>&1; s4=$?
sh tests/run.sh --total tot 1 > total4 2>&1; s5=$?
grep -q '^\[d\] FAIL y$' out4 && [ "$s4" -ne 0 ] && ok "a failure: shown, the pass fails" || fail "failing suite (exit $s4)" "$(cat out4)"
tail -n 1 total4 | grep -q '^4 passed, 1 failed$' && [ "$s5" -ne 0 ] && ok "a failure: the total fails" || fail "total with a failure (exit $s5)" "$(cat total4)"
# a pass that never wrote its counts (its build failed) fails the total
rm tests/suites/d.sh; rm -f tot
SANITIZED= TEST_TOTALS=tot sh tests/run.sh . "p" > /dev/null 2>&1
sh tests/run.sh --total tot 2 > total5 2>&1; s6=$?
grep -q '^FAIL 1 of 2 passes did not run to their end$' total5 && [ "$s6" -ne 0 ] && ok "--total: a missing pass fails" ||
    fail "missing pass (exit $s6)" "$(cat total5)"

finish
