#!/bin/sh
# make bench: throughput of pgncheck beside pgn-extract on the shared
# benchmark input (a benchmark, never a test).  Needs python3 for timing.
# RUNS=5 by default; BENCH_DIR holds the generated inputs (never committed).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
runs=${RUNS:-5}
dir=${BENCH_DIR:-build/bench}
shared=../shared/bench
[ -x "$shared/make-inputs.sh" ] || { echo "bench: $shared/make-inputs.sh not found" >&2; exit 2; }
sh "$shared/make-inputs.sh" "$dir" >/dev/null || exit 2
big=$dir/big.pgn
mid=$dir/mid.pgn
games=159803
plies=12938229
bytes=$(wc -c < "$big")
cores=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
echo "machine: $(uname -sm), $cores cores, ${cpu:-unknown cpu}, $(date -u +%Y-%m-%d)"
echo "input:   $big ($bytes bytes, $games games, $plies plies)"
echo

out=$(mktemp "${TMPDIR:-/tmp}/pgncheck-bench.XXXXXX")
trap 'rm -f "$out" "$out.rss" "$out.reader" "$out.readers"' EXIT
trap 'exit 130' INT     # (an interrupt ends the run, not only the command)
trap 'exit 143' TERM
export BENCH_OUT="$out"
echo "== core"
./tests/perft -b 6 | sed 's/^/perft startpos /'
./tests/sanbench "$big" 5000000
echo
echo "== can a side still mate? (src/unwin.c, one core, CPU time)"
# Both colours asked of real final positions: the path of the checking
# (the material rules, then the blockade proof where its filter passes),
# and the whole procedure (unwin_decide at 200,000 nodes, as
# --unwin-nodes=200000 runs it) timed apart: the final positions of the
# decisive results on time in the shared corpus's real games and in
# big.pgn, and 30,000 of lichess games (CHA's sample); then CHA's test
# vector (every 10th position, both colours).
cha=../shared/corpus/edge/gh-d3-chess
forfeits=$dir/forfeits.fen
if [ ! -s "$forfeits" ] || [ "$big" -nt "$forfeits" ]; then
    { find ../shared/corpus/real -name '*.pgn' -type f -print0 | xargs -0 ./pgncheck -j1 -f jsonl
      ./pgncheck -f jsonl "$big"; } 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    d = json.loads(line)
    if d.get("type") == "game" and d.get("reason") in ("time-forfeit", "no-mating-material") and d.get("fen"):
        print(d["fen"])' > "$forfeits"
fi
./tests/test_unwin -b "$forfeits" 200000 | grep '^#'
./tests/test_unwin -b "$cha/lichess-30K-games.txt" 200000 | grep '^#'
./tests/test_unwin "$cha/test-vector.txt" 10 200000 0 | grep '^# [0-9]'
echo
echo "== reader only (median of $runs runs)"
# One run is one sample of a machine whose speed drifts: the median of
# several, as for the whole program below.
i=0
while [ $i -lt "$runs" ]; do
    ./tests/test_reader --count "$big" | tail -n 1
    i=$((i + 1))
done | sort -t: -k2 -n | sed -n "$(( (runs + 1) / 2 ))p" > "$out.reader"
cat "$out.reader"
# With -jN pgncheck reads a regular file on every thread (pieces of about
# 1 MB cut at sync points, each read by a reader of its own): the same
# reading alone on all cores.  Its counts must be the one reader's.
i=0
while [ $i -lt "$runs" ]; do
    ./tests/test_reader --count "$big" "$cores" | tail -n 1
    i=$((i + 1))
done | sort -t: -k2 -n | sed -n "$(( (runs + 1) / 2 ))p" > "$out.readers"
sed "s/^/  pieces on all cores: /" "$out.readers"
[ "$(cut -d, -f1-3 "$out.reader")" = "$(cut -d, -f1-3 "$out.readers")" ] ||
    echo "  (pieces read other counts than one reader: a cut did not start a game)"
# The reader's cost follows its tokens more than its bytes: the same by
# kind of game (big.pgn split once: games with [%clk] are online games, a
# comment with "pv=" marks an engine game, the rest are master and
# annotated games).
if [ ! -s "$dir/kind-master.pgn" ] || [ "$big" -nt "$dir/kind-master.pgn" ]; then
    python3 - "$big" "$dir" <<'PY'
