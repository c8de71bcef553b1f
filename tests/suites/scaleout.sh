#!/bin/sh
# Scale-out suite: a multi-thousand-game file (built here from corpus/real)
# checked whole and in chunks by GNU parallel (--pipepart and --pipe, split
# at '[Event ', and --pipe split at arbitrary line ends); the union of the
# chunks must report the same games, verdicts and diagnostics, with offsets
# and lines recovered from the chunks' summaries, and a game cut by a chunk
# boundary must be reported as cut, never dropped.  tests/hostile/scaleout.py compares.
# Then one job per file, locally and through --sshlogin: the game records
# of one -j1 run, in order.
bin=${BIN:-.}
if ! command -v parallel > /dev/null 2>&1 || ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    echo "note: scale-out suite skipped: GNU parallel is not installed"
    echo "0 passed, 0 failed"; exit 0
fi
if ! command -v python3 > /dev/null 2>&1; then
    echo "note: scale-out suite skipped: python3 is not installed"
    echo "0 passed, 0 failed"; exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgncheck-scale.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pgn=$(cd "$bin" && pwd)/pgncheck
file=$tmp/big.pgn
reps=${SCALEOUT_REPEAT:-20}
i=0
while [ "$i" -lt "$reps" ]; do
    for f in corpus/real/*/*.pgn; do cat "$f"; printf '\n\n'; done
    i=$((i + 1))
done > "$file"
"$pgn" -j1 -f jsonl "$file" > "$tmp/whole.jsonl"
[ $? -le 1 ] || { echo "FAIL scaleout: whole run"; echo "0 passed, 1 failed"; exit 0; }
n=$(grep -c '^{"type":"game"' "$tmp/whole.jsonl")
echo "note: $n games, $(wc -c < "$file") bytes"

tally=$tmp/tally
: > "$tally"
compare() {
    python3 tests/hostile/scaleout.py "$tmp/whole.jsonl" "$file" "$@" | tee -a "$tally" | grep -v 'passed, .* failed$'
}
export LC_ALL=C
parallel --pipepart -a "$file" --recstart '[Event ' --block 1M -k "$pgn" -j1 -f jsonl --label="$file" \
    > "$tmp/pipepart.jsonl" 2> "$tmp/err"
compare "pipepart --recstart '[Event ' --block 1M" "$tmp/pipepart.jsonl"
parallel --pipe --recstart '[Event ' --block 1M -k "$pgn" -j1 -f jsonl --label="$file" \
    < "$file" > "$tmp/pipe.jsonl" 2> "$tmp/err"
compare "pipe from a stream --recstart '[Event ' --block 1M" "$tmp/pipe.jsonl"
parallel --pipe --block 300k -k "$pgn" -j1 -f jsonl --label="$file" \
    < "$file" > "$tmp/lines.jsonl" 2> "$tmp/err"
compare "pipe --block 300k (split at any line end)" "$tmp/lines.jsonl" split
# One job per file (issue 34): the real corpus's files, one pgncheck each,
# two at a time (-k: in order), locally and through --sshlogin (":" is
# this host, without ssh; "-S 2/host1,2/host2" spreads over hosts the
# same way): the game records must be those of one -j1 run over the same
# files, byte for byte and in order (each job's summary line aside).
ls corpus/real/*/*.pgn > "$tmp/files"
"$pgn" -j1 -f jsonl --no-progress $(cat "$tmp/files") | grep '^{"type":"game"' > "$tmp/j1.jsonl"
for how in "-j2" "-S 2/:"; do
    parallel -k $how "$pgn" -j1 -f jsonl --no-progress {} < "$tmp/files" 2> "$tmp/err" |
        grep '^{"type":"game"' > "$tmp/files.jsonl"
    games=$(wc -l < "$tmp/j1.jsonl")
    if [ "$games" -gt 0 ] && cmp -s "$tmp/j1.jsonl" "$tmp/files.jsonl"; then
        echo "ok scaleout: one job per file (parallel -k $how): $games game records, those of -j1 in order"
        echo "1 passed, 0 failed" >> "$tally"
    else
        echo "FAIL scaleout: one job per file (parallel -k $how): the game records differ from -j1's" \
            "($games and $(wc -l < "$tmp/files.jsonl") lines)"
        echo "0 passed, 1 failed" >> "$tally"
    fi
done
awk '/^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3 } END { printf "%d passed, %d failed\n", p, f }' "$tally"
