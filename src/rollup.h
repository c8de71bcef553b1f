/* rollup.h - --max-repeats: a finding repeated in many games of one input
 * is shown for the first N games (text) or N times (github), then counted
 * and summed up in one line (knows no format; report.c writes the lines). */
#ifndef PGNCHECK_ROLLUP_H
#define PGNCHECK_ROLLUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "pgn.h"

#define ROLLUP_DEFAULT 5        /* --max-repeats' default (see the man page) */

typedef struct RollUp RollUp;

/* Shows at most max games (per_finding false) or findings (true) of each
 * code and severity in each input; max 0 is no limit.  NULL when out of
 * memory. */
RollUp *rollup_new(uint64_t max, bool per_finding);
void rollup_free(RollUp *r);

/* A new game starts: its findings follow. */
void rollup_game(RollUp *r);
/* Is finding d (message m) of the current game shown?  If not, it is
 * counted. */
bool rollup_show(RollUp *r, const Diag *d, const char *m);

/* What was not shown of one code and severity. */
typedef struct RollLine {
    DiagCode code;
    Severity severity;
    uint64_t games, findings;       /* not shown */
    uint64_t all_games, all_findings; /* of the run, shown or not (rollup_run_lines) */
    uint64_t files;                 /* inputs with the code (rollup_run_lines) */
    char msg[PGN_MSG];              /* "... and 3 more games of this file lack Round" (rollup_file_end) */
} RollLine;

/* The end of an input: *n lines, in code order, valid until the next
 * call; the input's counts start again. */
const RollLine *rollup_file_end(RollUp *r, size_t *n);
/* The run's lines, for the codes with findings not shown, as above. */
const RollLine *rollup_run_lines(RollUp *r, size_t *n);

/* n with a comma between thousands: 23,647. */
void rollup_thousands(char *out, size_t size, uint64_t n);

#endif
