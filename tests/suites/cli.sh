#!/bin/sh
# CLI suite: every option and format (stdout, stderr, exit status), pipes,
# parallel determinism, game copying.
# Run from the repository root with BIN=. or BIN=build/san.
# Expected values below were worked out by hand from the games in tests/cli/
# (see the comments), not copied from the program.
BIN=${BIN:-.}
P="$BIN/pgncheck"
D=tests/cli
. tests/lib.sh
scratch cli

# JSON Lines validity: python3 if present, else jq, else skip.
json_ok() {
    if command -v python3 > /dev/null 2>&1; then
        python3 -c 'import json,sys
for l in sys.stdin.buffer:
    json.loads(l.decode("utf-8"))' < "$2" 2> "$tmp/jerr" && ok "$1: valid JSON Lines" || fail "$1: invalid JSON" "$(tail -n 3 "$tmp/jerr")"
    elif command -v jq > /dev/null 2>&1; then
        jq -e . < "$2" > /dev/null 2> "$tmp/jerr" && ok "$1: valid JSON Lines" || fail "$1: invalid JSON" "$(cat "$tmp/jerr")"
    else
        skip "$1: valid JSON Lines" "no python3 or jq"
    fi
}

need_bin "$P"

# ---------------------------------------------------------------- help, version, usage
run "$P" --help
status_is help 0; out_has help '^Usage: pgncheck \[OPTION\]\.\.\. \[FILE\]\.\.\.'; err_empty help
for o in --format --quiet --summary --select --fix-results --strict --werror --ignore --error \
         --warn --list-checks --no-variations --jobs --progress --label --help --version; do
    grep -q -e "$o" "$tmp/out" || fail "help mentions $o"
done
ok "help mentions every option"
run "$P" -h
status_is "-h" 0
run "$P" --version
status_is version 0; out_has version '^pgncheck [0-9]+\.[0-9]+'; err_empty version
run "$P" -V
status_is "-V" 0
run "$P" --bogus "$D/good.pgn"
status_is "unknown option" 2; out_empty "unknown option"
err_is "unknown option" "pgncheck: unrecognized option '--bogus'
Try 'pgncheck --help' for more information."
run "$P" -x "$D/good.pgn"
status_is "unknown short option" 2; err_has "unknown short option" "invalid option '-x'"
run "$P" --format=xml "$D/good.pgn"
status_is "bad format" 2; out_empty "bad format"
run "$P" --ignore=no-such-check "$D/good.pgn"
status_is "unknown check" 2; out_empty "unknown check"
err_is "unknown check" "pgncheck: unknown check 'no-such-check' (see pgncheck --list-checks)"
run "$P" --select=maybe "$D/good.pgn"
status_is "bad --select" 2
run "$P" -j x "$D/good.pgn"
status_is "bad --jobs" 2
run "$P" --select=valid --fix-results "$D/good.pgn"
status_is "--select with --fix-results" 2
# (a usage error: the reason on the first line, the pointer to --help on
# the second, as for every usage error; nothing copied)
err_is "--select with --fix-results" "pgncheck: --select and --fix-results cannot be combined
Try 'pgncheck --help' for more information."
out_empty "--select with --fix-results"

# ---------------------------------------------------------------- --list-checks
run "$P" --list-checks
status_is list-checks 0; err_empty list-checks
n_table=$(grep -c '^ *X([A-Z0-9_]*, "' src/diag.h)
n_list=$(wc -l < "$tmp/out" | tr -d ' ')
[ "$n_table" -eq "$n_list" ] && [ "$n_list" -gt 40 ] && ok "list-checks: one line per code ($n_list)" \
    || fail "list-checks: $n_list lines, diag.h has $n_table codes"
out_has list-checks '^missing-tag +warning +'
out_has list-checks '^suffix-annotation +note +'
for c in illegal-move ambiguous-move moves-after-end wrong-result result-mismatch bad-fen; do
    grep -q "^$c " "$tmp/out" || fail "list-checks: fixed code $c missing"
done
ok "list-checks: the six fixed codes are present"
run "$P" --error=missing-tag --ignore=suffix-annotation --list-checks
out_has "list-checks after --error" '^missing-tag +error '
out_has "list-checks after --ignore" '^suffix-annotation +ignored '

# The man page's DIAGNOSTICS list is generated from the same table.
"$P" --list-checks | sh "$D/man-diagnostics.sh" --split > "$tmp/list"
sh "$D/man-diagnostics.sh" < man/pgncheck.1 > "$tmp/manlist"
same "man page DIAGNOSTICS matches --list-checks" "$tmp/list" "$tmp/manlist"

