#!/usr/bin/env python3
"""mutants.py - the same verdicts however the bytes arrive, on mutated real PGN.

Usage: mutants.py PGNCHECK N SEED FILE...  (run by tests/suites/mutants.sh)

Makes N mutants of the given real files (a fixed SEED: the same mutants on
every run) and checks each four ways: -j1 on the file (the reference), -j2
on the file cut into small pieces (PGNCHECK_PIECE), -j2 through a pipe
written in chunks of random sizes, and -j1 through such a pipe; in JSON
Lines and in text.  stdout, stderr (the summary's seconds aside) and the
exit status must be byte for byte the reference's.  A mutation is what
broken files hold: a byte changed, inserted or deleted, a stretch
duplicated or dropped, a line end removed or doubled, a PGN token (brace,
bracket, quote, [%clk, result, NUL, CR) dropped in; mutants are small
(real files cut to about 8 KB) so that the cuts fall everywhere.  A failing
mutant is written to $MUTANT_DIR (default: build/mutants) to be replayed
and kept as a regression case.
Prints "ok ..." / "FAIL ..." and "N passed, N failed".
"""
import os
import random
import re
import subprocess
import sys
import threading
import time

TOKENS = [b"{", b"}", b"[", b"]", b'"', b"\\", b"(", b")", b";", b"%", b"\n", b"\r\n", b"\n\n", b"\0",
          b"[%clk ", b"[%clk 0:01:02]", b"[%emt ", b"1-0", b"0-1", b"1/2-1/2", b"*", b"1/2", b"$1", b"e.p.",
          b'[Event "x"]\n', b'[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n', b'[SetUp "1"]\n', b"O-O", b"--",
          b"\xef\xbb\xbf", b"\xe9", b"\xc3\xa9", b"    ", b"\t",
          # shapes that once made the verdict depend on the read sizes
          b"{[%clk" + b" " * 90 + b"0:00:07]}", b"{[%emt\n" + b" " * 70 + b"0:01]}", b'{c\n}[White "x"]']


def mutate(rnd, data):
    data = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        n = len(data)
        k = rnd.randrange(9)
        at = rnd.randrange(n + 1) if n else 0
        if k == 0 and n:
            data[rnd.randrange(n)] = rnd.randrange(256)
        elif k == 1:
            data[at:at] = bytes([rnd.randrange(256)])
        elif k == 2 and n:
            del data[at:at + rnd.randint(1, 64)]
        elif k == 3 and n:
            ln = rnd.randint(1, 400)
            data[at:at] = data[at:at + ln]
        elif k == 4:
            nl = [m.start() for m in re.finditer(b"\n", data)]
            if nl:
                i = rnd.choice(nl)
                data[i:i + 1] = rnd.choice([b"", b"\n\n", b" ", b"\r\n"])
        else:
            data[at:at] = rnd.choice(TOKENS)
    return bytes(data)


def run(cmd, data=None, path=None, env=None, chunks=None):
    e = dict(os.environ)
    if env:
        e.update(env)
    if chunks is None:
        p = subprocess.run(cmd + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=e, timeout=60)
        return p.returncode, p.stdout, p.stderr
    p = subprocess.Popen(cmd + ["--label=" + path, "-"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=e)
    out = {}

    def reader(name, f):
        out[name] = f.read()

    ts = [threading.Thread(target=reader, args=("o", p.stdout)), threading.Thread(target=reader, args=("e", p.stderr))]
    for t in ts:
        t.start()
    try:
        i = 0
        while i < len(data):
            n = chunks.randint(1, 700)
            p.stdin.write(data[i:i + n])
            p.stdin.flush()
            i += n
            # a pause now and then, so that the reader gets the pieces
            # apart (one read() each), not merged in the pipe
            if chunks.random() < 0.3:
                time.sleep(0.0003)
        p.stdin.close()
    except BrokenPipeError:
        pass
    for t in ts:
        t.join()
    return p.wait(timeout=60), out["o"], out["e"]


def clean(b):
    return re.sub(rb'"seconds":[0-9.e+-]+|[0-9.]+ s, [0-9]+ games/s', b"", b)


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    pg, n, seed, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    rnd = random.Random(seed)
    srcs = []
    for f in files:
        with open(f, "rb") as fh:
            d = fh.read()
        # pieces of about 8 KB starting at a game
        starts = [m.start() for m in re.finditer(rb"(?m)^\[Event ", d)] or [0]
        for s in starts[::max(1, len(starts) // 6)]:
            srcs.append(d[s:s + 8192])
    outdir = os.environ.get("MUTANT_DIR", "build/mutants")
    tmpdir = os.environ.get("TMPDIR", "/tmp")
    path = os.path.join(tmpdir, "pgncheck-mutant-%d.pgn" % os.getpid())
    passed = failed = 0
    bad = []
    try:
        for i in range(n):
            data = mutate(rnd, rnd.choice(srcs))
            with open(path, "wb") as fh:
                fh.write(data)
            for fmt in (["-f", "jsonl"], ["-f", "text"]):
                ref = run([pg, "-j1", "-s"] + fmt, path=path)
                ref = (ref[0], clean(ref[1]), clean(ref[2]))
                ways = [("-j2 pieces", run([pg, "-j2", "-s"] + fmt, path=path, env={"PGNCHECK_PIECE": str(rnd.choice([1, 61, 997]))})),
                        ("-j2 pipe", run([pg, "-j2", "-s"] + fmt, data=data, path=path, chunks=random.Random(i))),
                        ("-j1 pipe", run([pg, "-j1", "-s"] + fmt, data=data, path=path, chunks=random.Random(i + n)))]
                for name, got in ways:
                    got = (got[0], clean(got[1]), clean(got[2]))
                    if got != ref:
                        bad.append((i, fmt[1], name, data, ref, got))
            if not bad or bad[-1][0] != i:
                passed += 1
    finally:
        try:
            os.unlink(path)
        except OSError:
            pass
    seen = set()
    for i, fmt, name, data, ref, got in bad:
        if i in seen:
            continue
        seen.add(i)
        failed += 1
        os.makedirs(outdir, exist_ok=True)
        keep = os.path.join(outdir, "mutant-%d-%d.pgn" % (seed, i))
        with open(keep, "wb") as fh:
            fh.write(data)
        what = "exit %d/%d" % (ref[0], got[0]) if ref[0] != got[0] else ("stdout" if ref[1] != got[1] else "stderr")
        print("FAIL mutant %d (%s, %s): %s differs from -j1 on the file; kept as %s" % (i, fmt, name, what, keep))
    print("ok mutants: %d of %d mutants (seed %d) give the same output at -j1, -j2 in pieces and through pipes"
          % (passed, n, seed) if not failed else "FAIL mutants: %d of %d differ" % (failed, n))
    print("%d passed, %d failed" % (1 if not failed else 0, 1 if failed else 0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
