/* pgn_buf.h - the layer beneath the PGN reader's rooms (as Lua keeps
 * lzio beneath llex): the reader's state, its input window (refill,
 * blanks, lines, lookahead) and the game being built (its storage,
 * diagnostics and notes).  The rooms above it, pgn_tags, pgn_movetext and
 * pgn_comment, read through it and say how a game ended (PgnEnd); pgn.c,
 * the framing, acts on that.  Nothing here calls up.  Not for other
 * modules. */
#ifndef PGNCHECK_PGN_BUF_H
#define PGNCHECK_PGN_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgn_bytes.h"
#include "pgn_types.h"
#include <string.h>

typedef struct PgnReader PgnReader;

/* How a room ended the game it read (PgnReader.ended), for pgn.c to act
 * on: the room returns at once, and the framing finishes the game. */
typedef enum PgnEnd {
    PGN_END_NONE = 0,             /* not ended (the tags: the movetext begins) */
    PGN_END_AT,                   /* the game ends at input offset end_at */
    PGN_END_RESULT,               /* its termination marker end_res at end_pos (pos past it):
                                   * the rest of the marker's line belongs to it */
    PGN_END_SYNTAX,               /* a syntax error end_code at buf[pos], end_what: the rest
                                   * of the game is skipped to the next tag section */
} PgnEnd;

/* ---------------------------------------------------------------------
 * Reader and per-game private storage.
 * ------------------------------------------------------------------- */
#define BUF_CAP (64u * 1024u)    /* input window */
#define LOOKAHEAD 160            /* bytes needed to recognise a tag start */
#define FILE_DIAGS 64            /* file-level diagnostics queued per pgn_next */
#define CMD_WINDOW 128           /* bytes of a [%cmd ...] comment command examined, from its '%' */
#define ELEMS_INIT 256
#define FAST_GUARD 64             /* bytes that must follow a token for the fast path */
#define NO_LAST UINT64_MAX         /* movetext_fast: no token offset pending */

typedef struct GameStore {
    char *arena;                  /* tag names and values (the tags point into it) */
    size_t alen, acap;
    size_t tcap;
    size_t ecap;
    char *raw;
    size_t rawcap;
    PgnSlice *slices;
    size_t scap;
    PgnEmt *emts;
    size_t mcap;
    PgnNote *notes;
    size_t ncap;
} GameStore;

struct PgnReader {
    PgnReadFn read;
    void *ctx;
    PgnOptions opt;
    unsigned char *buf;           /* buf[pos-1] is always the byte before buf[pos];
                                   * buf[end] is a 0 sentinel */
    size_t pos, end;
    uint64_t base;                /* input offset of buf[0] (wraps at start: -1) */
    uint64_t total;               /* bytes delivered by the source */
    bool eof, failed, fail_returned, started;
    int fail_errno;
    uint32_t line;                /* line of buf[pos] */
    uint64_t line_start;          /* offset of the first byte of that line */
    unsigned nl_run;              /* line ends in the last whitespace run */
    bool line_tok;                /* a token was seen on the current line */
    unsigned tag_nl;              /* line ends read after a tag pair not closed by ] */
    uint64_t index;
    Diag fdiag[FILE_DIAGS];
    size_t nfdiag;
    bool ng_reported;             /* NON_GAME_TEXT already reported for this gap */
    uint64_t gap_skipped;         /* '%' and ';' lines between games (pgn_take_gap_lines) */
    bool gap_unknown;             /* the last game ended without a marker, where the next began */
    /* current game */
    PgnGame *g;
    bool raw_on;
    uint64_t raw_next;
    bool bad_byte;                /* BAD_BYTE reported in this game */
    bool too_deep, too_long, too_many_tags;
    uint64_t tag_bloom[2];        /* names of this game's tags, see tag_commit */
    uint32_t depth;
    int32_t pend_num;
    unsigned pend_dots;
    PgnPos last_tok;
    unsigned cm_nl;               /* comment: line ends since last non-blank byte */
    bool cm_lws;                  /* comment: current line blank so far */
    /* how the game ended (PgnEnd) */
    PgnEnd ended;
    uint64_t end_at;
    PgnResult end_res;
    PgnPos end_pos;
    DiagCode end_code;
    char end_what[64];
};

/* The room's outcomes (PgnEnd); each returns true, "the game ended". */
static inline bool pgn_ends_at(PgnReader *r, uint64_t end)
{
    r->ended = PGN_END_AT;
    r->end_at = end;
    return true;
}

static inline bool pgn_ends_result(PgnReader *r, PgnResult res, PgnPos p)
{
    r->ended = PGN_END_RESULT;
    r->end_res = res;
    r->end_pos = p;
    return true;
}

/* (what: a message of fewer than 64 bytes) */
static inline bool pgn_ends_syntax(PgnReader *r, DiagCode code, const char *what)
{
    size_t n = strlen(what);
    if (n >= sizeof r->end_what)
        n = sizeof r->end_what - 1;
    memcpy(r->end_what, what, n);
    r->end_what[n] = '\0';
    r->ended = PGN_END_SYNTAX;
    r->end_code = code;
    return true;
}

/* ---------------------------------------------------------------------
 * Small helpers.
 * ------------------------------------------------------------------- */
static inline uint64_t off_of(const PgnReader *r, size_t i) { return r->base + i; }

