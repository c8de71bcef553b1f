#!/bin/sh
# Reader suite: token, recovery, chunking and corpus tests of the streaming PGN reader.
"$BIN/tests/test_reader"
