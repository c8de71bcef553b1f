#!/bin/sh
# corpus.sh - every file under corpus/ through the real binary: no crash,
# exit 0 or 1, one JSON game record per game the summary counts; under the
# sanitizer build (SANITIZED=1) any ASan/UBSan report aborts the run and
# fails here.  In that pass (make check) the whole corpus also runs once
# under valgrind memcheck on the plain binary (PLAIN_BIN), when valgrind is
# installed: no errors, no leaks.
BIN=${BIN:-.}
. tests/lib.sh
scratch corpus
find corpus -type f \( -name '*.pgn' -o -name '*.PGN' \) | LC_ALL=C sort > "$tmp/files"
n=$(wc -l < "$tmp/files")
[ "$n" -gt 0 ] || { fail "no PGN files under corpus/"; finish; }
while IFS= read -r f; do
    "$BIN/pgncheck" -j2 -f jsonl "$f" > "$tmp/out" 2> "$tmp/err"
    st=$?
    if [ "$st" -gt 1 ]; then
        fail "$f: exit $st: $(head -c 300 "$tmp/err")"
        continue
    fi
    games=$(grep -c '^{"type":"game"' "$tmp/out")
    summary=$(sed -n 's/^{"type":"summary".*"games":\([0-9]*\).*/\1/p' "$tmp/out")
    if [ "$games" != "$summary" ]; then
        fail "$f: $games game records but the summary counts ${summary:-none}"
    elif [ -s "$tmp/err" ]; then
        fail "$f: unexpected stderr: $(head -c 300 "$tmp/err")"
    else
        ok "$f ($games games, exit $st)"
    fi
done < "$tmp/files"

# valgrind runs in the sanitizer pass (make check), on the plain binary.
vbin=${PLAIN_BIN:-}
if [ -n "$vbin" ] && [ -x "$vbin/pgncheck" ] && command -v valgrind > /dev/null 2>&1; then
    # One process over the whole corpus, threads on, every format path that
    # allocates: text (raw excerpts) and --select (copies).
    for mode in "-j2" "-j1 --select=valid"; do
        # shellcheck disable=SC2046,SC2086
        valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect \
            --errors-for-leak-kinds=definite,indirect "$vbin/pgncheck" $mode $(cat "$tmp/files") \
            > /dev/null 2> "$tmp/vg"
        st=$?
        if [ "$st" -eq 99 ] || grep -q '==[0-9]*==' "$tmp/vg"; then
            fail "valgrind memcheck pgncheck $mode corpus/: $(grep '==[0-9]*==' "$tmp/vg" | head -n 5)"
        else
            ok "valgrind memcheck pgncheck $mode over $n corpus files: no errors, no leaks (exit $st)"
        fi
    done
else
    echo "note: valgrind memcheck runs in make check (PLAIN_BIN set) when valgrind is installed"
fi
finish
