/* report_checks.c - --list-checks: a table of the checks, columns parted by two spaces or more. */
#include "report_checks.h"

#include <string.h>

#include "laws.h"

void report_list_checks(FILE *out, const Severity severity[D_COUNT])
{
    int width = 0, cwidth = 1;
    for (int i = 0; i < D_COUNT; i++) {
        int n = (int)strlen(diag_info[i].slug);
        if (n > width)
            width = n;
        const char *c = laws_cite((DiagCode)i);
        n = c ? (int)strlen(c) : 1;
        if (n > cwidth)
            cwidth = n;
    }
    /* Columns are parted by two spaces or more; none has two inside. */
    for (int i = 0; i < D_COUNT; i++) {
        const char *c = laws_cite((DiagCode)i);
        fprintf(out, "%-*s  %-7s  %-*s  %s\n", width, diag_info[i].slug, diag_severity_name(severity[i]), cwidth,
                c ? c : "-", diag_info[i].meaning);
    }
}