import re, sys
big, d = sys.argv[1], sys.argv[2]
data = open(big, "rb").read()
out = {k: open(f"{d}/kind-{k}.pgn", "wb") for k in ("online", "engine", "master")}
for g in re.split(rb"\n\n(?=\[Event )", data):
    k = "online" if b"[%clk" in g else "engine" if re.search(rb"\{[^}]*pv=", g) else "master"
    out[k].write(g.rstrip(b"\n") + b"\n\n")
for f in out.values():
    f.close()
PY
fi
for kind in master online engine; do
    i=0
    while [ $i -lt "$runs" ]; do
        ./tests/test_reader --count "$dir/kind-$kind.pgn" | tail -n 1
        i=$((i + 1))
    done | sort -t: -k2 -n | sed -n "$(( (runs + 1) / 2 ))p" | sed "s/^/  $kind games: /"
done
echo
echo "== clocks (issue 36; median of $runs runs, taking turns)"
# The same games twice, generated from big.pgn's master games without
# comments or variations (never committed): with a TimeControl tag only,
# and with a [%clk] after every move (each side 5400 s + 30 s a move, a
# move using 2-61 s): the cost of the clock comments, read and judged.
# Then big.pgn's games with clocks and without, apart.
if [ ! -s "$dir/clock-clocked.pgn" ] || [ "$big" -nt "$dir/clock-clocked.pgn" ]; then
    python3 - "$dir/kind-master.pgn" "$dir" <<'PY'
