#!/bin/sh
# ci.sh - pipelines and CI (issue 37), each part a test that fails without it:
#  1. data and report never share a stream: -o, --report; with -f jsonl
#     every line of the report stream is a JSON record (open errors,
#     summary, stats, messages) and no --progress line goes into it;
#  2. --in-place: the file replaced whole (mode kept, a link stays a link)
#     or left as it was, exit 2: stdin, compressed input, a read-only
#     directory, a full disk (ulimit -f), SIGTERM in the middle; the exit
#     status of a rewriting mode (0 nothing left, 1 errors left);
#  3. --baseline/--write-baseline: the shared corpus baselined re-checks
#     with exit 0 (plain build only, ../shared/corpus), one broken game
#     added is the only one named, shuffled games and other line breaks
#     still 0, an edited game's findings new, the file sorted and minimal;
#  4. --summary-md, bash completion (--ignore=<TAB>), pre-commit's hook
#     (pre-commit try-repo, when pre-commit is installed), `make` builds
#     the tool only.
# Run from the repository root with BIN=. or BIN=build/san.
BIN=${BIN:-.}
P="$BIN/pgncheck"
. tests/lib.sh
scratch ci
need_bin "$P"
P=$(cd "$(dirname "$P")" && pwd)/pgncheck
top=$(pwd)
E=corpus/examples
cp "$E/db.pgn" "$tmp/db.pgn"
cp "$E/games/good.pgn" "$tmp/good.pgn"

# all_json NAME FILE: every line of FILE is to be one JSON value, and FILE
# to have one summary record: checked with jq -c . here when installed,
# and by python's json for all the files at once (json_check, below).
mkdir -p "$tmp/json"
all_json() {
    if grep -q "$(printf '\r')" "$2"; then
        fail "$1: a carriage return (a progress line) in the records" "$(od -c "$2" | head -n 5)"
        return
    fi
    if command -v jq > /dev/null 2>&1; then
        jq -c . < "$2" > /dev/null 2>&1 && ok "$1: jq -c . reads every line" || fail "$1: jq -c . fails" "$(cat "$2")"
    fi
    n=$(ls "$tmp/json" | wc -l)
    cp "$2" "$tmp/json/$n"
    printf '%s\n' "$1" > "$tmp/json/$n.name"
}
json_check() {
    have_py || { skip "JSON records (python)" "no python3"; return; }
    python3 - "$tmp/json" <<'PY'
import json, os, sys
d = sys.argv[1]
for f in sorted(x for x in os.listdir(d) if not x.endswith(".name")):
    name = open(os.path.join(d, f + ".name")).read().strip()
    try:
        recs = [json.loads(l) for l in open(os.path.join(d, f), encoding="utf-8")]
        n = sum(r.get("type") == "summary" for r in recs)
        print(("ok %s: every line a JSON record, one summary" if n == 1 else "FAIL %s: %d summaries") % ((name,) if n == 1 else (name, n)))
    except Exception as e:
        print("FAIL %s: %s" % (name, e))
PY
}
json_results() {
    json_check > "$tmp/json.log"
    passed=$((passed + $(grep -c '^ok ' "$tmp/json.log")))
    failed=$((failed + $(grep -c '^FAIL ' "$tmp/json.log")))
    cat "$tmp/json.log"
}

# ---------------------------------------------------------------- 1. streams
cd "$tmp" || exit 2
for mode in --select=valid --select=invalid --fix-results --export; do
    # (the issue's own command: the report on stderr, the games to /dev/null)
    "$P" -f jsonl -s --stats --progress "$mode" db.pgn missing.pgn 2> err.jsonl > /dev/null
    st=$?
    [ "$st" -eq 2 ] && ok "jsonl $mode, a missing file: exit 2" || fail "jsonl $mode: exit $st, want 2"
    all_json "jsonl $mode -s --stats --progress, stderr" err.jsonl
    grep -q '"code":"open-error"' err.jsonl && ok "jsonl $mode: the open error is a record" ||
        fail "jsonl $mode: no open-error record" "$(cat err.jsonl)"
    # the same through --report, the games on stdout
    "$P" -f jsonl --progress "$mode" --report=rep.jsonl db.pgn missing.pgn > games.pgn 2> err.txt
    all_json "jsonl $mode --report=FILE" rep.jsonl
    grep -q '^\[Event ' games.pgn && ok "jsonl $mode --report: games on stdout" || fail "jsonl $mode --report: no games on stdout"
