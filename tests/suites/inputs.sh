#!/bin/sh
# Inputs suite: compressed files read through the system's decompressors,
# and input that is not PGN text refused.  The compressed files are made
# here with the real programs (gzip, xz, bzip2, zstd); a program that is
# not installed skips its cases.  Run from the repository root with BIN=.
# or BIN=build/san.
BIN=${BIN:-.}
P="$BIN/pgncheck"
. tests/lib.sh
scratch inputs
need_bin "$P"

# The game records without the file name (the only field a compressed
# file's output may differ in), and no summary (it holds the time taken).
games() { grep '"type":"game"' | sed 's/"file":"[^"]*",//'; }

# Real games, two files in one: 111 KB of engine games with long comments
# and 40 KB of daily games, then tests/cli/bad.pgn (an illegal king move
# and a wrong result: errors, so exit 1, and diagnostics to compare).  Small pieces (PGNCHECK_PIECE) cut the
# decompressed stream into many segments at -j2.
cat corpus/real/gh-tcec/TCEC_Tournament_1.pgn corpus/real/gh-chesscom-daily/chesscom-daily-21.pgn \
    tests/cli/bad.pgn > "$tmp/g.pgn"
"$P" -j1 -f jsonl "$tmp/g.pgn" | games > "$tmp/ref"
n=$(wc -l < "$tmp/ref")
[ "$n" -gt 100 ] && ok "reference: $n games" || fail "reference: $n games, want more than 100"

for c in gzip:gz xz:xz bzip2:bz2 zstd:zst; do
    prog=${c%%:*}
    ext=${c#*:}
    f="$tmp/g.pgn.$ext"
    if ! command -v "$prog" > /dev/null 2>&1; then
        skip "$prog" "$prog not installed"
        continue
    fi
    "$prog" -c < "$tmp/g.pgn" > "$f" 2> /dev/null || { fail "$prog: compressing"; continue; }
    cp "$f" "$tmp/noext"        # the magic bytes decide, not the name
    for j in 1 2; do
        for how in file stdin pipe noext; do
            case $how in
            file) PGNCHECK_PIECE=8192 "$P" -j$j -f jsonl "$f" > "$tmp/out" 2> "$tmp/err" ;;
            stdin) PGNCHECK_PIECE=8192 "$P" -j$j -f jsonl < "$f" > "$tmp/out" 2> "$tmp/err" ;;
            pipe) cat "$f" | PGNCHECK_PIECE=8192 "$P" -j$j -f jsonl > "$tmp/out" 2> "$tmp/err" ;;
            noext) PGNCHECK_PIECE=8192 "$P" -j$j -f jsonl "$tmp/noext" > "$tmp/out" 2> "$tmp/err" ;;
            esac
            st=$?
            # g.pgn has errors (bad.pgn's)
            status_is "$prog $how -j$j" 1
            games < "$tmp/out" > "$tmp/got"
            same "$prog $how -j$j: the plain file's game records" "$tmp/ref" "$tmp/got"
        done
    done
    # the text format too (file name aside)
    "$P" "$tmp/g.pgn" | sed 's/^[^:]*g\.pgn:/F:/' | grep -v '^[0-9]* games' > "$tmp/t1"
    "$P" "$f" | sed 's/^[^:]*g\.pgn\.[a-z0-9]*:/F:/' | grep -v '^[0-9]* games' > "$tmp/t2"
    same "$prog: text output as the plain file's" "$tmp/t1" "$tmp/t2"

    # Cut short: half the compressed bytes.  The decompressor writes what
    # it could and exits non-zero: the games before the cut are kept, then
    # a read-error, exit 2.
    size=$(wc -c < "$f")
    head -c $((size / 2)) "$f" > "$tmp/cut.$ext"
    for j in 1 2; do
        run "$P" -j$j -f jsonl "$tmp/cut.$ext"
        status_is "$prog cut -j$j" 2
        out_has "$prog cut -j$j" '"code":"read-error"'
        # the record says why, as stderr does (not "Input/output error")
        out_has "$prog cut -j$j: the record names the decompressor's failure" \
            "\"code\":\"read-error\".*\"message\":\"read failed: $prog -dc failed [(]exit status [0-9]+[)]: "
        err_has "$prog cut -j$j" "$prog -dc failed"
        games < "$tmp/out" > "$tmp/got"
        k=$(wc -l < "$tmp/got")
        # All but the last game read (it may be cut in the middle) are the
        # plain file's first games.  gzip and xz write out what they
        # decode as they go: half the bytes hold more than 10 games.
        # bzip2 and zstd decode whole blocks (up to 900 KB and 128 KB):
        # the half of a file of one or two blocks may give none.
        if [ "$k" -gt 0 ]; then
            head -n $((k - 1)) "$tmp/got" > "$tmp/got1"
            head -n $((k - 1)) "$tmp/ref" > "$tmp/ref1"
            same "$prog cut -j$j: the games before the cut" "$tmp/ref1" "$tmp/got1"
        fi
        case $prog in
        gzip | xz) [ "$k" -gt 10 ] && [ "$k" -lt "$n" ] && ok "$prog cut -j$j: $k of $n games" ||
            fail "$prog cut -j$j: $k of $n games" ;;
        esac
    done
    # Standard input cut short: the same
    for j in 1 2; do
        run "$P" -j$j -f jsonl - < "$tmp/cut.$ext"
        status_is "$prog cut stdin -j$j" 2
        out_has "$prog cut stdin -j$j" "\"code\":\"read-error\".*\"message\":\"read failed: $prog -dc failed"
    done
