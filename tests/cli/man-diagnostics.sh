#!/bin/sh
# The man page's DIAGNOSTICS list, both ways, so it stays in sync with
# src/diag.h (through pgncheck --list-checks):
#   sh tests/cli/man-diagnostics.sh < man/pgncheck.1
#       prints "slug<TAB>severity<TAB>meaning" for each listed code;
#   pgncheck --list-checks | sh tests/cli/man-diagnostics.sh --generate
#       prints the mdoc lines to paste between the BEGIN/END DIAGNOSTICS marks.
if [ "${1:-}" = --generate ]; then
    awk '{
        slug = $1; sev = $2; $1 = ""; $2 = ""; sub(/^ +/, "")
        gsub(/\\/, "\\e"); gsub(/\. /, ".\\\\\\& ")
        print ".It Li " slug " Pq " sev; print
    }'
else
    sed -n '/^\.\\" BEGIN DIAGNOSTICS/,/^\.\\" END DIAGNOSTICS/p' |
    awk '/^\.It Li / { slug = $3; sev = $5; next }
         /^\./ { next }
         { gsub(/\\&/, ""); gsub(/\\e/, "\\"); print slug "\t" sev "\t" $0 }'
fi