done
# issue 33 defect 10: --progress wrote "\r" lines into the records (a
# progress line is drawn after a batch of 64 games: 120 games here)
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40; do
    cat db.pgn
done > many.pgn
for mode in --select=valid --fix-results --export; do
    "$P" -j1 -f jsonl --progress "$mode" many.pgn 2> err.jsonl > /dev/null
    all_json "jsonl $mode --progress, 120 games: stderr" err.jsonl
done
# 2>&1 into one pipe: the messages are records there too
"$P" -f jsonl db.pgn missing.pgn > both.jsonl 2>&1
all_json "jsonl, stdout and stderr one pipe (2>&1)" both.jsonl
"$P" -f jsonl --export --progress - < db.pgn 2> err.jsonl > /dev/null
all_json "jsonl --export --progress, standard input" err.jsonl

# -o: the games to FILE, the report on stdout; never over an input
run "$P" --select=valid -o clean.pgn db.pgn
status_is "-o FILE" 1
"$P" -q --select=valid db.pgn > want.pgn
same "-o FILE: the games --select writes to stdout" want.pgn clean.pgn
out_has "-o FILE: the report on stdout" 'illegal-move'
run "$P" -f jsonl --select=valid --output=clean2.pgn db.pgn missing.pgn
all_json "-f jsonl -o FILE: stdout" "$tmp/out"
same "--output=FILE" want.pgn clean2.pgn
cp db.pgn keep.pgn
run "$P" --fix-results -o keep.pgn keep.pgn
status_is "-o naming an input" 2
err_has "-o naming an input" 'also an input: use --in-place'
same "-o naming an input: the input untouched" db.pgn keep.pgn
run "$P" --select=valid --report=- db.pgn
status_is "--report=- with the games on stdout" 2
out_empty "--report=- with the games on stdout: refused, nothing written"
run "$P" -o x.pgn db.pgn
status_is "-o without a copying mode" 2
[ ! -e x.pgn ] && ok "-o without a copying mode: no file made" || fail "-o without a copying mode: x.pgn made"

json_results

# ---------------------------------------------------------------- 2. --in-place
# the exit status of a rewriting mode: 1 while an error is left (game 1's
# illegal move), 0 once the rewrite mended every error (game 2's result)
"$P" -q --fix-results -o fixed.pgn db.pgn
cp db.pgn ip.pgn; chmod 640 ip.pgn
run "$P" --fix-results -i ip.pgn
status_is "--in-place, an error left (illegal move)" 1
same "--in-place: the file as -o writes it" fixed.pgn ip.pgn
perm=$(ls -l ip.pgn | cut -c1-10)
[ "$perm" = "-rw-r-----" ] && ok "--in-place: mode kept ($perm)" || fail "--in-place: mode $perm, want -rw-r-----"
awk 'NR >= 11' db.pgn > onlyresult.pgn       # games 2 and 3: a wrong result, a good game
run "$P" -q --fix-results onlyresult.pgn
status_is "--fix-results to stdout, every error mended: the status of the output" 0
run "$P" -q --fix-results --in-place onlyresult.pgn
status_is "--in-place, every error mended" 0
run "$P" -q onlyresult.pgn
status_is "the file rewritten has no error" 0
run "$P" -q --export -i onlyresult.pgn
status_is "--export -i of a file without error" 0
# a link stays a link, what it names is rewritten
cp db.pgn target.pgn; ln -s target.pgn link.pgn
"$P" -q --fix-results -i link.pgn
[ -L link.pgn ] && ok "--in-place on a link: still a link" || fail "--in-place on a link: the link replaced"
same "--in-place on a link: the file it names rewritten" fixed.pgn target.pgn
# refused: standard input, compressed input (nothing rewritten)
run "$P" --fix-results -i - < db.pgn
status_is "--in-place on standard input" 2
err_has "--in-place on standard input" 'not standard input'
if command -v gzip > /dev/null 2>&1; then
    cp db.pgn z.pgn; gzip -f z.pgn; cp z.pgn.gz z0.gz; cp db.pgn plain.pgn
    run "$P" --fix-results -i plain.pgn z.pgn.gz
    status_is "--in-place, a compressed input" 2
    err_has "--in-place, a compressed input" 'compressed'
    same "--in-place, a compressed input: left as it was" z0.gz z.pgn.gz
    same "--in-place, a compressed input: the other file not rewritten either" db.pgn plain.pgn
