/* pieces.h - -jN on one input: a regular file cut into pieces, a pipe into
 * segments held in memory, at sync points (pgn.h); each is read and checked
 * whole by one thread, and written out in input order where its cut is
 * confirmed, read again in order where it is not. */
#ifndef PGNCHECK_PIECES_H
#define PGNCHECK_PIECES_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "input.h"
#include "pgn.h"
#include "pgn_export.h"

#define PIECE_BYTES (1u << 20)  /* a regular file is cut into pieces this big */
#define PIECE_GAMES 1024        /* games of one piece at most: a piece holding this
                                 * many stopped there, not at a sync point */

/* A batch that is a piece (BATCH_PIECE) or a pipe's segment (BATCH_SEGMENT):
 * the games that start at the first sync point in [lo, hi) and end before
 * the first game at or after hi that begins at a sync point.  The reader
 * started at the piece's sync point reads what a reader from the file's
 * start would read there (pgn.h), which the output side confirms: a piece
 * is used only when it starts where the one before stopped; otherwise that
 * stretch is read again in order (pieces_output). */
typedef struct Piece {
    uint64_t lo, hi;            /* the stretch it covers; hi = UINT64_MAX for the last */
    int err;                    /* errno of a failed read, 0 if none */
    uint64_t start;             /* offset of its first game; UINT64_MAX: none */
    uint64_t stop;              /* offset of the first game not taken; UINT64_MAX: end */
    uint32_t stop_line;         /* its line, the line of start counting as 1 */
    uint32_t stop_col;          /* its column */
    bool stop_tok;              /* a token before it on its line */
    uint64_t read_end;          /* offset after the last byte read */
    bool capped;                /* the piece stopped at PIECE_GAMES */
    /* BATCH_SEGMENT: its bytes (in Batch.seg) [seg_lo, seg_lo + seg_len),
     * from SYNC_BEFORE bytes before lo to all that had been read when it
     * was cut (at least SYNC_AFTER past hi, or the end of input) */
    int seg_err;                /* the last segment: the read error the pipe ended with */
    size_t seg_len;
    uint64_t seg_lo;
} Piece;

/* What a thread reads and checks a piece's games with, one game at a time. */
typedef struct PieceTools {
    PgnGame *game;
    GameReport rep;
    PgnExport *exp;             /* --export */
} PieceTools;

void pieces_tools_free(PieceTools *t);

struct Run;
struct Batch;

/* -jN on a regular file read from its start: pieces, which the threads
 * read and check whole, written out in order. */
void pieces_file(struct Run *run, Input *in);

/* -jN on a pipe: segments cut at sync points, held in memory, read and
 * checked whole like pieces.  False, having read nothing but the pending
 * bytes, when the pipe is to be read in batches instead. */
bool pieces_pipe(struct Run *run, Input *in);

/* A worker's share of a piece: find where its games start, read and check
 * them.  Runs on any thread; touches only b. */
void pieces_check(const struct Run *run, struct Batch *b, PieceTools *work);

/* A piece in input order, on the output side: written out as read where
 * its cut is confirmed, its stretch read again in order where not. */
void pieces_output(struct Run *run, struct Batch *b);

#endif
