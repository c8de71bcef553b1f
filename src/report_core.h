/* report_core.h - what every output format shares: the Report object (its
 * stream, buffer and flush, deferred records), which findings are shown,
 * and the parts of a record each format writes its own way. */
#ifndef PGNCHECK_REPORT_CORE_H
#define PGNCHECK_REPORT_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "game.h"
#include "outbuf.h"
#include "pgn.h"
#include "report_types.h"
#include "rollup.h"

/* In a deferred report (report_new_deferred), a number that depends on
 * where the game stands in the input, left out of the text at `at` and
 * written by report_deferred_write with its base added. */
enum { REPORT_NUM_INDEX, REPORT_NUM_LINE };
typedef struct ReportSplice {
    size_t at;
    uint64_t value;
    int kind;
} ReportSplice;

struct Report {
    FILE *out;
    ReportFormat fmt;
    bool color;
    Severity min;               /* --min-severity */
    uint64_t hidden[SEV_ERROR + 1]; /* diagnostics not printed for it */
    bool dups;                  /* --duplicates: the duplicate_of field or column */
    RollUp *roll;               /* --max-repeats (text, github) */
    const char *dup_text;       /* the game being written's GameReport.dup_text */
    OutBuf b;
    /* deferred: records kept in b, their place-dependent numbers here */
    bool defer;
    ReportSplice *sp;
    size_t nsp, spcap;
    bool oom;                   /* a record was lost for want of memory: nothing more is written */
};

/* Writes the record built in rp's buffer (kept there in a deferred report)
 * and empties the buffer; a record cut short for want of memory is not
 * written, nor any after it (report_out_of_memory). */
void report_flush(Report *rp);

/* Is d printed?  Not an ignored one; not one below the threshold, which
 * is counted, unless it is one the caller added (always). */
static inline bool report_shown(Report *rp, const Diag *d, bool added)
{
    if (d->severity == SEV_NONE)
        return false;
    /* (a repair found goes with the error it repairs) */
    if (added || d->severity >= rp->min || d->severity > SEV_ERROR || d->code == D_REPAIR_FOUND)
        return true;
    rp->hidden[d->severity]++;
    return false;
}

/* A finding's message: --duplicates' text for its three codes, else its
 * own, else its code's meaning. */
const char *report_message_of(const Report *rp, const Diag *d);

static inline const char *report_slug(const Diag *d)
{
    return d->code < D_COUNT ? diag_info[d->code].slug : "unknown";
}

const char *report_status_slug(GameStatus s);

/* The result as declared: the termination marker (or the Result tag the game
 * layer fell back on), else the Result tag's text as written, else null. */
const char *report_declared(const GameReport *rep);

/* The six tags a game's record shows, the roster's but Result (TAGS_*
 * order), in one pass over the tags (their names begin with six
 * different letters). */
enum { REPORT_SHOWN = 6 };
void report_tags6(const PgnGame *g, const char *v[REPORT_SHOWN]);

/* A game's index or a line (kind REPORT_NUM_*): written now, or in a deferred
 * report left for report_deferred_write. */
void report_place_num(Report *rp, int kind, uint64_t v);

#endif
