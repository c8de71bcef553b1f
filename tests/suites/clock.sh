#!/bin/sh
# clock.sh - clock forensics (issue 36): the hand-worked cases of
# corpus/clock (laws_check.py, every finding listed), the JSON Lines
# "clocks" record, --stats' count of games with clocks, --list-checks'
# citations, and the reader's [%clk]/[%emt] forms.
# Run from the repository root with BIN=. or BIN=build/san.
BIN=${BIN:-.}
P="$BIN/pgncheck"
. tests/lib.sh
scratch clock
need_bin "$P"

# ------------------------------------------------------- the case files
if have_py; then
    python3 tests/laws_check.py "$P" corpus/clock/*.pgn > "$tmp/laws" 2>&1
    grep '^FAIL' "$tmp/laws" | sed 's/^FAIL /FAIL clock: /'
    add_counts "clock cases" "$tmp/laws"
else
    skip "clock cases" "no python3"
fi

# ------------------------------------------------------- "clocks" in jsonl
# Worked out by hand (corpus/clock/clock.expect for the games):
# game 1, 60+0: White 60 -> 60 -> 58 -> 55 s (used 0 + 2 + 3), Black 60 ->
# 60 -> 57 (used 0 + 3); game 19, daily 1/86400 (a day a move, not saved
# up): White 23:59:48, 21:51:54, 23:16:37 -> used 12 + 7686 + 2603 s,
# Black 23:59:17, 23:50:13 -> 43 + 587 s; game 17 starts from a FEN at
# move 50: the clocks before it are not known, so neither is the time used.
run "$P" -f jsonl corpus/clock/clock.pgn
cp "$tmp/out" "$tmp/clock.jsonl"
jcheck "clocks: game 1" "$tmp/clock.jsonl" 'L[0]["clocks"]' \
    "{'white_ms': 55000, 'black_ms': 57000, 'white_used_ms': 5000, 'black_used_ms': 3000}"
jcheck "clocks: game 19 (daily)" "$tmp/clock.jsonl" 'L[18]["clocks"]' \
    "{'white_ms': 83797000, 'black_ms': 85813000, 'white_used_ms': 10301000, 'black_used_ms': 630000}"
jcheck "clocks: game 17 (set-up start)" "$tmp/clock.jsonl" 'L[16]["clocks"]' \
    "{'white_ms': 29000, 'black_ms': 1000, 'white_used_ms': None, 'black_used_ms': None}"
# a negative clock is a negative number, not null
jcheck "clocks: negative" "$tmp/clock.jsonl" 'L[5]["clocks"]["white_ms"]' "-3000"
printf '[Event "e"]\n[Site "s"]\n[Date "2024.01.01"]\n[Round "1"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 { a comment } e5 *\n' > "$tmp/plain.pgn"
run "$P" -f jsonl "$tmp/plain.pgn"
jcheck "clocks: absent without clock comments" "$tmp/out" '"clocks" in L[0]' "False"

# ------------------------------------------------------- --stats
run "$P" --stats corpus/clock/clock.pgn
err_has "stats: clocked games counted" '^pgncheck: stats: total: games with clocks: 26 of 26$'
run "$P" --stats "$tmp/plain.pgn"
if grep -q 'games with clocks' "$tmp/err"; then fail "stats: no clock line without clocks" "$(cat "$tmp/err")"; else ok "stats: no clock line without clocks"; fi
run "$P" --stats -f jsonl corpus/clock/clock.pgn
out_has "stats: jsonl record" '^\{"type":"stats","file":null,"games_with_clocks":26,"games":26\}$'

# ------------------------------------------------------- --list-checks
run "$P" --list-checks
out_has "list-checks: flag-wrong-side" '^flag-wrong-side +warning +FIDE 6\.2\.1, 6\.9 +'
out_has "list-checks: time-control-contradicted" '^time-control-contradicted +warning +PGN 9\.6\.1 +'
out_has "list-checks: clock-rise" '^clock-rise +note +FIDE 7\.5\.5 +'

# ------------------------------------------------------- the reader's forms
# A clock command wrapped after its name ("[%clk" newline "0:00:30]", as
# chess.com's exports wrap), seconds-only [%emt], and clocks inside a
# variation, which judge nothing: 60+0, White 60 -> 30 -> 45: a rise of
# 15 s at 3. Bc4 (ply 5) is the only finding.
cat > "$tmp/forms.pgn" << 'EOF'
[Event "e"]
[Site "https://lichess.org/x"]
[Date "2024.01.01"]
[Round "1"]
[White "a"]
[Black "b"]
[Result "*"]
[TimeControl "60+0"]

1. e4 {[%clk 0:01:00]} 1... e5 {[%clk 0:01:00] [%emt 0]} 2. Nf3 {[%clk
0:00:30]} 2... Nc6 {[%clk 0:00:59] [%emt 1.0]} ( 2... d6 {[%clk 0:05:00]} )
3. Bc4 {[%clk 0:00:45]} *
EOF
run "$P" -f jsonl "$tmp/forms.pgn"
jcheck "reader: wrapped [%clk], [%emt] seconds, variation" "$tmp/out" \
    '[(d["code"], d["ply"]) for d in L[0]["diagnostics"]]' "[('clock-rise', 5)]"
jcheck "reader: the clocks of the main line" "$tmp/out" 'L[0]["clocks"]["black_ms"], L[0]["clocks"]["white_used_ms"]' "(59000, 30000)"

# ------------------------------------------------------- real clocked games
# A sample of corpus/SOURCES.tsv's real clocked games (lichess, chess.com,
# a World Cup broadcast; the rest of them measured by hand with
# tests/clock_measure.py): every game has clocks, none a clock warning.
run "$P" -f jsonl corpus/clock/real/*.pgn
jcheck "real: every game has clocks" "$tmp/out" \
    'sum(1 for r in L if r["type"] == "game" and "clocks" in r) == sum(1 for r in L if r["type"] == "game") > 200' "True"
jcheck "real: no clock warning" "$tmp/out" \
    '[(r["file"], r["index"], d["code"]) for r in L if r["type"] == "game" for d in r["diagnostics"] if d["severity"] != "note" and d["code"].startswith(("clock-", "flag-", "time-control-"))]' "[]"

finish
