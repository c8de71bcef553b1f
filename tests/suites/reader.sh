#!/bin/sh
# Reader suite: token, recovery, chunking and corpus tests of the streaming
# PGN reader (tests/test_reader), for the SIMD build (AVX-512 or AVX2 where
# the CPU has it, AVX2 forced with PGNCHECK_SIMD=avx2 and SSE2 with
# PGNCHECK_SIMD=sse2) and for the portable
# fallback (-DPGN_NO_SIMD, built here): each of them runs the same tests,
# and its dump of every corpus file must equal the default path's, byte for
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
# dumps_equal NAME COMMAND...: COMMAND --dump of every corpus and reader
# test file must equal the default path's dump, byte for byte (one check).
dumps_equal() {
    name=$1; shift
    n=0; bad=0
    for f in $(find corpus tests/reader -name '*.pgn' | sort); do
        n=$((n + 1))
        "$BIN/tests/test_reader" --dump "$f" > "$tmp/a" 2>&1
        "$@" --dump "$f" > "$tmp/b" 2>&1
        if ! cmp -s "$tmp/a" "$tmp/b"; then
            echo "FAIL $name dump differs from the default path's: $f"; bad=$((bad + 1))
        fi
    done
    if [ "$bad" -eq 0 ] && [ "$n" -gt 0 ]; then
        echo "ok $name dumps equal the default path's on $n files"; passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
}
"$BIN/tests/test_reader" > "$tmp/simd.log" 2>&1
tally "$tmp/simd.log" simd
# Where the CPU has AVX2 the reader classifies movetext with it;
# PGNCHECK_SIMD=sse2 forces the SSE2 path, which must run the same tests
# and give the same dump of every corpus file.
PGNCHECK_SIMD=sse2 "$BIN/tests/test_reader" > "$tmp/sse2.log" 2>&1
tally "$tmp/sse2.log" sse2
# Where the CPU has AVX-512 (F, BW) that is the default; PGNCHECK_SIMD=avx2
# forces the AVX2 path, which must do the same.
avx512=0
grep -qw avx512bw /proc/cpuinfo 2> /dev/null && avx512=1
if [ "$avx512" -eq 1 ]; then
    PGNCHECK_SIMD=avx2 "$BIN/tests/test_reader" > "$tmp/avx2.log" 2>&1
    tally "$tmp/avx2.log" avx2
fi
if grep -qw avx2 /proc/cpuinfo 2> /dev/null; then
    dumps_equal sse2 env PGNCHECK_SIMD=sse2 "$BIN/tests/test_reader"
    if [ "$avx512" -eq 1 ]; then
        dumps_equal avx2 env PGNCHECK_SIMD=avx2 "$BIN/tests/test_reader"
    fi
    # and the masks themselves: every byte value at every place of a
    # block, and random blocks, classified both ways (three ways where the
    # CPU has AVX-512); the tag value and comment scans likewise
    cat > "$tmp/masks.c" << 'EOF'
#include "pgn_bytes.h"
#include <stdio.h>
__attribute__((target("avx2"), noinline)) static void by_avx2(const unsigned char *s, Masks *m)
{
    classify64_avx2(s, m);
}
__attribute__((target("avx512f,avx512bw"), noinline)) static void by_avx512(const unsigned char *s, Masks *m)
{
    classify64_avx512(s, m);
}
__attribute__((target("avx2"), noinline)) static unsigned stop_avx2(const unsigned char *s)
{
    return tv_stop32_avx2(s);
}
__attribute__((target("avx2"), noinline)) static size_t plain_avx2(const unsigned char *s, size_t n)
{
    return comment_plain_avx2(s, n);
}
__attribute__((target("avx2"), noinline)) static uint64_t lf_avx2(const unsigned char *s)
{
    return lf64_avx2(s);
}
/* the tag and comment scans against byte tests: tag value stops
 * (tv_stop32, both ways: tv_stop and bytes above 0x7F), letters (alpha16),
 * line feeds (lf64, both ways), plain comment bytes (comment_plain, both
 * ways, for every length) */
