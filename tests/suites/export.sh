#!/bin/sh
# export.sh - --export writes the PGN standard's export format (issue 22).
# Run from the repository root with BIN=. or BIN=build/san.
#  1. Hand cases: tests/export/NAME.pgn and NAME.export.pgn, the export
#     written by hand from the standard (section 8; the reasoning per game
#     is below).  Each: the output byte for byte, at -j1 and -j2; the
#     export of the export is itself; --strict finds nothing in it.
#     And -j2 in pieces cut at every sync point, on every file of corpus/.
#  2. Every PGN file in corpus/, and in ../shared/corpus when present (in
#     the plain build only), through tests/export_check.py: -j2 writes
#     what -j1 does, the export is a fixed point, per game the outcome,
#     reason, plies and final FEN are the input's, --strict finds nothing
#     above note on a game that had no error (but what no export mends,
#     about what the game says), a game with an error is copied as read.
# Ends with "N passed, N failed".
BIN=${BIN:-.}
P="$BIN/pgncheck"
D=tests/export
. tests/lib.sh
scratch export
need_bin "$P"

# exports NAME INPUT EXPECTED [OPTION]: --export [OPTION] INPUT gives
# EXPECTED byte for byte at -j1 and -j2, and exporting EXPECTED again
# changes nothing.
exports() {
    "$P" -j1 --export ${4:-} "$2" > "$tmp/out" 2> "$tmp/err"
    st=$?
    if [ "$st" -gt 1 ]; then
        fail "$1: exit $st" "$(cat "$tmp/err")"
    elif cmp -s "$3" "$tmp/out"; then
        ok "$1: the export as written by hand"
    else
        fail "$1: the export" "$(diff "$3" "$tmp/out" | head -n 12)"
    fi
    "$P" -j2 --export ${4:-} "$2" > "$tmp/out2" 2> "$tmp/err2"
    cmp -s "$tmp/out" "$tmp/out2" && cmp -s "$tmp/err" "$tmp/err2" && ok "$1: -j2 writes what -j1 writes" ||
        fail "$1: -j2 differs from -j1" "$(diff "$tmp/out" "$tmp/out2" | head -n 6; diff "$tmp/err" "$tmp/err2" | head -n 6)"
    "$P" -q --export "$3" > "$tmp/again" 2> /dev/null
    cmp -s "$3" "$tmp/again" && ok "$1: the export of the export is itself" ||
        fail "$1: exporting the export changes it" "$(diff "$3" "$tmp/again" | head -n 10)"
}
# err_has NAME TEXT: a fixed text, the test named NAME alone (not lib.sh's)
err_has() { grep -q -F -e "$2" "$tmp/err" && ok "$1" || fail "$1: stderr lacks '$2'" "$(cat "$tmp/err")"; }
# strict_clean NAME FILE: --strict finds nothing above a note in FILE.
strict_clean() {
    "$P" --strict "$2" > "$tmp/strict" 2>&1 && ok "$1: --strict finds nothing in the export" ||
        fail "$1: --strict on the export" "$(cat "$tmp/strict")"
}

# ---------------------------------------------------------------- notation.pgn
# 1 Long algebraic (e2-e4, Ng1f3, Bb5xc6), UCI (e7e5, a7a6) and zeros
#   (0-0, 0-0-0) become SAN: the piece letter, "x" for a capture, the
#   origin only where two pieces could go there (never here: Ng8-e7 is Ne7
#   and Nb1d2 is Nd2, the other knights being gone) (PGN 8.2.3); Bxf3+
#   gives no check and loses its "+"; the tags: the roster in its order,
#   ECO after it.  The movetext fills lines of at most 80 characters,
#   "8. d3" (82 with it) and "Rxd7" (81) starting new ones, a number never
#   apart from its move: lines of 76, 76 and 12 characters.
# 2 Bc4+ is no check ("+" dropped); Bxf7 and Qh5 check the king on e8/f7
#   ("+" added).
# 3 A set-up position, Black to move at move 40: "40... dxe3" (the
#   separate "e.p." and the d4 origin dropped), b8Q is "b8=Q+" (the queen
#   checks along the empty eighth rank), Qb4+ on the b4-e7 diagonal; the
#   tags after the roster in ASCII order (Annotator, FEN), and SetUp "1"
#   added, which a FEN tag goes with (PGN 9.7.1), after FEN by name.
exports notation "$D/notation.pgn" "$D/notation.export.pgn"
strict_clean notation "$D/notation.export.pgn"

