#!/bin/sh
# cascades.sh - one mistake, one error (issues 18, 31): no game of the real
# corpus (../shared/corpus and the repository's corpus/) gets two
# diagnostics of severity warning or error that stem from one token, share
# a tag, or of which one is caused by the other (tests/cascades.py says
# what counts), and the counter itself finds what it should.  Also: the
# severities of moves-after-end after a draw the result confirms (issue
# 31), and an open error said once on a terminal.
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
#    says is ignored (the same fact twice); game 3 (issue 31) a bad-tag in
#    the Black pair and a missing-tag naming Black (same tag), and a first
#    move numbered 6 with the main line's stop after it (caused), but not
#    the illegal move of a variation (ply 5, the main line has 1); game 4
#    moves after the end and the wrong result (caused).  Six cascades in
#    four games.
printf '[Event "e"]\n1. Kx e5 *\n[white "w"]\n1. Kxe5 *\n[Black ""x""]\n6.f3 Ne5 (1... e5 2. e4 e5) *\n' > "$tmp/c.pgn"
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
j3='{"type":"game","file":"'$tmp/c.pgn'","index":3,"plies":1,"diagnostics":['
j3=$j3'{"code":"missing-tag","severity":"warning","line":5,"column":1,"ply":null,"move":null,"message":"the Seven Tag Roster lacks Site, Black"},'
j3=$j3'{"code":"bad-tag","severity":"error","line":5,"column":10,"ply":null,"move":null,"message":"tag pair not closed by ]"},'
j3=$j3'{"code":"move-number","severity":"warning","line":6,"column":1,"ply":1,"move":"f3","message":"move number 6, but this is move 1 of White"},'
j3=$j3'{"code":"illegal-move","severity":"error","line":6,"column":6,"ply":2,"move":"Ne5","message":"1... Ne5: illegal"},'
j3=$j3'{"code":"illegal-move","severity":"error","line":6,"column":24,"ply":5,"move":"e5","message":"3... e5: illegal"}]}'
j4='{"type":"game","file":"'$tmp/c.pgn'","index":4,"plies":4,"diagnostics":['
j4=$j4'{"code":"moves-after-end","severity":"error","line":6,"column":1,"ply":5,"move":"Nc3","message":"over"},'
j4=$j4'{"code":"wrong-result","severity":"error","line":6,"column":9,"ply":null,"move":null,"message":"Result 1-0 contradicts checkmate"}]}'
printf '%s\n%s\n%s\n%s\n' "$j1" "$j2" "$j3" "$j4" > "$tmp/c.jsonl"
printf '#!/bin/sh\ncat "%s"\n' "$tmp/c.jsonl" > "$tmp/fake"
chmod +x "$tmp/fake"
python3 tests/cascades.py "$tmp/fake" "$tmp/c.pgn" > "$tmp/self.out" 2>&1
st=$?
if [ "$st" -eq 1 ] && grep -q '^6 cascades in 4 games' "$tmp/self.out" &&
    grep -q 'same position  bad-move + missing-termination' "$tmp/self.out" &&
    grep -q 'one token      capture-mark-surplus + illegal-move' "$tmp/self.out" &&
    grep -q 'ignored tag    missing-tag + tag-name-case' "$tmp/self.out" &&
    grep -q '1  same tag       bad-tag + missing-tag' "$tmp/self.out" &&
    grep -q '1  caused         illegal-move + move-number' "$tmp/self.out" &&
    grep -q '1  caused         moves-after-end + wrong-result' "$tmp/self.out"; then
    ok "counter finds the six canned cascades and not the game-wide missing-tag"
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

# 2b. Moves after an automatic draw in a game declared 1/2-1/2 (R22 dead
#    position, R45 and FIDE 9.6: corpus/laws/R41-draw-then-moves.pgn, game
#    1: 1.Kxd2 leaves K+B v K, 1...Kd5 2.Ke3 follow): a warning by default;
#    --werror, --strict and --error=moves-after-end make it an error,
#    --warn=moves-after-end keeps it a warning under --werror, --ignore
#    hides it.
dr=corpus/laws/R41-draw-then-moves.pgn
for c in ":warning" "--werror:error" "--strict:error" "--error=moves-after-end:error" \
    "--warn=moves-after-end --werror:warning" "--ignore=moves-after-end:none" "--ignore=warning:none"; do
    opts=${c%:*} want=${c##*:}
    # shellcheck disable=SC2086
    got=$("$P" $opts "$dr" 2>&1 | sed -n 's/^[^ ]*:11:9: \([a-z]*\): 1\.\.\. Kd5 and 1 more move: .*\[moves-after-end\]$/\1/p')
    [ -z "$got" ] && got=none
    [ "$got" = "$want" ] && ok "moves after a confirmed draw with '${opts:-no option}': $want" ||
        fail "moves after a confirmed draw with '${opts:-no option}': $got, want $want"
done

# 2c. An input that cannot be opened: said once on a terminal (the text
#    diagnostic and stderr's line reach the same one), twice where stdout
#    and stderr part (the finding on stdout, the line on stderr).
if command -v script > /dev/null 2>&1 && script -qc true /dev/null > /dev/null 2>&1; then
    script -qc "$P $tmp/no-such.pgn" "$tmp/tty" > /dev/null 2>&1
    n=$(grep -c 'No such file' "$tmp/tty")
    [ "$n" -eq 1 ] && ok "an open error is said once on a terminal" ||
        fail "an open error on a terminal: $n lines" "$(cat "$tmp/tty")"
else
    echo "note: script(1) not available: the terminal case is skipped"
fi
"$P" "$tmp/no-such.pgn" > "$tmp/o" 2> "$tmp/e"
if grep -q 'open-error' "$tmp/o" && grep -q 'no-such\.pgn' "$tmp/e"; then
    ok "an open error, stdout and stderr apart: the finding and the line"
else
    fail "an open error, stdout and stderr apart" "$(cat "$tmp/o" "$tmp/e")"
fi
"$P" --select=valid "$tmp/no-such.pgn" > "$tmp/o" 2> "$tmp/e"
n=$(grep -c 'no-such\.pgn' "$tmp/e")
[ "$n" -eq 1 ] && ok "an open error under --select (diagnostics on stderr): said once" ||
    fail "an open error under --select: $n lines on stderr" "$(cat "$tmp/e")"

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
