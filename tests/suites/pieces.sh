#!/bin/sh
# Pieces suite: with -jN a regular file is cut into pieces at sync points
# and each piece is read and checked whole by one thread (pieces.c, pgn.h).
# Whatever the cuts, the output must be the output of -j1, byte for byte:
# the same games, numbers, lines, columns, offsets and verdicts, on stdout
# and on stderr.  PGNCHECK_PIECE makes the pieces small so that small files
# get many cuts (1 byte: a cut at every sync point).  Generated inputs
# cover the hard cases: sync points where the reader does not begin a game
# (the cut is not confirmed and that stretch is read again in order),
# pieces with more games than one piece holds, files without blank lines,
# CRLF line ends, and a comment that runs into a new game.
bin=${BIN:-.}
pgn=$bin/pgncheck
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgncheck-pieces.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# same NAME FILE PIECE JOBS ARGS...: -j1 and -jJOBS with PGNCHECK_PIECE agree.
# With PIPE=1 the -jJOBS run reads the file through a pipe (in segments of
# about PIECE bytes held in memory) and names it with --label.
same() {
    s_name=$1; s_file=$2; s_piece=$3; s_jobs=$4; shift 4
    "$pgn" -j1 "$@" "$s_file" > "$tmp/o1" 2> "$tmp/e1"; s1=$?
    if [ -n "${PIPE:-}" ]; then
        cat "$s_file" | PGNCHECK_PIECE=$s_piece "$pgn" -j"$s_jobs" "$@" --label="$s_file" - > "$tmp/o2" 2> "$tmp/e2"
        s2=$?
    else
        PGNCHECK_PIECE=$s_piece "$pgn" -j"$s_jobs" "$@" "$s_file" > "$tmp/o2" 2> "$tmp/e2"; s2=$?
    fi
    for x in o1 e1 o2 e2; do sed 's/"seconds":[0-9.]*//' "$tmp/$x" > "$tmp/$x.s"; done
    if [ "$s1" = "$s2" ] && cmp -s "$tmp/o1.s" "$tmp/o2.s" && cmp -s "$tmp/e1.s" "$tmp/e2.s"; then
        ok "$s_name"
    else
        bad "$s_name: -j$s_jobs with pieces of $s_piece bytes differs from -j1 (exit $s1/$s2)"
        diff "$tmp/o1.s" "$tmp/o2.s" | head -n 4
    fi
}

# Every committed PGN file, small pieces, several formats and modes.
files=$(find corpus tests -name '*.pgn' | sort)
n=0; nbad=0
for f in $files; do
    specs='"1 2 -f jsonl" "97 2 -f text" "4096 3 -f jsonl --fix-results" "61 2 -f tsv"'
    [ -n "${SANITIZED:-}" ] && specs='"1 2 -f jsonl" "97 3 -f text --fix-results"'   # slower build: fewer
    eval "set -- $specs"
    for spec in "$@"; do
        set -- $spec
        out=$(same "$f" "$f" "$@")
        n=$((n + 1))
        case $out in ok*) ;; *) nbad=$((nbad + 1)); echo "$out" | sed "s|^FAIL |FAIL committed files: |" ;; esac
        # and through a pipe, in segments
        out=$(PIPE=1 same "$f" "$f" "$@")
        n=$((n + 1))
        case $out in ok*) ;; *) nbad=$((nbad + 1)); echo "$out" | sed "s|^FAIL |FAIL committed files, piped: |" ;; esac
    done
done
if [ "$nbad" -eq 0 ]; then ok "committed files: $n runs of -j1 against -j2/-j3 in small pieces and segments agree"; else
    fail=$((fail + nbad)); fi

# Generated inputs.  The counts and lines expected are worked out by the
# generator from what it wrote, not taken from pgncheck.
python3 - "$tmp" <<'PY' || { bad "generator"; }
import sys, os
d = sys.argv[1]
def write(name, games, nl="\n"):
    # games: list of game texts; returns (games, line of last game's start)
    line, last = 1, 1
    with open(os.path.join(d, name), "w", newline="") as f:
        for g in games:
            last = line
            t = g.replace("\n", nl)
            f.write(t)
            line += g.count("\n")
    with open(os.path.join(d, name + ".expect"), "w") as f:
        f.write("%d %d\n" % (len(games), last))
