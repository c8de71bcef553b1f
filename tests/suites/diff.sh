#!/bin/sh
# Differential suite: pgncheck against chessops (an independent rules and PGN
# library by the lichess authors) over the real games in ../shared/corpus,
# plus the hand-checked regression cases in corpus/diff/ that pin every
# investigated disagreement. See tests/diff/README.
# Run from the repository root with BIN=. or BIN=build/san.
#   DIFF_FULL=1        compare every file under real/ (~90,000 games, minutes)
#   PGNCHECK_CORPUS    the shared corpus (default ../shared/corpus)
#   PGNCHECK_PEER_DIR  where chessops is installed (default
#                      ${XDG_CACHE_HOME:-$HOME/.cache}/pgncheck-peers)
BIN=${BIN:-.}
P="$BIN/pgncheck"
CHESSOPS_VERSION=0.15.1
. tests/lib.sh
note() { echo "note: $1"; }

need_bin "$P"
if ! command -v python3 > /dev/null 2>&1; then
    note "python3 not available: diff suite skipped"
    finish
fi

# 1. Regression cases: corpus/diff/NAME.pgn against NAME.expect (no peer needed).
for pgn in corpus/diff/*.pgn; do
    [ -f "$pgn" ] || continue
    exp=${pgn%.pgn}.expect
    if [ ! -f "$exp" ]; then
        fail "diff-case $(basename "$pgn"): no .expect beside it"
        continue
    fi
    out=$(python3 tests/diff/expect.py "$P" "$pgn" "$exp" 2>&1)
    st=$?
    if [ "$st" -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^FAIL '; then
        fail "diff-case $(basename "$pgn"): expect.py exit $st"
        printf '%s\n' "$out" | tail -n 5 | sed 's/^/    /'
        continue
    fi
    while IFS= read -r line; do
        case $line in
            "ok "*) ok "diff-case ${line#ok }" ;;
            "FAIL "*) fail "diff-case ${line#FAIL }" ;;
            *) [ -n "$line" ] && echo "    $line" ;;
        esac
    done <<EOF
$out
EOF
done

# 2. The differential run, when the peer can be had.
skip() { note "chessops differential run skipped: $1"; finish; }
[ "${SANITIZED:-}" = 1 ] && skip "sanitizer build (too slow; the normal build runs it)"
corpus=${PGNCHECK_CORPUS:-../shared/corpus}
[ -d "$corpus/real" ] || skip "no corpus at $corpus/real"
command -v node > /dev/null 2>&1 || skip "node not installed"
peer=${PGNCHECK_PEER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/pgncheck-peers}
have_peer() {
    [ -f "$peer/node_modules/chessops/package.json" ] &&
        grep -q "\"version\": \"$CHESSOPS_VERSION\"" "$peer/node_modules/chessops/package.json"
}
if ! have_peer; then
    command -v npm > /dev/null 2>&1 || skip "chessops not installed and no npm"
    mkdir -p "$peer" 2> /dev/null || skip "cannot create $peer"
    timeout 180 npm install --prefix "$peer" --no-audit --no-fund --silent \
        --fetch-retries=1 --fetch-timeout=30000 "chessops@$CHESSOPS_VERSION" > /dev/null 2>&1 ||
        skip "npm install chessops@$CHESSOPS_VERSION failed (no network?)"
    have_peer || skip "chessops $CHESSOPS_VERSION not found in $peer after npm install"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgncheck-diff.XXXXXX") || exit 2
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT INT TERM
if [ "${DIFF_FULL:-}" = 1 ]; then
    find "$corpus/real" -type f \( -name '*.pgn' -o -name '*.PGN' \) | LC_ALL=C sort > "$tmp/files"
else
    # A subset that runs in well under a minute (~25,000 games): every file
    # holding a known disagreement, and each source's small files.
    find "$corpus/real/gh-dhtmlchess" "$corpus/real/gh-pychess" "$corpus/real/gh-tcec" \
        "$corpus/real/gh-scalachess" "$corpus/real/gh-mliebelt-pgn-parser" \
        "$corpus/real/gh-lichess-twic-samples" -type f \( -name '*.pgn' -o -name '*.PGN' \) 2> /dev/null > "$tmp/files"
    for n in 05 13 14 20 21; do
        f="$corpus/real/gh-chesscom-daily/chesscom-daily-$n.pgn"
        [ -f "$f" ] && echo "$f" >> "$tmp/files"
    done
    for f in AlphaZero-Stockfish_game92 Philidor Morphy Tal; do
        g="$corpus/real/gh-pgnmentor-players/$f.pgn"
        [ -f "$g" ] && echo "$g" >> "$tmp/files"
    done
    LC_ALL=C sort -o "$tmp/files" "$tmp/files"
fi
[ -s "$tmp/files" ] || skip "no PGN files under $corpus/real"

# shellcheck disable=SC2046
python3 tests/diff/compare.py --bin "$BIN" --peer-dir "$peer" --tsv "$tmp/dis.tsv" \
    $(cat "$tmp/files") > "$tmp/report" 2> "$tmp/err"
st=$?
if [ "$st" -ge 2 ]; then
    fail "diff: compare.py exit $st"
    sed 's/^/    /' "$tmp/err" | tail -n 10
    finish
fi
sed -n 's/^\(games\|compared\|agreements\|disagreements\): /note: \1: /p' "$tmp/report"
compared=$(sed -n 's/^compared: \([0-9]*\).*/\1/p' "$tmp/report")
if [ "${compared:-0}" -gt 0 ]; then
    ok "diff: $compared games compared with chessops $CHESSOPS_VERSION"
else
    fail "diff: no game compared"
fi
while read -r tag cls total right bug; do
    [ "$tag" = CLASS ] || continue
    new=$((total - right - bug))
    if [ "$new" -eq 0 ]; then
        ok "diff class $cls: $total disagreements, all investigated ($right pgncheck right, $bug pgncheck bugs reported)"
    else
        fail "diff class $cls: $new of $total disagreements not in tests/diff/known.tsv"
        awk -F '\t' -v c="$cls" '$3 == c && $4 == "new" { print "    " $1 ":" $2 ": " $5 }' "$tmp/dis.tsv" | head -n 3
    fi
done < "$tmp/report"
grep '^STALE ' "$tmp/report" | head -n 5 | sed 's/^STALE /note: known.tsv entry no longer disagrees: /'
finish
