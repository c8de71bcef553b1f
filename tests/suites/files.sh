#!/bin/sh
# Files suite: inputs with no game (no-games), inputs that fail (open-error,
# read-error) as records in every format and in the summary, -r, and the
# progress line (compressed bytes, several files, cleared by a signal).  The files are
# made here.  Run from the repository root with BIN=. or BIN=build/san.
BIN=${BIN:-.}
P="$BIN/pgncheck"
. tests/lib.sh
scratch files
out_line() { grep -q -F -x -e "$2" "$tmp/out" && ok "$1: stdout has the line" || fail "$1: stdout lacks: $2" "$(cat "$tmp/out")"; }
err_line() { grep -q -F -x -e "$2" "$tmp/err" && ok "$1: stderr has the line" || fail "$1: stderr lacks: $2" "$(cat "$tmp/err")"; }
no_out() { grep -q -e "$2" "$tmp/out" && fail "$1: stdout has /$2/" "$(cat "$tmp/out")" || ok "$1: no /$2/ on stdout"; }
# the summary record without its time
summary() { grep '^{"type":"summary"' "$tmp/out" | sed 's/"seconds":[0-9.]*,//'; }

need_bin "$P"
G=tests/cli/good.pgn            # 2 games, no finding
cd "$tmp" || exit 2
case $P in /*) ;; *) P="$OLDPWD/$P" ;; esac
cp "$OLDPWD/$G" good.pgn

# ---------------------------------------------------------------- no-games
# An input with no game is a warning (an exit status of 0), with the file
# and line 1, column 1: nothing was checked there, which a CI job over a
# file that came out empty must see.  0 bytes: "empty"; else the bytes read.
: > e.pgn
printf '\n\n   \n' > w.pgn         # 6 bytes of white space
printf '{a note}\n' > c.pgn     # a comment alone: the reader's non-game-text, then no-games
E_MSG='the input is empty: no game to check'
W_MSG="no game in the input's 6 bytes (only blank lines, comments, escape lines or text that is not a game)"
C_MSG="no game in the input's 9 bytes (only blank lines, comments, escape lines or text that is not a game)"
run "$P" e.pgn
status_is "empty file" 0
out_is "empty file" "e.pgn:1:1: warning: $E_MSG [no-games]"
run "$P" w.pgn
status_is "white space only" 0
out_is "white space only" "w.pgn:1:1: warning: $W_MSG [no-games]"
run "$P" c.pgn
status_is "a comment only" 0
out_is "a comment only" "c.pgn:1:1: warning: text between games that is not a game; skipped [non-game-text]
c.pgn:1:1: warning: $C_MSG [no-games]"
run "$P" -f jsonl e.pgn
out_line "empty file, jsonl" '{"type":"diagnostic","file":"e.pgn","code":"no-games","severity":"warning","line":1,"column":1,"message":"the input is empty: no game to check"}'
[ "$(wc -l < "$tmp/out")" -eq 2 ] && ok "empty file, jsonl: the record and the summary" || fail "empty file, jsonl" "$(cat "$tmp/out")"
summary > "$tmp/got"
echo '{"type":"summary","files":1,"games":0,"ok":0,"warning":0,"error":0,"skipped":0,"plies":0,"bytes":0,"inputs":1,"failed":0}' > "$tmp/want"
same "empty file, jsonl: summary" "$tmp/want" "$tmp/got"
# TSV: the header row alone on stdout; the finding on standard error, as
# every finding outside a game is
run "$P" -f tsv e.pgn
status_is "empty file, tsv" 0
[ "$(wc -l < "$tmp/out")" -eq 1 ] && ok "empty file, tsv: the header row alone" || fail "empty file, tsv: stdout" "$(cat "$tmp/out")"
err_is "empty file, tsv" "e.pgn:1:1: warning: $E_MSG [no-games]"
run "$P" -f github e.pgn
out_is "empty file, github" "::warning file=e.pgn,line=1,col=1,title=no-games::$E_MSG"
# standard input: an empty pipe (a producer that wrote nothing) and an
# empty file redirected, at -j1 and -j2
for j in 1 2; do
    : | "$P" -j$j > "$tmp/out" 2> "$tmp/err"
    st=$?
    status_is "empty pipe -j$j" 0
    out_is "empty pipe -j$j" "<stdin>:1:1: warning: $E_MSG [no-games]"
    run "$P" -j$j --label=x.pgn - < e.pgn
    out_is "empty stdin -j$j" "x.pgn:1:1: warning: $E_MSG [no-games]"
done
# a warning like the others: an error under --werror, gone with --ignore
run "$P" --werror e.pgn
status_is "empty file --werror" 1
out_is "empty file --werror" "e.pgn:1:1: error: $E_MSG [no-games]"
run "$P" --ignore=no-games e.pgn
status_is "empty file --ignore=no-games" 0
[ -s "$tmp/out" ] && fail "empty file --ignore=no-games: stdout" "$(cat "$tmp/out")" || ok "empty file --ignore=no-games: nothing"
# a file with games has none; nor has a file that could not be read (its
# failure says more)
run "$P" -f jsonl good.pgn missing.pgn
no_out "games, or a failure" 'no-games'
# in input order among other files, the same at -j1 and -j2 (small pieces)
cat good.pgn good.pgn good.pgn > g3.pgn
for j in 1 2; do
    PGNCHECK_PIECE=64 "$P" -j$j -f jsonl e.pgn g3.pgn w.pgn - c.pgn < e.pgn | grep -v '"type":"summary"' > "$tmp/j$j"
done
grep -c '"code":"no-games"' "$tmp/j1" | grep -q -x 4 && ok "four inputs without games, four no-games" ||
    fail "no-games count" "$(cat "$tmp/j1")"
same "no-games: -j2 = -j1" "$tmp/j1" "$tmp/j2"
sed -n 's/.*"file":"\([^"]*\)".*"code":"no-games".*/\1/p' "$tmp/j1" | tr '\n' ' ' > "$tmp/got"
printf 'e.pgn w.pgn <stdin> c.pgn ' > "$tmp/want"
same "no-games in input order" "$tmp/want" "$tmp/got"