else
    skip "--in-place, a compressed input" "no gzip"
fi
# no temporary file left anywhere below
leftover() { find . -name '.*pgncheck-*' | head -n 3; }
# a read-only directory: as root a mode does not stop a write, so the
# test runs as nobody (setpriv) when it can
mkdir ro; cp db.pgn ro/db.pgn; chmod 755 "$tmp" ro; chmod 644 ro/db.pgn; chmod 555 ro
if [ "$(id -u)" -ne 0 ]; then
    run "$P" --fix-results -i ro/db.pgn
elif command -v setpriv > /dev/null 2>&1 && setpriv --reuid=65534 --regid=65534 --clear-groups true 2> /dev/null &&
    setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$P"; then
    run setpriv --reuid=65534 --regid=65534 --clear-groups "$P" --fix-results -i ro/db.pgn
else
    st=skip
fi
if [ "$st" = skip ]; then
    skip "--in-place, a read-only directory" "root, and no setpriv to drop it"
else
    status_is "--in-place, a read-only directory" 2
    err_has "--in-place, a read-only directory" 'cannot create a temporary file in .*ro.*left as it was'
    same "--in-place, a read-only directory: the file as it was" db.pgn ro/db.pgn
fi
chmod 755 ro
# a full disk: ulimit -f (512-byte blocks) below the file's size; SIGXFSZ
# is ignored, the write fails (EFBIG), the file stays whole
big=$top/corpus/real/gh-pychess/chess960rwch.pgn
cat "$big" "$big" "$big" "$big" > full.pgn; cp full.pgn full0.pgn
(ulimit -f 40; exec "$P" -q --export -i full.pgn) > out 2> err; st=$?
status_is "--in-place, the file size limit (ulimit -f 40) reached" 2
err_has "--in-place, the file size limit reached" 'left as it was'
same "--in-place, the file size limit reached: the file as it was" full0.pgn full.pgn
[ -z "$(leftover)" ] && ok "--in-place failures: no temporary file left" || fail "temporary files left: $(leftover)"
# SIGTERM in the middle: a file large enough to be killed while it is
# written (the temporary file seen), then the file as it was, no temporary
for i in 1 2 3 4 5 6 7 8; do cat full0.pgn full0.pgn full0.pgn full0.pgn; done > sig.pgn
for i in 1 2 3 4; do cat sig.pgn; done > sig2.pgn; mv sig2.pgn sig.pgn; cp sig.pgn sig0.pgn
killed=no
for try in 1 2 3; do
    "$P" -q -j1 --export -i sig.pgn > /dev/null 2>&1 &
    pid=$!
    n=0
    while [ $n -lt 400 ] && kill -0 $pid 2> /dev/null; do
        if [ -n "$(find . -name '.sig.pgn.pgncheck-*' -size +1k)" ]; then
            kill -TERM $pid; killed=yes; break
        fi
        n=$((n + 1)); sleep 0.005
    done
    wait $pid 2> /dev/null; st=$?
    [ $killed = yes ] && break
done
if [ $killed = yes ]; then
    [ "$st" -gt 128 ] && ok "--in-place, SIGTERM in the middle: killed ($st)" || fail "--in-place, SIGTERM: exit $st"
    same "--in-place, SIGTERM in the middle: the file as it was" sig0.pgn sig.pgn
    [ -z "$(leftover)" ] && ok "--in-place, SIGTERM: the temporary file removed" || fail "SIGTERM: left $(leftover)"
else
    skip "--in-place, SIGTERM in the middle" "the run ended before the temporary file was seen"
fi
rm -f sig.pgn sig0.pgn full.pgn full0.pgn
run "$P" --select=valid -i db.pgn
status_is "--in-place with --select" 2

