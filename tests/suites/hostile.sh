#!/bin/sh
# Hostile-input suite: prefixes cut at every byte, mutated real games,
# pathological sizes (streamed, bounded RSS and time), peak RSS per output
# mode against the man page's bounds, faults (unreadable
# files, /dev/full, closed stdout, one byte per read).  See tests/hostile/hostile.py.
if ! command -v python3 > /dev/null 2>&1; then
    echo "note: hostile suite skipped: python3 is not installed"
    echo "0 passed, 0 failed"
    exit 0
fi
exec python3 tests/hostile/hostile.py "${BIN:-.}"