static inline PgnPos pos_of(const PgnReader *r, size_t i)
{
    PgnPos p;
    p.offset = r->base + i;
    p.line = r->line;
    uint64_t col = p.offset - r->line_start + 1;
    p.col = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
    return p;
}

/* Accounts for the line end at buf[i] ('\n' or '\r'; CRLF counts once). */
static inline void newline_at(PgnReader *r, size_t i)
{
    if (!(r->buf[i] == '\n' && r->buf[i - 1] == '\r'))
        r->line++;
    r->line_start = r->base + i + 1;
    r->line_tok = false;
}

/* Is the name at s "Event" in any case?  A known tag name in another case
 * counts as that tag (game.c, check_tag_case), so [event "..."] bounds
 * games as [Event "..."] does.  It stops at the first byte that differs,
 * so a NUL-terminated name shorter than 5 bytes is not read past its NUL
 * (| 32 maps only 'E' and 'e' to 'e', and so on). */
static inline bool name_event(const unsigned char *s)
{
    return (s[0] | 32) == 'e' && (s[1] | 32) == 'v' && (s[2] | 32) == 'e' && (s[3] | 32) == 'n'
           && (s[4] | 32) == 't';
}

#if defined(__SSE2__) && !defined(PGN_NO_SIMD) && defined(PGN_SWAR)
#define PGN_POS128 1
/* A position p bytes further on the same line is the position as
 * {offset, line | column << 32} plus {p, p << 32}: one 128-bit add and store
 * (pos_add[p] is that addend), for the walk's elements (from their block's
 * start) and tag values (from their tag's '['). */
#define PA2(p) {(p), (uint64_t)(p) << 32}, {(p) + 1, (uint64_t)((p) + 1) << 32}
#define PA8(p) PA2(p), PA2((p) + 2), PA2((p) + 4), PA2((p) + 6)
static const uint64_t pos_add[64][2] = {PA8(0), PA8(8), PA8(16), PA8(24), PA8(32), PA8(40), PA8(48), PA8(56)};
#undef PA8
#undef PA2
#endif
/* walk_body and tag_lines store a position's line and column as one word */
_Static_assert(offsetof(PgnPos, line) == 8 && offsetof(PgnPos, col) == 12, "PgnPos layout assumed");

/* The last element if it is a move of the current (stored) line. */
static inline PgnElem *pgn_last_move(PgnReader *r)
{
    PgnGame *g = r->g;
    if (r->depth > PGN_MAX_DEPTH || g->nelems == 0)
        return NULL;
    PgnElem *el = &g->elems[g->nelems - 1];
    return el->kind == PGN_EL_MOVE ? el : NULL;
}

/* PgnOptions.notes: a note of kind k on the input bytes [off, off + len)
 * of the current game, value as PgnNote has it (pgn.c). */
void pgn_note_add(PgnReader *r, PgnNoteKind k, uint64_t off, uint64_t len, unsigned value);
static inline void pgn_note(PgnReader *r, PgnNoteKind k, uint64_t off, uint64_t len, unsigned value)
{
    if (r->opt.notes && r->g)
        pgn_note_add(r, k, off, len, value);
}

/* A diagnostic value. */
void pgn_fill_diag(Diag *d, DiagCode code, PgnPos pos, const char *msg);
/* Appends input bytes up to offset upto of the current game to its raw
 * text (PgnOptions.keep_raw). */
void pgn_raw_take(PgnReader *r, uint64_t upto);
/* A new element when the game's array is full: the array grown, or NULL
 * (said once: the cap, or out of memory). */
PgnElem *pgn_elem_slow(PgnReader *r, PgnPos p);
/* Makes room for need elements without a diagnostic; false if the cap or
 * memory does not allow it. */
bool pgn_elems_reserve(PgnReader *r, size_t need);

/* Reader diagnostics about the current game: kept up to
 * PGN_MAX_DIAGS, then counted. */
void pgn_game_diag(PgnReader *r, DiagCode code, PgnPos pos, const char *msg);
/* BAD_BYTE for the byte c at buf[i], once a game. */
void pgn_bad_byte(PgnReader *r, size_t i, unsigned c);

/* Discards consumed bytes (keeping one byte of history) and reads more.
 * Returns the bytes now available after pos (0 at end of input). */
size_t pgn_refill(PgnReader *r);
/* Ensures n bytes after pos are buffered, unless input ends first. */
static inline size_t pgn_need(PgnReader *r, size_t n)
{
    while (r->end - r->pos < n && !r->eof)
        pgn_refill(r);
    return r->end - r->pos;
}
/* Skips whitespace, counting line ends into nl_run.  Returns false at end
 * of input. */
bool pgn_skip_ws(PgnReader *r);
/* Skips to the end of the current line, consuming the line end (CRLF whole). */
void pgn_skip_line(PgnReader *r);

/* pgn_skip_ws after a fast path, which mostly stops at a token: its result
 * without the call there. */
static inline bool pgn_skip_ws_at(PgnReader *r)
{
    if (r->pos < r->end && !(pgn_cls[r->buf[r->pos]] & K_WS)) {
        r->nl_run = 0;
        return true;
    }
    return pgn_skip_ws(r);
}

/* Is buf[pos] the start of a tag pair: '[' blanks Name blanks '"'?
 * If event is non-NULL it receives whether Name is "Event" (any case). */
bool pgn_tag_like(PgnReader *r, bool *event);

#endif
