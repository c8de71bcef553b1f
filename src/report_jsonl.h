/* report_jsonl.h - the JSON Lines format: a record per game, per finding
 * outside games, per message, and the summary (man page, OUTPUT FORMATS). */
#ifndef PGNCHECK_REPORT_JSONL_H
#define PGNCHECK_REPORT_JSONL_H

#include "report_core.h"

/* {"type":"game",...}: extra[0..nextra) after the game's own findings. */
void report_jsonl_game(Report *rp, const char *file, const PgnGame *g, const GameReport *rep, const Diag *extra,
                       size_t nextra);
/* {"type":"diagnostic",...}: a finding outside any game. */
void report_jsonl_file_diag(Report *rp, const char *file, const Diag *d);
/* {"type":"summary",...} */
void report_jsonl_summary(Report *rp, const ReportSummary *s);
/* {"type":"message","message":TEXT} */
void report_jsonl_message(Report *rp, const char *text);

#endif
