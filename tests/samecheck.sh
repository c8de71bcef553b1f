#!/bin/sh
# Byte-for-byte regression check: every output mode on every corpus file.
#   samecheck.sh record BIN DIR    run BIN, write each run's stdout, stderr
#                                  and exit status under DIR
#   samecheck.sh compare DIR1 DIR2 compare two recordings; exit 1 on any
#                                  difference (a file only in one counts)
#   samecheck.sh against REV [BIN] build REV (default main) from git into a
#                                  temporary tree, record it and BIN
#                                  (default ./pgncheck), compare (make samecheck)
# Inputs: every file of ../shared/corpus/{real,edge}, the *.pgn of corpus/,
# and MID (default /tmp/bench/mid.pgn, a 20 MB slice of the benchmark input
# made when absent), each alone and the shared corpus in one run. A behaviour-
# preserving change (a refactor, a speed-up) must leave the recording identical.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
shared=$(cd "$top/../shared" && pwd) || exit 2
mid=${MID:-/tmp/bench/mid.pgn}

# The modes: name, then the options. Each runs at -j1 and -j2; the extra
# rule sets and --strict run at -j1 only (they change checks, not threading).
MODES='text:
jsonl:-f jsonl
tsv:-f tsv
github:-f github
valid:--select=valid
invalid:--select=invalid
fix:--fix-results'
EXTRA='strict:--strict
r1997:--rules=1997
r2014:--rules=2014
novar:--no-variations'

make_mid() {
    [ -f "$mid" ] && return 0
    mkdir -p "$(dirname "$mid")"
    # 20 MB of the benchmark input, cut before the first game that crosses it.
    xz -dc "$shared/bench/big.pgn.xz" | head -c 20000000 |
        awk '/^\[Event /{s=s b; b=""} {b=b $0 "\n"} END{printf "%s", s}' > "$mid.tmp" &&
        mv "$mid.tmp" "$mid"
}

inputs() {
    find "$shared/corpus/real" "$shared/corpus/edge" -type f | LC_ALL=C sort
    find "$top/corpus" -type f -name '*.pgn' | LC_ALL=C sort
    echo "$mid"
}

# run BIN OUTBASE OPTIONS... FILES...: one invocation, three files out.
run() {
    bin=$1 base=$2; shift 2
    "$bin" --no-progress "$@" > "$base.out" 2> "$base.err" < /dev/null
    echo $? > "$base.rc"
    # The JSON Lines summary times the run; the one field that may differ.
    case " $* " in *" -f jsonl "*)
        sed -i 's/^\({"type":"summary".*"seconds":\)[0-9.]*/\1T/' "$base.out" ;;
    esac
}

record() {
    bin=$1 dir=$2
    [ -x "$bin" ] || { echo "samecheck: $bin is not executable" >&2; exit 2; }
    make_mid || { echo "samecheck: cannot make $mid" >&2; exit 2; }
    rm -rf "$dir" && mkdir -p "$dir" || exit 2
    list=$dir/inputs.txt
    inputs > "$list"
    # Every mode's folders at once: one mkdir, not one per run.
    dirs=$(sed 's|^/||; s|/[^/]*$||' "$list" | LC_ALL=C sort -u)
    for d in $(echo "$MODES" | sed 's/:.*/-j1/; p; s/-j1$/-j2/') \
             $(echo "$EXTRA" | sed 's/:.*/-j1/'); do
        (mkdir -p "$dir/$d" && cd "$dir/$d" && echo "$dirs" | xargs mkdir -p) || exit 2
    done
    all=$(find "$shared/corpus/real" "$shared/corpus/edge" -type f | LC_ALL=C sort)
    echo "$MODES" | while IFS=: read -r name opts; do
        for j in 1 2; do
            while IFS= read -r f; do
                # shellcheck disable=SC2086
                run "$bin" "$dir/$name-j$j/${f#/}" -j$j $opts "$f"
            done < "$list"
            # shellcheck disable=SC2086
            run "$bin" "$dir/$name-j$j/ALL" -j$j $opts $all
        done
    done
    echo "$EXTRA" | while IFS=: read -r name opts; do
        while IFS= read -r f; do
            # shellcheck disable=SC2086
            run "$bin" "$dir/$name-j1/${f#/}" -j1 $opts "$f"
        done < "$list"
    done
    n=$(find "$dir" -name '*.rc' | wc -l)
    echo "samecheck: recorded $n runs of $bin in $dir"
}

compare() {
    a=$1 b=$2
    [ -d "$a" ] && [ -d "$b" ] || { echo "samecheck: compare needs two recordings" >&2; exit 2; }
    n=$(find "$a" -name '*.rc' | wc -l)
    diffs=$(diff -rq "$a" "$b")
    if [ -z "$diffs" ]; then
        echo "samecheck: identical, $n runs"
        return 0
    fi
    echo "$diffs" | head -n 20
    echo "samecheck: $(echo "$diffs" | wc -l) files differ (of $n runs)"
    first=$(echo "$diffs" | sed -n 's/^Files \(.*\) and \(.*\) differ$/\1 \2/p' | head -n 1)
    # shellcheck disable=SC2086
    [ -n "$first" ] && diff $first | head -n 20
    return 1
}

against() {
    # (sh has no locals: record() sets bin, so keep ours apart)
    rev=${1:-main} newbin=${2:-$top/pgncheck}
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/samecheck.XXXXXX") || exit 2
    # (an interrupt ends the run: the EXIT trap then removes the directory)
    trap 'rm -rf "$tmp"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    mkdir "$tmp/src"
    (cd "$top" && git archive "$rev") | tar -x -C "$tmp/src" || exit 2
    make -C "$tmp/src" -j2 pgncheck > "$tmp/build.log" 2>&1 ||
        { tail -n 20 "$tmp/build.log"; exit 2; }
    record "$tmp/src/pgncheck" "$tmp/ref" > /dev/null
    record "$newbin" "$tmp/new" > /dev/null
    echo "samecheck: $rev against $newbin"
    compare "$tmp/ref" "$tmp/new"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
    record)  [ $# -eq 2 ] || exec sh "$0"; record "$1" "$2" ;;
    compare) [ $# -eq 2 ] || exec sh "$0"; compare "$1" "$2" ;;
    against) against "$@" ;;
    *) sed -n '2,9p' "$0" >&2; exit 2 ;;
esac