# ---------------------------------------------------------------- 3. baselines
# reorder PGN games (shuffle), or break their movetext's lines
# elsewhere (wrap), in every file of the list FILES into directory DIR:
# one python over the offsets of one JSON Lines run
reorder() {
    "$P" -j2 -f jsonl $(cat "$1") > offsets.jsonl 2> /dev/null
    python3 - "$1" "$2" "$3" <<'PY'
import json, os, random, sys
files, how, outdir = sys.argv[1:4]
offs = {}
for l in open("offsets.jsonl", encoding="utf-8"):
    r = json.loads(l)
    if r.get("type") == "game":
        offs.setdefault(r["file"], []).append(r["offset"])
rng = random.Random(37)
for f in open(files).read().split():
    data = open(f, "rb").read()
    o = offs.get(f, []) + [len(data)]
    if len(o) == 1:
        open(os.path.join(outdir, f), "wb").write(data)
        continue
    games = [data[o[i]:o[i + 1]].rstrip(b"\r\n") + b"\n\n" for i in range(len(o) - 1)]
    if how == "shuffle":
        rng.shuffle(games)
    else:   # other line breaks in the movetext (not in tags, comments, ; or % lines)
        out = []
        for g in games:
            lines = []
            for l in g.split(b"\n"):
                body = l.lstrip()
                if body.startswith(b"[") or any(c in l for c in (b";", b"%", b"{", b"}")):
                    lines.append(l)
                else:
                    lines.append(l[:len(l) - len(body)] + body.replace(b" ", b"\n", 3))
            out.append(b"\n".join(lines))
        games = out
    open(os.path.join(outdir, f), "wb").write(data[:o[0]] + b"".join(games))
PY
}
broken='[Event "Broken on purpose"]
[Site "?"]
[Date "2024.01.01"]
[Round "1"]
[White "X"]
[Black "Y"]
[Result "1-0"]

1. e4 e5 2. Ke3 1-0
'
if ! have_py; then
    skip "baselines" "no python3"
