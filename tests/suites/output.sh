#!/bin/sh
# Output suite: the severity threshold (--min-severity, notes hidden in
# text and github by default, --ignore=SEVERITY), --stats and --color.
# Run from the repository root with BIN=. or BIN=build/san.
# The expected values were worked out by hand from tests/cli/notes.pgn:
#   game 1  no Round tag, 1. e4 e5 2. Nf3 Nc6 *      one missing-tag warning
#   game 2  no Round tag, 1. e4! e5?! 2. Nf3 Nc6 *   one missing-tag warning and
#           two suffix-annotation notes (lines 17:4 and 17:8)
#   game 3  no Round tag, 1. d4 d5 *                one missing-tag warning
#   game 4  all seven tags, 1. c4 e5 *              nothing (status ok)
# plies 4 + 4 + 2 + 2 = 12; statuses: 3 warning (notes do not count), 1 ok.
BIN=${BIN:-.}
P="$BIN/pgncheck"
D=tests/cli
N=$D/notes.pgn
. tests/lib.sh
scratch output
count_is() { # NAME FILE REGEX N: N lines of FILE match REGEX
    c=$(grep -c -E -e "$3" "$2")
    [ "$c" -eq "$4" ] && ok "$1: $4 lines /$3/" || fail "$1: $c lines /$3/, want $4" "$(cat "$2")"
}
has() { grep -q -E -e "$3" "$2" && ok "$1: /$3/" || fail "$1: lacks /$3/" "$(cat "$2")"; }
lacks() { grep -q -E -e "$3" "$2" && fail "$1: has /$3/" "$(cat "$2")" || ok "$1: no /$3/"; }

need_bin "$P"

# ---------------------------------------------------------------- documented
"$P" --help > "$tmp/help"
for o in --min-severity --stats --color; do
    grep -q -e "^ *$o" "$tmp/help" && ok "--help: $o" || fail "--help lacks $o"
    grep -q -e "^\.It Fl -${o#--}" man/pgncheck.1 && ok "man page: $o" || fail "man page lacks $o"
    grep -q -e "^| \`$o" README.md && ok "README: $o" || fail "README lacks $o"
done

# ---------------------------------------------------------------- the threshold
# Text: the three warnings with their game lines, not the two notes.
run "$P" -s "$N"
status_is "text default" 0
count_is "text default: warnings" "$tmp/out" ': warning: .+ \[missing-tag\]$' 3
count_is "text default: game lines" "$tmp/out" '^tests/cli/notes\.pgn: game [123] ' 3
lacks "text default: no note" "$tmp/out" ': note: |\[suffix-annotation\]'
# the summary says what was kept back and how to see it
has "text default: summary" "$tmp/err" '^pgncheck: 4 games, 12 plies: 1 ok, 0 with errors, 3 with warnings, 0 skipped;'
has "text default: hidden notes" "$tmp/err" '^pgncheck: 2 notes not shown \(--min-severity=note shows them\)$'
run "$P" --min-severity=note -s "$N"
count_is "--min-severity=note: notes" "$tmp/out" '^tests/cli/notes\.pgn:17:(4|8): note: .+ \[suffix-annotation\]$' 2
lacks "--min-severity=note: nothing hidden" "$tmp/err" 'not shown'
# error: nothing of this file is printed; 3 warnings and 2 notes kept back
run "$P" --min-severity=error -s "$N"
status_is "--min-severity=error" 0
out_empty "--min-severity=error"
has "--min-severity=error: hidden" "$tmp/err" '^pgncheck: 3 warnings and 2 notes not shown \(--min-severity=note shows them\)$'
run "$P" --min-severity=bogus "$N"
status_is "--min-severity=bogus" 2
# A file-level finding (junk.pgn: non-game-text, a warning) follows it too.
run "$P" --min-severity=error "$D/junk.pgn"
out_empty "--min-severity=error: text between games"

# github: ::notice only when asked for.
run "$P" -f github "$N"
count_is "github default: warnings" "$tmp/out" '^::warning file=tests/cli/notes\.pgn,' 3
count_is "github default: no notice" "$tmp/out" '^::notice' 0
run "$P" -f github --min-severity=note "$N"
count_is "github note: notices" "$tmp/out" '^::notice file=tests/cli/notes\.pgn,line=17,col=(4|8),title=suffix-annotation::' 2