# Citations a user can look up (laws.h).  By hand from the FIDE Laws of
# 2023 and the PGN standard: an illegal move is one that fails 3.1-3.9
# (FIDE 3.10.2); the 1994 standard defines the check and mate marks in
# 8.2.3.5 and PlyCount, a supplemental tag, in 9.9.3.
out_has list-checks '^illegal-move +error +FIDE 3\.10\.2  +a move that is not legal in the position$'
out_has list-checks '^check-mark-missing +warning +PGN 8\.2\.3\.5  +'
out_has list-checks '^plycount-mismatch +warning +PGN 9\.9\.3  +'
out_has list-checks '^bad-clock +warning +-  +'
awk -F '\t' '$3 != "-" && $3 !~ /^(FIDE|PGN) [0-9A-Z]/ { print "bad article: " $0 }
              $4 ~ /\((R[0-9]|PGN |FIDE )/ { print "citation left in the meaning: " $0 }
              NF != 4 { print "not 4 columns: " $0 }' "$tmp/list" > "$tmp/bad"
same "list-checks: four columns, each article FIDE or PGN" /dev/null "$tmp/bad"
# The man page's LAWS list is generated from the law table, every law with
# an article; every law a corpus/laws case is named by is in it.
sh "$D/man-laws.sh" --table < src/laws.h > "$tmp/laws"
sh "$D/man-laws.sh" < man/pgncheck.1 > "$tmp/manlaws"
same "man page LAWS matches src/laws.h" "$tmp/laws" "$tmp/manlaws"
n_laws=$(grep -c '^ *X(R[0-9]*, ' src/laws.h)
[ "$(wc -l < "$tmp/laws")" -eq "$n_laws" ] && [ "$n_laws" -ge 39 ] && ok "LAWS: one line per law ($n_laws)" \
    || fail "LAWS: $(wc -l < "$tmp/laws") lines, laws.h has $n_laws laws"
awk -F '\t' '$2 !~ /^(FIDE|PGN) [0-9A-Z]/ { print "law without an article: " $0 }' "$tmp/laws" > "$tmp/bad"
for f in corpus/laws/R*.pgn; do
    id=${f#corpus/laws/}; id=${id%%-*}
    cut -f1 "$tmp/laws" | grep -qx "$id" || echo "$f: law $id not in src/laws.h" >> "$tmp/bad"
done
same "LAWS: every law has an article, every tested law is listed" /dev/null "$tmp/bad"

# Messages cite what a user can look up: each "(FIDE ...)" or "(PGN ...)" in
# a message is made of the articles of the laws (src/laws.h, above) or of
# the codes (--list-checks, above), or of sections that hold them (PGN
# 16.1.3 for both FEN counters), and no message names a law by its id,
# over every case file of the suites, plain and --strict.  By hand: 5. Ke3
# in tests/cli/bad.pgn is no king move (FIDE 3.8.1, the king's move), the
# checkmate in its third game ends it (FIDE 5.1.1), and a PlyCount tag is
# PGN 9.9.3.
if have_py; then
    find corpus tests -name '*.pgn' ! -path '*/fuzz/*' | sort > "$tmp/pgns"
    : > "$tmp/msgs"
    while read -r f; do
        "$P" -f jsonl "$f" >> "$tmp/msgs" 2> /dev/null
        "$P" -f jsonl --strict "$f" >> "$tmp/msgs" 2> /dev/null
    done < "$tmp/pgns"
    { cut -f2 "$tmp/laws"; cut -f3 "$tmp/list"; } > "$tmp/articles"
    python3 -c 'import json, re, sys
atoms = set()
for a in open(sys.argv[1]).read().split("\n"):
    for group in a.split("; "):
        if " " in group:
            kind, nums = group.split(" ", 1)
            atoms.update(kind + " " + n for n in nums.split(", "))
def known(c):
    # each part an article of the table, or a section that holds one
    for group in c.split("; "):
        kind, _, nums = group.partition(" ")
        for n in nums.split(", "):
            a = kind + " " + n
            if a not in atoms and not any(x.startswith(a + ".") for x in atoms):
                return False
    return True
seen, cited = set(), set()
for line in open(sys.argv[2]):
    o = json.loads(line)
    ds = o.get("diagnostics") or ([o] if o.get("type") == "diagnostic" else [])
    for d in ds:
        m = d["message"]
        if m in seen:
            continue
        seen.add(m)
        if re.search(r"\bR[0-9]+\b", m):
            print("a law id in: " + m)
        for c in re.findall(r"\(((?:FIDE|PGN) [^()]*)\)", m):
            cited.add(c)
            if not known(c):
                print("not an article of the table: (" + c + ") in: " + m)
        if len(m.encode()) >= 160:
            print("over the message cap: " + m)
for want in ("FIDE 3.8.1", "FIDE 5.1.1", "PGN 9.9.3", "FIDE 6.9", "PGN 8.1.1"):
    if want not in cited:
        print("no message cites " + want)
if len(cited) < 20:
    print("only %d articles cited" % len(cited))' "$tmp/articles" "$tmp/msgs" > "$tmp/bad"
    same "messages cite the table's articles, never a law id" /dev/null "$tmp/bad"
    grep -q '5\. Ke3: illegal: no white king can move to e3 (FIDE 3\.8\.1)' "$tmp/msgs" \
        && ok "5. Ke3 cites FIDE 3.8.1" || fail "5. Ke3 cites FIDE 3.8.1" "$(grep -o '5\. Ke3[^"]*' "$tmp/msgs" | head -n 2)"
else
    skip "messages cite the table's articles" "python3 not found"
fi

# ---------------------------------------------------------------- text format
# good.pgn: Scholar's mate (1-0, mate marked #) and an unfinished game (*):
# nothing to say, exit 0, and a grep-like tool prints nothing.
run "$P" "$D/good.pgn"
status_is "text good" 0; out_empty "text good"; err_empty "text good"

# bad.pgn game 1: 5. Ke3 is illegal (the king on e1 cannot reach e3);
# the move starts at line 9, byte column 47.  Game 2 is Fool's mate scored
# 1-0: Black mated, so the result is wrong.  Game 3 is Loyd's stalemate, 1/2-1/2.
run "$P" "$D/bad.pgn"
status_is "text bad" 1; err_empty "text bad"
out_has "text bad" '^tests/cli/bad\.pgn: game 1 \(Ka, A - Kb, B, Illegal king move\)$'
out_has "text bad" '^tests/cli/bad\.pgn:9:47: error: .+ \[illegal-move\]$'
out_has "text bad" '^ +9 \| 1\. e4 e5 2\. Nf3 Nc6 3\. Bb5 a6 4\. Bxc6 dxc6 5\. Ke3 Nf6 1-0$'
# the caret sits under column 47: 46 characters of the line precede it
grep -A 2 ':9:47: error' "$tmp/out" | tail -n 1 > "$tmp/caret"
printf '      | %46s^\n' '' > "$tmp/want"
same "text bad: caret under column 47" "$tmp/want" "$tmp/caret"
out_has "text bad" '^tests/cli/bad\.pgn: game 2 \(Fool, F - Mate, M, Fool.s mate, wrong result\)$'
out_has "text bad" '^tests/cli/bad\.pgn:[0-9]+:[0-9]+: error: .+ \[wrong-result\]$'
out_lacks "text bad" 'game 3'
out_lacks "text bad" "$(printf '\033')"

# Tabs in the source line (issue 21): the line shows them as tabs and the
# caret line has a tab under each, so the caret is under its column at any
# tab width.  '1. e4<TAB>e5 2. Nf3<TAB>]': ']' is at byte column 17 (5
# bytes, a tab, 9 bytes, a tab); a file (its line read again), a pipe (the
# line kept from the game's text) and -j2 show the same.
printf '[Event "tabs"]\n\n1. e4\te5 2. Nf3\t]\n*\n' > "$tmp/tabs.pgn"
printf '    3 | 1. e4\te5 2. Nf3\t]\n      |      \t         \t^\n' > "$tmp/want"
for how in file pipe j2; do
    case $how in
    file) run "$P" "$tmp/tabs.pgn" ;;
    pipe) run sh -c 'cat "$1" | "$2" -' sh "$tmp/tabs.pgn" "$P" ;;
    j2) run "$P" -j2 "$tmp/tabs.pgn" ;;
    esac
    grep -A 2 ':3:17: error' "$tmp/out" | tail -n 2 > "$tmp/caret"
    same "text: a tab in the source line is kept, and under it ($how)" "$tmp/want" "$tmp/caret"
done

# warn.pgn lacks the Round tag: a warning, exit 0; an error under --strict.
run "$P" "$D/warn.pgn"
status_is "text warning" 0
out_has "text warning" '^tests/cli/warn\.pgn:[0-9]+:[0-9]+: warning: .+ \[missing-tag\]$'
out_lacks "text warning" ' \| '

