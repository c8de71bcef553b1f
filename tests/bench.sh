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

# time_cmd LABEL CMD...: median wall seconds of $runs runs and peak RSS.
time_cmd() {
    label=$1; shift
    python3 - "$label" "$runs" "$bytes" "$games" "$plies" "$@" <<'PY'
import os, sys, time, statistics
label, runs, size, games, plies = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
cmd = sys.argv[6:]
walls, rss = [], 0
for _ in range(runs):
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1); os.dup2(fd, 2)
        os.execvp(cmd[0], cmd)
    _, status, ru = os.wait4(pid, 0)
    walls.append(time.monotonic() - t0)
    rss = max(rss, ru.ru_maxrss)
w = statistics.median(walls)
print(f"{label:<26} {w:7.3f} s {size/w/1e6:8.1f} MB/s {games/w:10.0f} games/s {plies/w/1e6:7.2f} M plies/s  RSS {rss/1024:6.1f} MB")
with open(os.environ.get("BENCH_OUT", "/dev/null"), "a") as f:
    f.write(f"{label}\t{w}\n")
PY
}

out=$(mktemp "${TMPDIR:-/tmp}/pgncheck-bench.XXXXXX")
trap 'rm -f "$out"' EXIT INT TERM
export BENCH_OUT="$out"
echo "== core"
./tests/perft -b 6 | sed 's/^/perft startpos /'
./tests/sanbench "$big" 5000000
echo
echo "== reader only"
./tests/test_reader --count "$big" | tail -n 1
echo
echo "== whole program (median of $runs runs)"
time_cmd "pgncheck -j1" ./pgncheck -j1 -q "$big"
time_cmd "pgncheck -j$cores" ./pgncheck -j"$cores" -q "$big"
ex=$(command -v pgn-extract || ls /usr/games/pgn-extract 2>/dev/null)
if [ -n "$ex" ]; then
    time_cmd "pgn-extract -r -s" "$ex" -r -s "$big"
else
    echo "pgn-extract not installed (apt-get install pgn-extract): no ratio"
fi
python3 - "$out" "$cores" <<'PY'
import sys
t = dict(l.rstrip("\n").split("\t") for l in open(sys.argv[1]))
t = {k: float(v) for k, v in t.items()}
one, many = t["pgncheck -j1"], t[f"pgncheck -j{sys.argv[2]}"]
print(f"\nthreads: -j{sys.argv[2]} is {one/many:.2f}x -j1")
if "pgn-extract -r -s" in t:
    ex = t["pgn-extract -r -s"]
    print(f"ratio:   pgncheck -j1 is {ex/one:.1f}x pgn-extract; -j{sys.argv[2]} is {ex/many:.1f}x")
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
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY); os.dup2(fd, 1); os.dup2(fd, 2)
    if name == "2GB":
        os.dup2(r, 0)
        os.execv("./pgncheck", ["pgncheck", "-j1", "-q", "-"])
    os.execv("./pgncheck", ["pgncheck", "-j1", "-q", name])
if name == "2GB":
    os.close(r)
_, _, ru = os.wait4(pid, 0)
if name == "2GB":
    os.waitpid(feeder, 0)
    name = f"{big} x10 via pipe"
print(f"{name:<32} {ru.ru_maxrss/1024:6.1f} MB")
PY
done
echo
echo "signature: $(./pgncheck -j1 -f jsonl "$big" | grep -v '"type":"summary"' | sha256sum | cut -c1-16)  (hash of every verdict; must not change when only speed changes)"