# ---------------------------------------------------------------- failures
# A file that cannot be opened is an open-error record in every format,
# with no position (none was read), beside the line on standard error;
# one that is not PGN text a read-error.  Exit 2 either way.
NOENT='No such file or directory'
run "$P" missing.pgn
status_is "missing file" 2
out_is "missing file, text" "missing.pgn: error: $NOENT [open-error]"
err_is "missing file, text" "pgncheck: missing.pgn: $NOENT"
run "$P" -f jsonl missing.pgn
status_is "missing file, jsonl" 2
out_line "missing file, jsonl" '{"type":"diagnostic","file":"missing.pgn","code":"open-error","severity":"error","line":null,"column":null,"message":"No such file or directory"}'
run "$P" -f tsv missing.pgn
status_is "missing file, tsv" 2
[ "$(wc -l < "$tmp/out")" -eq 1 ] && ok "missing file, tsv: the header row alone" || fail "missing file, tsv: stdout" "$(cat "$tmp/out")"
err_line "missing file, tsv" "missing.pgn: error: $NOENT [open-error]"
err_line "missing file, tsv" "pgncheck: missing.pgn: $NOENT"
run "$P" -f github missing.pgn
status_is "missing file, github" 2
# (no line: GitHub annotates the file)
out_is "missing file, github" "::error file=missing.pgn,title=open-error::$NOENT"
# a directory without -r: open-error, as grep says it
mkdir d
run "$P" -f jsonl d
status_is "directory" 2
out_line "directory, jsonl" '{"type":"diagnostic","file":"d","code":"open-error","severity":"error","line":null,"column":null,"message":"Is a directory (-r checks the PGN files in it)"}'
err_is "directory" "pgncheck: d: Is a directory (-r checks the PGN files in it)"
# binary data: read-error (opened, not decodable)
printf 'PK\003\004' > z.pgn
head -c 64 /dev/zero >> z.pgn
run "$P" -f github z.pgn
status_is "ZIP" 2
out_is "ZIP, github" "::error file=z.pgn,title=read-error::a ZIP archive: extract it first (unzip)"
# unreadable (not as root: root reads it anyway)
printf '[Event "x"]\n\n1. e4 *\n' > locked.pgn
chmod 000 locked.pgn
if [ "$(id -u)" -ne 0 ]; then
    run "$P" -f jsonl locked.pgn
    status_is "unreadable" 2
    out_line "unreadable, jsonl" '{"type":"diagnostic","file":"locked.pgn","code":"open-error","severity":"error","line":null,"column":null,"message":"Permission denied"}'
