#!/bin/sh
# --duplicates and --select=unique: hand-worked cases (tests/dup/hand.pgn,
# hand2.pgn, each game's Event says what it is), then generated ones
# (tests/dup_gen.py, which works out the answers from the definition) with
# hash collisions forced (PGNCHECK_DUP_HASH_BITS=4: 16 hash values for
# hundreds of lines, so every answer rests on comparing the moves), at
# -j1 and -j2 in small pieces; the memory limit; the options.
# Run from the repository root with BIN=. or BIN=build/san.
BIN=${BIN:-.}
P="$BIN/pgncheck"
D=tests/dup
. tests/lib.sh
scratch dup
need_bin "$P"
command -v python3 > /dev/null 2>&1 || { echo "ok all # skip no python3"; echo "1 passed, 0 failed"; exit 0; }
bin=$(cd "$BIN" && pwd)

# The game records as "file<TAB>index<TAB>first (FILE:INDEX or -)<TAB>code"
# (the code of its duplicate-* or same-moves finding, or -).
rows() {
    python3 -c 'import json, sys
for l in open(sys.argv[1], encoding="utf-8"):
    r = json.loads(l)
    if r["type"] != "game":
        continue
    d = r["duplicate_of"]
    c = [x["code"] for x in r["diagnostics"] if x["code"].startswith("duplicate-") or x["code"] == "same-moves"]
    print("%s\t%d\t%s\t%s" % (r["file"], r["index"], "%s:%d" % (d["file"], d["index"]) if d else "-", c[0] if c else "-"))' "$1"
}

# ---------------------------------------------------------------- by hand
# hand.pgn, game by game:
#  1 the first Ruy Lopez (6 plies)              first
#  2 game 1 with comment, NAG, variation, Ngf3  duplicate of 1: moves as replayed
#  3 game 1 with result 0-1                     duplicate of 1: a line of 6 plies
#                                               (under 20) is a note, not a
#                                               duplicate-result-differs warning
#  4 1. Nf3 Nc6 2. e4 e5 3. Bb5 a6              game 1's final position by another
#                                               order: not a duplicate
#  5 game 1 less its last ply                   not a duplicate (a prefix)
#  6 game 1 and 4. Ba4                          not a duplicate
#  7 twenty plies, 1/2-1/2                      first
#  8 game 7 with 1-0                            duplicate-result-differs (20 plies)
#  9 game 1 and an illegal 4. Ke3               cut short: never compared
# 10 game 9 again                               never compared: not a duplicate
# 11 game 1 from the standard position's FEN    duplicate of 1: the same position
# 12 the same FEN with counters 3 12            duplicate of 1: the clocks are no
#                                               part of the position (FIDE 9.2.3)
# 13 game 1 from a FEN without White's O-O right  first: another position
# 14, 15 tags only                              no moves: never compared
# hand2.pgn: 1 = hand.pgn 7 (the same result), 2 = hand.pgn 13: duplicates
# across the files of a run.
cat > "$tmp/hand.want" <<'W'
tests/dup/hand.pgn	1	-	-
tests/dup/hand.pgn	2	tests/dup/hand.pgn:1	duplicate-game
tests/dup/hand.pgn	3	tests/dup/hand.pgn:1	duplicate-game
tests/dup/hand.pgn	4	-	-
tests/dup/hand.pgn	5	-	-
tests/dup/hand.pgn	6	-	-
tests/dup/hand.pgn	7	-	-
tests/dup/hand.pgn	8	tests/dup/hand.pgn:7	duplicate-result-differs
tests/dup/hand.pgn	9	-	-
tests/dup/hand.pgn	10	-	-
tests/dup/hand.pgn	11	tests/dup/hand.pgn:1	duplicate-game
tests/dup/hand.pgn	12	tests/dup/hand.pgn:1	duplicate-game
tests/dup/hand.pgn	13	-	-
tests/dup/hand.pgn	14	-	-
tests/dup/hand.pgn	15	-	-
tests/dup/hand2.pgn	1	tests/dup/hand.pgn:7	duplicate-game
tests/dup/hand2.pgn	2	tests/dup/hand.pgn:13	duplicate-game
W
for bits in 64 4; do
    for j in 1 2; do
        PGNCHECK_DUP_HASH_BITS=$bits PGNCHECK_PIECE=300 "$P" -j$j --duplicates -f jsonl $D/hand.pgn $D/hand2.pgn > "$tmp/hand.jsonl"
        rows "$tmp/hand.jsonl" > "$tmp/hand.got"
        same "hand cases, hash bits $bits, -j$j" "$tmp/hand.want" "$tmp/hand.got"
    done
