#!/bin/sh
# Reader suite: token, recovery, chunking and corpus tests of the streaming
# PGN reader (tests/test_reader), for the SIMD build (AVX2 where the CPU
# has it, and SSE2 forced with PGNCHECK_SIMD=sse2) and for the portable
# fallback (-DPGN_NO_SIMD, built here): the fallback runs the same tests,
# and its dump of every corpus file must equal the SSE2 build's, byte for
# byte.  (The fallback is what a non-x86 machine compiles.)
passed=0
failed=0
tally() {   # adds the "N passed, M failed" line of a test program's output
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n 1)
    if [ -z "$line" ]; then
        echo "FAIL $2: no summary line"; failed=$((failed + 1)); return
    fi
    grep -E '^(FAIL|not ok)' "$1" | sed "s/^/[$2] /"
    p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed}
    passed=$((passed + p)); failed=$((failed + f))
}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgncheck-reader.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
"$BIN/tests/test_reader" > "$tmp/simd.log" 2>&1
tally "$tmp/simd.log" simd
# Where the CPU has AVX2 the reader classifies movetext with it;
# PGNCHECK_SIMD=sse2 forces the SSE2 path, which must run the same tests
# and give the same dump of every corpus file.
PGNCHECK_SIMD=sse2 "$BIN/tests/test_reader" > "$tmp/sse2.log" 2>&1
tally "$tmp/sse2.log" sse2
if grep -qw avx2 /proc/cpuinfo 2> /dev/null; then
    n=0; bad=0
    for f in $(find corpus tests/reader -name '*.pgn' | sort); do
        n=$((n + 1))
        "$BIN/tests/test_reader" --dump "$f" > "$tmp/a" 2>&1
        PGNCHECK_SIMD=sse2 "$BIN/tests/test_reader" --dump "$f" > "$tmp/b" 2>&1
        if ! cmp -s "$tmp/a" "$tmp/b"; then
            echo "FAIL sse2 dump differs from the avx2 dump: $f"; bad=$((bad + 1))
        fi
    done
    if [ "$bad" -eq 0 ] && [ "$n" -gt 0 ]; then
        echo "ok avx2 dumps equal the SSE2 dumps on $n files"; passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
else
    echo "note: no AVX2 on this CPU; the AVX2 path is not run"
fi
if [ -n "${SANITIZED:-}" ]; then
    echo "note: the portable fallback is checked in the normal run only"
else
    lib=$(ls src/*.c | grep -v '^src/main\.c$')
    # shellcheck disable=SC2086
    if ${CC:-cc} -std=c17 -O2 -D_POSIX_C_SOURCE=200809L -DPGN_NO_SIMD -Isrc -o "$tmp/test_reader" \
            tests/test_reader.c $lib -lpthread 2> "$tmp/cc.log"; then
        echo "ok fallback builds"; passed=$((passed + 1))
        "$tmp/test_reader" > "$tmp/plain.log" 2>&1
        tally "$tmp/plain.log" fallback
        n=0; bad=0
        for f in $(find corpus tests/reader -name '*.pgn' | sort); do
            n=$((n + 1))
            "$BIN/tests/test_reader" --dump "$f" > "$tmp/a" 2>&1
            "$tmp/test_reader" --dump "$f" > "$tmp/b" 2>&1
            if ! cmp -s "$tmp/a" "$tmp/b"; then
                echo "FAIL fallback dump differs: $f"; bad=$((bad + 1))
            fi
        done
        if [ "$bad" -eq 0 ] && [ "$n" -gt 0 ]; then
            echo "ok fallback dumps equal the SSE2 dumps on $n files"; passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
    else
        echo "FAIL fallback build: $(head -n 5 "$tmp/cc.log")"; failed=$((failed + 1))
    fi
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
