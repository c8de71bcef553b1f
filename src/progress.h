/* progress.h - the progress line on standard error, and the signal
 * handling that clears it when the run is stopped (^C). */
#ifndef PGNCHECK_PROGRESS_H
#define PGNCHECK_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PROGRESS_MIN_BYTES (8u << 20)  /* --progress is on by default above this */

typedef struct Progress {
    bool on;                    /* the line is wanted (set before the inputs are read) */
    bool shown;
    size_t width;               /* characters of the line on screen */
    double t0;                  /* when the run began */
    double last;                /* when the line was last drawn */
} Progress;

/* Where the run stands, for the line. */
typedef struct ProgressAt {
    const char *name;           /* the input being read */
    uint64_t here;              /* its bytes read, as progress counts them */
    uint64_t psize;             /* its bytes on disk, 0 if not known */
    uint64_t bytes;             /* bytes of all inputs read (here among them) */
    uint64_t total;             /* of all the inputs, when total_known */
    bool total_known;
    size_t reading, ninputs;    /* the input's place among them, from 1, and their count */
    uint64_t games;             /* games read */
} ProgressAt;

/* The monotonic clock, in seconds. */
double progress_now(void);

/* Is the line to be drawn now (on, and a quarter of a second since the
 * last, or force)?  If so the time is taken as the line's. */
bool progress_due(Progress *p, bool force);

/* Draws the line (after progress_due said so). */
void progress_draw(Progress *p, const ProgressAt *at);

/* Clears the line, if shown: before anything else is written to the
 * terminal. */
void progress_clear(Progress *p);

/* Catches SIGINT and SIGTERM to clear the line, unless they are ignored. */
void progress_catch_signals(void);

/* For the threads other than the main one: they leave those signals to it. */
void progress_block_signals(void);

#endif
