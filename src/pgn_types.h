/* pgn_types.h - a game as the PGN reader gives it: positions, elements,
 * notes, tags, diagnostics, the reader's options (types only; the reader
 * is pgn.h). */
#ifndef PGNCHECK_PGN_TYPES_H
#define PGNCHECK_PGN_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

/* Caps: each one, when hit, yields a diagnostic and the reader moves on. */
#define PGN_MAX_TAGS 256            /* tag pairs per game */
#define PGN_MAX_TAG_VALUE 4096      /* bytes of one tag value (kept; rest dropped) */
#define PGN_MAX_TAG_NAME 64
#define PGN_MAX_ELEMS 500000        /* movetext elements (moves + variation marks) per game */
#define PGN_MAX_DEPTH 256           /* variation nesting */
#define PGN_MAX_DIAGS 200           /* reader diagnostics kept per game */
#define PGN_MAX_RAW (64u << 20)     /* bytes of a game's raw text kept when asked (at most) */
#define PGN_SLICE 192               /* bytes of a slice of a game's text (PgnSlice) */
#define PGN_TOKEN_TEXT 16           /* bytes of a move token kept (with NUL) */
#define PGN_MSG 160                 /* bytes of a diagnostic message (with NUL) */

/* A place in the input: 0-based byte offset, 1-based line and byte column. */
typedef struct PgnPos {
    uint64_t offset;
    uint32_t line;
    uint32_t col;
} PgnPos;

/* A diagnostic value (used by the reader and the game layer alike). */
typedef struct Diag {
    DiagCode code;
    Severity severity;      /* effective severity */
    PgnPos pos;
    int32_t ply;            /* 0 when not about a move */
    char move[PGN_TOKEN_TEXT]; /* the move text, "" if none */
    char msg[PGN_MSG];
} Diag;

typedef enum PgnResult {
    PGN_RES_NONE = 0,     /* no termination marker */
    PGN_RES_WHITE,        /* 1-0 */
    PGN_RES_BLACK,        /* 0-1 */
    PGN_RES_DRAW,         /* 1/2-1/2 */
    PGN_RES_UNKNOWN,      /* * */
} PgnResult;

typedef enum PgnElemKind {
    PGN_EL_MOVE = 0,      /* a SAN (or other symbol) token in move position */
    PGN_EL_VAR_START,     /* ( */
    PGN_EL_VAR_END,       /* ) */
} PgnElemKind;

typedef struct PgnElem {
    PgnPos pos;                   /* where the token starts */
    uint8_t kind;                 /* PgnElemKind */
    uint8_t len;                  /* bytes of the token (capped at PGN_TOKEN_TEXT - 1) */
    uint8_t dots;                 /* periods after the move number before this move (0 if none) */
    uint8_t truncated;            /* token was longer than text[] holds */
    uint16_t nags;                /* NAGs after the move */
    int32_t number;               /* move number written before this move, -1 if none */
    int32_t clock;                /* [%clk] after this move, centiseconds; -1 if none;
                                   * a negative time -t is kept as -1 - t (clock.c) */
    char text[PGN_TOKEN_TEXT];    /* NUL-terminated */
} PgnElem;

/* A slice of a game's text kept in place of the whole: the bytes
 * [base, base + len) of the input, within the game, taken for a finding at
 * input offset `offset` (the source line shown under it, report.c). */
typedef struct PgnSlice {
    uint64_t offset;
    uint64_t base;
    uint32_t len;
    char text[PGN_SLICE];
} PgnSlice;

/* A [%emt] (the time a move used), kept beside the elements: few games
 * have one, so a game without pays nothing for it. */
typedef struct PgnEmt {
    uint32_t elem;                /* index of the move element it follows */
    int32_t cs;                   /* centiseconds */
} PgnEmt;

/* What the reader passed over between the elements, kept only when asked
 * (PgnOptions.notes: --export formats the game from it), in the order
 * read: the text itself stays in the game's raw text (PgnGame.raw). */
typedef enum PgnNoteKind {
    PGN_NOTE_COMMENT = 0,         /* a {} comment, its braces included */
    PGN_NOTE_SEMICOLON,           /* a ';' comment, from the ';' to its line's end (not included) */
    PGN_NOTE_ESCAPE,              /* a '%' escape line in the game's text */
    PGN_NOTE_NAG,                 /* $0 to $255 (value) */
    PGN_NOTE_SUFFIX,              /* a detached suffix annotation ("!?"): value its NAG, 1-6,
                                   * or 0 when it is none of the six */
    PGN_NOTE_SKIPPED,             /* text the reader skipped with a finding (a reserved token,
                                   * a bad NAG, a variation too deep, a bad tag line) */
} PgnNoteKind;

typedef struct PgnNote {
    uint64_t offset;              /* input offset of its first byte */
    uint32_t len;                 /* bytes (capped at UINT32_MAX) */
    uint8_t kind;                 /* PgnNoteKind */
    uint8_t value;
} PgnNote;