else
    skip "unreadable" "run as root"
fi
chmod 644 locked.pgn
# the summary: 5 inputs given, 3 failed (missing, a directory, ZIP); 2
# read (good.pgn's 2 games, e.pgn's none)
run "$P" -f jsonl good.pgn missing.pgn d z.pgn e.pgn
status_is "summary" 2
summary > "$tmp/got"
echo '{"type":"summary","files":2,"games":2,"ok":2,"warning":0,"error":0,"skipped":0,"plies":10,"bytes":'"$(($(wc -c < good.pgn)))"',"inputs":5,"failed":3}' > "$tmp/want"
same "summary: inputs 5, failed 3" "$tmp/want" "$tmp/got"
run "$P" -q -s good.pgn missing.pgn d z.pgn e.pgn
err_line "-s: the failed inputs" "pgncheck: 3 of 5 inputs failed (not opened, not read to the end or not PGN text)"
# failures in input order with -j2 as with -j1
for j in 1 2; do
    PGNCHECK_PIECE=64 "$P" -j$j -f jsonl g3.pgn missing.pgn g3.pgn z.pgn 2> /dev/null | grep -v '"type":"summary"' > "$tmp/j$j"
done
same "failures: -j2 = -j1" "$tmp/j1" "$tmp/j2"
# a cut archive (read-error where the reading stopped) counts as failed
if command -v gzip > /dev/null 2>&1; then
    gzip -c < g3.pgn | head -c 40 > cut.pgn.gz
    run "$P" -f jsonl cut.pgn.gz
    status_is "cut archive" 2
    grep -c '"code":"read-error"' "$tmp/out" | grep -q -x 1 && ok "cut archive: one read-error" ||
        fail "cut archive: read-errors" "$(cat "$tmp/out")"
    summary | grep -q '"inputs":1,"failed":1}$' && ok "cut archive: failed" || fail "cut archive: summary" "$(summary)"
else
    skip "cut archive" "gzip not installed"
fi

