#!/bin/sh
# cascades.sh - one mistake, one error (issue 18): no game of the real corpus
# (../shared/corpus and the repository's corpus/) gets two diagnostics of
# severity warning or error that stem from one token (tests/cascades.py
# says what counts), and the counter itself finds what it should.
# The cases of each pattern, with hand-worked expectations, are in
# corpus/cascades/ (run by laws.sh).
# Run from the repository root with BIN=. (about 5 seconds on two cores).
#   PGNCHECK_CORPUS    the shared corpus (default ../shared/corpus)
BIN=${BIN:-.}
P="$BIN/pgncheck"
. tests/lib.sh

need_bin "$P"
if ! command -v python3 > /dev/null 2>&1; then
    echo "note: python3 not available: cascades suite skipped"
    finish
fi
scratch cascades

# 1. The counter, on canned output (a stand-in for pgncheck that prints it):
#    game 1 has two diagnostics at 2:4 (a cascade) and a missing-tag at the
#    game's start beside a tag diagnostic (about the whole roster: not one);
#    game 2 has a diagnostic inside the token "Kx" that another starts
#    (one token) and a missing-tag naming the White tag that tag-name-case
#    says is ignored (the same fact twice).  Three cascades in two games.
printf '[Event "e"]\n1. Kx e5 *\n[white "w"]\n1. Kxe5 *\n' > "$tmp/c.pgn"
j1='{"type":"game","file":"'$tmp/c.pgn'","index":1,"diagnostics":['
j1=$j1'{"code":"missing-tag","severity":"warning","line":1,"column":1,"ply":null,"move":null,"message":"the Seven Tag Roster lacks Site"},'
j1=$j1'{"code":"duplicate-tag","severity":"warning","line":1,"column":1,"ply":null,"move":null,"message":"tag Event appears more than once"},'
j1=$j1'{"code":"bad-move","severity":"error","line":2,"column":4,"ply":1,"move":"Kx","message":"1. Kx: not a move"},'
j1=$j1'{"code":"missing-termination","severity":"error","line":2,"column":4,"ply":null,"move":null,"message":"no marker"}]}'
j2='{"type":"game","file":"'$tmp/c.pgn'","index":2,"diagnostics":['
j2=$j2'{"code":"tag-name-case","severity":"warning","line":3,"column":1,"ply":null,"move":null,"message":"tag \"white\" is not \"White\": tag names are case-sensitive, so it is ignored"},'
j2=$j2'{"code":"missing-tag","severity":"warning","line":3,"column":1,"ply":null,"move":null,"message":"the Seven Tag Roster lacks White"},'
j2=$j2'{"code":"illegal-move","severity":"error","line":4,"column":4,"ply":1,"move":"Kxe5","message":"1. Kxe5: illegal"},'
j2=$j2'{"code":"capture-mark-surplus","severity":"warning","line":4,"column":6,"ply":1,"move":"Kxe5","message":"x"}]}'
printf '%s\n%s\n' "$j1" "$j2" > "$tmp/c.jsonl"
printf '#!/bin/sh\ncat "%s"\n' "$tmp/c.jsonl" > "$tmp/fake"
chmod +x "$tmp/fake"
python3 tests/cascades.py "$tmp/fake" "$tmp/c.pgn" > "$tmp/self.out" 2>&1
st=$?
if [ "$st" -eq 1 ] && grep -q '^3 cascades in 2 games' "$tmp/self.out" &&
    grep -q 'same position  bad-move + missing-termination' "$tmp/self.out" &&
    grep -q 'one token      capture-mark-surplus + illegal-move' "$tmp/self.out" &&
    grep -q 'ignored tag    missing-tag + tag-name-case' "$tmp/self.out"; then
    ok "counter finds the three canned cascades and not the game-wide missing-tag"
else
    fail "counter on canned output (exit $st):"
    sed 's/^/    /' "$tmp/self.out"
fi

# 2. A genuinely independent second defect at one token is still said: a
#    UCI move (its own warning, with the SAN) marked + although it gives no
#    check (check-mark-wrong: a false mark, not one the notation left out).
printf '[Event "e"]\n[Site "s"]\n[Date "?"]\n[Round "?"]\n[White "w"]\n[Black "b"]\n[Result "*"]\n\n1. e2e4+ e7e5 *\n' \
    > "$tmp/mark.pgn"
out=$("$P" -f jsonl "$tmp/mark.pgn")
if printf '%s' "$out" | grep -q '"code":"uci-move","severity":"warning","line":9,"column":4' &&
    printf '%s' "$out" | grep -q '"code":"check-mark-wrong","severity":"warning","line":9,"column":4'; then
    ok "a false + on a UCI move is still check-mark-wrong beside uci-move"
else
    fail "false mark on a UCI move: $out"
fi

# 3. The corpus: no cascade.  (The plain build only: under the sanitizers
#    the 90,000 games take minutes; the case files run there via laws.sh.)
if [ "${SANITIZED:-}" = 1 ]; then
    echo "note: corpus-wide cascade count skipped in the sanitizer build"
    finish
fi
corpus=${PGNCHECK_CORPUS:-../shared/corpus}
if [ ! -d "$corpus" ]; then
    echo "note: no shared corpus at $corpus: only corpus/ is counted"
    corpus=
fi
# shellcheck disable=SC2086
python3 tests/cascades.py --list --jobs 2 "$P" $corpus corpus > "$tmp/corpus.out" 2>&1
st=$?
summary=$(tail -n 1 "$tmp/corpus.out")
if [ "$st" -eq 0 ]; then
    ok "corpus: $summary"
else
    fail "corpus (exit $st): $summary"
    head -n 40 "$tmp/corpus.out" | sed 's/^/    /'
fi
finish