# 1. tiny games: far more than one piece holds (the piece ends early, the
#    next pieces are read again in order from there)
write("tiny.pgn", ['[Event "t%d"]\n\n1. e4 e5 *\n\n' % i if i % 7 == 0 else "1. d4 *\n\n"
                   for i in range(20000)])
# 2. a malformed first tag pair, then a blank line: "[Event x]" is read as
#    a tag (its bare value kept, one bad-tag), so the blank line ends that
#    tag section as it would a well-formed one, and each record is two
#    games: an empty one, then the game from "[Site" on
write("nosync.pgn", ['[Event x]\n\n[Site "s%d"]\n[Result "*"]\n\n1. e4 *\n\n' % i
                     for i in range(3000)])
# 3. no blank lines at all: cuts only at '[Event "' lines; every fifth game
#    has Site before Event (its Event line is no game start)
write("noblank.pgn", [('[Site "x%d"]\n[Event "e%d"]\n1. e4 e5 2. Nf3 1-0\n' % (i, i)) if i % 5 == 0
                      else ('[Event "e%d"]\n[Site "s"]\n1. d4 d5 *\n' % i) for i in range(4000)])
# 4. CRLF line ends, with games of various lengths
moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 "
write("crlf.pgn", ['[Event "c%d"]\n[Result "*"]\n\n%s*\n\n' % (i, moves * (1 + i % 3))
                   for i in range(3000)], nl="\r\n")
# 5. comments that run into a new game (unterminated: reported at the '{',
#    the game after is read), comments holding blank lines and '[' lines
#    that start no game, and long comments
g = []
for i in range(2000):
    if i % 3 == 0:
        g.append('[Event "u%d"]\n\n1. e4 { an open comment\n\n' % i)
    elif i % 3 == 1:
        g.append('[Event "k%d"]\n\n1. e4 {\n\n [not a tag\n[Site x]\n%s} e5 *\n\n' % (i, "word " * (i % 50)))
    else:
        g.append('[Event "v%d"]\n\n1. e4 (1. d4 {x} d5) e5 1-0\n\n' % i)
write("comments.pgn", g)
# 6. long comments, longer than a pipe's segment, than what a segment's
#    reader sees past its end and than the segments in flight together:
#    many lines, blank lines and '[' lines that begin no tag pair, or one
#    line of 500 KB with no sync point, where a pipe is cut anyway
g = []
for i in range(30):
    if i % 3 == 0:
        body = "".join("word %d\n\n[Site x]\n" % k for k in range(20000 + 1000 * i))
        g.append('[Event "l%d"]\n\n1. e4 {%s} e5 *\n\n' % (i, body))
    elif i % 3 == 1:
        g.append('[Event "p%d"]\n\n1. d4 {%s} d5 1-0\n\n' % (i, "x" * (500000 + 1000 * i)))
    else:
        g.append('[Event "s%d"]\n\n1. c4 c5 *\n\n' % i)
write("long.pgn", g)
# 7. bare movetext, no tag pair anywhere: no sync point, so a pipe is read
#    on one thread in batches (with a sync point only after 64 KB too)
write("tagless.pgn", ["1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 %s\n\n" % ("1-0", "0-1", "*", "1/2-1/2")[i % 4]
                      for i in range(3000)])
# 8. the last piece holds more than a piece's 1,024 games and starts where
#    the one before stopped (pieces of 40,000 bytes below): games of 746
#    bytes up to byte 160,390, then 2,000 tiny ones (24 KB) in the last
#    piece alone.  Its games past the 1,024th were lost once.
big = '[Event "big"]\n[Site "s"]\n\n{%s} 1. e4 e5 *\n\n' % ("x" * 700)
write("lastcap.pgn", [big] * 215 + ['[Event "t%d"]\n\n1. e4 e5 *\n\n' % i if i % 7 == 0 else "1. d4 *\n\n"
                                    for i in range(2000)])
