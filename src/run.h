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
#include "pieces.h"
#include "progress.h"
#include "report.h"
#include "run_ci.h"

#define BATCH_GAMES 64          /* games handed to a worker at once */
#define SLOT_KEEP_RAW 4096      /* text room a batch slot keeps between games */
/* Memory: the games read but not yet written (their tags, moves, text)
 * that batches hold.  A batch is closed at BATCH_HELD bytes of them, and
 * past RUN_HELD in all batches the oldest are written before more is
 * read.  A game's text is held (or read again to be copied) to GAME_TEXT
 * bytes.  A regular file's games are not held for their text: it is read
 * again (pread) when a game is copied or an error's line is shown. */
#define BATCH_HELD (4u << 20)
#define RUN_HELD (16u << 20)
#define GAME_TEXT (16u << 20)

typedef struct DiagList {
    Diag *v;
    size_t n, cap;
} DiagList;

typedef struct Slot {
    PgnGame *game;
    GameReport rep;             /* in a piece: a copy, its diags in the piece's pool */
    DiagList pre;               /* file-level findings read before this game */
    size_t pool_at;             /* in a piece: where rep's diagnostics are in the pool */
    size_t lpool_at;            /* and its main line (--duplicates) in the line pool */
    /* --export: the game's export, made where it is checked, in the
     * batch's Batch.exp at exp_at */
    PgnExportStatus exp_status;
    uint32_t exp_escapes;       /* '%' lines left out */
    const char *exp_why;        /* PGN_EXPORT_AS_READ: pgn_export_why */
    size_t exp_at, exp_len;
    uint64_t ident;             /* --baseline, --write-baseline: the game's identity */
    /* --repair, in a piece: rep.repair's copy (the checking thread's is
     * the next game's); NULL until a game needs it */
    struct RepairSet *repair;
} Slot;

typedef enum BatchKind {
    BATCH_READ,                 /* up to BATCH_GAMES games read by the main thread
                                 * (an input read whole; none: an input's end) */
    BATCH_PIECE,                /* a piece of a regular file, read by the thread
                                 * that checks it */
    BATCH_SEGMENT,              /* a segment of a pipe held in memory, likewise */
} BatchKind;

typedef struct Batch {
    BatchKind kind;
    Input *input;
    size_t ngames;
    bool file_end;              /* the input ends with this batch */
    bool done;                  /* checked (guarded by Run.mu) */
    bool oom;                   /* out of memory while it was read or checked */
    DiagList tail;              /* file-level findings after the last game */
    uint64_t gap_lines;         /* '%' and ';' lines between its games (pgn_take_gap_lines) */
    Slot *slot;
    size_t cap;                 /* slots allocated */
    union {
        size_t held;            /* BATCH_READ: bytes its games hold (pgn_game_bytes) */
        Piece piece;            /* BATCH_PIECE, BATCH_SEGMENT */
    };
    PgnExportText exp;          /* --export: the games' exports (Slot.exp_at) */
    Report *rec;                /* Run.defer: the batch's records, formatted by
                                 * the thread that checks it */
    /* A piece's, kept from one use of the batch to the next: */
    Diag *pool;                 /* the games' diagnostics */
    size_t npool, pool_cap;
    uint16_t *lpool;            /* --duplicates: the games' main lines (GameReport.line) */
    size_t nlpool, lpool_cap;
    unsigned char *seg;         /* a segment's bytes (Piece.seg_lo, seg_len) */
    size_t seg_cap;
} Batch;

/* What of a checked game the output will use besides its report: nothing
 * (-q alone), its tags and text when it has findings to show (text output:
 * the header and the source lines under them), or always (records show
 * tags; copying writes the text). */
typedef enum KeepText { KEEP_NONE, KEEP_WITH_FINDINGS, KEEP_ALL } KeepText;

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
    /* (read by the threads: set before they start, apart from the fields
     * the output side writes) */
    bool text_lines;            /* the diagnostics show errors' source lines (text format), or
                                 * count characters of their lines (github) */
    bool github;
    bool copying;               /* --select, --fix-results */
    bool raw_check;             /* the checks read the game's text (--strict, --fix-results) */
    ReportSummary sum;
    bool found;                 /* exit 1 */
    bool trouble;               /* exit 2 */
    bool stop;                  /* a write failed: stop reading */
    bool oom;                   /* out of memory was said (it stops the run) */
    size_t held;                /* bytes the batches' games hold (Batch.held) */
    char *copy;                 /* a game of a regular file read again to be copied */
    size_t copy_cap;
    PgnCopyEnd copy_end;        /* how the last game copied ends (pgn_write.h) */
    uint64_t piece_bytes;       /* -jN: size of a piece of a regular file */
    KeepText keep_text;         /* which checked games' tags and text a piece copies */
    /* The records are formatted by the threads that check the games, into
     * their batch's Batch.rec, and the output side only writes them (JSON
     * Lines and TSV with -jN: the thread that writes them in order formatted
     * every record, and was the bottleneck: tests/BENCH.md). */
    bool defer;
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

/* ---- for pieces.c */

/* Slot i exists, with its game allocated. */
bool run_slot_ready(Batch *b, size_t i) __attribute__((warn_unused_result));

/* Keeps a copy of the reader's file-level findings (their severity as
 * the options say; those turned off dropped). */
bool run_diags_take(DiagList *l, PgnReader *r, const Options *opt) __attribute__((warn_unused_result));

/* The reader's options for an input's games (stream: from a pipe). */
PgnOptions run_read_options(const Run *run, bool stream);

/* Keeps in dst the slices of src's raw text its errors' lines are cut from. */
bool run_keep_slices(const Run *run, PgnGame *dst, PgnGame *src, const GameReport *rep)
    __attribute__((warn_unused_result));

/* Run.defer: formats file-level findings, or a checked game, into the
 * batch's records (on the thread that checks the batch). */
void run_defer_diags(const Batch *b, const DiagList *l);
void run_defer_game(const Batch *b, const DiagList *pre, const PgnGame *g, const GameReport *rep);

/* The next free batch (a BATCH_READ one); when all are in flight, the
 * oldest is waited for, written out and reused. */
Batch *run_batch_acquire(Run *run);

/* Hands a filled batch to the threads (checks it here with -j1). */
void run_submit(Run *run, Batch *b);

/* Writes out every finished batch at the head of the ring; with wait, all. */
void run_output_ready(Run *run, bool wait);

/* An input stopped early: an empty last batch still closes it in turn. */
void run_close_in_turn(Run *run, Input *in);

/* The progress line, where the input stands (at most four times a second
 * unless force). */
void run_show_progress(Run *run, const Input *in, bool force);

/* Output side: anything this batch writes to the terminal the progress
 * line is on?  File-level findings; one slot's game with those before it. */
bool run_batch_prints(const Run *run, const Batch *b);
void run_output_file_diags(Run *run, const Input *in, const DiagList *l);
void run_output_gap_lines(Run *run, const Batch *b);
void run_output_slot(Run *run, Input *in, const Batch *b, Slot *s, size_t keep_raw);
/* --export: the game g of slot s of batch b, checked into rep, in export
 * format into b->exp (on the thread that checks it: a piece's copy of a
 * game keeps no movetext).  False when out of memory. */
bool run_export_slot(const Run *run, PieceTools *t, Batch *b, Slot *s, const PgnGame *g, const GameReport *rep);

#endif
