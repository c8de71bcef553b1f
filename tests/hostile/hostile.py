#!/usr/bin/env python3
"""hostile.py - adversarial tests of the pgncheck binary with exact expectations.

Usage: hostile.py BIN_DIR [part...]   parts: prefix prefix_large mutate sizes flat modes memory search faults
(default: all)
Prints "ok ..." / "FAIL ..." lines and "N passed, N failed".  Environment:
SANITIZED=1 (sanitizer build: fewer prefix cuts, looser RSS/time bounds),
HOSTILE_STEP (prefix cut step), HOSTILE_CASES (mutation cases).

Every run of the binary is checked for: exit status 0 or 1 (2 only where a
fault is the point), no signal, a time bound, and (via wait4) a peak-RSS
bound.  Inputs are generated here and streamed through pipes: nothing big
touches the disk.
"""
import concurrent.futures
import glob
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(TOP)
BIN = sys.argv[1] if len(sys.argv) > 1 else "."
PARTS = sys.argv[2:] or ["prefix", "prefix_large", "mutate", "sizes", "flat", "modes", "memory", "search", "faults"]
SANITIZED = bool(os.environ.get("SANITIZED"))
PGNCHECK = os.path.join(BIN, "pgncheck")
# Bounds (stated in the report): plain build / sanitizer build.
RSS_MB = 400 if SANITIZED else 64
TIME_BIN = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
SCRATCH = os.path.join(TOP, "build", "hostile")
os.makedirs(SCRATCH, exist_ok=True)
TIME_X = 6 if SANITIZED else 1

passed = failed = 0


def ok(name):
    global passed
    passed += 1
    print("ok " + name, flush=True)


def fail(name, why):
    global failed
    failed += 1
    print("FAIL %s: %s" % (name, why), flush=True)


def check(cond, name, why=""):
    (ok if cond else lambda n: fail(n, why))(name)
    return cond


class Run:
    pass


def run(args, data=b"", timeout=10.0, stdout_path=None, close_stdout=False, byte_writes=False, keep_out=True,
        byte_delay=0.0):
    """Runs pgncheck with args; data is bytes or an iterable of byte chunks
    fed to its stdin from a thread.  Returns a Run with rc (negative: the
    signal), out, err, rss_kb, cpu, wall, timed_out."""
    argv = [PGNCHECK] + list(args)
    if close_stdout:
        argv = ["sh", "-c", 'exec "$0" "$@" >&-'] + argv
    # Peak RSS: the child of a (v)forking Python inherits Python's high-water
    # mark, so measure with GNU time (a small C parent) when installed, else
    # by polling VmHWM of the running process.
    timef = None
    if TIME_BIN:
        timef = "%s/rss.%d.%d" % (SCRATCH, os.getpid(), threading.get_ident())
        argv = [TIME_BIN, "-f", "%M", "-o", timef] + argv
    out_f = open(stdout_path, "wb") if stdout_path else subprocess.PIPE
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=out_f, stderr=subprocess.PIPE, start_new_session=True)
    if stdout_path:
        out_f.close()
    r = Run()
    r.timed_out = False
    r.fed = 0
    chunks_out, chunks_err = [], []

    def feed():
        try:
            chunks = [data] if isinstance(data, (bytes, bytearray)) else data
            fd = p.stdin.fileno()
            for c in chunks:
                r.fed += len(c)
                if byte_writes:
                    for i in range(len(c)):
                        os.write(fd, c[i:i + 1])
                        if byte_delay:
                            time.sleep(byte_delay)
                else:
                    p.stdin.write(c)
        except (BrokenPipeError, OSError, ValueError):
            pass
        finally:
            try:
                p.stdin.close()
            except OSError:
                pass

    def drain(f, sink, keep):
        total = 0
        while True:
            b = f.read(1 << 16)
            if not b:
                break
            total += len(b)
            if keep:
                sink.append(b)
        if not keep:
            sink.append(b"")
        sink.append(total)

    def kill():
        r.timed_out = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass

    hwm = [0]

    def poll():
        path = "/proc/%d/status" % p.pid
        while not done.is_set():
            try:
                for line in open(path):
                    if line.startswith("VmHWM:"):
                        hwm[0] = max(hwm[0], int(line.split()[1]))
            except (OSError, ValueError):
                pass
            done.wait(0.005)

    done = threading.Event()

    th = [threading.Thread(target=feed, daemon=True),
          threading.Thread(target=drain, args=(p.stderr, chunks_err, True), daemon=True)]
    if not stdout_path:
        th.append(threading.Thread(target=drain, args=(p.stdout, chunks_out, keep_out), daemon=True))
    if not TIME_BIN:
        th.append(threading.Thread(target=poll, daemon=True))
    timer = threading.Timer(timeout, kill)
    timer.start()
    for t in th:
        t.start()
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = 0  # reaped here; keep Popen from waiting again
    r.wall = time.monotonic() - t0
    timer.cancel()
    done.set()
    for t in th:
        t.join(30)
    r.rc = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
    r.rss_kb = hwm[0]
    if timef:
        try:
            lines = open(timef).read().split("\n")
            os.unlink(timef)
        except OSError:
            lines = []
        for line in lines:
            m = re.match(r"Command terminated by signal (\d+)", line)
            if m:
                r.rc = -int(m.group(1))
            elif line.strip().isdigit():
                r.rss_kb = int(line)
        if r.rc > 128 and any(l.startswith("Command terminated") for l in lines):
            pass
        elif r.rc != 0 and any(l.startswith("Command exited with non-zero status") for l in lines):
            pass
    r.cpu = ru.ru_utime + ru.ru_stime
    r.out = b"".join(c for c in chunks_out if isinstance(c, bytes))
    r.out_bytes = chunks_out[-1] if chunks_out else 0
    r.err = b"".join(c for c in chunks_err if isinstance(c, bytes))
    return r