static unsigned long check_scans(const unsigned char *blk)
{
    unsigned long bad = 0;
    unsigned stop = 0, al = 0;
    uint64_t lf = 0;
    for (int k = 0; k < 64; k++)
        lf |= (uint64_t)(blk[k] == '\n') << k;
    bad += lf64(blk) != lf || lf_avx2(blk) != lf;
    for (int k = 0; k < 32; k++)
        stop |= (unsigned)(pgn_tv_stop[blk[k]] || blk[k] > 0x7F) << k;
    for (int k = 0; k < 16; k++)
        al |= (unsigned)((pgn_cls[blk[k]] & K_ALPHA) != 0) << k;
    bad += tv_stop32(blk) != stop || stop_avx2(blk) != stop || alpha16(blk) != al;
    for (size_t n = 0; n <= 64; n++) {
        size_t k = 0;
        while (k < n && blk[k] >= 0x20 && blk[k] < 0x7D && blk[k] != '%')
            k++;
        bad += comment_plain(blk, n) != k || plain_avx2(blk, n) != k;
    }
    return bad;
}
int main(void)
{
    unsigned char blk[64];
    unsigned long n = 0, bad = 0;
    unsigned long long st = 88172645463325252ull;
    pgn_bytes_init(PGN_SIMD_BEST);
    int has512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
    for (int it = 0; it < 16384 + 500000; it++) {
        for (int k = 0; k < 64; k++) {
            st ^= st << 13; st ^= st >> 7; st ^= st << 17;
            blk[k] = it < 16384 ? (unsigned char)"1.e4 e5\n"[k & 7] : (unsigned char)st;
        }
        if (it < 16384)
            blk[it & 63] = (unsigned char)(it >> 6);
        Masks a, b;
        classify64(blk, &a);
        by_avx2(blk, &b);
        n++;
        bad += memcmp(&a, &b, sizeof a) != 0;
        if (has512) {
            by_avx512(blk, &b);
            bad += memcmp(&a, &b, sizeof a) != 0;
        }
        if (it < 16384 || it % 16 == 0)
            bad += check_scans(blk);
    }
    /* every byte value at every place of otherwise plain text */
    for (int it = 0; it < 16384; it++) {
        memset(blk, 'a', sizeof blk);
        blk[it & 63] = (unsigned char)(it >> 6);
        bad += check_scans(blk);
    }
    printf("%lu blocks%s, %lu differ\n", n, has512 ? " (avx2 and avx-512)" : "", bad);
    return bad != 0;
}
EOF
    if ${CC:-cc} -std=c17 -O2 -D_POSIX_C_SOURCE=200809L -Isrc -o "$tmp/masks" "$tmp/masks.c" src/pgn_bytes.c \
            2> "$tmp/cc.log" && "$tmp/masks" > "$tmp/masks.log" 2>&1; then
        echo "ok avx2 (and avx-512) masks equal the SSE2 masks: $(cat "$tmp/masks.log")"; passed=$((passed + 1))
    else
        echo "FAIL avx2 masks: $(head -n 5 "$tmp/cc.log" "$tmp/masks.log")"; failed=$((failed + 1))
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
        dumps_equal fallback "$tmp/test_reader"
    else
        echo "FAIL fallback build: $(head -n 5 "$tmp/cc.log")"; failed=$((failed + 1))
    fi
fi
# A failed allocation while reading (PGNCHECK_FAIL_ALLOC=N fails the Nth,
# mem.h) ends in "out of memory" and exit status 2, or changes nothing:
# never a game read with a tag, a move or a diagnostic silently dropped.
# Every allocation of a short run, one at a time (about 15 of them).
cat > "$tmp/oom.pgn" << 'EOF'
[Event "a"]
[Site "b"]
[Date "2024.01.01"]
[Round "1"]
[White "x"]
[Black "y"]
[Result "1-0"]

1. e4 e5 2. Nf3 {a comment} Nc6 (2... d6 3. d4) 3. Bb5 a6 4. Ba4 Nf6 1-0

[Event "a"]
[Site "b"]
[Date "2024.01.02"]
[Round "2"]
[White "y"]
[Black "x"]
[Result "*"]

1. d4 d5 *
EOF
"$BIN/pgncheck" "$tmp/oom.pgn" > "$tmp/oom.ref" 2> "$tmp/oom.referr"
ref_rc=$?
bad=0 oom=0
for n in $(seq 1 40); do
    PGNCHECK_FAIL_ALLOC=$n "$BIN/pgncheck" "$tmp/oom.pgn" > "$tmp/oom.out" 2> "$tmp/oom.err"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q 'out of memory' "$tmp/oom.err"; then
        oom=$((oom + 1))
    elif [ "$rc" -ne "$ref_rc" ] || ! cmp -s "$tmp/oom.out" "$tmp/oom.ref" || ! cmp -s "$tmp/oom.err" "$tmp/oom.referr"; then
        echo "FAIL allocation $n failed: exit $rc, not out of memory and not the same output"; bad=$((bad + 1))
    fi
done
if [ "$bad" -eq 0 ] && [ "$oom" -gt 0 ]; then
    echo "ok a failed allocation is out of memory (exit 2) or changes nothing ($oom of 40 runs)"; passed=$((passed + 1))
else
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
