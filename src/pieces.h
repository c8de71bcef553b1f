/* pieces.h - -jN on one input: a regular file cut into pieces, a pipe into
 * segments held in memory, at sync points (pgn.h); each is read and checked
 * whole by one thread, and written out in input order where its cut is
 * confirmed, read again in order where it is not. */
#ifndef PGNCHECK_PIECES_H
#define PGNCHECK_PIECES_H

#include <stdbool.h>
#include <stdint.h>

#include "batch.h"
#include "input.h"

#define PIECE_BYTES (1u << 20)  /* a regular file is cut into pieces this big */
#define PIECE_GAMES 1024        /* games of one piece at most: a piece holding this
                                 * many stopped there, not at a sync point */



/* What pieces.c is given of the run that drives it (run.c fills it in):
 * the settings the threads go by, and the few things the output side
 * (the main thread) asks of the run.  pieces.c sees nothing else of it. */
typedef struct PiecesHost {
    const BatchConfig *cfg;
    uint64_t piece_bytes;       /* -jN: size of a piece of a regular file */
    const bool *stop;           /* the run stops (a write failed, out of memory) */
    uint64_t *games_read;       /* games written out so far (the progress line) */
    Batch *spare;               /* a stretch read again in order */
    PieceTools *own;            /* the main thread's, for reading it */
    void *run;                  /* the run, for the operations below */
    /* The next free batch (the oldest in flight written out first); one
     * handed to the threads (checked here with -j1); the finished ones
     * written out (with wait, all); an input stopped early closed in turn
     * by an empty batch; the progress line. */
    Batch *(*acquire)(void *run);
    void (*submit)(void *run, Batch *b);
    void (*output_ready)(void *run, bool wait);
    void (*close_in_turn)(void *run, Input *in);
    void (*show_progress)(void *run, const Input *in, bool force);
    /* Writes out checked batch b's games (each slot's text room kept to
     * keep_raw bytes), file-level findings and gap lines, the deferred
     * records numbered from index_base with their lines moved by dl. */
    void (*emit)(void *run, Batch *b, size_t keep_raw, uint64_t index_base, uint64_t dl);
    void (*out_of_memory)(void *run);
    /* The k-th batch in flight, oldest first; NULL past the last. */
    const Batch *(*in_flight)(void *run, size_t k);
} PiecesHost;

/* -jN on a regular file read from its start: pieces, which the threads
 * read and check whole, written out in order. */
void pieces_file(const PiecesHost *h, Input *in);

/* -jN on a pipe: segments cut at sync points, held in memory, read and
 * checked whole like pieces.  False, having read nothing but the pending
 * bytes, when the pipe is to be read in batches instead. */
bool pieces_pipe(const PiecesHost *h, Input *in);

/* A worker's share of a piece: find where its games start, read and check
 * them.  Runs on any thread; touches only b. */
void pieces_check(const BatchConfig *cfg, Batch *b, PieceTools *work);

/* A piece in input order, on the output side: written out as read where
 * its cut is confirmed, its stretch read again in order where not. */
void pieces_output(const PiecesHost *h, Batch *b);

#endif
