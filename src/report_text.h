/* report_text.h - the text format: a game's header line, its findings,
 * an error's source line with a caret under it. */
#ifndef PGNCHECK_REPORT_TEXT_H
#define PGNCHECK_REPORT_TEXT_H

#include "report_core.h"

/* "FILE: game N (White - Black, Event)", before a game's first finding. */
void report_text_header(Report *rp, const char *file, const PgnGame *g);
/* A finding (g NULL: one outside any game), and an error's source line. */
void report_text_diag(Report *rp, const char *file, const PgnGame *g, const Diag *d);

#endif