# ---------------------------------------------------------------- movetext.pgn
# 1 A comment before the first move and a [%clk] command are kept; the ';'
#   comment becomes "{ the usual reply }" (its leading blank kept as one
#   on either side); the '%' line is dropped (and said on stderr); g4?? is
#   "g4 $4" (PGN 8.2.4: ?? is NAG 4) and the $6 after it stays; Black's
#   moves after a comment or NAG take "N..." (8.2.2.2); Qh4+ mates:
#   "Qh4#"; the comment's line break and run of blanks become single
#   spaces, and it is broken at a blank where a line reaches 80.
# 2 Variations: "(d5)" replaces exf4, Black's move 2: "(2... d5)"; after a
#   variation Black's move is numbered ("2... Nc6"), White's always are;
#   the detached "!" is NAG $1 and the move after it "3... a6"; the
#   blanks inside "( 3... Nf6 ... )" go.  The first line is 80 characters.
exports movetext "$D/movetext.pgn" "$D/movetext.export.pgn"
err_has "movetext: the escape line left out is said" "pgncheck: --export left out 1 % escape line in games"
strict_clean movetext "$D/movetext.export.pgn"

# ---------------------------------------------------------------- error.pgn
# 1 2.Ke3 is illegal: the game is copied as read, byte for byte with its
#   CRLF line ends and its ';' comment, then one empty line in its style;
#   its error is reported.
# 2 The line of text between the games is no game: left out, and said.
# 3 Tags: the missing roster tags as "?" and "????.??.??" (PGN 8.1.1),
#   the others in ASCII order (Annotator, Z, a: upper case first), the
#   quote and backslash escaped again as read (PGN 7).
exports error "$D/error.pgn" "$D/error.export.pgn"
err_has "error: the error is reported" "error.pgn:9:11: error: 2. Ke3: illegal"
err_has "error: the text between games left out is said" "pgncheck: --export left out 1 piece of text between games"
# --select=valid --export: only the valid game, exported.
"$P" --select=valid --export "$D/error.pgn" > "$tmp/out" 2> /dev/null
sed -n '/^\[Event "tags"\]/,$p' "$D/error.export.pgn" > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out" && ok "error: --select=valid --export writes the valid game's export" ||
    fail "error: --select=valid --export" "$(diff "$tmp/want" "$tmp/out" | head)"

# ---------------------------------------------------------------- asread.pgn
# Games without error whose text the export does not rewrite are copied as
# read, and the export-as-read note says why (it is a note: in the records,
# and counted on stderr):
# 1 "(2. -- Nc6 ...)": a null move in a variation (a warning of the check;
#   SAN has no null move, PGN 8.2.3).
# 2 A ';' comment holding '}': in braces it would end the comment early
#   (PGN 5: a {} comment cannot hold a '}').
# 3 "fen" before "FEN": ASCII order (8.1.1) puts FEN first, and the game
#   layer takes the exact-case one wherever it stands, but the export does
#   not swap two tags alike but for case.
# 4 An illegal move: an error, copied as read with no note.
# 5 Exported: "1. c4 { an ordinary comment } 1... e5 *" (8.2.2.2).
exports asread "$D/asread.pgn" "$D/asread.export.pgn"
err_has "asread: the count on stderr" "pgncheck: --export left 3 games without error as read (export-as-read)"
for j in 1 2; do
    "$P" -j$j --export -f jsonl "$D/asread.pgn" 2> "$tmp/rec$j" > /dev/null
    grep '"type":"game"' "$tmp/rec$j" | python3 -c '
import json, sys
for line in sys.stdin:
    r = json.loads(line)
    notes = [d["message"] for d in r["diagnostics"] if d["code"] == "export-as-read"]
    print(r["index"], r["status"] + "|" + "|".join(notes))' > "$tmp/got$j" 2>&1
done
cat > "$tmp/want" <<'WANT'
1 warning|--export leaves this game as read, not in export format: a null move in a variation, which SAN has no notation for
2 ok|--export leaves this game as read, not in export format: a ';' comment holds a '}', which a {} comment cannot
3 warning|--export leaves this game as read, not in export format: two tags alike but for case, which the export's order would swap
4 error|
5 ok|
WANT
cmp -s "$tmp/want" "$tmp/got1" && ok "asread: the notes in the records, with their reasons" ||
    fail "asread: the notes" "$(diff "$tmp/want" "$tmp/got1")"