# jsonl and tsv keep the notes by default; an explicit threshold filters
# jsonl's diagnostics lists only: statuses and counts stay those of all.
run "$P" -f jsonl "$N"
jcheck "jsonl default: game 2's codes" "$tmp/out" '[d["code"] for d in L[1]["diagnostics"]]' \
    "['missing-tag', 'suffix-annotation', 'suffix-annotation']"
run "$P" -f jsonl --min-severity=error "$N"
jcheck "jsonl error: lists empty, statuses kept" "$tmp/out" \
    '[(g["status"], len(g["diagnostics"])) for g in L if g["type"] == "game"]' \
    "[('warning', 0), ('warning', 0), ('warning', 0), ('ok', 0)]"
jcheck "jsonl error: summary counts all" "$tmp/out" '(L[-1]["ok"], L[-1]["warning"])' "(1, 3)"
run "$P" -f jsonl --min-severity=warning -j2 "$N"
jcheck "jsonl warning -j2: game 2's codes" "$tmp/out" '[d["code"] for d in L[1]["diagnostics"]]' "['missing-tag']"
run "$P" -f tsv --min-severity=error "$N"
# columns 16-19: status, errors, warnings, notes of game 2 (row 3)
[ "$(awk -F '\t' 'NR == 3 { print $16, $17, $18, $19 }' "$tmp/out")" = "warning 0 1 2" ] &&
    ok "tsv: counts of every diagnostic" || fail "tsv counts" "$(cat "$tmp/out")"

# The exit status never depends on the threshold: 0 at every threshold,
# 1 at every one under --werror (the warnings are errors, always shown)
# and with --error=suffix-annotation (the notes are errors).
for m in note warning error; do
    run "$P" --min-severity=$m "$N"; status_is "--min-severity=$m" 0
    run "$P" --werror --min-severity=$m "$N"; status_is "--werror --min-severity=$m" 1
    count_is "--werror --min-severity=$m: errors shown" "$tmp/out" ': error: .+ \[missing-tag\]$' 3
    run "$P" --error=suffix-annotation --min-severity=$m "$N"; status_is "--error=suffix-annotation --min-severity=$m" 1
    count_is "--error=suffix-annotation --min-severity=$m: shown" "$tmp/out" ': error: .+ \[suffix-annotation\]$' 2
done

# --fix-results' changes are printed at any threshold (bad.pgn game 2:
# Fool's mate declared 1-0, rewritten to 0-1).
run "$P" --fix-results --min-severity=error "$D/bad.pgn"
has "--fix-results: the change at --min-severity=error" "$tmp/err" \
    '^tests/cli/bad\.pgn:[0-9]+:[0-9]+: note: result rewritten from "1-0" to "0-1" \[wrong-result\]$'

# --ignore=SEVERITY: the checks that have that severity when it is read.
run "$P" --ignore=note --list-checks
count_is "--ignore=note: no note left" "$tmp/out" '^[a-z0-9-]+ +note ' 0
has "--ignore=note: suffix-annotation" "$tmp/out" '^suffix-annotation +ignored '
has "--ignore=note: threefold-available" "$tmp/out" '^threefold-available +ignored '
has "--ignore=note: warnings kept" "$tmp/out" '^missing-tag +warning '
run "$P" --warn=suffix-annotation --ignore=note --list-checks
has "--warn then --ignore=note" "$tmp/out" '^suffix-annotation +warning '
has "--warn then --ignore=note: others" "$tmp/out" '^empty-game +ignored '
# --strict would make suffix-annotation a warning: ignored stays ignored
run "$P" --strict --ignore=note --list-checks
has "--strict --ignore=note" "$tmp/out" '^suffix-annotation +ignored '
run "$P" --ignore=warning,suffix-annotation -f jsonl "$N"
jcheck "--ignore=warning,CODE" "$tmp/out" '[len(g["diagnostics"]) for g in L if g["type"] == "game"]' "[0, 0, 0, 0]"
run "$P" --ignore=note -s "$N"
lacks "--ignore=note: nothing said hidden" "$tmp/err" 'not shown'