def sane(r, allowed=(0, 1)):
    """'' if the run ended normally with an allowed status, else why not."""
    if r.timed_out:
        return "timed out after %.1f s" % r.wall
    if r.rc < 0:
        return "killed by signal %d" % -r.rc
    if r.rc not in allowed:
        return "exit %d (stderr: %s)" % (r.rc, r.err[:300].decode("latin-1"))
    return ""


def games_of(out):
    lines = [l for l in out.decode("utf-8", "replace").split("\n") if l]
    games = [l for l in lines if l.startswith('{"type":"game"')]
    summary = [json.loads(l) for l in lines if l.startswith('{"type":"summary"')]
    return games, (summary[0] if summary else None)


def plausible_starts(d):
    """Upper bound on games (see tests/fuzz/fuzz_reader.c): markers + '['-lines + 1."""
    n = 1 + d.count(b"*") + d.count(b"1-0") + d.count(b"0-1") + d.count(b"1/2-1/2")
    n += len(re.findall(rb"(?:^|[\r\n])[ \t\f\v]*\[", d))
    return n


AFTER = (b'[Event "after"]\n[Site "?"]\n[Date "?"]\n[Round "?"]\n[White "a"]\n[Black "b"]\n'
         b'[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7+ 1-0\n')


def verdict(line):
    j = json.loads(line)
    return (j["event"], j["result"], j["outcome"], j["reason"], j["plies"], j["fen"], j["status"],
            [(d["code"], d["severity"], d["ply"], d["move"], d["message"]) for d in j["diagnostics"]])


# ---------------------------------------------------------------------------
def part_prefix():
    src = "corpus/real/gh-pgnmentor-players/Philidor.pgn"
    whole = open(src, "rb").read()
    limit = min(len(whole), 3072)
    step = int(os.environ.get("HOSTILE_STEP", "5" if SANITIZED else "1"))
    prefix_cuts(src, whole, list(range(0, limit + 1, step)), "step %d" % step)


def part_prefix_large():
    # Random cut points all over a large multi-game file: every real file
    # in corpus/real, concatenated (LF and CRLF, Latin-1, Chess960, engine
    # comments), cut at 24 places chosen with a fixed seed.
    files = sorted(glob.glob("corpus/real/*/*.pgn"))
    whole = b"".join(open(f, "rb").read().rstrip(b"\r\n") + b"\n\n" for f in files)
    rng = random.Random(4242)
    cuts = sorted(rng.randrange(1, len(whole)) for _ in range(8 if SANITIZED else 24))
    prefix_cuts("corpus/real/* (%d bytes)" % len(whole), whole, cuts, "random")


def prefix_cuts(src, whole, cuts, how):
    args = ["-j1", "-f", "jsonl", "--label=cut"]
    w = run(args, whole)
    G, _ = games_of(w.out)
    starts = [json.loads(g)["offset"] for g in G]
    if not check(not sane(w) and len(G) >= 5, "prefix: whole file read (%d games)" % len(G), sane(w)):
        return
    problems = {"crash": [], "complete": [], "cut": [], "count": []}

    def one(c):
        r = run(args, whole[:c])
        why = sane(r)
        if why:
            return c, "crash", why
        P, summ = games_of(r.out)
        if summ is None or summ["games"] != len(P):
            return c, "count", "summary missing or disagrees with %d game lines" % len(P)
        K = sum(1 for j in range(1, len(starts)) if starts[j] <= c)
        if P[:K] != G[:K]:
            bad = next(i for i in range(K) if i >= len(P) or P[i] != G[i])
            return c, "complete", "complete game %d reported differently" % (bad + 1)
        expect = K + 1 if starts[K] < c else K
        if expect > K and c - starts[K] == 1 and len(P) == K and b'"code":"non-game-text"' in r.out:
            # a lone '[' cannot be told from stray text: pgncheck reports it as
            # non-game text at that place (a warning), which still says it
            return c, None, ""
        if len(P) != expect:
            return c, "cut", "%d games reported, expected %d (cut %s)" % (
                len(P), expect, "inside game %d" % (K + 1) if expect > K else "between games")
        if expect > K and P[K] != G[K] and '"code":"missing-termination"' not in P[K]:
            return c, "cut", "game %d cut but not reported as missing-termination: %s" % (K + 1, P[K][:300])
        return c, None, ""

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for c, kind, why in ex.map(one, cuts):
            if kind:
                problems[kind].append((c, why))
    desc = {"crash": "every cut exits 0/1 without a signal",
            "complete": "complete games before the cut reported exactly as in the whole file",
            "cut": "the cut game is reported, as missing-termination",
            "count": "summary game count equals the game lines"}
    for k, name in desc.items():
        ps = problems[k]
        check(not ps, "prefix: %s (%d cuts of %s, %s)" % (name, len(cuts), src, how),
              "%d cuts; first: %s" % (len(ps), "; ".join("cut %d: %s" % p for p in ps[:3])))


