#!/bin/sh
# Fuzz suite: builds the libFuzzer targets (tests/fuzz.mk), replays the seeds
# and every regression input in corpus/fuzz/regress/<target>/, then fuzzes
# each target briefly (FUZZ_TEST_SECONDS, default 20; the property targets
# fuzz_export and fuzz_select, of issue 33, a quarter of it) from its seeds.
# Skips itself without clang/libFuzzer and under SANITIZED=1 (the fuzz
# build already has ASan+UBSan).
passed=0
failed=0
ok() { echo "ok $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; exit 0; }

secs=${FUZZ_TEST_SECONDS:-20}
cc=${FUZZ_CC:-clang}
targets="fuzz_reader fuzz_fen fuzz_san fuzz_pipeline fuzz_export fuzz_select fuzz_unwin"

if [ -n "$SANITIZED" ]; then
    echo "note: fuzz suite skipped under SANITIZED=1 (the fuzz build has ASan+UBSan itself)"
    finish
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgncheck-fuzz.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n);\nint LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' > "$tmp/probe.c"
if ! command -v "$cc" > /dev/null 2>&1 ||
   ! "$cc" -fsanitize=fuzzer,address,undefined -o "$tmp/probe" "$tmp/probe.c" > /dev/null 2>&1; then
    echo "note: fuzz suite skipped: $cc with -fsanitize=fuzzer is not available"
    finish
fi

if make --no-print-directory -f tests/fuzz.mk FUZZ_CC="$cc" fuzz-build > "$tmp/build.log" 2>&1; then
    ok "fuzz: targets build"
else
    fail "fuzz: targets build"; tail -n 20 "$tmp/build.log" | sed 's/^/    /'
    finish
fi

for t in $targets; do
    bin=build/fuzz/$t
    # seeds and regression inputs, replayed once each
    set --
    for f in corpus/fuzz/$t/* corpus/fuzz/regress/$t/*; do
        [ -f "$f" ] && set -- "$@" "$f"
    done
    if [ $# -eq 0 ]; then
        fail "fuzz: $t: no seeds in corpus/fuzz/$t"
        continue
    fi
    if "$bin" -timeout=10 "$@" > "$tmp/$t.replay" 2>&1; then
        ok "fuzz: $t replays $# seed and regression inputs"
    else
        fail "fuzz: $t replay of seeds/regressions"
        grep -E 'Running:|INVARIANT|ERROR|SUMMARY' "$tmp/$t.replay" | tail -n 8 | sed 's/^/    /'
    fi
    # a short run from the seeds; findings are kept in build/fuzz/found
    mkdir -p "$tmp/corpus-$t" build/fuzz/found
    case $t in
    fuzz_export | fuzz_select) s=$((secs / 4 > 0 ? secs / 4 : 1)) ;;
    *) s=$secs ;;
    esac
    if "$bin" -max_total_time="$s" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -dict=tests/fuzz/pgn.dict -artifact_prefix=build/fuzz/found/$t- "$tmp/corpus-$t" corpus/fuzz/$t \
        > "$tmp/$t.run" 2>&1; then
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$tmp/$t.run")
        cov=$(grep -o 'cov: [0-9]*' "$tmp/$t.run" | tail -n 1)
        ok "fuzz: $t ran ${s}s (${execs:-?} inputs, ${cov:-cov: ?} edges, PGN dictionary), no finding"
    else
        fail "fuzz: $t found a problem (input saved under build/fuzz/found/; add it to corpus/fuzz/regress/$t/)"
        grep -E 'INVARIANT|ERROR|SUMMARY|Test unit written' "$tmp/$t.run" | head -n 8 | sed 's/^/    /'
    fi
done
finish
