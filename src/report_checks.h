/* report_checks.h - --list-checks: every code with its severity, article and meaning. */
#ifndef PGNCHECK_REPORT_CHECKS_H
#define PGNCHECK_REPORT_CHECKS_H

#include <stdio.h>

#include "diag.h"

/* --list-checks: every code with its (effective) severity and meaning. */
void report_list_checks(FILE *out, const Severity severity[D_COUNT]);

#endif