PY
same "generated lastcap.pgn, pieces of 40000 bytes, -j2" "$tmp/lastcap.pgn" 40000 2 -f jsonl
read -r want_games want_line < "$tmp/lastcap.pgn.expect"
got_games=$(PGNCHECK_PIECE=40000 "$pgn" -j2 -f jsonl "$tmp/lastcap.pgn" 2> /dev/null | grep -c '^{"type":"game"')
if [ "$got_games" = "$want_games" ]; then ok "generated lastcap.pgn: all $want_games games in pieces"; else
    bad "generated lastcap.pgn: $got_games games in pieces; the generator wrote $want_games"; fi
for f in tiny nosync noblank crlf comments long tagless; do
    for spec in "61 2" "300 2" "4096 3" "65536 2"; do
        set -- $spec
        same "generated $f.pgn, pieces of $1 bytes, -j$2" "$tmp/$f.pgn" "$1" "$2" -f jsonl
        PIPE=1 same "generated $f.pgn through a pipe, segments of $1 bytes, -j$2" "$tmp/$f.pgn" "$1" "$2" -f jsonl
    done
    read -r want_games want_line < "$tmp/$f.pgn.expect"
    PGNCHECK_PIECE=300 "$pgn" -j2 -f jsonl "$tmp/$f.pgn" > "$tmp/out" 2> /dev/null
    got_games=$(grep -c '^{"type":"game"' "$tmp/out")
    got_line=$(grep '^{"type":"game"' "$tmp/out" | tail -n 1 | sed 's/.*"index":[0-9]*,"offset":[0-9]*,"line":\([0-9]*\),.*/\1/')
    got_index=$(grep '^{"type":"game"' "$tmp/out" | tail -n 1 | sed 's/.*"index":\([0-9]*\),.*/\1/')
    case $f in
    nosync) want_line=$(( (want_games - 1) * 7 + 3 )); want_games=$((want_games * 2)) ;;   # 7 lines a record, 2 games
    comments) want_games=$got_games; want_line=$got_line   # the reader decides the games: agreement only
              [ "$got_games" -gt 1000 ] || want_games=more-than-1000 ;;
    esac
    if [ "$got_games" = "$want_games" ] && [ "$got_index" = "$want_games" ] && [ "$got_line" = "$want_line" ]; then
        ok "generated $f.pgn: ${got_games} games in pieces, the last at line ${got_line}"
    else
        bad "generated $f.pgn: $got_games games (index $got_index), last at line $got_line; want $want_games at line $want_line"
    fi
done

# Mutated inputs: committed files cut, spliced and sprinkled with what moves
# game boundaries (blank lines, tag lines, '{', '}', '"', CR, stray bytes),
# each checked in pieces of a random size against -j1.  Fixed seeds: the
# same files every run.
python3 - "$tmp" $(find corpus -name '*.pgn' | sort) <<'PY' || bad "mutator"
import random, sys, os
d, files = sys.argv[1], sys.argv[2:]
rng = random.Random(20261129)
bits = [b"\n\n[Event \"m\"]\n", b"\n[Event \"", b"\n\n[Site \"x\"]", b"{", b"}", b"\"", b"\r",
        b"\n\n", b"(", b")", b"1-0\n", b"*", b"\n%x\n", b";", b"\xff", b"\x00", b"[", b"]"]
for k in range(40):
    data = b"".join(open(rng.choice(files), "rb").read() for _ in range(rng.randint(1, 4)))
    data = bytearray(data)
    for _ in range(rng.randint(1, 30)):
        at = rng.randrange(len(data) + 1)
        r = rng.random()
        if r < 0.5:
            data[at:at] = rng.choice(bits)
        elif r < 0.8:
            del data[at:at + rng.randint(1, 40)]
        else:
            src = open(rng.choice(files), "rb").read()
            a = rng.randrange(len(src) + 1)
            data[at:at] = src[a:a + rng.randint(1, 2000)]
    open(os.path.join(d, "mut%02d.pgn" % k), "wb").write(bytes(data))