done
# The record names the first game's line too; the text message says it.
grep -q '"index":8,.*"duplicate_of":{"file":"tests/dup/hand.pgn","index":7,"line":61}' "$tmp/hand.jsonl" &&
    ok "duplicate_of has file, index and line" || fail "duplicate_of field" "$(sed -n 8p "$tmp/hand.jsonl")"
run "$P" --duplicates $D/hand.pgn
grep -q '^tests/dup/hand.pgn:11:1: note: a duplicate of game 1 of tests/dup/hand.pgn (line 1): the same 6 plies \[duplicate-game\]$' "$tmp/out" &&
    ok "text: the message names the first game" || fail "text message" "$(cat "$tmp/out")"
grep -q '^tests/dup/hand.pgn:72:1: warning: another result than game 7 of tests/dup/hand.pgn (line 61): the same 20 plies, result 1/2-1/2 there, 1-0 here \[duplicate-result-differs\]$' "$tmp/out" &&
    ok "text: another result" || fail "text: another result" "$(cat "$tmp/out")"
# exit 1: games 9 and 10 have an illegal move
status_is "hand cases" 1
# TSV: the last column, FILE:INDEX
"$P" --duplicates -f tsv $D/hand.pgn | awk -F '\t' 'NR == 1 || $2 == 2 || $2 == 4 { print $NF "|" NF }' > "$tmp/tsv"
printf 'duplicate_of|23\ntests/dup/hand.pgn:1|23\n|23\n' > "$tmp/tsv.want"
same "tsv: duplicate_of is the last column" "$tmp/tsv.want" "$tmp/tsv"
# without --duplicates the records are as they were: no field, no column
"$P" -f jsonl $D/hand.pgn | grep -q duplicate && fail "jsonl without --duplicates has the field" || ok "jsonl without --duplicates: no field"
[ "$("$P" -f tsv $D/hand.pgn | head -n 1 | awk -F '\t' '{ print NF }')" = 22 ] && ok "tsv without --duplicates: 22 columns" ||
    fail "tsv without --duplicates"