# ---------------------------------------------------------------- -r
# A tree made here.  Each directory's entries are taken in byte order of
# name, a directory's files where its name sorts: "b" before "b-x.pgn"
# ('-' is 0x2d) before "b.pgn" ('.' 0x2e), so b/c.pgn comes before b-x.pgn
# (a sort of whole paths would put it after b.pgn, '/' being 0x2f), and
# "Z.PGN" (upper case, 0x5a) before "a.pgn.bz2" (0x61).  Checked: *.pgn
# and the compressed forms by name, in any case; notes.txt is not.  The
# links loop and sub/up lead back to directories on the path: not
# followed, a warning each.  plain.pgn.gz is plain text: the first bytes
# decide how a file is read, the name only whether the walk takes it.
mkdir -p tree/b tree/sub/deeper tree/empty
cp good.pgn tree/Z.PGN
cp good.pgn tree/b/c.pgn
cp good.pgn tree/b-x.pgn
cp good.pgn tree/b.pgn
cp good.pgn tree/notes.txt
cp good.pgn tree/plain.pgn.gz
cp good.pgn tree/sub/deeper/d.pgn
ln -s . tree/loop
ln -s .. tree/sub/up
want="Z.PGN"
for c in bzip2:bz2 gzip:gz xz:xz zstd:zst; do
    prog=${c%%:*}
    ext=${c#*:}
    if command -v "$prog" > /dev/null 2>&1; then
        "$prog" -c < good.pgn > "tree/a.pgn.$ext" 2> /dev/null
        want="$want a.pgn.$ext"
    else
        skip "-r: a.pgn.$ext" "$prog not installed"
    fi
done
want="$want b/c.pgn b-x.pgn b.pgn plain.pgn.gz sub/deeper/d.pgn"
files_of() { sed -n 's/^{"type":"game","file":"tree\/\([^"]*\)","index":1,.*/\1/p' "$1" | tr '\n' ' ' | sed 's/ $//'; }
for j in 1 2; do
    PGNCHECK_PIECE=64 "$P" -j$j -r -f jsonl tree > "$tmp/r$j" 2> "$tmp/err"
    st=$?
    status_is "-r -j$j" 0
    got=$(files_of "$tmp/r$j")
    [ "$got" = "$want" ] && ok "-r -j$j: files in byte order of name" || fail "-r -j$j: files" "got:  $got
want: $want"
    err_is "-r -j$j: the two loops" "pgncheck: warning: tree/loop: recursive directory loop (not followed)
pgncheck: warning: tree/sub/up: recursive directory loop (not followed)"
    sed 's/"seconds":[0-9.]*,//' "$tmp/r$j" > "$tmp/r$j.s"
done
same "-r: -j2 = -j1" "$tmp/r1.s" "$tmp/r2.s"
n=$(echo "$want" | wc -w)
grep -q "\"files\":$n,\"games\":$((2 * n)),.*\"inputs\":$n,\"failed\":0}" "$tmp/r1" && ok "-r: $n files, $((2 * n)) games" ||
    fail "-r: summary" "$(tail -n 1 "$tmp/r1")"
# with no FILE, the current directory, its names without "./"
(cd tree && "$P" -r -f jsonl) > "$tmp/out" 2> /dev/null
sed -n 's/^{"type":"game","file":"\([^"]*\)","index":1,.*/\1/p' "$tmp/out" | tr '\n' ' ' | sed 's/ $//' > "$tmp/got"
printf %s "$want" > "$tmp/want"
same "-r with no FILE: the current directory" "$tmp/want" "$tmp/got"
# a file named is checked whatever its name; standard input is read
run "$P" -r -f jsonl tree/notes.txt - < good.pgn
grep -c '"type":"game"' "$tmp/out" | grep -q -x 4 && ok "-r: a file named, and stdin" || fail "-r: named file" "$(cat "$tmp/out")"
# no PGN file below a directory named: no-games (no position: a directory)
run "$P" -r tree/empty
status_is "-r: empty directory" 0
out_is "-r: empty directory" "tree/empty: warning: no PGN file (*.pgn, *.pgn.gz, .xz, .bz2, .zst) in this directory or below [no-games]"
# without -r a directory is an error that names it (as grep's)
run "$P" tree
status_is "a directory without -r" 2
err_is "a directory without -r" "pgncheck: tree: Is a directory (-r checks the PGN files in it)"
# a directory the walk cannot read: open-error, the rest still checked
if [ "$(id -u)" -ne 0 ]; then
    chmod 000 tree/sub
    run "$P" -r -f jsonl tree
    chmod 755 tree/sub
    status_is "-r: unreadable directory" 2
    out_line "-r: unreadable directory" '{"type":"diagnostic","file":"tree/sub","code":"open-error","severity":"error","line":null,"column":null,"message":"Permission denied"}'
else
    skip "-r: unreadable directory" "run as root"
fi

# ---------------------------------------------------------------- progress
# (--progress forces the line where standard error is no terminal; the
# lines are parted by \r)
# (a line shorter than the one before is padded with spaces: dropped here)
plines() { tr '\r' '\n' < "$1" | sed 's/ *$//' | grep -v '^$'; }
cat "$OLDPWD/corpus/real/gh-tcec/TCEC_Tournament_1.pgn" "$OLDPWD/corpus/real/gh-chesscom-daily/chesscom-daily-21.pgn" > g.pgn
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do cat g.pgn; done > big.pgn
# A compressed file: the bytes counted are the compressed ones, how far
# gzip has read big.pgn.gz, so every figure is at most its size, and (a
# regular file, its size known) a percent of it: P% of C bytes is P*C/100
# bytes, which the MB figure (rounded to 0.1 MB) matches within 0.05 MB
# plus the 0.5% the percent is rounded to.
if command -v gzip > /dev/null 2>&1; then
    gzip -c < big.pgn > big.pgn.gz
    csize=$(wc -c < big.pgn.gz)
    "$P" -j1 -q --progress big.pgn.gz 2> "$tmp/err"
    plines "$tmp/err" > "$tmp/lines"
    if [ -s "$tmp/lines" ] && awk -v c="$csize" '
        { if (!match($0, /^pgncheck: [0-9.]+ MB, [0-9]+ games, [0-9]+ games\/s, [0-9]+%/)) exit 1
          mb = $2; split($0, f, ", "); p = f[4]; sub(/%.*/, "", p)
          if (mb * 1e6 > c + 5e4) exit 1
          d = mb * 1e6 - p * c / 100; if (d < 0) d = -d
          if (d > 5e4 + 0.005 * c) exit 1 }' "$tmp/lines"; then
        ok "progress: compressed bytes, a percent of the compressed size"
    else
        fail "progress: compressed (size $csize)" "$(cat "$tmp/lines")"
    fi
else
    skip "progress: compressed" "gzip not installed"
fi
# Several files: "[i/n] NAME: X/T MB", T the bytes of them all (by hand:
# wc -c of both files, in MB to one decimal), the name the file read (no
# games/s then: the line stays within 80 columns).
cp big.pgn b2.pgn
total=$(($(wc -c < big.pgn) + $(wc -c < b2.pgn)))
T=$(awk -v t="$total" 'BEGIN { printf "%.1f", t / 1e6 }')
"$P" -j1 -q --progress big.pgn b2.pgn 2> "$tmp/err"
plines "$tmp/err" > "$tmp/lines"
if [ -s "$tmp/lines" ] && ! grep -v -E "^pgncheck: \[(1/2\] big|2/2\] b2)\.pgn: [0-9.]+/$T MB, [0-9]+ games, [0-9]+%(, ETA [0-9]+:[0-9][0-9])?$" "$tmp/lines" > /dev/null &&
   head -n 1 "$tmp/lines" | grep -q '^pgncheck: \[1/2\] big\.pgn: '; then
    ok "progress over two files: the file, the bytes of both"
else
    fail "progress over two files (total $T MB)" "$(cat "$tmp/lines")"
fi
# a long name: "..." and its last 21 bytes (24 in all)
mkdir -p long-directory-name-here
cp big.pgn long-directory-name-here/games-2026.pgn
"$P" -q --progress long-directory-name-here/games-2026.pgn good.pgn 2> "$tmp/err"
plines "$tmp/err" | head -n 1 | grep -q -F 'pgncheck: [1/2] ...e-here/games-2026.pgn: ' &&
    ok "progress: a long name cut at its start" || fail "progress: long name" "$(plines "$tmp/err")"
# Ctrl-C (SIGINT) and SIGTERM while the line is shown: it is cleared
# ("\r", spaces over the widest line shown, "\r") and the signal ends the
# process (the handler is reset, the signal raised again).  A pipe kept
# open after four copies of g.pgn: pgncheck waits in read with the line
# shown.  (The signal's default action is restored for the child: a
# background job's SIGINT would be ignored, and then stays so.)
if command -v python3 > /dev/null 2>&1; then
    for sig in INT TERM; do
        python3 - "$P" g.pgn "$sig" > "$tmp/out" 2>&1 <<'PY'
import os, select, signal, subprocess, sys, time
prog, data, sig = sys.argv[1], open(sys.argv[2], "rb").read() * 4, getattr(signal, "SIG" + sys.argv[3])
r, w = os.pipe()
p = subprocess.Popen([prog, "-j1", "-q", "--progress", "-"], stdin=r, stderr=subprocess.PIPE,
                     preexec_fn=lambda: signal.signal(sig, signal.SIG_DFL))
os.close(r)
os.write(w, data)
err = b""
end = time.time() + 20
while b"games/s" not in err and time.time() < end:
    if select.select([p.stderr], [], [], 0.5)[0]:
        err += os.read(p.stderr.fileno(), 4096)
p.send_signal(sig)
rest = p.stderr.read()
p.wait()
os.close(w)
err += rest
lines = [x for x in err.split(b"\r") if x.strip()]
widest = max((len(x) for x in lines), default=0)
ok = p.returncode == -sig and err.endswith(b"\r") and len(lines) > 0
tail = err[: -1]
k = len(tail) - len(tail.rstrip(b" "))
ok = ok and k >= widest and tail[: len(tail) - k].endswith(b"\r")
print("ok" if ok else "bad: exit %s, widest %d, end %r" % (p.returncode, widest, err[-120:]))
PY
        grep -q -x ok "$tmp/out" && ok "SIG$sig: the progress line cleared, the process ended by it" ||
            fail "SIG$sig" "$(cat "$tmp/out")"
    done
else
    skip "SIGINT" "python3 not installed"
fi

finish