PY
m=0; mbad=0
for f in "$tmp"/mut*.pgn; do
    m=$((m + 1))
    piece=$(( (m * 7919) % 3000 + 1 ))
    out=$(same "$f" "$f" "$piece" $(( 2 + m % 2 )) -f jsonl)
    case $out in ok*) ;; *) mbad=$((mbad + 1)); echo "$out" | sed "s|^FAIL |FAIL mutated: |"; cp "$f" "${TMPDIR:-/tmp}/pgncheck-pieces-failed-$m.pgn" ;; esac
    out=$(PIPE=1 same "$f" "$f" "$piece" $(( 2 + m % 2 )) -f jsonl)
    case $out in ok*) ;; *) mbad=$((mbad + 1)); echo "$out" | sed "s|^FAIL |FAIL mutated, piped: |"; cp "$f" "${TMPDIR:-/tmp}/pgncheck-pieces-failed-pipe-$m.pgn" ;; esac
done
if [ "$m" -ge 40 ] && [ "$mbad" -eq 0 ]; then ok "mutated inputs: $m files in random pieces and through pipes agree with -j1"; else
    fail=$((fail + mbad)); [ "$m" -ge 40 ] || bad "mutated inputs: only $m files"; fi

# A file named twice: pieces of one input never mix with the next.
PGNCHECK_PIECE=500 "$pgn" -j2 -f jsonl "$tmp/tiny.pgn" "$tmp/crlf.pgn" > "$tmp/two" 2> /dev/null
{ "$pgn" -j1 -f jsonl "$tmp/tiny.pgn" "$tmp/crlf.pgn" 2> /dev/null; } > "$tmp/two1"
if [ "$(sed 's/"seconds":[0-9.]*//' "$tmp/two")" = "$(sed 's/"seconds":[0-9.]*//' "$tmp/two1")" ]; then
    ok "two inputs in pieces: the same as -j1"
else
    bad "two inputs in pieces differ from -j1"
fi

# Standard input that is a regular file read from past its start: no pieces
# (they would start at offset 0); the games after the skipped bytes only.
skip=2000
( dd bs="$skip" count=1 > /dev/null 2>&1; "$pgn" -j1 -f jsonl - ) < "$tmp/crlf.pgn" > "$tmp/s1" 2>&1
( dd bs="$skip" count=1 > /dev/null 2>&1; PGNCHECK_PIECE=300 "$pgn" -j2 -f jsonl - ) < "$tmp/crlf.pgn" > "$tmp/s2" 2>&1
first=$(head -n 1 "$tmp/s2" | sed 's/.*"offset":\([0-9]*\),.*/\1/')
if [ "$(sed 's/"seconds":[0-9.]*//' "$tmp/s1")" = "$(sed 's/"seconds":[0-9.]*//' "$tmp/s2")" ] &&
   [ -n "$first" ] && [ "$first" -gt 0 ]; then
    ok "standard input read from an offset: -j2 reads from there as -j1 does"
else
    bad "standard input from an offset: -j2 differs from -j1 (first game at offset '$first')"
fi

# Pipes: cases found by review, each of which once differed from -j1.
# (1) an empty pipe, and an empty standard input named a second time
# (an empty input is a no-games warning, as at -j1: exit 0)
if [ "$(: | "$pgn" -j2 - 2>&1)" = "<stdin>:1:1: warning: the input is empty: no game to check [no-games]" ] &&
   : | "$pgn" -j2 - > /dev/null 2>&1 &&
   [ "$(printf '[Event "a"]\n\n1. e4 *\n' | "$pgn" -j2 -q - - 2>&1; echo "rc=$?")" = "rc=0" ]; then
    ok "an empty pipe at -j2: only the no-games warning, exit 0 (as -j1)"
else
    bad "an empty pipe at -j2 is not read as empty input"
