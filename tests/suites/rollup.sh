#!/bin/sh
# --max-repeats: a warning or note repeated in many games of an input is
# printed for the first N games (text) or N times (github), then summed up
# (text: a line at the input's end; github: a notice per code at the end);
# errors always in text; jsonl and tsv keep every record; the same output
# at any -j.  tag-name-case: one warning a game naming every tag.  Then,
# with the shared corpus: the figures.
# Run from the repository root with BIN=. or BIN=build/san.
BIN=${BIN:-.}
P="$BIN/pgncheck"
. tests/lib.sh
scratch rollup
need_bin "$P"

# Inputs built here: a.pgn, 12 games that lack Round (one warning each),
# 7 of them (2, 4, ..., 12... see below) with tag names in lower case, and
# games 3, 6, 9, 12 with an illegal move; b.pgn, 3 games that lack Round.
game() {  # $1 index, $2 "lower" or "", $3 "illegal" or ""
    if [ "$2" = lower ]; then
        printf '[event "e%s"]\n[site "s"]\n[Date "2000.01.01"]\n[white "w"]\n[Black "b"]\n[Result "*"]\n\n' "$1"
    else
        printf '[Event "e%s"]\n[Site "s"]\n[Date "2000.01.01"]\n[White "w"]\n[Black "b"]\n[Result "*"]\n\n' "$1"
    fi
    if [ "$3" = illegal ]; then printf '1. e4 e5 2. Ke3 *\n\n'; else printf '1. e4 e5 *\n\n'; fi
}
: > "$tmp/a.pgn"
i=1
while [ $i -le 12 ]; do
    low=; [ $i -le 7 ] && low=lower
    bad=; [ $((i % 3)) -eq 0 ] && bad=illegal
    game $i "$low" "$bad" >> "$tmp/a.pgn"
    i=$((i + 1))
done
: > "$tmp/b.pgn"
for i in 1 2 3; do game $i "" "" >> "$tmp/b.pgn"; done
cd "$tmp" || exit 2
P=$(cd "$OLDPWD" && cd "$BIN" && pwd)/pgncheck

# ---------------------------------------------------------------- text
run "$P" a.pgn b.pgn
status_is "text" 1
# missing-tag: games 1-5 of a.pgn, then a line for the 7 others; all 3 of b.pgn
[ "$(grep -c '^a.pgn:[0-9]*:1: warning: the Seven Tag Roster lacks Round \[missing-tag\]$' out)" = 5 ] &&
    ok "text: missing-tag for the first 5 games" || fail "text: missing-tag" "$(cat out)"
out_has "text: the roll-up line" '^a\.pgn: warning: \.\.\. and 7 more games of this file lack Round \[missing-tag\]$'
[ "$(grep -c '^b.pgn:[0-9]*:1: warning: the Seven Tag Roster lacks Round' out)" = 3 ] &&
    ok "text: each input counts apart" || fail "text: per input" "$(cat out)"
out_lacks "text: no roll-up for b.pgn" '^b\.pgn: warning: \.\.\.'
# the roll-up closes a.pgn: after its last game's lines, before b.pgn's
awk '/^a\.pgn: warning: \.\.\. and 7 more/ { r = NR } /^b\.pgn/ && !b { b = NR } /^a\.pgn:[0-9]/ { a = NR }
     END { exit !(r > a && r < b) }' out && ok "text: the roll-up at the end of its input" || fail "text: roll-up place" "$(cat out)"
# errors: every one (4 illegal moves)
[ "$(grep -c ': error: .*\[illegal-move\]$' out)" = 4 ] && ok "text: every error printed" || fail "text: errors" "$(cat out)"
# tag-name-case: one warning a game, naming all its tags (games 1-5 shown)
[ "$(grep -c '^a.pgn:[0-9]*:1: warning: .*\[tag-name-case\]$' out)" = 5 ] && ok "text: tag-name-case once a game" || fail "text: tag-name-case" "$(cat out)"
out_has "text: tag-name-case names every tag" \
    '^a\.pgn:1:1: warning: 3 tag names in the wrong case \(tag names are case-sensitive\); honoured: event, site, white \[tag-name-case\]$'