done

# A missing decompressor: named, exit 2, nothing read.
if command -v gzip > /dev/null 2>&1; then
    mkdir "$tmp/nopath"
    gzip -c < tests/cli/good.pgn > "$tmp/good.pgn.gz"
    PATH="$tmp/nopath" "$P" "$tmp/good.pgn.gz" > "$tmp/out" 2> "$tmp/err"
    st=$?
    status_is "no gzip" 2
    err_has "no gzip" "good\.pgn\.gz: gzip-compressed, but gzip could not be started"
    # no game read: only the failure, as a record too
    out_has "no gzip" "good\.pgn\.gz: error: gzip-compressed, but gzip could not be started.*\[read-error\]$"
    [ "$(wc -l < "$tmp/out")" -eq 1 ] && ok "no gzip: one line on stdout" || fail "no gzip: stdout" "$(cat "$tmp/out")"
    PATH="$tmp/nopath" "$P" - < "$tmp/good.pgn.gz" > "$tmp/out" 2> "$tmp/err"
    st=$?
    status_is "no gzip, stdin" 2
    err_has "no gzip, stdin" "<stdin>: gzip-compressed, but gzip could not be started"
else
    skip "no gzip" "gzip not installed"
fi

# ---- not PGN text: exit 2 and what was found, never "0 games, ok"
py() { python3 -c "$1" > "$2"; }
if command -v python3 > /dev/null 2>&1; then
    # tests/cli/good.pgn in UTF-16: with a byte order mark (Python's
    # "utf-16" writes one), and little- and big-endian without one
    # (ASCII text: every other byte NUL).
    for enc in utf-16 utf-16-le utf-16-be; do
        python3 -c 'import sys; sys.stdout.buffer.write(open(sys.argv[1], encoding="latin-1").read().encode(sys.argv[2]))' \
            tests/cli/good.pgn $enc > "$tmp/u.pgn"
        run "$P" "$tmp/u.pgn"
        status_is "$enc" 2
        err_has "$enc" "u\.pgn: UTF-16 text.*iconv -f UTF-16 -t UTF-8"
        run "$P" -f jsonl - < "$tmp/u.pgn"
        status_is "$enc stdin" 2
        err_has "$enc stdin" "<stdin>: UTF-16 text"
    done
    # 512 bytes of NUL; 4096 bytes of every byte value in turn (32 of each
    # 256 control bytes: far over one in 32)
    py 'import sys; sys.stdout.buffer.write(bytes(512))' "$tmp/zero.bin"
    py 'import sys; sys.stdout.buffer.write(bytes(range(256)) * 16)' "$tmp/all.bin"
    for f in zero all; do
        run "$P" "$tmp/$f.bin"
        status_is "$f.bin" 2
        err_has "$f.bin" "binary data"
        cat "$tmp/$f.bin" | "$P" > "$tmp/out" 2> "$tmp/err"
        st=$?
        status_is "$f.bin piped" 2
        err_has "$f.bin piped" "<stdin>: binary data"
    done
    py 'import sys; sys.stdout.buffer.write(b"\x89PNG\r\n\x1a\n" + bytes(64))' "$tmp/x.png"
    run "$P" "$tmp/x.png"
    status_is "PNG" 2
    err_has "PNG" "a PNG image"
    py 'import sys; sys.stdout.buffer.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")' "$tmp/x.pdf"
    run "$P" "$tmp/x.pdf"
    status_is "PDF" 2
    err_has "PDF" "a PDF document"
    # Stray NULs in real text stay text: 3 NULs in a 600-byte game (one
    # byte in 200, well under one in 32) is read as before.
    py 'import sys; t=open("tests/cli/good.pgn","rb").read(); sys.stdout.buffer.write(t.replace(b"\n\n", b"\n\0\0\0\n", 1))' "$tmp/nul.pgn"
    run "$P" -q "$tmp/nul.pgn"
    [ "$st" -ne 2 ] && ok "stray NULs: not refused (exit $st)" || fail "stray NULs refused" "$(cat "$tmp/err")"
else
    skip "not text" "python3 not installed"
fi
run "$P" "$P"
status_is "ELF" 2
err_has "ELF" "an ELF executable"
# Latin-1 text is text (tests/cli/latin1.pgn: cli.sh checks its findings)
run "$P" -q tests/cli/latin1.pgn
[ "$st" -ne 2 ] && ok "Latin-1: not refused (exit $st)" || fail "Latin-1 refused" "$(cat "$tmp/err")"

finish
