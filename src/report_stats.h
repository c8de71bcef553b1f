/* report_stats.h - --stats: per code and severity, the diagnostics and the
 * games that have one, of each file and of the run. */
#ifndef PGNCHECK_REPORT_STATS_H
#define PGNCHECK_REPORT_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "game.h"
#include "report_types.h"

/* --stats: per code and severity, the diagnostics and the games that have
 * one, of each file and of the run.  Counted in input order on the thread
 * that writes the output, so -jN gives -j1's figures.  NULL when out of
 * memory. */
typedef struct ReportStats ReportStats;
ReportStats *report_stats_new(ReportFormat fmt);
void report_stats_free(ReportStats *st);
/* One game's diagnostics, rep's and extra[0..nextra). */
void report_stats_game(ReportStats *st, const GameReport *rep, const Diag *extra, size_t nextra);
/* A finding outside any game. */
void report_stats_diag(ReportStats *st, const Diag *d);
/* The end of a file: its counts are kept to be written, and added to the
 * total.  False if out of memory. */
bool report_stats_file_end(ReportStats *st, const char *file);
/* Every file's lines, then the total's: {"type":"stats"} records on rp's
 * stream in JSON Lines, else text lines on err. */
void report_stats_write(ReportStats *st, Report *rp, FILE *err);

#endif
