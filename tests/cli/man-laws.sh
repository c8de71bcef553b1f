#!/bin/sh
# The man page's LAWS list, both ways, so it stays in sync with the law
# table in src/laws.h:
#   sh tests/cli/man-laws.sh < man/pgncheck.1
#       prints "id<TAB>article<TAB>meaning" for each law the page lists;
#   sh tests/cli/man-laws.sh --table < src/laws.h
#       prints the table in the same form;
#   sh tests/cli/man-laws.sh --generate < src/laws.h
#       prints the mdoc lines to paste between the BEGIN/END LAWS marks.
table() {
    awk '/^#define LAW_R[0-9]+ +"/ {
             name = $2; a = $0; sub(/^[^"]*"/, "", a); sub(/"[^"]*$/, "", a); art[name] = a; next }
         /^ *X\(R[0-9]+, LAW_R[0-9]+, "/ {
             line = $0; sub(/^ *X\(/, "", line)
             id = line; sub(/,.*/, "", id)
             name = line; sub(/^[^,]*, */, "", name); sub(/,.*/, "", name)
             text = line; sub(/^[^"]*"/, "", text); sub(/"\) *\\? *$/, "", text); gsub(/\\"/, "\"", text)
             print id "\t" (name in art ? art[name] : "?") "\t" text }'
}
case "${1:-}" in
--table) table ;;
--generate)
    table | awk -F '\t' '{ t = $3; gsub(/\\/, "\\e", t); gsub(/\. /, ".\\\\\\& ", t)
                           print ".It " $1; print $2 ": " t }' ;;
*)
    sed -n '/^\.\\" BEGIN LAWS/,/^\.\\" END LAWS/p' |
    awk '/^\.It R[0-9]+$/ { id = $2; next }
         /^\./ { next }
         id != "" { gsub(/\\&/, ""); gsub(/\\e/, "\\"); i = index($0, ": ")
                    print id "\t" substr($0, 1, i - 1) "\t" substr($0, i + 2); id = "" }' ;;
esac