out_has "text: its roll-up" '^a\.pgn: warning: \.\.\. and 2 more games of this file: .* \[tag-name-case\]$'
run "$P" --max-repeats=0 a.pgn b.pgn
[ "$(grep -c '\[missing-tag\]$' out)" = 15 ] && ok "--max-repeats=0: every line" || fail "--max-repeats=0" "$(cat out)"
out_lacks "--max-repeats=0: no roll-up" '\.\.\. and'
run "$P" --max-repeats=2 a.pgn
[ "$(grep -c 'lacks Round \[missing-tag\]$' out)" = 2 ] && ok "--max-repeats=2" || fail "--max-repeats=2" "$(cat out)"
out_has "--max-repeats=2: 10 more" '^a\.pgn: warning: \.\.\. and 10 more games of this file lack Round'
# notes count too (--min-severity=note); the output is the same at -j1, -j2
# and in small pieces
for f in text github; do
    "$P" -j1 -f $f --min-severity=note a.pgn b.pgn a.pgn > j1.$f 2>&1
    PGNCHECK_PIECE=300 "$P" -j2 -f $f --min-severity=note a.pgn b.pgn a.pgn > j2.$f 2>&1
    same "$f: -j2 in pieces = -j1" j1.$f j2.$f
    cat a.pgn b.pgn | PGNCHECK_PIECE=300 "$P" -j2 -f $f - > p2.$f 2>&1
    cat a.pgn b.pgn | "$P" -j1 -f $f - > p1.$f 2>&1
    same "$f: a pipe at -j2 = -j1" p1.$f p2.$f
done

# ---------------------------------------------------------------- github
run "$P" -f github a.pgn b.pgn
[ "$(grep -c '^::warning file=a.pgn,.*title=missing-tag::' out)" = 5 ] && ok "github: 5 of a code in a file" ||
    fail "github: 5 a file" "$(cat out)"
[ "$(grep -c '^::error file=a.pgn,.*title=illegal-move::' out)" = 4 ] && ok "github: errors under 5 all there" ||
    fail "github: errors" "$(cat out)"
[ "$(grep -c '^::warning file=b.pgn,.*title=missing-tag::' out)" = 3 ] && ok "github: each file apart" || fail "github: b.pgn"
out_has "github: a notice per code with its count" \
    '^::notice title=missing-tag::15 warnings in 15 games of 2 files; 7 not annotated above \(--max-repeats=0 annotates all\)$'
[ "$(grep -c '^::notice title=' out)" = 2 ] && ok "github: notices only for codes cut short" || fail "github: notices" "$(cat out)"
run "$P" -f github --max-repeats=1 a.pgn
[ "$(grep -c '^::error' out)" = 1 ] && ok "github: errors too" || fail "github: errors cut" "$(cat out)"
out_has "github: the error code's notice" '^::notice title=illegal-move::4 errors in 4 games of 1 file; 3 not annotated'

# ---------------------------------------------------------------- records
for f in jsonl tsv; do
    "$P" -f $f --max-repeats=0 a.pgn b.pgn | grep -v '"type":"summary"' > all.$f
    "$P" -f $f --max-repeats=1 a.pgn b.pgn | grep -v '"type":"summary"' > one.$f
    same "$f: every record whatever --max-repeats" all.$f one.$f
done
[ "$(grep -c 'missing-tag' all.jsonl)" = 15 ] && ok "jsonl: every missing-tag" || fail "jsonl: missing-tag"

for v in -1 x 1.5 ""; do
    run "$P" --max-repeats="$v" a.pgn
    status_is "--max-repeats=$v refused" 2
done

# ---------------------------------------------------------------- the shared corpus
# The figures: GitHub output at most ~1,000 lines with every error
# code annotated; at most a tenth of the warning lines of --max-repeats=0;
# every error line still printed.  (Normal build only: too slow under ASan.)
corpus=${PGNCHECK_CORPUS:-$OLDPWD/../shared/corpus}/real
if [ "${SANITIZED:-}" = 1 ]; then
    skip "shared corpus figures" "sanitizer build (the normal build runs it)"
elif [ ! -d "$corpus" ]; then
    skip "shared corpus figures" "no $corpus"
else
    "$P" -r -f github "$corpus" > gh.out 2> /dev/null
    n=$(wc -l < gh.out)
    [ "$n" -le 1000 ] && ok "corpus: $n lines of github output" || fail "corpus: $n lines of github output"
    "$P" -r -f jsonl "$corpus" 2> /dev/null | grep -o '"code":"[a-z0-9-]*","severity":"error"' | sort -u |
        sed 's/"code":"\([^"]*\)".*/\1/' > err.codes
    missing=
    while read -r c; do grep -q "^::error .*,title=$c::" gh.out || missing="$missing $c"; done < err.codes
    [ -z "$missing" ] && [ -s err.codes ] && ok "corpus: every error code annotated ($(wc -l < err.codes))" ||
        fail "corpus: error codes not annotated:$missing"
    "$P" -r "$corpus" > t5.out 2> /dev/null
    "$P" -r --max-repeats=0 "$corpus" > t0.out 2> /dev/null
    w5=$(grep -c ': warning: ' t5.out); w0=$(grep -c ': warning: ' t0.out)
    [ $((w5 * 10)) -le "$w0" ] && ok "corpus: $w5 warning lines, all $w0" || fail "corpus: $w5 warning lines of $w0"
    grep ': error: ' t5.out > e5; grep ': error: ' t0.out > e0
    same "corpus: every error line printed ($(wc -l < e0))" e0 e5
fi

finish