cmp -s "$tmp/got1" "$tmp/got2" && ok "asread: -j2 gives the notes -j1 does" || fail "asread: -j2 notes" "$(diff "$tmp/got1" "$tmp/got2")"
"$P" --export --ignore=export-as-read -f jsonl "$D/asread.pgn" > /dev/null 2> "$tmp/ign"
! grep -q 'export-as-read' "$tmp/ign" && ok "asread: --ignore=export-as-read: no note, no count" ||
    fail "asread: --ignore" "$(grep 'export-as-read' "$tmp/ign" | head -3)"
"$P" --export --warn=export-as-read -f jsonl "$D/asread.pgn" 2>&1 > /dev/null | grep '"index":2,' |
    grep -q '"status":"warning"' && ok "asread: --warn=export-as-read makes game 2 a warning" ||
    fail "asread: --warn=export-as-read"

# ---------------------------------------------------------------- fix.pgn
# 1 Scholar's mate 4.Qxf7 with Result "0-1" and marker 0-1: with
#   --fix-results both become 1-0 (the board proves it), and the export
#   writes "4. Qxf7#".
# 2 No marker (the input ends), Result "1/2-1/2": with --fix-results the
#   marker from the tag ends the export's movetext.
# Without --fix-results both games have an error: copied as read.
exports "fix with --fix-results" "$D/fix.pgn" "$D/fix.export.pgn" --fix-results
err_has "fix: the note for the result rewritten" 'fix.pgn:7:1: note: result rewritten from "0-1" to "1-0" [wrong-result]'
err_has "fix: the note for the marker written" \
    'fix.pgn:19:18: note: termination marker 1/2-1/2 written (from the Result tag) [missing-termination]'
strict_clean "fix with --fix-results" "$D/fix.export.pgn"
"$P" --export "$D/fix.pgn" > "$tmp/out" 2> /dev/null
{ sed -n '1,10p' "$D/fix.pgn"; sed -n '11,19p' "$D/fix.pgn"; echo; } > "$tmp/want"
cmp -s "$tmp/want" "$tmp/out" && ok "fix: without --fix-results the games are copied as read" ||
    fail "fix: without --fix-results" "$(diff "$tmp/want" "$tmp/out" | head)"

# ---------------------------------------------------------------- the record
# One reading, one replay: the export formats what the reader and the
# check recorded (issue 32); it has no replay of its own.
if grep -nE '\<(san_[a-z_]+|pos_[a-z_]+|movegen[a-z_]*)\(' src/pgn_export.c > "$tmp/calls"; then
    fail "record: pgn_export.c calls the rules core" "$(head -3 "$tmp/calls")"
else
    ok "record: pgn_export.c calls no replay function"
fi
# --no-variations checks the main line only; the variations are still
# played to be recorded, so the export is the same.
"$P" --export --no-variations "$D/movetext.pgn" > "$tmp/out" 2> /dev/null
cmp -s "$tmp/out" "$D/movetext.export.pgn" && ok "record: --no-variations exports the variations too" ||
    fail "record: --no-variations" "$(diff "$D/movetext.export.pgn" "$tmp/out" | head)"

# ---------------------------------------------------------------- memory
# An allocation that fails ends in "out of memory" and exit 2, never a
# game half written: each of the first allocations made for the export
# (PGNCHECK_FAIL_ALLOC counts from the start of the run).
n=1
bad=
while [ $n -le 20 ]; do
    PGNCHECK_FAIL_ALLOC=$n "$P" -j1 --export "$D/movetext.pgn" > "$tmp/out" 2> "$tmp/err"
    st=$?
    if [ $st -eq 2 ]; then
        grep -q 'out of memory' "$tmp/err" || bad="$bad $n(no message)"
    elif [ $st -gt 1 ] || ! cmp -s "$tmp/out" "$D/movetext.export.pgn"; then
        bad="$bad $n(exit $st)"
    fi
    n=$((n + 1))
done
[ -z "$bad" ] && ok "memory: a failed allocation is out of memory, exit 2, or no matter" ||
    fail "memory: allocations$bad"

# ---------------------------------------------------------------- pieces
# -j2 reading each file in pieces cut at every sync point
# (PGNCHECK_PIECE=1), from the file and through a pipe, with and without
# --fix-results: what -j1 writes, games and findings.
bad=
for f in $(find corpus "$D" -type f -name '*.pgn' | LC_ALL=C sort); do
    for fix in "" --fix-results; do
        "$P" -j1 --export $fix "$f" > "$tmp/p1" 2> "$tmp/q1"
        PGNCHECK_PIECE=1 "$P" -j2 --export $fix "$f" > "$tmp/p2" 2> "$tmp/q2"
        cat "$f" | PGNCHECK_PIECE=1 "$P" -j2 --export $fix > "$tmp/p3" 2> /dev/null
        cmp -s "$tmp/p1" "$tmp/p2" && cmp -s "$tmp/q1" "$tmp/q2" && cmp -s "$tmp/p1" "$tmp/p3" ||
            bad="$bad $f${fix:+ $fix}"
    done
