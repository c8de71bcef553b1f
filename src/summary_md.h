/* summary_md.h - --summary-md: a Markdown summary of the run for a CI
 * job's page (GitHub's $GITHUB_STEP_SUMMARY): a table per file, a table
 * per code, and the first errors with FILE:LINE:COL and their message,
 * which the job's annotations (a handful) cannot all show. */
#ifndef PGNCHECK_SUMMARY_MD_H
#define PGNCHECK_SUMMARY_MD_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "game.h"
#include "report.h"

#define SMD_FIRST_ERRORS 10     /* errors listed with their message */

typedef struct SummaryMd SummaryMd;

SummaryMd *smd_new(void);
void smd_free(SummaryMd *m);

/* A game's findings (rep's and extra[0..nextra)) as reported, in file. */
void smd_game(SummaryMd *m, const char *file, const GameReport *rep, const Diag *extra, size_t nextra);
/* A finding outside a game. */
void smd_file_diag(SummaryMd *m, const char *file, const Diag *d);
/* The end of an input: its row.  False when out of memory. */
bool smd_file_end(SummaryMd *m, const char *file) __attribute__((warn_unused_result));

/* Appends the summary to path (as $GITHUB_STEP_SUMMARY is appended to);
 * false with why on a failure. */
bool smd_write(const SummaryMd *m, const char *path, const ReportSummary *sum, char *why, size_t cap)
    __attribute__((warn_unused_result));

#endif