# ---------------------------------------------------------------- --stats
# notes.pgn: missing-tag 3 in games 1-3, suffix-annotation 2 in game 2;
# warn.pgn: missing-tag 1 in its game 1.  Most diagnostics first.
run "$P" --stats "$N" "$D/warn.pgn"
cat > "$tmp/want" <<'EOF'
pgncheck: stats: tests/cli/notes.pgn: missing-tag (warning): 3 diagnostics in 3 games
pgncheck: stats: tests/cli/notes.pgn: suffix-annotation (note): 2 diagnostics in 1 game
pgncheck: stats: tests/cli/warn.pgn: missing-tag (warning): 1 diagnostic in 1 game
pgncheck: stats: total: missing-tag (warning): 4 diagnostics in 4 games
pgncheck: stats: total: suffix-annotation (note): 2 diagnostics in 1 game
EOF
same "--stats text" "$tmp/want" "$tmp/err"
count_is "--stats: the diagnostics still printed" "$tmp/out" ': warning: ' 4
# -q prints no diagnostic but the stats
run "$P" -q --stats "$N" "$D/warn.pgn"
same "-q --stats" "$tmp/want" "$tmp/err"
# bad.pgn: illegal-move in game 1 (with its repair-found note: 5. Ke2 for
# Ke3, issue 35), wrong-result in game 2 (errors); a
# finding outside games (junk.pgn:12, non-game-text) counts in no game.
# Equal counts go in the order of --list-checks: the reader's codes
# (non-game-text) before the game's (illegal-move, then wrong-result).
run "$P" -q --stats "$D/bad.pgn" "$D/junk.pgn"
cat > "$tmp/want" <<'EOF'
pgncheck: stats: tests/cli/bad.pgn: illegal-move (error): 1 diagnostic in 1 game
pgncheck: stats: tests/cli/bad.pgn: wrong-result (error): 1 diagnostic in 1 game
pgncheck: stats: tests/cli/bad.pgn: repair-found (note): 1 diagnostic in 1 game
pgncheck: stats: tests/cli/junk.pgn: non-game-text (warning): 1 diagnostic in 0 games
pgncheck: stats: total: non-game-text (warning): 1 diagnostic in 0 games
pgncheck: stats: total: illegal-move (error): 1 diagnostic in 1 game
pgncheck: stats: total: wrong-result (error): 1 diagnostic in 1 game
pgncheck: stats: total: repair-found (note): 1 diagnostic in 1 game
EOF
same "--stats: errors, findings outside games" "$tmp/want" "$tmp/err"
# JSON Lines: {"type":"stats"} records before the summary, file null for
# the total.
run "$P" -f jsonl --stats "$N" "$D/warn.pgn"
jcheck "jsonl --stats records" "$tmp/out" \
    '[(r["file"], r["code"], r["severity"], r["diagnostics"], r["games"]) for r in L if r["type"] == "stats"]' \
    "[('tests/cli/notes.pgn', 'missing-tag', 'warning', 3, 3), ('tests/cli/notes.pgn', 'suffix-annotation', 'note', 2, 1), ('tests/cli/warn.pgn', 'missing-tag', 'warning', 1, 1), (None, 'missing-tag', 'warning', 4, 4), (None, 'suffix-annotation', 'note', 2, 1)]"
jcheck "jsonl --stats: keys" "$tmp/out" '",".join([r for r in L if r["type"] == "stats"][0].keys())' \
    "type,file,code,severity,diagnostics,games"
jcheck "jsonl --stats: the summary last" "$tmp/out" '" ".join(r["type"] for r in L[-3:])' "stats stats summary"
[ ! -s "$tmp/err" ] && ok "jsonl --stats: stderr empty" || fail "jsonl --stats: stderr" "$(cat "$tmp/err")"
# The threshold hides nothing from the stats.
run "$P" -q --stats --min-severity=error "$N"
count_is "--stats counts hidden ones" "$tmp/err" 'suffix-annotation \(note\): 2 diagnostics in 1 game$' 2

