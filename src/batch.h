/* batch.h - the games a thread checks at once: a batch of games read by the
 * main thread, or a piece of a file or segment of a pipe (pieces.h) that
 * the thread reads itself; and what every checking thread goes by. */
#ifndef PGNCHECK_BATCH_H
#define PGNCHECK_BATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "game.h"
#include "input.h"
#include "options.h"
#include "pgn.h"
#include "pgn_export.h"
#include "report.h"

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

/* What the threads that read and check batches go by: set before they
 * start (run.c), then only read. */
typedef struct BatchConfig {
    const Options *opt;
    bool text_lines;            /* the diagnostics show errors' source lines (text format), or
                                 * count characters of their lines (github) */
    bool github;
    bool copying;               /* --select, --fix-results */
    bool raw_check;             /* the checks read the game's text (--strict, --fix-results) */
    KeepText keep_text;         /* which checked games' tags and text a piece copies */
    /* The records are formatted by the threads that check the games, into
     * their batch's Batch.rec, and the output side only writes them (JSON
     * Lines and TSV with -jN: the thread that writes them in order formatted
     * every record, and was the bottleneck: tests/BENCH.md). */
    bool defer;
    bool ids;                   /* games need their identity (Slot.ident: baselines) */
} BatchConfig;

void batch_tools_free(PieceTools *t);

/* Slot i exists, with its game allocated. */
bool batch_slot_ready(Batch *b, size_t i) __attribute__((warn_unused_result));

/* Keeps a copy of the reader's file-level findings (their severity as
 * the options say; those turned off dropped). */
bool batch_diags_take(DiagList *l, PgnReader *r, const Options *opt) __attribute__((warn_unused_result));

/* The reader's options for an input's games (stream: from a pipe). */
PgnOptions batch_read_options(const BatchConfig *cfg, bool stream);

/* Keeps in dst the slices of src's raw text its errors' lines are cut from. */
bool batch_keep_slices(const BatchConfig *cfg, PgnGame *dst, PgnGame *src, const GameReport *rep)
    __attribute__((warn_unused_result));

/* A file-level finding as reported: a read error with the reason the
 * input knows (a decompressor's exit). */
Diag batch_diag_with_why(const Input *in, const Diag *d);

/* BatchConfig.defer: formats file-level findings, or a checked game, into
 * the batch's records (on the thread that checks the batch). */
void batch_defer_diags(const Batch *b, const DiagList *l);
void batch_defer_game(const Batch *b, const DiagList *pre, const PgnGame *g, const GameReport *rep);

/* --export: the game g of slot s of batch b, checked into rep, in export
 * format into b->exp (on the thread that checks it: a piece's copy of a
 * game keeps no movetext).  False when out of memory. */
bool batch_export_slot(const BatchConfig *cfg, PieceTools *t, Batch *b, Slot *s, const PgnGame *g,
                       const GameReport *rep);

#endif