fi
python3 - "$tmp" <<'PY' || bad "generator (review cases)"
import sys, os
d = sys.argv[1]
def filler(n):
    line = "comment text with no bracket 0123456789\n"
    return (line * (n // len(line) + 1))[:n]
# (2) a long game A, then a 130 KB game G starting at a sync point, then
#     short games: read again in order past the segments, G's start must
#     stay readable (it once was dropped: "Input/output error")
a_head, a_tail = '[Event "A"]\n[Site "?"]\n\n1. e4 {', '} e5 *\n\n'
A = a_head + filler(100000 - len(a_head) - len(a_tail)) + a_tail
g_head, g_tail = '[Event "G"]\n\n1. d4 {', '} d5 *\n\n'
G = g_head + filler(132072 - len(g_head) - len(g_tail)) + g_tail
open(os.path.join(d, "gap.pgn"), "w").write(A + G + "".join('[Event "H%d"]\n\n1. c4 c5 2. Nf3 *\n\n' % i for i in range(50)))
# (3) 1024 games, then a segment end at a sync point that starts no game,
#     text between games, and "e4abc" cut by the segment's end into what
#     looks like a game's first move
s = '[Event "a"]\n1. e4 *\n' + "1. e4 *\n" * 1022 + '[Event x]\n\n'
hi = len(s)
s += '[Site "s"]\n[Result "*"]\n\n1. e4 *\n'
pad = hi + 4096 - 2 - len(s)
body = ""
while pad - len(body) > 40:
    body += "zz zz zz zz zz zz zz zz zz zz zz zz zz\n"
body += "z" * (pad - len(body) - 1) + "\n"
s += body + 'e4abc\n\n[Event "z"]\n\n1. e4 *\n'
open(os.path.join(d, "captail.pgn"), "w").write(s)
# (4) more than 1024 games on one line: a piece stops inside a line, and
#     the reading after it must count columns from the line's start
open(os.path.join(d, "oneline.pgn"), "w").write('[Event "a"]\n\n' + "1. e4 * " * 1030 + "\n" +
                                                 "1. d4 * [Event \"c\"]\n\n1. c4 * " * 1100 + "\n")
PY
# a writer that sends the file quickly up to two points, then 64 bytes at a time
cat > "$tmp/trickle.py" <<'PY'
import sys, os, time
data = open(sys.argv[1], "rb").read()
i = 0
try:
    for step in sys.argv[2].split(","):
        end, chunk, pause = step.split(":")
        end = len(data) if int(end) < 0 else int(end)
        while i < end:
            k = min(int(chunk), end - i)
            os.write(1, data[i:i + k]); i += k
            if float(pause): time.sleep(float(pause))
        time.sleep(0.05)
except BrokenPipeError:
    pass
PY
"$pgn" -j1 -f jsonl "$tmp/gap.pgn" | sed 's/"seconds":[0-9.]*//' > "$tmp/g1"
python3 "$tmp/trickle.py" "$tmp/gap.pgn" "70000:65536:0,104500:65536:0,-1:64:0.0002" |
    PGNCHECK_PIECE=1 "$pgn" -j2 -f jsonl --label="$tmp/gap.pgn" - 2>&1 | sed 's/"seconds":[0-9.]*//' > "$tmp/g2"
if cmp -s "$tmp/g1" "$tmp/g2"; then ok "a pipe trickling after a long game read again: the same as -j1"; else
    bad "a pipe trickling after a long game read again differs from -j1"; diff "$tmp/g1" "$tmp/g2" | head -n 4; fi
same "1024 games, then a segment's end cut inside text between games" "$tmp/captail.pgn" 1 2
PIPE=1 same "1024 games, then a segment's end cut inside text between games, piped" "$tmp/captail.pgn" 1 2
for pc in 1 300 100000; do
    same "more than 1024 games on one line, pieces of $pc bytes" "$tmp/oneline.pgn" $pc 2 -f jsonl
    PIPE=1 same "more than 1024 games on one line, piped, segments of $pc bytes" "$tmp/oneline.pgn" $pc 2 -f jsonl
done
# (5) a read error on the pipe: -jN reports it as -j1 does (a read-error
# record where the reading stopped).  An LD_PRELOAD library makes read(0)
# fail after FAIL_AFTER bytes (not with the sanitizers, whose runtime must
# come first).
if [ -z "${SANITIZED:-}" ]; then
    cat > "$tmp/failread.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>
static long long done_bytes;
ssize_t read(int fd, void *buf, size_t n)
{
    static ssize_t (*next)(int, void *, size_t);
    if (!next)
        next = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
    const char *s = fd == 0 ? getenv("FAIL_AFTER") : NULL;
    if (!s)
        return next(fd, buf, n);
    long long lim = atoll(s);
    if (done_bytes >= lim) {
        errno = EIO;
        return -1;
    }
    if (done_bytes + (long long)n > lim)
        n = (size_t)(lim - done_bytes);
    ssize_t k = next(fd, buf, n);
    if (k > 0)
        done_bytes += k;
    return k;
}
C
    if ${CC:-cc} -shared -fPIC -o "$tmp/failread.so" "$tmp/failread.c" -ldl 2> /dev/null; then
        for j in 1 2; do
            cat "$tmp/crlf.pgn" | FAIL_AFTER=20000 LD_PRELOAD="$tmp/failread.so" "$pgn" -j$j -f jsonl --label=x - \
                > "$tmp/r$j" 2> "$tmp/re$j"; echo $? > "$tmp/rc$j"
            sed -i 's/"seconds":[0-9.]*//' "$tmp/r$j"
        done
        if grep -q '"code":"read-error"' "$tmp/r1" && cmp -s "$tmp/r1" "$tmp/r2" && cmp -s "$tmp/re1" "$tmp/re2" &&
           cmp -s "$tmp/rc1" "$tmp/rc2"; then
            ok "a read error on a pipe: -j2 reports it as -j1 does (exit $(cat "$tmp/rc1"))"
        else
            bad "a read error on a pipe: -j2 differs from -j1"; diff "$tmp/r1" "$tmp/r2" | head -n 4
        fi
    else
        echo "note: read-error check skipped: cannot build an LD_PRELOAD library"
    fi
fi

# ThreadSanitizer: pieces on three threads, text and jsonl, no data race.
# Built here (normal pass only; skipped where the compiler cannot).
if [ -z "${SANITIZED:-}" ]; then
    cc=${CC:-cc}
    if "$cc" -O1 -g -fsanitize=thread -std=c17 -D_POSIX_C_SOURCE=200809L -o "$tmp/pgncheck-tsan" \
        src/*.c -lpthread > "$tmp/tsan-build" 2>&1 && "$tmp/pgncheck-tsan" --version > /dev/null 2>&1; then
        races=0
        for spec in "997 -f text corpus/real/gh-tcec/TCEC_Tournament_1.pgn" "20000 -f jsonl $tmp/nosync.pgn" \
                    "4096 -f jsonl $tmp/noblank.pgn" "2000 -f jsonl --fix-results $tmp/comments.pgn"; do
            set -- $spec
            p=$1; shift
            PGNCHECK_PIECE=$p TSAN_OPTIONS=halt_on_error=1 "$tmp/pgncheck-tsan" -j3 "$@" > /dev/null 2> "$tmp/tsan.err"
            if grep -q ThreadSanitizer "$tmp/tsan.err"; then
                races=$((races + 1)); sed -n '1,20p' "$tmp/tsan.err"
            fi
        done
        # and pipes in segments (one with stretches read again past the segments)
        for spec in "997 jsonl nosync" "4096 text long"; do
            set -- $spec
            cat "$tmp/$3.pgn" | PGNCHECK_PIECE=$1 TSAN_OPTIONS=halt_on_error=1 "$tmp/pgncheck-tsan" -j3 -f "$2" - \
                > /dev/null 2> "$tmp/tsan.err"
            if grep -q ThreadSanitizer "$tmp/tsan.err"; then
                races=$((races + 1)); sed -n '1,20p' "$tmp/tsan.err"
            fi
        done
        if [ "$races" -eq 0 ]; then ok "ThreadSanitizer: -j3 in pieces, 4 inputs, and through pipes, 2, no race"; else
            bad "ThreadSanitizer reports in $races runs"; fi
    else
        echo "note: ThreadSanitizer check skipped: $cc cannot build with -fsanitize=thread"
    fi
fi

echo "$pass passed, $fail failed"