# ---------------------------------------------------------------------------
def part_mutate():
    rng = random.Random(20240607)
    files = ["corpus/real/gh-pgnmentor-players/Philidor.pgn", "corpus/real/gh-pychess/chess960rwch.pgn",
             "corpus/real/gh-chesscom-daily/chesscom-daily-21.pgn", "corpus/real/gh-scalachess/uzchesscup.pgn",
             "corpus/real/gh-mliebelt-pgn-parser/lichess_mliebelt_2024-01-03.pgn",
             "corpus/real/gh-tcec/TCEC_Tournament_1.pgn", "corpus/edge/gh-pgn-extract/infiles/odds.pgn"]
    pieces = []
    for f in files:
        d = open(f, "rb").read()
        r = run(["-j1", "-f", "jsonl"], d)
        st = [json.loads(g)["offset"] for g in games_of(r.out)[0]] + [len(d)]
        for i in range(len(st) - 1):
            pieces.append(d[st[i]:st[i + 1]])
    ncases = int(os.environ.get("HOSTILE_CASES", "120" if SANITIZED else "400"))
    special = b'{}()[]"\\;%*\n\r\t\x00\xff.-+#=$!?10/'
    cases = []
    for _ in range(ncases):
        k = rng.randint(1, 3)
        j = rng.randrange(len(pieces) - k + 1)
        text = bytearray(b"".join(pieces[j:j + k]))
        orig = k
        m = rng.randint(1, 6)
        for _ in range(m):
            op = rng.randrange(3)
            at = rng.randrange(len(text))
            b = special[rng.randrange(len(special))] if rng.random() < 0.6 else rng.randrange(256)
            if op == 0:
                text[at] = b
            elif op == 1:
                del text[at]
            else:
                text.insert(at, b)
        cases.append((bytes(text), orig, m))
    bad = {"crash": [], "time": [], "count": []}
    slowest = [0.0]

    def one(i):
        text, orig, m = cases[i]
        r = run(["-j1", "-f", "jsonl"], text, timeout=10)
        slowest[0] = max(slowest[0], r.wall)
        why = sane(r)
        if why:
            return i, "crash", why
        if r.wall > 10:
            return i, "time", "%.1f s" % r.wall
        P, summ = games_of(r.out)
        hi = plausible_starts(text)
        if summ is None or summ["games"] != len(P) or not (max(1, orig - m) <= len(P) <= hi):
            return i, "count", "%d games from %d (mutations %d, plausible starts %d)" % (len(P), orig, m, hi)
        return i, None, ""

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for i, kind, why in ex.map(one, range(ncases)):
            if kind:
                bad[kind].append((i, why))
    os.makedirs("build/hostile", exist_ok=True)
    for kind in bad:
        for i, _ in bad[kind][:5]:
            open("build/hostile/mutate-%d.pgn" % i, "wb").write(cases[i][0])
    check(not bad["crash"], "mutate: %d mutated real games exit 0/1, no signal" % ncases,
          "; ".join("case %d: %s" % x for x in bad["crash"][:3]) + " (inputs in build/hostile/)")
    check(not bad["time"], "mutate: every case under 10 s (slowest %.2f s)" % slowest[0],
          "; ".join("case %d: %s" % x for x in bad["time"][:3]))
    check(not bad["count"], "mutate: every game counted (original - mutations <= games <= plausible starts)",
          "; ".join("case %d: %s" % x for x in bad["count"][:3]) + " (inputs in build/hostile/)")