# ---------------------------------------------------------------- --strict, --werror, severities
run "$P" --strict "$D/warn.pgn"
status_is "--strict" 1
run "$P" --werror "$D/warn.pgn"
status_is "--werror" 1
run "$P" --ignore=missing-tag "$D/warn.pgn"
status_is "--ignore" 0; out_empty "--ignore"
run "$P" --ignore=missing-tag --strict "$D/warn.pgn"
status_is "--ignore with --strict" 0
run "$P" --error=missing-tag "$D/warn.pgn"
status_is "--error" 1; out_has "--error" ': error: .+ \[missing-tag\]$'
run "$P" --warn=illegal-move,wrong-result "$D/bad.pgn"
status_is "--warn" 0; out_has "--warn" ':9:47: warning: .+ \[illegal-move\]$'

# --strict and --werror make every warning an error, as gcc's -Werror does:
# printed as "error" and counted as one in the summary and in the status
# and count fields of every format, as the exit status counts it.
# warn.pgn: one game, mate 0-1 (status would be ok), one warning
# (missing-tag: no Round), so: 1 game with errors, 0 with warnings.
run "$P" -s --strict "$D/warn.pgn"
status_is "--strict text" 1
out_has "--strict text" '^tests/cli/warn\.pgn:1:1: error: .+ \[missing-tag\]$'
out_lacks "--strict text" ': warning: '
err_has "--strict summary" ': 1 game, 4 plies: 0 ok, 1 with errors, 0 with warnings, 0 skipped;'
run "$P" -s --werror -f jsonl "$D/warn.pgn"
status_is "--werror jsonl" 1
jcheck "--werror jsonl: game status" "$tmp/out" 'L[0]["status"]' "error"
jcheck "--werror jsonl: diagnostic severity" "$tmp/out" 'L[0]["diagnostics"][0]["severity"]' "error"
jcheck "--werror jsonl: summary" "$tmp/out" '(L[-1]["ok"], L[-1]["error"], L[-1]["warning"])' "(0, 1, 0)"
run "$P" --werror -f tsv "$D/warn.pgn"
status_is "--werror tsv" 1
# TSV columns 16-18: status, errors, warnings
[ "$(awk -F '\t' 'NR == 2 { print $16, $17, $18 }' "$tmp/out")" = "error 1 0" ] && ok "--werror tsv: status error, 1 error, 0 warnings" \
    || fail "--werror tsv: status and counts" "$(cat "$tmp/out")"
run "$P" --strict -f github "$D/warn.pgn"
status_is "--strict github" 1
out_has "--strict github" '^::error file=tests/cli/warn\.pgn,line=1,col=1,title=missing-tag::'
run "$P" --werror "$D/junk.pgn"
out_has "--werror file-level finding" '^tests/cli/junk\.pgn:12:1: error: .+ \[non-game-text\]$'
# --warn=CODE keeps CODE a warning under --werror and --strict (gcc's
# -Wno-error=CODE): printed and counted as a warning, and the exit is 0.
run "$P" -s --strict --warn=missing-tag "$D/warn.pgn"
status_is "--strict --warn=CODE" 0
out_has "--strict --warn=CODE" ': warning: .+ \[missing-tag\]$'
err_has "--strict --warn=CODE summary" ' 0 ok, 0 with errors, 1 with warnings, '
run "$P" --strict --list-checks
out_has "--strict --list-checks" '^missing-tag +error +'
out_has "--strict --list-checks" '^suffix-annotation +error +'
out_has "--strict --list-checks" '^export-line-length +error +'

# corpus/export/perfect.pgn (two games in export format, see its .expect)
# with CRLF line ends, and after a UTF-8 BOM: still export format (a CR is
# not one of a line's characters, "\r\n" is an empty line, the BOM is not
# text before the first game's tags), so nothing to say and exit 0.
sed 's/$/\r/' corpus/export/perfect.pgn > "$tmp/crlf.pgn"
run "$P" --strict "$tmp/crlf.pgn"
status_is "--strict, export format with CRLF" 0; out_empty "--strict, export format with CRLF"
printf '\357\273\277' | cat - corpus/export/perfect.pgn > "$tmp/bom.pgn"
run "$P" --strict "$tmp/bom.pgn"
status_is "--strict, export format after a BOM" 0; out_empty "--strict, export format after a BOM"