else
    # The shared corpus (83,000 games) in the plain build: baselined, it
    # re-checks with exit 0; one broken game added is the one named.
    if [ -d "$top/../shared/corpus" ] && [ -z "${SANITIZED:-}" ]; then
        mkdir whole; cd whole || exit 2
        find "$top/../shared/corpus" -type f \( -name '*.pgn' -o -name '*.PGN' \) | LC_ALL=C sort > list
        cp "$(head -n 1 list)" first.pgn
        { echo first.pgn; sed 1d list; } > files
        "$P" -q -j2 --write-baseline=base.txt $(cat files) 2> err; st=$?
        [ "$st" -eq 1 ] && [ -s base.txt ] &&
            ok "--write-baseline, the shared corpus ($(wc -l < files) files): exit 1, $(($(wc -l < base.txt) - 1)) findings" ||
            fail "--write-baseline, the shared corpus: exit $st" "$(cat err)"
        run "$P" -j2 --baseline=base.txt $(cat files)
        status_is "the shared corpus re-checked against its baseline" 0
        out_empty "the shared corpus re-checked: nothing reported"
        printf '%s' "$broken" >> first.pgn
        run "$P" -j2 -f jsonl --baseline=base.txt $(cat files)
        status_is "the shared corpus, one broken game added" 1
        grep '"status":"error"' "$tmp/out" > errs
        [ "$(wc -l < errs)" -eq 1 ] && grep -q 'Broken on purpose' errs && ok "the shared corpus: the broken game alone named" ||
            fail "the shared corpus: $(wc -l < errs) games with errors" "$(head -c 600 errs)"
        cd "$tmp" || exit 2
    else
        skip "--baseline over the shared corpus" "${SANITIZED:+the sanitizer build}${SANITIZED:-no ../shared/corpus}"
    fi
    # The repository's corpus: shuffled games, other line breaks
    mkdir base; cd base || exit 2
    find "$top/corpus" -type f \( -name '*.pgn' -o -name '*.PGN' \) ! -path '*/fuzz/*' | LC_ALL=C sort > list
    i=0
    while IFS= read -r f; do i=$((i + 1)); cp "$f" "g$i.pgn"; done < list
    ls g*.pgn | LC_ALL=C sort > files
    "$P" -q -j2 --write-baseline=base.txt $(cat files) 2> err; st=$?
    [ "$st" -eq 1 ] && [ -s base.txt ] && ok "--write-baseline over corpus/: $(($(wc -l < base.txt) - 1)) findings" ||
        fail "--write-baseline over corpus/: exit $st" "$(cat err)"
    pick=$(head -n 1 files)
    cp "$pick" pick.orig
    printf '%s' "$broken" >> "$pick"
    # shuffled games, and other line breaks, in every file: the broken
    # game alone is new wherever it went
    for how in shuffle wrap; do
        mkdir "$how"
        reorder files "$how" "$how" || fail "games $how: the python"
        (cd "$how" && "$P" -j2 -f jsonl --baseline=../base.txt $(cat ../files) > ../out.jsonl 2> ../err); st=$?
        grep '"status":"error"' out.jsonl > errs
        [ "$st" -eq 1 ] && [ "$(wc -l < errs)" -eq 1 ] && grep -q 'Broken on purpose' errs &&
            ok "games $how: exit 1, the broken game alone named" ||
            fail "games $how: exit $st, $(wc -l < errs) games with errors" "$(head -c 900 errs)"
    done
    # the baseline rewritten: sorted, minimal, the new game's findings in it
    cp base.txt old.txt
    "$P" -q -j2 --baseline=base.txt --write-baseline=base.txt $(cat files); st=$?
    LC_ALL=C sort -c base.txt 2> /dev/null && ok "--write-baseline: sorted (sort -c)" || fail "--write-baseline: not sorted"
    [ -z "$(uniq -d base.txt)" ] && ok "--write-baseline: no line twice" || fail "--write-baseline: duplicates"
    added=$(LC_ALL=C comm -13 old.txt base.txt | wc -l)
    gone=$(LC_ALL=C comm -23 old.txt base.txt | wc -l)
    [ "$added" -ge 1 ] && [ "$gone" -eq 0 ] && ok "--write-baseline: the new game's $added findings added, none lost" ||
        fail "--write-baseline: $added added, $gone gone"
    run "$P" -q -j2 --baseline=base.txt $(cat files)
    status_is "re-check against the new baseline" 0
    # the broken game taken out again: its lines leave the baseline
    cp pick.orig "$pick"
    "$P" -q -j2 --write-baseline=base.txt $(cat files)
    cmp -s old.txt base.txt && ok "--write-baseline: minimal (the fixed game's lines gone, the file as before)" ||
        fail "--write-baseline: not minimal" "$(diff old.txt base.txt | head)"
    # a baselined game's moves edited: its findings are new
    cd "$tmp" || exit 2
    "$P" -q --write-baseline=db.base db.pgn
    run "$P" --baseline=db.base db.pgn
    status_is "db.pgn against its baseline" 0
    sed 's/5\. Ke3 Nf6/5. Ke3 Nf5/' db.pgn > edited.pgn
    run "$P" -f jsonl --baseline=db.base edited.pgn
    status_is "a baselined game's moves edited" 1
    jcheck "a baselined game's moves edited: its finding new, the others not" "$tmp/out" \
        '[(r["index"], d["code"]) for r in L if r["type"] == "game" for d in r["diagnostics"] if d["severity"] != "note"]' "[(1, 'illegal-move')]"
    sed 's/\[Round "2"\]/[Round "2b"]/' db.pgn > edited.pgn
    run "$P" -q --baseline=db.base edited.pgn
    status_is "a baselined game's tag edited: its finding new" 1
    printf 'not a baseline\n' > bad.base
    run "$P" --baseline=bad.base db.pgn
    status_is "--baseline, a file that is not one" 2
    err_has "--baseline, a file that is not one" 'bad.base:1: not a baseline line'
fi

# ---------------------------------------------------------------- 4. CI tools
rm -f s.md
run "$P" --summary-md=s.md db.pgn good.pgn missing.pgn
status_is "--summary-md" 2
grep -q '^| db.pgn | 3 | 2 | 0 | 0 |$' s.md && ok "--summary-md: a row per file" || fail "--summary-md: no db.pgn row" "$(cat s.md)"
grep -q '^| `illegal-move` | error | 1 | 1 |$' s.md && ok "--summary-md: a row per code" || fail "--summary-md: no code row" "$(cat s.md)"
grep -q '^- db.pgn:9:47: 5. Ke3: illegal' s.md && ok "--summary-md: the first errors, FILE:LINE:COL and message" ||
    fail "--summary-md: no error line" "$(cat s.md)"
