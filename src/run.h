/* run.h - a run over the inputs: batches of games read on the main thread
 * or cut as pieces (pieces.h), checked on a pool of threads (and on the
 * main thread whenever it is ahead), written out in input order; the
 * records formatted ahead by the threads (deferred) where that pays. */
#ifndef PGNCHECK_RUN_H
#define PGNCHECK_RUN_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "dup.h"
#include "game.h"
#include "input.h"
#include "options.h"
#include "pgn.h"
#include "pgn_export.h"
#include "pgn_write.h"
#include "batch.h"
#include "pieces.h"
#include "progress.h"
#include "report.h"
#include "run_ci.h"



typedef struct Run {
    const Options *opt;
    Report *rp;                 /* diagnostics: stdout, or stderr when games are copied */
    Report *side;               /* text on stderr for what a TSV row cannot hold */
    ReportStats *stats;         /* --stats */
    FILE *games_out;            /* copied games (--select, --fix-results), else NULL */
    RunCi ci;                   /* -o, --report, --in-place, baselines, --summary-md */
    bool rp_on_tty;
    bool stderr_tty;
    /* text diagnostics reach the stream or terminal that standard error
     * writes to: an input's open or read error is not said twice there */
    bool rp_is_stderr;
    /* What the checking threads go by: set before they start (batch.h). */
    BatchConfig cfg;
    ReportSummary sum;
    bool found;                 /* exit 1 */
    bool trouble;               /* exit 2 */
    bool stop;                  /* a write failed: stop reading */
    bool oom;                   /* out of memory was said (it stops the run) */
    size_t held;                /* bytes the batches' games hold (Batch.held) */
    char *copy;                 /* a game of a regular file read again to be copied */
    size_t copy_cap;
    PgnCopyEnd copy_end;        /* how the last game copied ends (pgn_write.h) */
    Severity min_severity;      /* of the diagnostics printed (--min-severity) */
    DupTable *dup;              /* --duplicates: the main lines seen, in input order */
    char *dup_text;             /* its finding's message (Diag.text), dup_text_cap bytes */
    size_t dup_text_cap;
    /* --export, what it left out: the non-game-text findings, the '%'
     * and ';' lines between games (Batch.gap_lines, summed in input
     * order), and the '%' lines in games */
    uint64_t dropped_text, dropped_gap_lines, dropped_escapes;
    uint64_t exported_as_read;  /* --export: games without error copied as read */
    PieceTools own;             /* the main thread's, for checking a piece */
    PiecesHost host;            /* what pieces.c is given of the run (run_init) */
    Batch spare;                /* a stretch read again in order (pieces_output) */
    double t0;
    uint64_t games_read;
    uint64_t bytes_done;        /* bytes of the inputs already finished (progress:
                                 * as on disk, compressed or not) */
    uint64_t bytes_total;       /* of all the inputs (regular files when listed) */
    bool total_known;           /* every input is a regular file */
    size_t reading;             /* the input being read: its place in inputs, from 1 */
    Progress progress;
    InputList inputs;           /* what is checked, in order */

    Batch *batches;
    size_t nbatches, head, count;   /* in-flight ring, oldest first */

    pthread_mutex_t mu;
    pthread_cond_t work_cv, done_cv;
    Batch **work;               /* FIFO of batches waiting for a worker */
    size_t whead, wcount;
    bool quit;
    pthread_t *threads;
    unsigned nthreads;
} Run;

/* ---- for cli.c */

/* Sets the run up for opt (which outlives it): its reports, the batches,
 * the threads.  False when out of memory; run_free in any case. */
bool run_init(Run *run, const Options *opt);

/* Once the inputs are listed: the records deferred where that pays, the
 * totals, the progress line.  False when out of memory. */
bool run_start(Run *run);

/* Reads one input into batches (or pieces); the workers check them meanwhile. */
void run_input(Run *run, const InputItem *it);

/* Writes out what is left, the stats and the summary. */
void run_finish(Run *run);

void run_free(Run *run);

/* Reports "out of memory" and stops the run (exit status 2). */
void run_out_of_memory(Run *run);

#endif