typedef struct PgnTag {
    const char *name;             /* NUL-terminated, in the game's arena */
    const char *value;            /* unescaped, NUL-terminated */
    PgnPos pos;                   /* position of '[' */
    PgnPos value_pos;             /* position of the opening '"' */
} PgnTag;

/* One game as read.  Memory belongs to the reader's game object and is
 * valid until the same PgnGame is passed to pgn_next() again.
 *
 * Game boundaries (pgn.c): a game starts at its first tag's '[' or, for a
 * game without tags, at its first movetext byte.  It ends (end_offset, one
 * past the last byte):
 *  - after a termination marker: past the rest of the marker's line,
 *    including its line end (CRLF whole); blanks, a ';' comment and '{}'
 *    comments there belong to the game; any other token on that line ends
 *    the game just before it;
 *  - at the '[' of a tag section that follows without a marker (also after
 *    an unterminated comment, and at the resync line after a syntax error);
 *  - at the end of input.
 * Bytes between one game's end_offset and the next game's start are
 * inter-game text (blank lines, % escape lines, non-game text), so the
 * games' raw bytes and the gaps concatenate to the whole input.
 *
 * Movetext conventions: a separate "e.p." token is appended to the previous
 * move's text ("exd6 e.p." gives "exd6e.p."); detached '!'/'?' tokens count
 * as NAGs of the previous move; a new game begins at a line (first token)
 * "[Name \"" after a blank line within tags (or one that begins with '['
 * but is no tag pair, after a blank line after a tag pair), or at any line
 * that begins with '[' in movetext; a tag section separated from the previous one by a blank line
 * is a new game (headers-only files), and so is an Event pair after an
 * Event pair in one tag section, within a line too ('[Event "a"][Event
 * "b"]' is two games).  Event is the name in any case here ([event "a"]),
 * as the game layer honours a known tag name in another case. */
typedef struct PgnGame {
    uint64_t index;               /* 1-based game number in this input */
    PgnPos start;                 /* first byte of the game (its first tag, or first movetext byte) */
    uint64_t end_offset;          /* one past the last byte of the game */
    PgnTag *tags;
    size_t ntags;
    PgnElem *elems;
    size_t nelems;
    PgnResult result;             /* the termination marker */
    PgnPos result_pos;
    bool start_line_tok;          /* a token stood before the game's first byte on its line */
    bool truncated;               /* input ended inside the game */
    bool out_of_memory;           /* an allocation failed: the game is not wholly stored */
    bool syntax_error;            /* reading stopped at a syntax error: movetext incomplete */
    bool tag_case_twin;           /* two tag names equal but for case ([FEN] and [fen]) */
    bool clocks;                  /* a [%clk] or [%emt] was read: clock.c looks only then */
    Diag *diags;                  /* reader diagnostics about this game */
    size_t ndiags;
    size_t ndiags_dropped;
    const char *raw;              /* the game's bytes [start.offset, end_offset) if keep_raw */
    size_t raw_len;
    bool raw_complete;            /* false if the game exceeded the raw cap (PgnOptions.raw_max) */
    const PgnSlice *slices;       /* slices of the text kept without it (pgn_game_add_slice) */
    size_t nslices;
    const PgnEmt *emts;           /* the [%emt] values of the stored moves, in text order */
    size_t nemts;
    const PgnNote *notes;         /* PgnOptions.notes: what lies between the elements, in text order */
    size_t nnotes;
    bool notes_dropped;           /* a note was not kept (the cap, or memory) */
    /* The text before the game, from where the previous game ended (or the
     * reader started) to the game's first byte, as --strict's export checks
     * need it (strict.c): its line ends and bytes, and the '%' escape lines
     * and ';' comments in it, with the first of each (line 0: none).
     * gap_lines is UINT32_MAX when the game before ended without a
     * termination marker (or at a syntax error): it ran on to this game's
     * first byte, and the text between them is its text. */
    uint32_t gap_lines;
    uint32_t gap_bytes;           /* (capped at UINT32_MAX) */
    uint32_t gap_escapes;
    uint32_t gap_semicolons;
    PgnPos gap_escape_pos;
    PgnPos gap_semicolon_pos;
    void *priv;                   /* reader-private storage */
} PgnGame;

/* Source of bytes: returns bytes read (>0), 0 at end of input, -1 on error
 * (errno set). */
typedef long (*PgnReadFn)(void *ctx, char *buf, size_t cap);

typedef struct PgnOptions {
    bool keep_raw;                /* keep each game's raw bytes in PgnGame.raw */
    size_t raw_max;               /* of them at most this many (0: PGN_MAX_RAW) */
    uint64_t offset;              /* input offset of the source's first byte: a
                                   * reader started inside a file (at a sync
                                   * point, below) counts offsets from the file's
                                   * start and lines from 1; no BOM test */
    /* A reader started at a game that begins inside a line (where another
     * reader stopped, PgnGame.start and start_line_tok): the column of the
     * first byte (0 or 1: a line's start) and whether a token stood before
     * it on its line. */
    uint32_t column;
    bool line_tok;
    bool notes;                   /* keep the comments, NAGs and escape lines (PgnGame.notes) */
} PgnOptions;

#endif