grep -q '^- missing.pgn: ' s.md && ok "--summary-md: an open error listed" || fail "--summary-md: no open error" "$(cat s.md)"
"$P" -q --summary-md=s.md good.pgn
[ "$(grep -c '^### pgncheck' s.md)" -eq 2 ] && ok "--summary-md: appended (as \$GITHUB_STEP_SUMMARY is)" ||
    fail "--summary-md: not appended"

# bash completion: options, and the codes after --ignore=
if command -v bash > /dev/null 2>&1; then
    comp() {
        PATH="$(dirname "$P"):$PATH" bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _pgncheck; printf "%s\n" "${COMPREPLY[@]}"' \
            x "$top/src/pgncheck.bash" "$@"
    }
    comp pgncheck --ignore= > compl
    grep -qx 'illegal-move' compl && grep -qx 'wrong-result' compl && ok "completion: --ignore= lists the codes" ||
        fail "completion: --ignore=" "$(head compl)"
    comp pgncheck --ignore=illegal-move,wr > compl
    grep -qx 'illegal-move,wrong-result' compl && ok "completion: --ignore=A,<TAB> completes the next code" ||
        fail "completion: a list" "$(head compl)"
    comp pgncheck --bas > compl
    grep -qx -- '--baseline=' compl && ok "completion: options" || fail "completion: --bas" "$(cat compl)"
    comp pgncheck -f "" > compl
    grep -qx 'jsonl' compl && ok "completion: -f FORMAT" || fail "completion: -f" "$(cat compl)"
    mkdir inst
    (cd "$top" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install PREFIX="$tmp/inst" > /dev/null 2>&1)
    [ -f inst/share/bash-completion/completions/pgncheck ] && ok "make install: the completion installed" ||
        fail "make install: no completion" "$(find inst | head)"
else
    skip "completion" "no bash"
fi

# pre-commit's hook: .pre-commit-hooks.yaml at the top, run by pre-commit
if command -v pre-commit > /dev/null 2>&1 && command -v git > /dev/null 2>&1; then
    # (the hooks file as it is here, committed in a repository of its own)
    mkdir hooks pc
    cp "$top/.pre-commit-hooks.yaml" hooks/
    (cd hooks && git init -q . && git config user.email t@t.invalid && git config user.name t &&
        git add . && git commit -qm hooks) || fail "pre-commit: the hooks repository"
    cd pc || exit 2
    git init -q . && git config user.email t@t.invalid && git config user.name t
    cp ../good.pgn ../db.pgn .
    git add . && git commit -qm data
    for f in good.pgn db.pgn; do
        PATH="$(dirname "$P"):$PATH" PRE_COMMIT_HOME="$tmp/pc-home" pre-commit try-repo ../hooks pgncheck --files $f \
            > pc.$f.out 2>&1
        echo $? > pc.$f.st
    done
    [ "$(cat pc.good.pgn.st)" -eq 0 ] && grep -q 'Passed' pc.good.pgn.out && ok "pre-commit try-repo: a good file passes" ||
        fail "pre-commit: good file, exit $(cat pc.good.pgn.st)" "$(cat pc.good.pgn.out)"
    [ "$(cat pc.db.pgn.st)" -eq 1 ] && grep -q 'illegal-move' pc.db.pgn.out &&
        ok "pre-commit try-repo: a file with an error fails, its error shown" ||
        fail "pre-commit: bad file, exit $(cat pc.db.pgn.st)" "$(cat pc.db.pgn.out)"
    cd "$tmp" || exit 2
else
    skip "pre-commit try-repo" "pre-commit (Debian package pre-commit) not installed"
fi

# make builds the tool only; the test programs are make test's
(cd "$top" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -n -B 2> /dev/null) > mk
grep -q 'pgncheck' mk && ! grep -q 'tests/' mk && ok "make: the tool only, no test program" ||
    fail "make builds test programs" "$(grep tests/ mk | head -n 3)"

finish
