/* report_tsv.h - the TSV format: a header row and a row per game. */
#ifndef PGNCHECK_REPORT_TSV_H
#define PGNCHECK_REPORT_TSV_H

#include "report_core.h"

/* The header row (with duplicate_of under --duplicates). */
void report_tsv_begin(Report *rp);
/* A game's row: the counts and the first worst finding of its own and
 * extra[0..nextra). */
void report_tsv_game(Report *rp, const char *file, const PgnGame *g, const GameReport *rep, const Diag *extra,
                     size_t nextra);

#endif