done
[ -z "$bad" ] && ok "pieces: -j2 in pieces at every sync point, file and pipe, writes what -j1 writes" ||
    fail "pieces: -j2 differs from -j1:" "$bad"

# ---------------------------------------------------------------- between
# '%' escape lines (PGN 6) and ';' comment lines (PGN 5) between games,
# before the first and after the last: an export has no place for them
# (PGN 8), so they are left out and counted on stderr, the same count at
# -j1, at -j2 in pieces cut at every sync point (where the lines before a
# piece's first game are read by the piece before), and through a pipe.
# The generator knows how many it wrote: 2 + 3*k for game k (k = 1..40,
# before game k), and 2 after the last: 2*40 + 3*820 + 2 = 2542.
awk 'BEGIN {
    n = 0
    for (k = 1; k <= 40; k++) {
        print "% escape before game " k; print "; comment before game " k; n += 2
        for (i = 1; i <= 3 * k; i++) { print (i % 2 ? "%" : ";") " filler " i; n++ }
        printf "[Event \"g%d\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n", k
        printf "[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n\n"
    }
    print "% after the last"; print "; and a comment"; n += 2
    print n > "/dev/stderr"
}' > "$tmp/between.pgn" 2> "$tmp/between.n"
want="pgncheck: --export left out $(cat "$tmp/between.n") % escape or ; comment lines between games"
bad=
"$P" -j1 --export "$tmp/between.pgn" > "$tmp/b1" 2> "$tmp/e1" || bad="$bad -j1-exit"
PGNCHECK_PIECE=1 "$P" -j2 --export "$tmp/between.pgn" > "$tmp/b2" 2> "$tmp/e2" || bad="$bad -j2-exit"
PGNCHECK_PIECE=1 "$P" -j2 --export < "$tmp/between.pgn" > "$tmp/b3" 2> "$tmp/e3" || bad="$bad pipe-exit"
for k in 1 2 3; do
    [ "$(cat "$tmp/e$k")" = "$want" ] || bad="$bad stderr$k:$(head -c 200 "$tmp/e$k")"
    [ "$(grep -c '^\[Event ' "$tmp/b$k")" = 40 ] && ! grep -q '^[%;]' "$tmp/b$k" || bad="$bad games$k"
done
[ -z "$bad" ] && ok "between: 2542 '%'/';' lines between games left out and counted, -j1, -j2 pieces, pipe" ||
    fail "between: the lines between games" "want: $want
got:$bad"
"$P" -q --export "$tmp/between.pgn" > /dev/null 2> "$tmp/eq"
[ ! -s "$tmp/eq" ] && ok "between: -q says nothing" || fail "between: -q" "$(cat "$tmp/eq")"

# ---------------------------------------------------------------- corpora
if ! command -v python3 > /dev/null 2>&1; then
    ok "corpus # skip: python3 not found"
else
    # (not tests/export: its games are checked above, and export_check.py
    # takes a game's text as running to the next game, text between them
    # too, which error.pgn has after a game copied as read)
    find corpus -type f \( -name '*.pgn' -o -name '*.PGN' \) | LC_ALL=C sort > "$tmp/files"
    shared=../shared/corpus
    [ -d "$shared" ] || shared=/work/shared/corpus
    # (the sanitizer build starts slowly: there, corpus/ only)
    if [ -d "$shared" ] && [ -z "${SANITIZED:-}" ]; then
        find "$shared" -type f \( -name '*.pgn' -o -name '*.PGN' \) | LC_ALL=C sort >> "$tmp/files"
    fi
    # (xargs would split the list: one call, the names as arguments)
    set -f
    IFS='
'
    # shellcheck disable=SC2046
    python3 tests/export_check.py "$P" "$tmp" $(cat "$tmp/files") > "$tmp/corpus.log" 2>&1
    unset IFS
    set +f
    grep -E '^(FAIL|    )' "$tmp/corpus.log" | head -n 40
    grep -E '^note: ' "$tmp/corpus.log"
    add_counts "corpus: export_check.py" "$tmp/corpus.log"
fi

finish
