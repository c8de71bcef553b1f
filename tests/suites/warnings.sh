#!/bin/sh
# warnings.sh - zero warnings: every C file compiles with the STYLE.md flags
# and -Werror under gcc and clang (each compiler that is installed), at -O2
# so that the optimiser's warnings (format truncation, ...) show too.
if [ -n "${SANITIZED:-}" ]; then
    echo "note: checked in the normal run only"
    echo "0 passed, 0 failed"
    exit 0
fi
passed=0
failed=0
flags="-std=c17 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
-Wwrite-strings -Wcast-qual -Wformat=2 -Wvla -Werror -D_POSIX_C_SOURCE=200809L -O2"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgncheck-warn.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
for cc in gcc clang; do
    if ! command -v "$cc" > /dev/null 2>&1; then
        echo "note: $cc not installed"
        continue
    fi
    for f in src/*.c tests/*.c; do
        # shellcheck disable=SC2086
        if "$cc" $flags -Isrc -c -o "$tmp/o.o" "$f" 2> "$tmp/err"; then
            echo "ok $cc $f"
            passed=$((passed + 1))
        else
            echo "FAIL $cc $f: $(head -n 5 "$tmp/err")"
            failed=$((failed + 1))
        fi
    done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