# ---------------------------------------------------------------------------
def rep(unit, total):
    """Yields total bytes made of unit repeated, in ~1 MB chunks."""
    block = unit * max(1, (1 << 20) // len(unit))
    left = total
    while left > 0:
        c = block[:left]
        left -= len(c)
        yield c


def gen(*parts):
    for p in parts:
        if isinstance(p, (bytes, bytearray)):
            yield bytes(p)
        else:
            yield from p


def knight_shuffle(n_plies, date=b"2015.01.01"):
    # Dated 2015: the Laws of 2014 end it at the fivefold repetition (R45);
    # undated (date None), the older laws let it go on to the end.
    out = bytearray(b'[Event "long"]\n' + (b'[Date "%s"]\n' % date if date else b"") + b'\n')
    for i in range(n_plies // 4):
        out += b"%d. Nf3 Nf6 %d. Ng1 Ng8\n" % (2 * i + 1, 2 * i + 2)
    return bytes(out + b"1/2-1/2\n\n")


# The literal sizes (200 MB comment and tag value, 1 GB line, 10 million
# empty games: ~25 s, streamed) in the normal run; the sanitizer build
# (several times slower) uses smaller ones that take the same paths.
# HOSTILE_FULL=0/1 overrides.
FULL = os.environ.get("HOSTILE_FULL", "0" if SANITIZED else "1") == "1"
COMMENT_MB, TAG_MB, LINE_MB, EMPTIES, SLOW = (200, 200, 1024, 10000000, 10) if FULL else (50, 20, 100, 1000000, 1)


def part_sizes():
    ref = run(["-j1", "-f", "jsonl"], AFTER)
    ref_v = verdict(games_of(ref.out)[0][0])
    lorem = b"lorem ipsum dolor sit amet, consectetur adipiscing elit\n"
    rnd = random.Random(12345)
    random10 = rnd.randbytes(10 << 20) if hasattr(rnd, "randbytes") else bytes(
        rnd.getrandbits(8) for _ in range(10 << 20))
    text_first = b'[Event "text first"]\n\n1. e4 {' + lorem * 100 + b"} e5 *\n\n"
    cases = [
        # name, input, args, expected code in game 1 (None: any), cpu bound s
        ("%d MB comment" % COMMENT_MB, lambda: gen(b'[Event "c"]\n\n1. e4 {', rep(lorem, COMMENT_MB << 20), b"} e5 *\n\n", AFTER),
         ["-f", "jsonl"], None, 10 * SLOW),
        ("%d MB tag value" % TAG_MB, lambda: gen(b'[Event "', rep(b"x", TAG_MB << 20), b'"]\n\n1. e4 e5 *\n\n', AFTER),
         ["-f", "jsonl"], "tag-too-long", 10 * SLOW),
        ("100,000 plies (knight shuffle: fivefold ends it)", lambda: gen(knight_shuffle(100000), AFTER),
         ["-f", "jsonl"], "moves-after-end", 10),
        # every ply replayed, with no capture or pawn move: the repetition
        # count must not look back over the whole stretch at each ply
        ("100,000 plies (knight shuffle, undated: played on)", lambda: gen(knight_shuffle(100000, None), AFTER),
         ["-f", "jsonl"], "laws-2014-ending", 10),
        ("variations nested 100,000 deep",
         lambda: gen(b'[Event "deep"]\n\n1. e4 ', rep(b"(1. d4 ", 700000), rep(b")", 100000), b" e5 *\n\n", AFTER),
         ["-f", "jsonl"], "variation-too-deep", 10),
        ("%d MB line without a newline (one token)" % LINE_MB,
         lambda: gen(b'[Event "line"]\n\n1. e4 ', rep(b"a", LINE_MB << 20), b"\n\n", AFTER),
         ["-f", "jsonl"], "token-too-long", 20 * SLOW),
        ("%d MB line without a newline (moves)" % LINE_MB,
         lambda: gen(b'[Event "moves"]\n\n', rep(b"Nf3 Nf6 Ng1 Ng8 ", LINE_MB << 20), b"\n\n", AFTER),
         ["-f", "jsonl"], "game-too-long", 30 * SLOW),
        ("%d empty games" % EMPTIES, lambda: gen(rep(b"*\n", 2 * EMPTIES), b"\n", AFTER),
         ["-s", "--ignore=missing-tag"], None, 30 * SLOW),
        # (binary data at the start is refused whole: see inputs.sh; after
        # a first game of text longer than the 4 KB looked at, the reader
        # meets it)
        ("NUL bytes", lambda: gen(text_first, rep(b"\0", 1 << 20), b'\n\n[Event "n\0ul"]\n\n1. e4 \0 e5 {c\0m} *\n\n', AFTER),
         ["-f", "jsonl"], None, 10),
        ("10 MB of random bytes", lambda: gen(text_first, random10, b"\n\n", AFTER), ["-f", "jsonl"], None, 30),
    ]
    for name, mk, args, code, cpu_bound in cases:
        r = run(["-j2"] + args, mk(), timeout=120 * TIME_X)
        why = sane(r)
        tag = "sizes: %s: rss %.1f MB, cpu %.2f s, wall %.2f s" % (name, r.rss_kb / 1024, r.cpu, r.wall)
        if why:
            fail(tag, why)
            continue
        problems = []
        if r.rss_kb > RSS_MB * 1024:
            problems.append("peak RSS %.1f MB > %d MB" % (r.rss_kb / 1024, RSS_MB))
        if r.cpu > cpu_bound * TIME_X:
            problems.append("cpu %.1f s > %d s" % (r.cpu, cpu_bound * TIME_X))
        if args[0] == "-s":  # text mode: only games with diagnostics are printed
            text = r.out.decode("utf-8", "replace")
            if "%d games" % (EMPTIES + 1) not in r.err.decode():
                problems.append("summary does not count %d games: %s" % (EMPTIES + 1, r.err[-200:].decode()))
            if "game %d" % (EMPTIES + 1) not in text or "[mate-mark-missing]" not in text:
                problems.append("the game after the empty games is not reported as game %d" % (EMPTIES + 1))
        else:
            G, summ = games_of(r.out)
            if not G or verdict(G[-1]) != ref_v:
                problems.append("the game after it is not reported as on its own: %s" % (G[-1][:300] if G else "none"))
            if code and (len(G) < 2 or '"code":"%s"' % code not in G[0]):
                problems.append("no %s diagnostic in game 1: %s" % (code, G[0][:400] if G else "none"))
            if name == "NUL bytes" and b"bad-byte" not in r.out and b"unexpected-char" not in r.out:
                problems.append("NUL bytes not diagnosed")
            if summ is None or summ["games"] != len(G) or summ["bytes"] != r.fed:
                problems.append("summary: games %s of %d lines, bytes %s of %d fed" % (
                    summ and summ["games"], len(G), summ and summ["bytes"], r.fed))
        check(not problems, tag, "; ".join(problems))


# ---------------------------------------------------------------------------
def part_flat():
    """Peak memory does not grow with the number of games read: the same
    games six times over use what they use once.  Games of many lengths
    (some thousands of plies, some with 20 KB tag values and reader
    diagnostics) go through reused game objects, which must give back what
    a long game made them take (pgn_game_trim, game_report_trim).  Through
    a pipe at -j1 and -j2, and as a file at -j2 (pieces)."""
    if SANITIZED:
        print("note: flat: skipped in the sanitizer build (its allocator keeps freed memory)")
        return
    rnd = random.Random(4242)
    games = []
    for i in range(1501):
        n = rnd.choice([40] * 24 + [800, 1600, 3200, 6400])
        tag = b"a" * rnd.choice([12] * 24 + [3000, 20000])
        extra = b'[Bad "x]\n' if i % 17 == 0 else b""
        games.append(b'[Event "f%d"]\n[Annotator "%s"]\n%s' % (i, tag, extra) + knight_shuffle(n)[len(b'[Event "long"]\n'):])
    once = b"".join(games)
    path = "build/hostile/flat6.pgn"
    os.makedirs("build/hostile", exist_ok=True)
    open(path, "wb").write(once * 6)
    # Real games (every file in corpus/real) 10 and 150 times over: the
    # peak is reached within the first passes (the allocator settles
    # around the longest games) and stays.  One run's peak varies by about
    # 0.4 MB (4.2-4.6 MB at 10, 50, 100 and 200 times over), so the bound
    # is 1 MB: 140 more passes (36,260 more games) would pass it with 30
    # bytes kept a game.  (0.5 MB, over 50 passes, failed once in
    # a few dozen runs, with no growth.)
    real = b"".join(open(f, "rb").read() + b"\n\n" for f in sorted(glob.glob("corpus/real/*/*.pgn")))
    r10 = run(["-j1", "-q"], [real] * 10, timeout=60 * TIME_X, keep_out=False)
    r150 = run(["-j1", "-q"], [real] * 150, timeout=120 * TIME_X, keep_out=False)
    tag = "flat: real games through a pipe at -j1: peak RSS %.1f MB 10 times, %.1f MB 150 times (%.1f MB of input)" % (
        r10.rss_kb / 1024, r150.rss_kb / 1024, 150 * len(real) / 1e6)
    check(not sane(r10) and not sane(r150) and r150.rss_kb <= r10.rss_kb + 1024, tag,
          sane(r10) or sane(r150) or "grew by %.1f MB" % ((r150.rss_kb - r10.rss_kb) / 1024))
    r1 = run(["-j1", "-q"], once, timeout=60 * TIME_X, keep_out=False)
    r6 = run(["-j1", "-q"], [once] * 6, timeout=120 * TIME_X, keep_out=False)
    tag = "flat: pipe -j1: peak RSS %.1f MB for the games once, %.1f MB six times" % (r1.rss_kb / 1024, r6.rss_kb / 1024)
    check(not sane(r1) and not sane(r6) and r6.rss_kb <= r1.rss_kb + 1024, tag,
          sane(r1) or sane(r6) or "grew by %.1f MB" % ((r6.rss_kb - r1.rss_kb) / 1024))
    # With threads, the allocator's per-thread arenas settle higher (about
    # 12 MB once, 19 MB after 20 times and still 19 after 80); without the
    # trimming every batch slot kept its largest game: 46 MB once, 107 MB
    # after 20 times.
    # A piece's slots hold copies of its games until they are written: a
    # copy of the text (the default format's excerpts, --select) kept by
    # every slot made 41 MB here before the copies were given back once
    # written (and taken only for games with findings in text output).
    # Through a pipe with text output every batch slot kept up to 64 KB of
    # game text (32 MB here at -j2); now a long game's room is given back.
    for args, how, bound in ((["-j2", "-q"], "pipe -j2", 24), (["-j2", "-f", "jsonl"], "pipe -j2 jsonl", 24),
                             (["-j2"], "pipe -j2, text output", 24),
                             (["-j2", "-q", path], "file in pieces -j2", 16),
                             (["-j2", path], "file in pieces -j2, text output", 24),
                             (["-j2", "--select=valid", path], "file in pieces -j2, --select", 24)):
        r6 = run(args, [] if path in args else [once] * 6, timeout=120 * TIME_X, keep_out=False)
        tag = "flat: %s: peak RSS %.1f MB for the games six times (bound %d MB)" % (how, r6.rss_kb / 1024, bound)
        check(not sane(r6) and r6.rss_kb <= bound * 1024, tag, sane(r6) or "too large")


# ---------------------------------------------------------------------------
# The man page's Limits states the peak resident size per output mode at
# -j1 and at -j2 for a file and a pipe; part_modes reads those bounds from
# it, so the page cannot state what this test does not hold.
MODE_ROWS = {  # first column of a row of that table -> the options of the mode
    "Fl q": [["-q"]],
    "Fl f Cm jsonl , Cm tsv": [["-f", "jsonl"], ["-f", "tsv"]],
    "text, Fl f Cm github": [[], ["-f", "github"]],
    "Fl -select , Fl -fix-results , Fl -export": [["--select=valid"], ["--select=invalid"], ["--fix-results"],
                                                 ["--export"]],
}


def man_rss_bounds(path="man/pgncheck.1"):
    """{row: (j1, j2 file, j2 pipe) in MB} from the rows of the man page's
    peak-memory table: '.It COLUMN1 Ta N MB Ta N MB Ta N MB'."""
    rows = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"\.It (.+?) Ta (\d+) MB Ta (\d+) MB Ta (\d+) MB$", line.rstrip("\n"))
        if m:
            rows[m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    return rows


def part_modes():
    """Peak memory in every output mode, at -j1 and -j2, for a file and a
    pipe, on ordinary input: every real game of corpus/real (with their
    findings: 3 in 4 of them have one) repeated to 7 MB, against the bounds
    the man page states."""
    if SANITIZED:
        print("note: modes: skipped in the sanitizer build (its allocator keeps freed memory)")
        return
    bounds = man_rss_bounds()
    if not check(set(bounds) == set(MODE_ROWS), "modes: the man page's peak-memory table has a row per mode",
                 "rows %s, want %s" % (sorted(bounds), sorted(MODE_ROWS))):
        return
    real = b"".join(open(f, "rb").read().rstrip(b"\r\n") + b"\n\n" for f in sorted(glob.glob("corpus/real/*/*.pgn")))
    path = "build/hostile/modes.pgn"
    os.makedirs("build/hostile", exist_ok=True)
    reps = (7 << 20) // len(real) + 1
    open(path, "wb").write(real * reps)
    for row, modes in MODE_ROWS.items():
        for args in modes:
            for col, (jobs, how) in enumerate((("-j1", "file"), ("-j1", "pipe"), ("-j2", "file"), ("-j2", "pipe"))):
                bound = bounds[row][max(0, col - 1)]
                argv = [jobs, "--no-progress"] + args
                r = run(argv + [path], timeout=60 * TIME_X, keep_out=False) if how == "file" else \
                    run(argv, [real] * reps, timeout=60 * TIME_X, keep_out=False)
                tag = "modes: %s %s, %s: peak RSS %.1f MB (man page: at most %d MB)" % (
                    jobs, " ".join(args) or "text", how, r.rss_kb / 1024, bound)
                check(not sane(r) and 0 < r.rss_kb <= bound * 1024, tag, sane(r) or "over the bound")


# ---------------------------------------------------------------------------
def man_any_input_bound(path="man/pgncheck.1"):
    """The bound the man page's Limits states for any input, in MB."""
    for line in open(path, encoding="utf-8"):
        m = re.match(r"On any input, .* at most (\d+) MB", line)
        if m:
            return int(m.group(1))
    return None


def part_memory():
    """Peak memory on inputs made to make it grow (issue 23): 40 games of
    8 MiB with a syntax error each (their text once kept whole until the
    batch was written: 332 MB at -j1 in text), and 12 MB of random bytes
    after a game, in text, --select, --fix-results and JSON Lines, at -j1
    and -j2, from a file and through a pipe, against the bound the man page
    states for any input."""
    if SANITIZED:
        print("note: memory: skipped in the sanitizer build (its allocator keeps freed memory)")
        return
    bound = man_any_input_bound()
    if not check(bound is not None, "memory: the man page states a bound for any input"):
        return
    games = 40
    # each game: tags, "2. ]" (a syntax error: the rest of the game, 8 MiB
    # of moves, is skipped) and its marker
    moves = b"Nf3 Nf6 Ng1 Ng8 " * ((8 << 20) // 16)

    def big():
        for i in range(games):
            yield (b'[Event "g%d"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n1. e4 e5 2. ] ' % i)
            yield moves
            yield b"\n*\n\n"
    big_len = sum(len(c) for c in big())
    rnd = random.Random(2323)
    noise = rnd.randbytes(12 << 20) if hasattr(rnd, "randbytes") else bytes(rnd.getrandbits(8) for _ in range(12 << 20))
    first = b'[Event "text first"]\n\n1. e4 {' + b"lorem ipsum dolor sit amet\n" * 200 + b"} e5 *\n\n"

    def rand():
        yield first
        for k in range(0, len(noise), 1 << 20):
            yield noise[k:k + (1 << 20)]
        yield b"\n\n" + AFTER
    inputs = {"40 x 8 MiB games with a syntax error": big, "12 MB of random bytes": rand}
    for name, mk in inputs.items():
        path = os.path.join(SCRATCH, "memory.pgn")
        with open(path, "wb") as f:
            for c in mk():
                f.write(c)
        for args, what in (([], "text"), (["--select=invalid"], "--select"), (["--fix-results"], "--fix-results"),
                           (["-f", "jsonl"], "jsonl")):
            for jobs in ("-j1", "-j2"):
                for how in ("file", "pipe"):
                    argv = [jobs, "--no-progress"] + args
                    copy = what.startswith("--")
                    r = run(argv + [path], timeout=60 * TIME_X, keep_out=not copy) if how == "file" else \
                        run(argv + ["--label=" + path], mk(), timeout=60 * TIME_X, keep_out=not copy)
                    tag = "memory: %s, %s %s, %s: peak RSS %.1f MB (man page: at most %d MB)" % (
                        name, jobs, what, how, r.rss_kb / 1024, bound)
                    problems = [sane(r)] if sane(r) else []
                    if r.rss_kb > bound * 1024 or r.rss_kb <= 0:
                        problems.append("peak RSS %.1f MB" % (r.rss_kb / 1024))
                    if name.startswith("40"):
                        # every game is invalid and copied as it is (no
                        # marker to rewrite after a syntax error); the text
                        # shows each error with its line
                        if copy and r.out_bytes != big_len:
                            problems.append("copied %d bytes of %d" % (r.out_bytes, big_len))
                        text = r.out.decode("utf-8", "replace") if not copy else r.err.decode("utf-8", "replace")
                        if what == "jsonl":
                            G, summ = games_of(r.out)
                            if len(G) != games or sum('"code":"syntax"' in g for g in G) != games:
                                problems.append("%d game records, want %d with a syntax error" % (len(G), games))
                        elif len(re.findall(r"(?m)^ +[0-9]+ \| 1\. e4 e5 2\. \] Nf3", text)) != games:
                            problems.append("the source line of each syntax error is not shown")
                    check(not problems, tag, "; ".join(problems))
        os.unlink(path)
    # A game over the 16 MiB copy limit (17 MiB of comment) is not copied,
    # said on stderr with exit 2; the games around it are copied as they
    # are, from a file (read again) and through a pipe (held).
    small = b'[Event "s"]\n[Result "*"]\n\n1. e4 e5 *\n\n'
    def over():
        yield small
        yield b'[Event "huge"]\n[Result "*"]\n\n1. e4 {'
        yield from rep(b"lorem ipsum dolor sit amet\n", 17 << 20)
        yield b"} e5 *\n\n"
        yield small
    path = os.path.join(SCRATCH, "memory.pgn")
    with open(path, "wb") as f:
        for c in over():
            f.write(c)
    for how in ("file", "pipe"):
        r = run(["-j1", "--select=valid", path] if how == "file" else ["-j1", "--select=valid"],
                [] if how == "file" else over(), timeout=60 * TIME_X)
        err = r.err.decode("utf-8", "replace")
        check(r.rc == 2 and r.out == small + small and "game 2 is larger than 16 MiB and was not copied" in err
              and 0 < r.rss_kb <= bound * 1024,
              "memory: --select, a game over 16 MiB (%s): not copied, said, exit 2; the others copied; "
              "peak RSS %.1f MB" % (how, r.rss_kb / 1024),
              "exit %d, %d bytes copied, stderr %r" % (r.rc, len(r.out), err[:200]))
    os.unlink(path)
    # 20 games of 8 MiB of moves (a stray ')' is no syntax error): each
    # keeps its 500,000 elements (24 MB) until it is checked, and a batch of
    # them once held 1.1 GB until it was written
    def long_games():
        for i in range(20):
            yield b'[Event "m%d"]\n[Result "*"]\n\n1. e4 e5 2. ) ' % i
            yield moves
            yield b"\n*\n\n"
    r = run(["-j1", "-f", "jsonl"], long_games(), timeout=120 * TIME_X)
    G, _ = games_of(r.out)
    check(not sane(r) and len(G) == 20 and 0 < r.rss_kb <= bound * 1024,
          "memory: 20 games of 500,000 moves, -j1 jsonl, pipe: peak RSS %.1f MB (man page: at most %d MB)" % (
              r.rss_kb / 1024, bound), sane(r) or "%d games, peak RSS %.1f MB" % (len(G), r.rss_kb / 1024))


# ---------------------------------------------------------------------------
def part_search():
    """The unwinnability search's table (unwin.c, 6 MB) is one per thread,
    whatever the batch size (issue 33 defect 1, issue 34): 5,000 two-move
    games won on time from a position that only the search decides (K+2N
    against K+P: no filter or static proof answers it), with the smallest
    budget and with the default, at -j1, -j2 and -j3, from a file and a
    pipe: peak RSS under the man page's bound for any input.  A table per
    batch slot took 396 MB at -j1 and 1.97 GB at -j3."""
    if SANITIZED:
        print("note: search: skipped in the sanitizer build (its allocator keeps freed memory)")
        return
    bound = man_any_input_bound()
    game = (b'[Event "t%d"]\n[White "a"]\n[Black "b"]\n[Result "1-0"]\n[Termination "time forfeit"]\n'
            b'[SetUp "1"]\n[FEN "8/8/8/4k3/8/8/3p4/K1NN4 w - - 0 1"]\n\n1. Nb3 Ke4 1-0\n\n')
    data = b"".join(game % i for i in range(5000))
    path = os.path.join(SCRATCH, "search.pgn")
    open(path, "wb").write(data)
    for nodes in ("--unwin-nodes=1", None):
        for jobs in ("-j1", "-j2", "-j3"):
            for how in ("file", "pipe"):
                argv = [jobs, "--no-progress", "-f", "jsonl"] + ([nodes] if nodes else [])
                r = run(argv + [path]) if how == "file" else run(argv, [data])
                G, _ = games_of(r.out)
                check(not sane(r) and len(G) == 5000 and 0 < r.rss_kb <= bound * 1024,
                      "search: 5,000 games won on time, %s %s, %s: peak RSS %.1f MB (man page: at most %d MB)" % (
                          jobs, nodes or "default budget", how, r.rss_kb / 1024, bound),
                      sane(r) or "%d games, peak RSS %.1f MB" % (len(G), r.rss_kb / 1024))
    os.unlink(path)


# ---------------------------------------------------------------------------
def part_faults():
    a = "corpus/real/gh-pgnmentor-players/Philidor.pgn"
    b = "corpus/real/gh-pychess/bilbao.pgn"
    one = run(["-f", "jsonl", a, b])
    n = len(games_of(one.out)[0])
    os.makedirs("build/hostile", exist_ok=True)
    r = run(["-f", "jsonl", a, "build/hostile/no-such-file.pgn", "build", b])
    G, summ = games_of(r.out)
    err = r.err.decode("utf-8", "replace")
    check(r.rc == 2 and len(G) == n and "no-such-file.pgn" in err and "build" in err,
          "faults: a missing file and a directory among readable files: the others checked, exit 2",
          "exit %d, %d games (expected %d), stderr: %s" % (r.rc, len(G), n, err[:300]))
    r = run(["-f", "jsonl", "/proc/self/mem", a])
    check(r.rc == 2 and len(games_of(r.out)[0]) == len(games_of(run(["-f", "jsonl", a]).out)[0]),
          "faults: an unreadable file (read error) among readable ones: exit 2", "exit %d" % r.rc)
    for fmt in (["-f", "jsonl"], []):
        r = run(fmt + [a], stdout_path="/dev/full")
        check(r.rc == 2 and r.err.strip(), "faults: standard output is /dev/full (%s): exit 2 with a message" %
              (fmt[1] if fmt else "text"), "exit %d, stderr %r" % (r.rc, r.err[:200]))
    r = run(["-f", "jsonl", a], close_stdout=True)
    check(r.rc == 2 and r.err.strip(), "faults: standard output closed: exit 2 with a message",
          "exit %d, stderr %r" % (r.rc, r.err[:200]))
    strip = re.compile(rb',"seconds":[0-9.e+-]+')
    for f in [a, "corpus/edge/gh-python-chess/data/utf8-bom.pgn", "corpus/edge/gh-pgn-extract/infiles/odds.pgn",
              "corpus/real/gh-chesscom-daily/chesscom-daily-21.pgn"]:
        lf = open(f, "rb").read().replace(b"\r\n", b"\n")
        for variant, payload in (("LF", lf), ("CRLF", lf.replace(b"\n", b"\r\n"))):
            path = "build/hostile/bytewise.pgn"
            open(path, "wb").write(payload)
            ref = run(["-f", "jsonl", path])
            r = run(["-f", "jsonl", "--label=" + path], payload, byte_writes=True, timeout=60)
            same = strip.sub(b"", r.out) == strip.sub(b"", ref.out) and r.rc == ref.rc
            check(same and not sane(r), "faults: %s (%s) fed one byte per write through a pipe: same output as the file"
                  % (f, variant), sane(r) or "output differs")
    # found by fuzz_reader: whether a long digit run starts a game depended on
    # how many bytes the read had delivered (corpus/fuzz/regress/fuzz_reader/)
    payload = b"8888888888888888888888888888881. e4 e5 *\n"
    ref = run(["-f", "jsonl"], payload)
    r = run(["-f", "jsonl"], payload, byte_writes=True, byte_delay=0.005)
    check(strip.sub(b"", r.out) == strip.sub(b"", ref.out),
          "faults: a 30-digit move number fed one byte per write: same output as in one read",
          "one read gives %d game(s), one byte per write %d (src/pgn.c movetext_start scans all buffered bytes, "
          "not the 24 it asked need() for)" % (len(games_of(ref.out)[0]), len(games_of(r.out)[0])))
    # found by fuzz_reader (issue 23, 1): a [%clk] command was read in
    # whatever happened to be buffered after its '%', so its verdict
    # depended on where a read ended.  Here its '%' sits 80 bytes before
    # the end of the reader's first 64 KB window and 80 bytes before the
    # 1 MiB end of the first piece -j2 reads (its reads stop there).
    # With 110 blanks the command ("%clk", the blanks, "0:01:00]") ends
    # 122 bytes after its '%', inside the 128 the reader examines: the time
    # is read (no bad-clock); with 200 blanks it ends past them: bad-clock.
    # Both the same at -j1, -j2, and through a pipe (its first 128 KB
    # written 8 bytes at a time).
    def clock_at(blanks, targets):
        game = b'[Event "f"]\n[Result "*"]\n\n1. e4 e5 *\n\n'
        out = bytearray()
        wanted = []
        for t in targets:
            head = b'[Event "clock"]\n[Result "*"]\n\n1. e4 {['
            # filler games up to the place, then a game whose '%' is at t - 80
            while len(out) + len(game) + len(head) < t - 80 - 200:
                out += game
            pad = t - 80 - len(out) - len(head) - 12
            out += b'[Event "pad"]\n' + b'[Annotator "' + b"x" * (pad - 17) + b'"]\n'
            wanted.append(len(out) + len(head))
            out += head + b"%clk" + b" " * blanks + b"0:01:00]} e5 *\n\n"
        out += game * ((1 << 20) // len(game) + 1)   # over 2 MiB: -j2 reads pieces
        return bytes(out), wanted
    for blanks, clk in ((110, False), (200, True)):
        data, at = clock_at(blanks, [65536, 1 << 20])
        exact = all(data[a:a + 4] == b"%clk" for a in at) and at == [65536 - 80, (1 << 20) - 80]
        path = "build/hostile/clock.pgn"
        open(path, "wb").write(data)
        outs = [run(["-j1", "-f", "jsonl", path]), run(["-j2", "-f", "jsonl", path]),
                run(["-j1", "-f", "jsonl", "--label=" + path], [data[k:k + 8] for k in range(0, 1 << 17, 8)] + [data[1 << 17:]])]
        texts = [strip.sub(b"", o.out) for o in outs]
        n_bad = texts[0].count(b'"code":"bad-clock"')
        check(exact and texts[0] == texts[1] == texts[2] and n_bad == (2 if clk else 0),
              "faults: [%%clk] with %d blanks across the 64 KB window end and the 1 MB piece cut: %s, "
              "the same at -j1, -j2 and through a pipe" % (blanks, "bad-clock" if clk else "read"),
              "placed %s; bad-clock %d times; outputs equal: %s" % (exact, n_bad, [t == texts[0] for t in texts]))
    # an honest exit status: a game of an unchecked variant whose text is broken
    r = run(["-q"], b'[Event "x"]\n[Variant "crazyhouse"]\n\n1. e4 e5 (\n')
    check(r.rc == 1, "faults: reader errors in a skipped-variant game give exit 1 (not 0)",
          "exit %d: errors are printed but the game counts as skipped and valid (src/game.c game_check)" % r.rc)


if __name__ == "__main__":
    for part in PARTS:
        globals()["part_" + part]()
    print("%d passed, %d failed" % (passed, failed))