import re, sys
src, d = sys.argv[1], sys.argv[2]
plain, clocked = open(f"{d}/clock-plain.pgn", "w"), open(f"{d}/clock-clocked.pgn", "w")
n = 0
for g in re.split(r"\n\n(?=\[Event )", open(src, encoding="latin-1").read()):
    head, sep, moves = g.partition("\n\n")
    if not sep or "{" in moves or "(" in moves or ";" in moves or "[FEN" in head or "[TimeControl" in head:
        continue
    head += '\n[TimeControl "5400+30"]'
    out, t, k = [], [540000, 540000], 0
    for tok in moves.split():
        out.append(tok)
        if re.match(r"^\d+\.+$", tok) or tok in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        side = k & 1
        t[side] = max(t[side] + 3000 - (200 + (k * 7919) % 6000), 0)
        k += 1
        s = t[side] // 100
        out.append("{ [%%clk %d:%02d:%02d] }" % (s // 3600, s // 60 % 60, s % 60))
    plain.write(head + "\n\n" + moves.strip() + "\n\n")
    clocked.write(head + "\n\n" + " ".join(out) + "\n\n")
    n += 1
    if n == 50000:
        break
PY
fi
python3 - "$runs" "$dir" <<'PY'
import os, sys, time, statistics, subprocess
runs, d = int(sys.argv[1]), sys.argv[2]
files = [("same games, no clocks", f"{d}/clock-plain.pgn"), ("same games, [%clk] a move", f"{d}/clock-clocked.pgn"),
         ("big.pgn games without clocks", f"{d}/kind-master.pgn"), ("big.pgn games with clocks", f"{d}/kind-online.pgn")]
walls = {label: [] for label, _ in files}
for _ in range(runs):
    for label, f in files:
        t0 = time.monotonic()
        subprocess.run(["./pgncheck", "-j1", "-q", f], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls[label].append(time.monotonic() - t0)
for label, f in files:
    w = statistics.median(walls[label])
    g = sum(1 for line in open(f, encoding="latin-1") if line.startswith("[Event "))
    print(f"{label:<30} {w:7.3f} s {g/w:10.0f} games/s  ({g} games)")
r = [b / a for a, b in zip(walls[files[0][0]], walls[files[1][0]])]
print(f"clocks: the clocked games take {statistics.median(r):.2f}x the time of the same games without "
      f"(median of the rounds; {min(r):.2f}-{max(r):.2f})")
PY
echo
echo "== whole program (median of $runs runs, the programs taking turns)"
# Round-robin: on a shared machine whose speed drifts, each program sees
# the same slow and fast moments, so the ratios stay fair.
ex=$(command -v pgn-extract || ls /usr/games/pgn-extract 2>/dev/null)
[ -n "$ex" ] || echo "pgn-extract not installed (apt-get install pgn-extract): no ratio"
# PGN_READER=/path/to/validate: pgn-reader's validate example (main-line
# legality; built by hand, never committed) runs beside, compared in CPU
# time; unset or not executable: skipped.
pr=${PGN_READER:-}
if [ -n "$pr" ] && [ ! -x "$pr" ]; then
    echo "PGN_READER=$pr is not an executable: pgn-reader skipped"
    pr=
fi
python3 - "$runs" "$bytes" "$games" "$plies" "$big" "$cores" "$ex" "$pr" <<'PY'
import os, sys, time, statistics, subprocess, resource
runs, size, games, plies = (int(x) for x in sys.argv[1:5])
big, cores, ex, pr = sys.argv[5], sys.argv[6], sys.argv[7], sys.argv[8]
progs = [("pgncheck -j1", ["./pgncheck", "-j1", "-q", big]),
         (f"pgncheck -j{cores}", ["./pgncheck", f"-j{cores}", "-q", big])]
if ex:
    progs.append(("pgn-extract -r -s", [ex, "-r", "-s", big]))
if pr:
    progs.append(("pgn-reader validate", [pr, big]))
walls = {label: [] for label, _ in progs}
cpus = {label: [] for label, _ in progs}
rssfile = os.environ["BENCH_OUT"] + ".rss"
rss = {label: 0 for label, _ in progs}
for _ in range(runs):
    for label, cmd in progs:
        # Peak RSS through tests/peakrss: a child forked from Python would
        # count Python's own size as its peak (see peakrss.c).
        t0 = time.monotonic()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(["./tests/peakrss", rssfile] + cmd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        walls[label].append(time.monotonic() - t0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus[label].append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
        with open(rssfile) as f:
            rss[label] = max(rss[label], int(f.read()))
with open(os.environ.get("BENCH_OUT", "/dev/null"), "a") as f:
    for label, _ in progs:
        w = statistics.median(walls[label])
        print(f"{label:<26} {w:7.3f} s {size/w/1e6:8.1f} MB/s {games/w:10.0f} games/s {plies/w/1e6:7.2f} M plies/s  RSS {rss[label]/1024:6.1f} MB")
        f.write(f"{label}\t{w}\n")
# Ratios round by round (the programs ran back to back), then the median.
# (with the rounds' lowest and highest: on a shared machine they spread)
one, many = walls["pgncheck -j1"], walls[f"pgncheck -j{cores}"]
t = [a / b for a, b in zip(one, many)]
print(f"\nthreads: -j{cores} is {statistics.median(t):.2f}x -j1 (median of the rounds; {min(t):.2f}-{max(t):.2f})")
if ex:
    e = walls["pgn-extract -r -s"]
    r1 = [x / a for x, a in zip(e, one)]
    rn = [x / b for x, b in zip(e, many)]
    print(f"ratio:   pgncheck -j1 is {statistics.median(r1):.1f}x pgn-extract ({min(r1):.1f}-{max(r1):.1f}); "
          f"-j{cores} is {statistics.median(rn):.1f}x ({min(rn):.1f}-{max(rn):.1f}) (medians of the rounds)")
if pr:
    # CPU time (user + system), round by round: the load of a shared
    # machine stretches wall times, much less CPU times.
    c = [x / a for x, a in zip(cpus["pgn-reader validate"], cpus["pgncheck -j1"])]
    print(f"ratio:   pgncheck -j1 is {statistics.median(c):.2f}x pgn-reader validate in CPU time "
          f"({min(c):.2f}-{max(c):.2f}; median of {len(c)} alternating rounds: "
          f"{statistics.median(cpus['pgncheck -j1']):.3f} s and {statistics.median(cpus['pgn-reader validate']):.3f} s)")
PY
echo
echo "== --duplicates and --export on big.pgn (median of $runs runs, taking turns)"
# Time, CPU time (user and system, of all threads: on a shared machine the
# wall time follows the load) and peak RSS of each; the MB/s are of the
# input read (--export's output, on a file, is as big).  Then --export at scale as
# tests/suites/export.sh holds it on the corpora: the export of the export
# is itself, and each game keeps its outcome, reason, plies and final FEN.
python3 - "$runs" "$bytes" "$games" "$big" "$cores" "$dir" <<'PY'
import os, sys, time, statistics, subprocess, resource
runs, size, games = (int(x) for x in sys.argv[1:4])
big, cores, d = sys.argv[4], sys.argv[5], sys.argv[6]
out = os.path.join(d, "big.export.pgn")
progs = [("pgncheck -j1 --duplicates", ["./pgncheck", "-j1", "-q", "--duplicates", big], None),
         (f"pgncheck -j{cores} --duplicates", ["./pgncheck", f"-j{cores}", "-q", "--duplicates", big], None),
         ("pgncheck -j1 --export", ["./pgncheck", "-j1", "-q", "--export", big], out),
         (f"pgncheck -j{cores} --export", ["./pgncheck", f"-j{cores}", "-q", "--export", big], out)]
rssfile = os.environ["BENCH_OUT"] + ".rss"
walls = {label: [] for label, _, _ in progs}
cpus = {label: [] for label, _, _ in progs}
rss = {label: 0 for label, _, _ in progs}
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)    # (peakrss's child too, once waited for)
    return r.ru_utime + r.ru_stime
for _ in range(runs):
    for label, cmd, to in progs:
        with open(to or os.devnull, "wb") as o:
            t0, c0 = time.monotonic(), cpu()
            subprocess.run(["./tests/peakrss", rssfile] + cmd, stdout=o, stderr=subprocess.DEVNULL)
            walls[label].append(time.monotonic() - t0)
            cpus[label].append(cpu() - c0)
        with open(rssfile) as f:
            rss[label] = max(rss[label], int(f.read()))
for label, _, _ in progs:
    w, c = statistics.median(walls[label]), statistics.median(cpus[label])
    print(f"{label:<26} {w:7.3f} s {size/w/1e6:8.1f} MB/s {games/w:10.0f} games/s  "
          f"CPU {c:6.2f} s ({size/c/1e6:6.1f} MB per CPU second)  RSS {rss[label]/1024:6.1f} MB")
again = subprocess.run(["./pgncheck", "-j" + cores, "-q", "--export", out], stdout=subprocess.PIPE).stdout
with open(out, "rb") as f:
    exported = f.read()
print(f"export: {len(exported)} bytes; its export {'is itself' if again == exported else 'DIFFERS'}")
import json
def verdicts(path, *opts):
    r = subprocess.run(["./pgncheck", "-j" + cores, "-f", "jsonl", *opts, path], stdout=subprocess.PIPE)
    v = []
    for line in r.stdout.splitlines():
        g = json.loads(line)
        if g.get("type") == "game":
            v.append((g["outcome"], g["reason"], g["plies"], g["fen"], g["status"]))
    return v
a, b = verdicts(big), verdicts(out)
same = sum(x[:4] == y[:4] for x, y in zip(a, b))
print(f"export: {len(b)} games of {len(a)}, {same} with the input's outcome, reason, plies and final FEN")
PY
echo
echo "== memory at -j1 (peak RSS: 20 MB and 200 MB files, 2 GB through a pipe)"
# The 2 GB input is big.pgn ten times over, streamed (never written to disk).
for f in "$mid" "$big" "2GB"; do
    python3 - "$f" "$big" <<'PY'
import os, sys, subprocess
name, big = sys.argv[1], sys.argv[2]
if name == "2GB":
    r, w = os.pipe()
    feeder = os.fork()
    if feeder == 0:
        os.close(r)
        with open(big, "rb") as f:
            data = f.read()
        out = os.fdopen(w, "wb")
        for _ in range(10):
            out.write(data)
        out.close()
        os._exit(0)
    os.close(w)
# Through tests/peakrss, so that the peak RSS is pgncheck's own.
rssfile = os.environ["BENCH_OUT"] + ".rss"
cmd = ["./tests/peakrss", rssfile, "./pgncheck", "-j1", "-q", "-" if name == "2GB" else name]
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY); os.dup2(fd, 1); os.dup2(fd, 2)
    if name == "2GB":
        os.dup2(r, 0)
    os.execv(cmd[0], cmd)
if name == "2GB":
    os.close(r)
_, _, ru = os.wait4(pid, 0)
if name == "2GB":
    os.waitpid(feeder, 0)
    name = f"{big} x10 via pipe"
with open(rssfile) as f:
    peak = int(f.read())
print(f"{name:<32} {peak/1024:6.1f} MB")
PY
done
echo
echo "signature: $(./pgncheck -j1 -f jsonl "$big" | grep -v '"type":"summary"' | sha256sum | cut -c1-16)  (hash of every verdict; must not change when only speed changes)"
