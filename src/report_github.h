/* report_github.h - GitHub workflow commands (::error file=F,line=L,col=C,
 * title=CODE::MESSAGE), which annotate pull requests. */
#ifndef PGNCHECK_REPORT_GITHUB_H
#define PGNCHECK_REPORT_GITHUB_H

#include "report_core.h"

/* A finding's annotation (g NULL: one outside any game). */
void report_github_diag(Report *rp, const char *file, const PgnGame *g, const Diag *d);
/* --max-repeats: a notice per code some of whose findings were not
 * annotated, with its counts. */
void report_github_summary(Report *rp);

#endif