# Identical at -j1 and -jN, in pieces and through a pipe: every real file
# of corpus/ (pieces of 4 KB cut the larger ones at many sync points).
set -- corpus/real/*/*.pgn
PGNCHECK_PIECE=4096 "$P" -j1 -q --stats "$@" 2> "$tmp/s1"
PGNCHECK_PIECE=4096 "$P" -j3 -q --stats "$@" 2> "$tmp/s3"
if grep -q '^pgncheck: stats: total: ' "$tmp/s1"; then same "--stats -j3 = -j1" "$tmp/s1" "$tmp/s3"
else fail "--stats on corpus/real: no total" "$(cat "$tmp/s1")"; fi
PGNCHECK_PIECE=4096 "$P" -j1 -f jsonl --stats "$@" | grep '"type":"stats"' > "$tmp/s1"
PGNCHECK_PIECE=4096 "$P" -j3 -f jsonl --stats "$@" | grep '"type":"stats"' > "$tmp/s3"
if grep -q '"file":null' "$tmp/s1"; then same "jsonl --stats -j3 = -j1" "$tmp/s1" "$tmp/s3"
else fail "jsonl --stats: no total records"; fi
cat "$@" > "$tmp/all.pgn"
"$P" -j1 -q --stats "$tmp/all.pgn" 2> "$tmp/p1"
"$P" -j2 -q --stats < "$tmp/all.pgn" 2> "$tmp/p2"
sed 's/<stdin>/FILE/' "$tmp/p2" > "$tmp/p2n"; sed "s|$tmp/all.pgn|FILE|" "$tmp/p1" > "$tmp/p1n"
same "--stats: a pipe at -j2 = the file at -j1" "$tmp/p1n" "$tmp/p2n"
# The total is the sum of the files' lines (python: a cross-check, not
# the program's own arithmetic repeated).
if have_py; then
    python3 - "$tmp/s1" <<'EOF' > "$tmp/py" 2>&1
import json, sys
R = [json.loads(l) for l in open(sys.argv[1])]
per, tot = {}, {}
for r in R:
    k = (r["code"], r["severity"])
    d = tot if r["file"] is None else per
    a = d.setdefault(k, [0, 0])
    a[0] += r["diagnostics"]; a[1] += r["games"]
assert per == tot, (per, tot)
print(len(tot))
EOF
    [ $? -eq 0 ] && ok "--stats: total = sum of the files ($(cat "$tmp/py") codes)" || fail "--stats sums" "$(cat "$tmp/py")"
fi

# ---------------------------------------------------------------- --color
esc=$(printf '\033')
run "$P" --color=always "$D/bad.pgn"
grep -q "$esc\[" "$tmp/out" && ok "--color=always into a pipe" || fail "--color=always: no colour"
NO_COLOR=1 "$P" --color=always "$D/bad.pgn" > "$tmp/out" 2>&1
grep -q "$esc\[" "$tmp/out" && ok "--color=always beats NO_COLOR" || fail "--color=always with NO_COLOR: no colour"
run "$P" "$D/bad.pgn"
grep -q "$esc" "$tmp/out" && fail "colour into a pipe" || ok "auto: no colour into a pipe"
run "$P" --color=sometimes "$D/bad.pgn"
status_is "--color=sometimes" 2
if command -v script > /dev/null 2>&1; then
    TERM=xterm script -qec "\"$P\" $D/bad.pgn" /dev/null > "$tmp/tty" 2>&1
    grep -q "$esc\[" "$tmp/tty" && ok "auto: colour on a terminal" || fail "auto: no colour on a terminal"
    TERM=dumb script -qec "\"$P\" $D/bad.pgn" /dev/null > "$tmp/tty" 2>&1
    grep -q "$esc\[" "$tmp/tty" && fail "auto: colour with TERM=dumb" || ok "auto: TERM=dumb, no colour"
    NO_COLOR= TERM=xterm script -qec "\"$P\" $D/bad.pgn" /dev/null > "$tmp/tty" 2>&1
    grep -q "$esc\[" "$tmp/tty" && ok "auto: NO_COLOR empty, colour" || fail "auto: NO_COLOR empty, no colour"
    TERM=xterm script -qec "\"$P\" --color=never $D/bad.pgn" /dev/null > "$tmp/tty" 2>&1
    grep -q "$esc\[" "$tmp/tty" && fail "--color=never on a terminal" || ok "--color=never on a terminal"
else
    echo "ok terminal colour # skip no script(1)"; passed=$((passed + 1))
fi

finish
