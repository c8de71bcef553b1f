#!/bin/sh
# The man page's DIAGNOSTICS list, both ways, so it stays in sync with
# src/diag.h and src/laws.c (through pgncheck --list-checks, whose columns,
# code, severity, article and meaning, are parted by two spaces or more):
#   sh tests/cli/man-diagnostics.sh < man/pgncheck.1
#       prints "slug<TAB>severity<TAB>article<TAB>meaning" for each listed code
#       (article "-" where the code cites none);
#   pgncheck --list-checks | sh tests/cli/man-diagnostics.sh --generate
#       prints the mdoc lines to paste between the BEGIN/END DIAGNOSTICS marks;
#   pgncheck --list-checks | sh tests/cli/man-diagnostics.sh --split
#       prints the list in the first form.
if [ "${1:-}" = --generate ]; then
    awk -F '   *' '{
        slug = $1; sev = $2; cite = $3; text = $4
        gsub(/\\/, "\\e", text); gsub(/\. /, ".\\\\\\& ", text)
        print ".It Li " slug " Pq " sev; print text
        if (cite != "-") print ".Pq \"" cite "\""
    }'
elif [ "${1:-}" = --split ]; then
    awk -F '   *' '{ print $1 "\t" $2 "\t" $3 "\t" $4 }'
else
    sed -n '/^\.\\" BEGIN DIAGNOSTICS/,/^\.\\" END DIAGNOSTICS/p' |
    awk 'function flush() { if (slug != "") print slug "\t" sev "\t" cite "\t" text }
         /^\.It Li / { flush(); slug = $3; sev = $5; cite = "-"; text = ""; next }
         /^\.Pq "/ { cite = $0; sub(/^\.Pq "/, "", cite); sub(/"$/, "", cite); next }
         /^\./ { next }
         { gsub(/\\&/, ""); gsub(/\\e/, "\\"); text = $0 }
         END { flush() }'
fi