# Severity like every code: game 2 is otherwise a warning (Ngf3), game 11
# ok, so its status is the duplicate's.
st11() { python3 -c 'import json, sys
for l in sys.stdin:
    r = json.loads(l)
    if r.get("index") == 11 and r["file"].endswith("/hand.pgn"):
        print(r["status"], r["duplicate_of"] is not None, len([d for d in r["diagnostics"] if d["code"] == "duplicate-game"]))'; }
[ "$("$P" --duplicates -f jsonl $D/hand.pgn | st11)" = "ok True 1" ] && ok "a note leaves the status ok" || fail "note status"
[ "$("$P" --duplicates --error=duplicate-game -f jsonl $D/hand.pgn | st11)" = "error True 1" ] && ok "--error=duplicate-game" || fail "--error=duplicate-game"
[ "$("$P" --duplicates --warn=duplicate-game -f jsonl $D/hand.pgn | st11)" = "warning True 1" ] && ok "--warn=duplicate-game" || fail "--warn=duplicate-game"
[ "$("$P" --duplicates --ignore=duplicate-game -f jsonl $D/hand.pgn | st11)" = "ok True 0" ] && ok "--ignore=duplicate-game keeps the field" || fail "--ignore=duplicate-game"
# exit status: only the duplicates are findings in hand2.pgn
run "$P" --duplicates -q $D/hand.pgn $D/hand2.pgn --ignore=illegal-move
status_is "notes only" 0
run "$P" --duplicates -q $D/hand.pgn $D/hand2.pgn --ignore=illegal-move --werror
status_is "--werror: duplicate-result-differs is a warning" 1
run "$P" --duplicates -q $D/hand.pgn $D/hand2.pgn --ignore=illegal-move,duplicate-result-differs,over-disambiguated --werror
status_is "--werror: a note stays a note" 0
"$P" --list-checks | grep -q '^duplicate-game  *note ' && ok "--list-checks: duplicate-game" || fail "--list-checks: duplicate-game"
"$P" --list-checks | grep -q '^duplicate-result-differs  *warning ' && ok "--list-checks: duplicate-result-differs" ||
    fail "--list-checks: duplicate-result-differs"

# --select=unique: the first game of each main line, so each game but 2, 3,
# 8 (its result differs: said on stderr), 11, 12 of hand.pgn and both of
# hand2.pgn, byte for byte (every game there ends in one blank line)
python3 -c 'import sys
games = open(sys.argv[1], "rb").read().split(b"\n\n[")
keep = [1, 4, 5, 6, 7, 9, 10, 13, 14, 15]
sys.stdout.buffer.write(b"\n\n[".join(g for i, g in enumerate(games, 1) if i in keep).replace(b"\n\n\n", b"\n\n"))' $D/hand.pgn > "$tmp/uniq.want"
run "$P" --select=unique $D/hand.pgn $D/hand2.pgn
same "--select=unique, by hand" "$tmp/uniq.want" "$tmp/out"
grep -q 'duplicate-game' "$tmp/err" && ok "--select=unique: diagnostics on stderr" || fail "--select=unique stderr"

# ---------------------------------------------------------------- identity
# tests/dup/identity.pgn (each Event says what it is; game 1 is
# Saemisch-Nimzowitsch, Copenhagen 1923, from the shared corpus's
# gh-dhtmlchess/Nimzowitsch.pgn): a long line is one game whoever is
# named (2: only Event, Site, Round changed; 3: names spelt otherwise;
# 4: other players); a short line is the same game only with compatible
# players and dates (6: transliterated; 10: unknown players), else
# another game, same-moves (7: other players; 8: another day), and kept,
# so that its own copy is found (9: a copy of 7).
cat > "$tmp/id.want" <<'W'
tests/dup/identity.pgn	1	-	-
tests/dup/identity.pgn	2	tests/dup/identity.pgn:1	duplicate-game
tests/dup/identity.pgn	3	tests/dup/identity.pgn:1	duplicate-game
tests/dup/identity.pgn	4	tests/dup/identity.pgn:1	duplicate-game
tests/dup/identity.pgn	5	-	-
tests/dup/identity.pgn	6	tests/dup/identity.pgn:5	duplicate-game
tests/dup/identity.pgn	7	-	same-moves
tests/dup/identity.pgn	8	-	same-moves
tests/dup/identity.pgn	9	tests/dup/identity.pgn:7	duplicate-game
tests/dup/identity.pgn	10	tests/dup/identity.pgn:5	duplicate-game
tests/dup/identity.pgn	11	-	-
tests/dup/identity.pgn	12	tests/dup/identity.pgn:11	duplicate-game
W
for bits in 64 1; do
    PGNCHECK_DUP_HASH_BITS=$bits "$P" --duplicates -f jsonl $D/identity.pgn > "$tmp/id.jsonl"
    rows "$tmp/id.jsonl" > "$tmp/id.got"
    same "identity: players, dates and length, hash bits $bits" "$tmp/id.want" "$tmp/id.got"
done
run "$P" --duplicates --max-repeats=0 $D/identity.pgn
grep -q '^tests/dup/identity.pgn:27:1: note: a duplicate of game 1 of tests/dup/identity.pgn (line 1): the same 50 plies; White "Saemisch, Fritz" there, "Sämisch, F" here; Black "Nimzowitsch, Aaron" there, "Nimzovitch,A" here \[duplicate-game\]$' "$tmp/out" &&
    ok "identity: a copy spelt otherwise names both spellings" || fail "identity: spellings" "$(cat "$tmp/out")"
grep -q '^tests/dup/identity.pgn:14:1: note: a duplicate of game 1 of tests/dup/identity.pgn (line 1): the same 50 plies \[duplicate-game\]$' "$tmp/out" &&
    ok "identity: the same names are not named" || fail "identity: same names" "$(cat "$tmp/out")"
grep -q ':73:1: note: the same 6 plies as game 5 of .*(White "Kholmov, Ratmir" there, "Tal, Mikhail" here; Black .*): a line under 40 plies is another game \[same-moves\]$' "$tmp/out" &&
    ok "identity: same-moves names the players" || fail "identity: same-moves" "$(cat "$tmp/out")"
grep -q ': the same 1 ply \[duplicate-game\]$' "$tmp/out" && ok "identity: 1 ply, singular" || fail "identity: 1 ply"
# --select=unique keeps another game with the same short moves
run "$P" --select=unique $D/identity.pgn
[ "$(grep '^\[Event' "$tmp/out" | cut -c9-10 | tr -d ':' | tr '\n' ' ')" = "1 5 7 8 11 " ] &&
    ok "identity: --select=unique keeps 1 5 7 8 11" || fail "identity: --select=unique" "$(grep '^\[Event' "$tmp/out")"
# a file name is never cut short in the message (any length)
long="$tmp/a-directory-whose-name-is-long-enough-to-be-cut/and-another-one-below-it-as-long"
mkdir -p "$long"
cp $D/identity.pgn "$long/chesscom-daily-archive-with-a-long-name.pgn"
"$P" --duplicates -f jsonl "$long/chesscom-daily-archive-with-a-long-name.pgn" |
    grep -c "\"message\":\"a duplicate of game 1 of $long/chesscom-daily-archive-with-a-long-name.pgn (line 1)" > "$tmp/n"
[ "$(cat "$tmp/n")" = 3 ] && ok "a long file name whole in the message" || fail "long file name" "$(cat "$tmp/n")"

# ---------------------------------------------------------------- generated
# 360 games over three files: copies written otherwise, other results,
# near copies (one ply fewer, one more, the last changed), transpositions,
# prefixes, set-up positions (equal as positions or not), games cut short by
# an illegal move, copies of those, games without moves, Chess960 from the
# standard position (the same position).
mkdir -p "$tmp/gen"
python3 tests/dup_gen.py "$tmp/gen" 22 || fail "tests/dup_gen.py"
n_dup=$(grep -c 'duplicate-game$' "$tmp/gen/expect.tsv")
n_res=$(grep -c 'duplicate-result-differs$' "$tmp/gen/expect.tsv")
n_none=$(grep -c '	-	-$' "$tmp/gen/expect.tsv")
n_same=$(grep -c 'same-moves$' "$tmp/gen/expect.tsv")
[ "$n_dup" -ge 50 ] && [ "$n_res" -ge 3 ] && [ "$n_none" -ge 100 ] && [ "$n_same" -ge 10 ] &&
    ok "generated: $n_dup duplicates, $n_res other results, $n_none firsts, $n_same short lines of others" ||
    fail "generated cases too few: $n_dup $n_res $n_none $n_same"
for bits in 64 4 1; do
    for j in 1 2 3; do
        (cd "$tmp/gen" && PGNCHECK_DUP_HASH_BITS=$bits PGNCHECK_PIECE=2000 "$bin/pgncheck" -j$j --duplicates -f jsonl a.pgn b.pgn c.pgn) |
            grep -v '"type":"summary"' > "$tmp/gen/got-$bits-$j.jsonl"
        rows "$tmp/gen/got-$bits-$j.jsonl" > "$tmp/gen/got.tsv"
        same "generated, hash bits $bits, -j$j: no false duplicate, none missed" "$tmp/gen/expect.tsv" "$tmp/gen/got.tsv"
        same "generated, hash bits $bits, -j$j: records = -j1's with a full hash" "$tmp/gen/got-64-1.jsonl" "$tmp/gen/got-$bits-$j.jsonl"
        (cd "$tmp/gen" && PGNCHECK_DUP_HASH_BITS=$bits PGNCHECK_PIECE=2000 "$bin/pgncheck" -j$j --select=unique a.pgn b.pgn c.pgn) \
            > "$tmp/gen/unique.got" 2> /dev/null
        same "generated, hash bits $bits, -j$j: --select=unique" "$tmp/gen/unique.pgn" "$tmp/gen/unique.got"
    done
done
# through a pipe in segments: the same answers (one input, "-")
cat "$tmp/gen/a.pgn" "$tmp/gen/b.pgn" | PGNCHECK_DUP_HASH_BITS=4 PGNCHECK_PIECE=2000 "$P" -j2 --duplicates -f jsonl - |
    grep -v '"type":"summary"' > "$tmp/gen/pipe2.jsonl"
cat "$tmp/gen/a.pgn" "$tmp/gen/b.pgn" | "$P" -j1 --duplicates -f jsonl - | grep -v '"type":"summary"' > "$tmp/gen/pipe1.jsonl"
same "a pipe at -j2 in segments = -j1" "$tmp/gen/pipe1.jsonl" "$tmp/gen/pipe2.jsonl"

# ---------------------------------------------------------------- memory
# 3000 distinct lines of 40 plies: 104 bytes each in the arena; a limit of
# 200 KiB (the buckets 4 KiB, a chunk of entries 48 KiB, arena blocks of
# 64 KiB) is reached in the third block, after 2 x 630 lines at most.
run "$P" --duplicates-memory=200K -f jsonl "$tmp/gen/many.pgn"
status_is "memory limit" 2
grep -q '^pgncheck: --duplicates: the table of main lines reached its limit of 204800 bytes ([0-9]* distinct games) at game [0-9]* of .*many.pgn; raise --duplicates-memory$' "$tmp/err" &&
    ok "memory limit: the message" || fail "memory limit message" "$(cat "$tmp/err")"
n=$(grep -c '"type":"game"' "$tmp/out")
[ "$n" -gt 600 ] && [ "$n" -le 1260 ] && ok "memory limit: stops at the limit ($n games)" || fail "memory limit: $n games"
grep -q '"type":"summary"' "$tmp/out" && fail "memory limit: a summary" || ok "memory limit: no summary"
run "$P" --duplicates -q "$tmp/gen/many.pgn"
status_is "3000 distinct lines under the default limit" 0

# ---------------------------------------------------------------- options
for v in 0 33G 1.5G -1 12X ""; do
    run "$P" --duplicates-memory="$v" $D/hand.pgn
    status_is "--duplicates-memory=$v refused" 2
done
run "$P" --duplicates-memory=1G -q $D/hand2.pgn
status_is "--duplicates-memory turns --duplicates on" 0
run "$P" --select=unique --fix-results $D/hand.pgn
status_is "--select=unique with --fix-results" 2

finish