# The export-format checks (corpus/export, laws.sh) run only under
# --strict: the same files without it give no export-* finding.
run "$P" -f jsonl corpus/export/*.pgn
out_lacks "no --strict: no export checks" '"code":"export-'
# Under --strict each file is read by one reader, which sees the text
# between every two games, while the threads share the checking: -j2 with
# pieces of 64 bytes (a cut at every game otherwise) prints what -j1 prints.
# (the summary records differ in their seconds only: left out)
PGNCHECK_PIECE=64 "$P" -j1 --strict -f jsonl corpus/export/blank-line.pgn 2>&1 | grep -v '"type":"summary"' > "$tmp/j1"
PGNCHECK_PIECE=64 "$P" -j2 --strict -f jsonl corpus/export/blank-line.pgn 2>&1 | grep -v '"type":"summary"' > "$tmp/j2"
same "--strict -j2 = -j1 (blank lines between games)" "$tmp/j1" "$tmp/j2"
PGNCHECK_PIECE=64 "$P" -j2 --strict -f jsonl --label=corpus/export/blank-line.pgn < corpus/export/blank-line.pgn 2>&1 |
    grep -v '"type":"summary"' > "$tmp/j3"
same "--strict -j2 from a pipe = -j1" "$tmp/j1" "$tmp/j3"

# ---------------------------------------------------------------- --quiet, --summary
run "$P" -q "$D/bad.pgn"
status_is "-q" 1; out_empty "-q"; err_empty "-q"
run "$P" --quiet -s "$D/good.pgn"
status_is "-q -s" 0; out_empty "-q -s"
# good.pgn: 7 plies (Scholar's mate) + 3 plies (1. d4 d5 2. c4)
err_has "-q -s" '^pgncheck: 2 games, 10 plies: 2 ok, 0 with errors, 0 with warnings, 0 skipped; [0-9.]+ s, [0-9]+ games/s$'
run "$P" --summary "$D/bad.pgn" "$D/warn.pgn"
status_is "--summary" 1
err_has "--summary" '^pgncheck: 4 games, [0-9]+ plies: 1 ok, 2 with errors, 1 with warnings, 0 skipped;'

# ---------------------------------------------------------------- jsonl
run "$P" -f jsonl "$D/good.pgn" "$D/bad.pgn"
status_is jsonl 1; err_empty jsonl
json_ok jsonl "$tmp/out"
cp "$tmp/out" "$tmp/j"
# 2 + 3 games, then the summary
jcheck "jsonl: record types" "$tmp/j" '" ".join(r["type"] for r in L)' "game game game game game summary"
jcheck "jsonl: game keys in contract order" "$tmp/j" '",".join(L[0].keys())' \
    "type,file,index,offset,line,event,site,date,round,white,black,result,outcome,reason,plies,fen,status,rules,diagnostics"
jcheck "jsonl: summary keys" "$tmp/j" '",".join(L[-1].keys())' \
    "type,files,games,ok,warning,error,skipped,plies,bytes,seconds,inputs,failed"
jcheck "jsonl: summary counts" "$tmp/j" '[L[-1][k] for k in ("files","games","ok","warning","error","skipped")]' \
    "[2, 5, 3, 0, 2, 0]"
sz=$(( $(wc -c < "$D/good.pgn") + $(wc -c < "$D/bad.pgn") ))
jcheck "jsonl: summary bytes" "$tmp/j" 'L[-1]["bytes"]' "$sz"
# Scholar's mate: board after 4. Qxf7# worked out square by square.
jcheck "jsonl: checkmate game" "$tmp/j" '[L[0][k] for k in ("file","index","offset","line","event","round","white","black","result","outcome","reason","plies","status","diagnostics")]' \
    "['tests/cli/good.pgn', 1, 0, 1, \"Scholar's mate\", '1', 'White, A', 'Black, B', '1-0', '1-0', 'checkmate', 7, 'ok', []]"
jcheck "jsonl: final FEN" "$tmp/j" 'L[0]["fen"]' "r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4"
# game 2 of good.pgn starts after game 1's 10 lines
jcheck "jsonl: unfinished game" "$tmp/j" '[L[1][k] for k in ("index","line","result","outcome","reason","plies","status")]' \
    "[2, 11, '*', '*', 'unfinished', 3, 'ok']"
jcheck "jsonl: offset is the first byte" "$tmp/j" 'open("tests/cli/good.pgn","rb").read()[L[1]["offset"]:L[1]["offset"]+7]' "b'[Event '"
jcheck "jsonl: illegal move" "$tmp/j" '[L[2]["status"], L[2]["outcome"], L[2]["reason"], [(d["code"], d["severity"], d["line"], d["column"], d["ply"], d["move"]) for d in L[2]["diagnostics"] if d["severity"] == "error"]]' \
    "['error', None, 'invalid', [('illegal-move', 'error', 9, 47, 9, 'Ke3')]]"
jcheck "jsonl: wrong result" "$tmp/j" '[L[3]["result"], L[3]["outcome"], L[3]["reason"], L[3]["status"], sorted(set(d["code"] for d in L[3]["diagnostics"] if d["severity"] == "error"))]' \
    "['1-0', '0-1', 'checkmate', 'error', ['wrong-result']]"
jcheck "jsonl: stalemate" "$tmp/j" '[L[4][k] for k in ("result","outcome","reason","plies","status")]' \
    "['1/2-1/2', '1/2-1/2', 'stalemate', 19, 'ok']"
jcheck "jsonl: tags as written" "$tmp/j" 'L[0]["site"], L[0]["date"]' "('?', '????.??.??')"

# Latin-1 bytes become code points, valid UTF-8 passes, quotes are escaped.
run "$P" -f jsonl "$D/latin1.pgn"
status_is "jsonl latin-1" 0
json_ok "jsonl latin-1" "$tmp/out"
cp "$tmp/out" "$tmp/j"
jcheck "jsonl: Latin-1 event" "$tmp/j" 'L[0]["event"] == "Latin-1 \u00e9v\u00e9nement"' True
jcheck "jsonl: Latin-1 site" "$tmp/j" 'L[0]["site"] == "Z\u00fcrich"' True
jcheck "jsonl: escaped quotes" "$tmp/j" 'L[0]["white"] == "M\u00fcller, \"Q\" X"' True
jcheck "jsonl: UTF-8 kept" "$tmp/j" 'L[0]["black"] == "Caf\u00e9"' True
# Every byte in tag values of every length around the 8-byte words the
# JSON writer copies at once: the generator writes each value's bytes (a
# PGN string: '"' and '\\' escaped, no line ends) and the string the record
# must carry by the documented rule (valid UTF-8 passes, any other byte is
# the Latin-1 character of that value); json.loads does the JSON unescaping.
# (No NUL: the reader drops it from a string, with a warning.)
if have_py; then
    python3 - "$tmp/esc.pgn" "$tmp/esc.want" <<'PY'
import json, random, sys
def expect(bs):
    out, i = [], 0
    while i < len(bs):
        c = bs[i]
        n = 2 if 0xC2 <= c <= 0xDF else 3 if 0xE0 <= c <= 0xEF else 4 if 0xF0 <= c <= 0xF4 else 1
        if n > 1 and i + n <= len(bs):
            try:
                ch = bs[i:i + n].decode("utf-8")
                if len(ch) == 1:
                    out.append(ch); i += n; continue
            except UnicodeDecodeError:
                pass
        out.append(chr(c)); i += 1
    return "".join(out)
rnd = random.Random(20261129)
pool = [1, 9, 0x1F, 0x20, 0x21, 0x22, 0x2C, 0x25, 0x3A, 0x5C, 0x7E, 0x7F, 0x80, 0xA9, 0xC3, 0xE2, 0x82, 0xAC, 0xF0, 0xFF]
with open(sys.argv[1], "wb") as f, open(sys.argv[2], "w", encoding="utf-8") as w:
    for n in list(range(0, 34)) * 6:
        bs = bytes(rnd.choice(pool) if rnd.random() < 0.4 else rnd.randrange(0x20, 0x7F) for _ in range(n))
        bs = bytes(b for b in bs if b not in (10, 13))
        pgn = bs.replace(b"\\", b"\\\\").replace(b'"', b'\\"')
        f.write(b'[Event "' + pgn + b'"]\n[Site "?"]\n[Date "?"]\n[Round "?"]\n[White "' + pgn +
                b'"]\n[Black "?"]\n[Result "*"]\n\n1. e4 *\n\n')
        w.write(json.dumps(expect(bs)) + "\n")
PY
    run "$P" -f jsonl "$tmp/esc.pgn"
    json_ok "jsonl escapes" "$tmp/out"
    python3 -c 'import json,sys
want=[json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
got=[json.loads(l) for l in open(sys.argv[1], encoding="utf-8") if "\"type\":\"game\"" in l]
bad=[(i, w, g["event"], g["white"]) for i, (w, g) in enumerate(zip(want, got)) if g["event"] != w or g["white"] != w]
print("%d games, %d records, %d wrong" % (len(want), len(got), len(bad)), bad[:3])
sys.exit(len(want) != len(got) or bool(bad))' "$tmp/out" "$tmp/esc.want" > "$tmp/esc.res" 2>&1 &&
        ok "jsonl: every byte of 204 tag values of 0 to 33 bytes escaped as the rule says" ||
        fail "jsonl: tag value escaping" "$(cat "$tmp/esc.res")"
    # TSV: the same strings with control bytes, DEL and the C1 controls
    # (U+0080-U+009F: CSI, OSC; issue 33) as spaces (so a field never
    # holds a tab or a line end, nor acts on a terminal).
    run "$P" -f tsv "$tmp/esc.pgn"
    python3 -c 'import json,sys
want=[json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
want=["".join(" " if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F else c for c in w) for w in want]
rows=[l.rstrip("\n").split("\t") for l in open(sys.argv[1], encoding="utf-8")][1:]
bad=[(i, w, r[4], r[8]) for i, (w, r) in enumerate(zip(want, rows)) if len(r) != 22 or r[4] != w or r[8] != w]
print("%d games, %d rows, %d wrong" % (len(want), len(rows), len(bad)), bad[:3])
sys.exit(len(want) != len(rows) or bool(bad))' "$tmp/out" "$tmp/esc.want" > "$tmp/esc.res" 2>&1 &&
        ok "tsv: the same 204 tag values, control bytes (C0, DEL, C1) as spaces" ||
        fail "tsv: tag value escaping" "$(cat "$tmp/esc.res")"
else
    skip "jsonl: tag value escaping" "no python3"
fi
# A missing tag is null, not "".
run "$P" -f jsonl "$D/warn.pgn"
cp "$tmp/out" "$tmp/j"
jcheck "jsonl: absent Round is null" "$tmp/j" 'L[0]["round"]' "None"
jcheck "jsonl: warning game" "$tmp/j" '[L[0]["status"], [d["code"] for d in L[0]["diagnostics"]]]' "['warning', ['missing-tag']]"
# -q keeps only the summary record.
run "$P" -q -f jsonl "$D/bad.pgn"
status_is "jsonl -q" 1
out_has "jsonl -q" '^\{"type":"summary","files":1,"games":3,'
[ "$(wc -l < "$tmp/out")" -eq 1 ] && ok "jsonl -q: one line" || fail "jsonl -q: one line" "$(cat "$tmp/out")"

# junk.pgn: line 12 is text between two valid games: a file-level warning,
# placed between the two game records.
run "$P" "$D/junk.pgn"
status_is "file-level finding" 0
out_is "file-level finding" "$(printf 'tests/cli/junk.pgn:12:1: warning: %s [non-game-text]' "$(sed -n 's/^tests.*warning: \(.*\) \[non-game-text\]$/\1/p' "$tmp/out")")"
out_has "file-level finding" '^tests/cli/junk\.pgn:12:1: warning: .+ \[non-game-text\]$'
run "$P" --strict "$D/junk.pgn"
status_is "file-level warning under --strict" 1
run "$P" -f jsonl "$D/junk.pgn"
json_ok "jsonl file-level" "$tmp/out"
cp "$tmp/out" "$tmp/j"
jcheck "jsonl: diagnostic record in input order" "$tmp/j" '" ".join(r["type"] for r in L)' "game diagnostic game summary"
jcheck "jsonl: diagnostic record keys" "$tmp/j" '",".join(L[1].keys())' "type,file,code,severity,line,column,message"
jcheck "jsonl: diagnostic record" "$tmp/j" '[L[1][k] for k in ("file","code","severity","line","column")]' \
    "['tests/cli/junk.pgn', 'non-game-text', 'warning', 12, 1]"
run "$P" -f jsonl --ignore=non-game-text "$D/junk.pgn"
cp "$tmp/out" "$tmp/j"
jcheck "jsonl: --ignore drops the file-level record" "$tmp/j" '" ".join(r["type"] for r in L)' "game game summary"
run "$P" -f tsv "$D/junk.pgn"
status_is "tsv file-level" 0
[ "$(wc -l < "$tmp/out")" -eq 3 ] && ok "tsv file-level: header + 2 rows" || fail "tsv file-level rows" "$(cat "$tmp/out")"
err_has "tsv file-level: finding on stderr" '^tests/cli/junk\.pgn:12:1: warning: .+ \[non-game-text\]$'

# ---------------------------------------------------------------- --rules (R45)
# corpus/laws/R45-laws-by-date.pgn holds Lasker - Showalter 1896 (fivefold at
# ply 102, played on to 1-0) as dated (1896), re-dated 2015 and undated
# (games 1-3, see its .expect).  --rules forces one set of laws on all.
R45=corpus/laws/R45-laws-by-date.pgn
run "$P" -f jsonl --rules=2014 "$R45"
status_is "--rules=2014" 1
got=$(sed -n 1p "$tmp/out" | grep -o '"outcome":"[^"]*","reason":"[^"]*"\|"rules":"[0-9]*"' | tr '\n' ' ')
[ "$got" = '"outcome":"1/2-1/2","reason":"fivefold-repetition" "rules":"2014" ' ] &&
    ok "--rules=2014: the 1896 game ends at the fivefold repetition" || fail "--rules=2014 on the 1896 game" "$got"
run "$P" -f jsonl --rules=1997 "$R45"
status_is "--rules=1997" 0
n=$(grep -c '"code":"\(moves-after-end\|wrong-result\|laws-2014-ending\)"\|"rules":"2014"' "$tmp/out")
[ "$n" -eq 0 ] && ok "--rules=1997: every game judged by the older laws, none ended by fivefold or 75 moves" ||
    fail "--rules=1997: $n records of the 2014 Laws" "$(head -c 600 "$tmp/out")"
run "$P" --rules=2013 "$R45"
status_is "--rules=2013 is a usage error" 2
grep -q "invalid --rules" "$tmp/err" && ok "--rules=2013: says which values are valid" ||
    fail "--rules=2013 message" "$(cat "$tmp/err")"

# ---------------------------------------------------------------- tsv
run "$P" --format=tsv "$D/bad.pgn"
status_is tsv 1; err_empty tsv
printf 'file\tindex\toffset\tline\tevent\tsite\tdate\tround\twhite\tblack\tresult\toutcome\treason\tplies\tfen\tstatus\terrors\twarnings\tnotes\tcode\tmessage\trules\n' > "$tmp/want"
head -n 1 "$tmp/out" > "$tmp/got"
same "tsv: header" "$tmp/want" "$tmp/got"
[ "$(wc -l < "$tmp/out")" -eq 4 ] && ok "tsv: header + 3 rows" || fail "tsv: rows" "$(cat "$tmp/out")"
awk -F '\t' 'NF != 22 { bad = 1 } END { exit bad }' "$tmp/out" && ok "tsv: 22 fields per row" || fail "tsv: field count"
awk -F '\t' 'NR == 2 { print $1, $2, $3, $4, $11, $12, $13, $16, $17, $20 }' "$tmp/out" > "$tmp/got"
echo "tests/cli/bad.pgn 1 0 1 1-0  invalid error 1 illegal-move" > "$tmp/want"
same "tsv: illegal-move row" "$tmp/want" "$tmp/got"
awk -F '\t' 'NR == 4 { print $11, $12, $13, $14, $16, $17, $20 }' "$tmp/out" > "$tmp/got"
echo "1/2-1/2 1/2-1/2 stalemate 19 ok 0 " > "$tmp/want"
same "tsv: stalemate row" "$tmp/want" "$tmp/got"

# ---------------------------------------------------------------- github
run "$P" -f github "$D/bad.pgn" "$D/warn.pgn"
status_is github 1; err_empty github
out_has github '^::error file=tests/cli/bad\.pgn,line=9,col=47,title=illegal-move::.+$'
out_has github '^::error file=tests/cli/bad\.pgn,line=[0-9]+,col=[0-9]+,title=wrong-result::'
out_has github '^::warning file=tests/cli/warn\.pgn,line=[0-9]+,col=[0-9]+,title=missing-tag::'
out_lacks github '^[^:]'
# properties escape : and , (and %); the label names standard input
run sh -c "\"$P\" -f github --label='a:b,c%d.pgn' < $D/bad.pgn"
out_has "github escaping" '^::error file=a%3Ab%2Cc%25d\.pgn,line=9,col=47,title=illegal-move::'

# github columns count characters, as GitHub does (text and jsonl count
# bytes).  The bad move "Ke3" follows "1. e4 {Jörg spielt Königsbauer} e5 2. ":
# 38 characters, 40 bytes in UTF-8 (two ö), 38 in Latin-1: col=39, column 41 in
# the UTF-8 file's text and jsonl, 39 everywhere for Latin-1.
printf '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "M\303\274ller"]\n[Black "?"]\n[Result "1-0"]\n\n1. e4 {J\303\266rg spielt K\303\266nigsbauer} e5 2. Ke3 1-0\n' > "$tmp/u8.pgn"
printf '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "M\374ller"]\n[Black "?"]\n[Result "1-0"]\n\n1. e4 {J\366rg spielt K\366nigsbauer} e5 2. Ke3 1-0\n' > "$tmp/l1.pgn"
for j in 1 2; do
    run "$P" -j$j -f github "$tmp/u8.pgn"
    out_has "github UTF-8 column -j$j" ',line=9,col=39,title=illegal-move::'
    run sh -c "\"$P\" -j$j -f github < $tmp/u8.pgn"
    out_has "github UTF-8 column, pipe -j$j" ',line=9,col=39,title=illegal-move::'
    run "$P" -j$j -f github "$tmp/l1.pgn"
    out_has "github Latin-1 column -j$j" ',line=9,col=39,title=illegal-move::'
done
run "$P" "$tmp/u8.pgn"
out_has "text UTF-8 column in bytes" ':9:41: error: '
run "$P" -f jsonl "$tmp/u8.pgn"
out_has "jsonl UTF-8 column in bytes" '"line":9,"column":41,'
# characters of two and three bytes
printf '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n[Result "1-0"]\n\n1. e4 {\303\251\303\251\303\251} e5 {\342\202\254} 2. Ke3 1-0\n' > "$tmp/u8b.pgn"
run "$P" -f github "$tmp/u8b.pgn"
# "1. e4 {ééé} e5 {€} 2. ": 22 characters, 27 bytes
out_has "github 2- and 3-byte characters" ',line=9,col=23,title=illegal-move::'

# ---------------------------------------------------------------- stdin and --label
run sh -c "\"$P\" < $D/bad.pgn"
status_is stdin 1; out_has stdin '^<stdin>:9:47: error: '
run sh -c "\"$P\" --label=chunk7.pgn - < $D/bad.pgn"
status_is "--label" 1; out_has "--label" '^chunk7\.pgn:9:47: error: '; out_lacks "--label" '<stdin>'
# --label names standard input only (as grep's): with files only it is
# ignored, and said so once on stderr however many files there are; with
# standard input among them, no warning, and each file keeps its name.
label_warn="pgncheck: warning: --label is ignored: it names standard input ('-'), which is not among the inputs"
run "$P" --label=chunk7.pgn "$D/bad.pgn"
status_is "--label, file only" 1; out_has "--label, file only" '^tests/cli/bad\.pgn:9:47: error: '
out_lacks "--label, file only" 'chunk7'; err_is "--label, file only: warned" "$label_warn"
run "$P" -q --label chunk7.pgn "$D/bad.pgn" "$D/good.pgn"
status_is "--label, two files" 1; err_is "--label, two files: warned once" "$label_warn"
run sh -c "\"$P\" --label=chunk7.pgn $D/good.pgn - < $D/bad.pgn"
status_is "--label, file and -" 1; err_empty "--label, file and -"
out_has "--label, file and -" '^chunk7\.pgn:9:47: error: '; out_lacks "--label, file and -" 'tests/cli/good'
run sh -c "\"$P\" --label=chunk7.pgn < $D/bad.pgn"
status_is "--label, no file" 1; err_empty "--label, no file: no warning"

# No file and a terminal on standard input: one line on stderr says what
# is read and how to end it; a pipe or a file there gets no such line.
tty_hint="pgncheck: reading PGN from standard input (Ctrl-D to end; --help for usage)"
if have_py; then
    python3 - "$P" "$D/bad.pgn" "$tmp/out" "$tmp/err" > "$tmp/st" 2>&1 << 'EOF'
import os, pty, subprocess, sys, time
prog, pgn, out, err = sys.argv[1:5]
m, s = pty.openpty()
p = subprocess.Popen([prog], stdin=s, stdout=open(out, "wb"), stderr=open(err, "wb"))
os.close(s)
time.sleep(0.2)        # typed after the program started, as a user would
os.write(m, open(pgn, "rb").read())
os.write(m, b"\x04")   # Ctrl-D at the start of a line: end of input
try:
    print(p.wait(timeout=20))
except subprocess.TimeoutExpired:
    p.kill()
    print("timeout")
EOF
    st=$(cat "$tmp/st")
    [ "$st" = 1 ] && ok "terminal stdin: exit 1 (bad.pgn typed, then Ctrl-D)" || fail "terminal stdin: exit $st"
    err_is "terminal stdin: the hint" "$tty_hint"
    out_has "terminal stdin: the games read" '^<stdin>:9:47: error: '
else
    skip "terminal stdin: the hint" "no python3"
fi
run sh -c "cat $D/bad.pgn | \"$P\""
status_is "pipe stdin" 1; err_empty "pipe stdin: no hint"
run sh -c "\"$P\" < $D/bad.pgn"
err_empty "file stdin: no hint"

# A closed standard output (>&-) with nothing to write is no error: the
# exit status is the checking's (bad.pgn has errors: 1; good.pgn none: 0;
# text output of good.pgn is empty: games without findings print nothing).
# Before, the first file opened took descriptor 1 and was closed twice:
# "write error: Bad file descriptor", exit 2.
for a in "-q" "-q -j2" "-q -s" "-q --select=invalid"; do
    run sh -c "exec \"$P\" $a $D/good.pgn >&-"
    status_is "closed stdout, $a good.pgn" 0
    [ "$a" = "-q -s" ] || err_empty "closed stdout, $a good.pgn"
done
run sh -c "exec \"$P\" -q $D/bad.pgn $D/good.pgn >&-"
status_is "closed stdout, -q bad.pgn good.pgn" 1; err_empty "closed stdout, -q bad.pgn good.pgn"
run sh -c "exec \"$P\" $D/good.pgn >&-"
status_is "closed stdout, text, nothing to report" 0; err_empty "closed stdout, text, nothing to report"
# Where output is due it is still a failed write: exit 2 with a message
# (bad.pgn's findings; jsonl's summary record under -q; bad.pgn's valid
# game under --select=valid; every game under --fix-results).
for a in "" "-j2" "-f jsonl -q" "-f tsv" "--select=valid -q" "--fix-results" "--fix-results -j2"; do
    run sh -c "exec \"$P\" $a $D/bad.pgn >&-"
    status_is "closed stdout, output due ($a)" 2
    err_has "closed stdout, output due ($a)" '^pgncheck: write error: Bad file descriptor$'
done

# ---------------------------------------------------------------- --no-variations
# var.pgn: the variation (1. Ke2 ...) replays from the start position, where
# e2 holds White's own pawn: illegal, column 11 of line 9.
run "$P" -f jsonl "$D/var.pgn"
status_is "variation checked" 1
cp "$tmp/out" "$tmp/j"
jcheck "variation: illegal-move at 9:11, ply 1" "$tmp/j" '[(d["code"], d["line"], d["column"], d["ply"]) for d in L[0]["diagnostics"] if d["severity"] == "error"]' \
    "[('illegal-move', 9, 11, 1)]"
run "$P" --no-variations "$D/var.pgn"
status_is "--no-variations" 0; out_empty "--no-variations"

# ---------------------------------------------------------------- several files, unreadable ones
run "$P" "$D/good.pgn" "$D/no-such-file.pgn" "$D" "$D/bad.pgn"
status_is "unreadable file among others" 2
err_has "unreadable file" '^pgncheck: tests/cli/no-such-file\.pgn: No such file or directory$'
err_has "directory" '^pgncheck: tests/cli: Is a directory \(-r checks the PGN files in it\)$'
out_has "others still checked" '^tests/cli/bad\.pgn:9:47: error: '
run "$P" -f jsonl "$D/no-such-file.pgn" "$D/good.pgn"
status_is "jsonl with unreadable file" 2
jcheck "unreadable file not counted" "$tmp/out" '[L[-1]["files"], L[-1]["games"]]' "[1, 2]"

# ---------------------------------------------------------------- --select
run "$P" --select=valid "$D/bad.pgn"
status_is "--select=valid" 1
# game 3 (lines 21-31 of bad.pgn) is the only valid one; copied byte for byte
sed -n '21,31p' "$D/bad.pgn" > "$tmp/want"
same "--select=valid: game 3 byte for byte" "$tmp/want" "$tmp/out"
err_has "--select: diagnostics on stderr" '^tests/cli/bad\.pgn:9:47: error: '
run "$P" --select=invalid "$D/bad.pgn"
sed -n '1,20p' "$D/bad.pgn" > "$tmp/want"
same "--select=invalid: games 1 and 2" "$tmp/want" "$tmp/out"
run "$P" -q --select=valid "$D/good.pgn" "$D/bad.pgn" "$D/warn.pgn"
status_is "--select -q" 1; err_empty "--select -q"
cat "$D/good.pgn" > "$tmp/want"; sed -n '21,31p' "$D/bad.pgn" >> "$tmp/want"; cat "$D/warn.pgn" >> "$tmp/want"
same "--select=valid over three files" "$tmp/want" "$tmp/out"
run "$P" -q --strict --select=valid "$D/warn.pgn"
out_empty "--strict --select=valid drops warning games"

# ---------------------------------------------------------------- --fix-results
# Only game 2 changes: its tag and marker become 0-1 (tests/cli/bad.fixed.pgn
# was edited by hand from bad.pgn).
run "$P" --fix-results "$D/bad.pgn"
status_is "--fix-results" 1
same "--fix-results output" "$D/bad.fixed.pgn" "$tmp/out"
err_has "--fix-results reports the change" '^tests/cli/bad\.pgn:[0-9]+:[0-9]+: note: result rewritten from "1-0" to "0-1" \[wrong-result\]$'
run "$P" -q --fix-results "$D/bad.fixed.pgn"
same "--fix-results on fixed input changes nothing" "$D/bad.fixed.pgn" "$tmp/out"
run "$P" -f jsonl --fix-results "$D/bad.pgn"
json_ok "--fix-results jsonl on stderr" "$tmp/err"
# A Result tag in lower case is the Result tag (tag-name-case, honoured):
# tests/cli/tag-case.fixed.pgn is game 1 of tag-case.pgn edited by hand,
# fool's mate, [result "1-0"] and the marker both rewritten to 0-1.
sed -n '1,10p' "$D/tag-case.pgn" > "$tmp/tc.pgn"
run "$P" --fix-results "$tmp/tc.pgn"
same "--fix-results rewrites a lowercase result tag" "$D/tag-case.fixed.pgn" "$tmp/out"
# and the record shows it: game 2 has no marker, so "result" is the tag's
# 1/2-1/2 (not null); game 1's is its marker, 1-0, with event and white
# from the lowercase tags.
run "$P" -f jsonl "$D/tag-case.pgn"
cp "$tmp/out" "$tmp/j"
jcheck "jsonl: result, event, white from lowercase tags" "$tmp/j" \
    '[(g["result"], g["event"][:11], g["white"]) for g in L[:2]]' \
    "[('1-0', \"Fool's mate\", 'Fool, F'), ('1/2-1/2', 'No marker, ', 'W')]"

# ---------------------------------------------------------------- write errors and pipes
if [ -w /dev/full ]; then
    run sh -c "\"$P\" -f jsonl $D/good.pgn > /dev/full"
    status_is "/dev/full" 2
    err_is "/dev/full" "pgncheck: write error: No space left on device"
    run sh -c "\"$P\" --list-checks > /dev/full"
    status_is "--list-checks > /dev/full" 2
else
    skip "/dev/full" "no /dev/full"
fi

# A big real input: the corpus, concatenated until it holds thousands of games.
big="$tmp/big.pgn"
: > "$big"
i=0
while [ "$i" -lt 40 ] && [ "$(grep -c '^\[Event ' "$big")" -lt 3000 ]; do
    find corpus/real -name '*.pgn' | sort | while read -r f; do cat "$f"; printf '\n'; done >> "$big"
    i=$((i + 1))
done
ngames=$(grep -c '^\[Event ' "$big")
if [ "$ngames" -lt 1000 ]; then
    skip "big input" "corpus too small ($ngames games)"
else
    ok "big input: $ngames games from corpus/real"
    "$P" -j 1 "$big" > "$tmp/t1"; s1=$?
    "$P" -j 4 "$big" > "$tmp/t4"; s4=$?
    same "-j1 and -j4 text byte-identical" "$tmp/t1" "$tmp/t4"
    [ "$s1" -eq "$s4" ] && ok "-j1 and -j4 same status" || fail "-j1 $s1, -j4 $s4"
    "$P" -j 1 -f jsonl "$big" | grep -v '^{"type":"summary"' > "$tmp/j1"
    "$P" -j 4 -f jsonl "$big" > "$tmp/j4all"
    grep -v '^{"type":"summary"' "$tmp/j4all" > "$tmp/j4"
    same "-j1 and -j4 jsonl byte-identical (but seconds)" "$tmp/j1" "$tmp/j4"
    # through a pipe: batches read on one thread, their records made by the others
    cat "$big" | "$P" -j 4 -f jsonl --label="$big" - | grep -v '^{"type":"summary"' > "$tmp/j4p"
    same "-j1 on the file and -j4 through a pipe: jsonl byte-identical (but seconds)" "$tmp/j1" "$tmp/j4p"
    json_ok "big jsonl" "$tmp/j4all"
    jcheck "big jsonl: every game reported" "$tmp/j4all" 'L[-1]["games"] == sum(1 for r in L if r["type"] == "game")' True
    "$P" -j 3 -f tsv "$big" > "$tmp/s3"; "$P" -j 1 -f tsv "$big" > "$tmp/s1"
    same "-j1 and -j3 tsv byte-identical" "$tmp/s1" "$tmp/s3"

    # --select=valid: re-checked, no errors; every game byte-equal to its original
    "$P" -q -j 4 --select=valid "$big" > "$tmp/clean.pgn"
    run "$P" -j 4 -f jsonl "$tmp/clean.pgn"
    [ "$st" -eq 0 ] && ok "--select=valid output re-checks clean" || fail "--select=valid output has errors" "$(grep '"status":"error"' "$tmp/out" | head -n 3)"
    if have_py; then
        "$P" -f jsonl "$big" > "$tmp/orig.j"
        cp "$tmp/out" "$tmp/clean.j"
        python3 - "$big" "$tmp/orig.j" "$tmp/clean.pgn" "$tmp/clean.j" > "$tmp/py" 2>&1 <<'EOF'
import json, sys
orig = open(sys.argv[1], "rb").read()
clean = open(sys.argv[3], "rb").read()
og = [r for r in map(json.loads, open(sys.argv[2], encoding="utf-8")) if r["type"] == "game" and r["status"] != "error"]
cg = [r for r in map(json.loads, open(sys.argv[4], encoding="utf-8")) if r["type"] == "game"]
assert len(og) == len(cg), ("games", len(og), len(cg))
ends = [r["offset"] for r in cg[1:]] + [len(clean)]
for o, c, e in zip(og, cg, ends):
    chunk = clean[c["offset"]:e]
    # the copy is the game's bytes followed by one separating line end
    body = chunk[:-2] if chunk.endswith(b"\r\n\r\n") else chunk[:-1]
    assert orig[o["offset"]:o["offset"] + len(body)] == body, ("game", o["index"])
print(len(cg))
EOF
        [ $? -eq 0 ] && ok "--select=valid: $(cat "$tmp/py") games byte-equal to the originals" || fail "--select=valid bytes" "$(cat "$tmp/py")"
    else
        skip "--select=valid bytes" "no python3"
    fi

    # A closed pipe ends quietly: no message on stderr.
    { "$P" -f jsonl "$big" 2> "$tmp/perr"; } | head -n 1 > /dev/null
    [ ! -s "$tmp/perr" ] && ok "closed pipe: quiet" || fail "closed pipe: stderr" "$(cat "$tmp/perr")"
    ( trap '' PIPE; { "$P" -j 4 "$big" 2> "$tmp/perr"; } | head -n 1 > /dev/null )
    [ ! -s "$tmp/perr" ] && ok "closed pipe with SIGPIPE ignored: quiet" || fail "EPIPE: stderr" "$(cat "$tmp/perr")"

    # --progress: an updating line on stderr, cleared at the end.
    run "$P" -q --progress -j 2 "$big"
    err_has "--progress" 'games/s'
    tr '\r' '\n' < "$tmp/err" | grep -v '^ *$' | grep -v -E '^pgncheck: [0-9.]+ MB, [0-9]+ games, [0-9]+ games/s, [0-9]+%(, ETA [0-9]+:[0-9][0-9])?$' > "$tmp/odd"
    [ ! -s "$tmp/odd" ] && ok "--progress: only progress lines" || fail "--progress lines" "$(cat "$tmp/odd")"
    tail -c 1 "$tmp/err" | od -An -c | grep -q '\\r' && ok "--progress: cleared at the end" || fail "--progress: not cleared"
    run "$P" -q "$big"
    err_empty "no progress when stderr is not a terminal"
fi

# ---------------------------------------------------------------- colour
if command -v script > /dev/null 2>&1; then
    script -qec "\"$P\" $D/bad.pgn" /dev/null > "$tmp/tty" 2>&1
    grep -q "$(printf '\033')\[" "$tmp/tty" && ok "colour on a terminal" || fail "no colour on a terminal"
    NO_COLOR=1 script -qec "\"$P\" $D/bad.pgn" /dev/null > "$tmp/tty" 2>&1
    grep -q "$(printf '\033')\[" "$tmp/tty" && fail "colour despite NO_COLOR" || ok "NO_COLOR honoured"
else
    skip "colour on a terminal" "no script(1)"
fi

# (the README's and the man page's examples: tests/suites/docs.sh)

finish
