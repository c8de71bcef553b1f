/* pgn_movetext.c - movetext: the block walk and byte fast path, and the
 * general token steps behind them (knows no chess; comments: pgn_comment.c). */
#include "pgn_movetext.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "pgn_comment.h"

#ifdef PGN_SWAR
/* slot_init writes the fields after pos as two words: the layout it assumes */
_Static_assert(offsetof(PgnElem, kind) == 16 && offsetof(PgnElem, len) == 17 && offsetof(PgnElem, dots) == 18
               && offsetof(PgnElem, truncated) == 19 && offsetof(PgnElem, nags) == 20
               && offsetof(PgnElem, number) == 24 && offsetof(PgnElem, clock) == 28
               && offsetof(PgnElem, text) == 32 && sizeof(PgnElem) == 48 && PGN_EL_MOVE == 0,
               "PgnElem layout assumed by slot_init");
#endif
/* Readies *el for a move after move number number (-1: none) and dots
 * periods: every field but position, length and text. */
static inline void slot_init(PgnElem *el, int32_t number, unsigned dots)
{
#ifdef PGN_SWAR
    uint64_t meta = (uint64_t)dots << 16;                           /* kind 0, len 0, truncated 0, nags 0 */
    uint64_t nc = (uint64_t)(uint32_t)number | (uint64_t)UINT32_MAX << 32;   /* clock -1 */
    memcpy((unsigned char *)el + 16, &meta, 8);
    memcpy((unsigned char *)el + 24, &nc, 8);
#else
    el->kind = PGN_EL_MOVE;
    el->len = 0;
    el->dots = (uint8_t)dots;
    el->truncated = 0;
    el->nags = 0;
    el->number = number;
    el->clock = -1;
#endif
}

/* A move element from the fast paths: the token at t (len bytes, shorter
 * than PGN_TOKEN_TEXT, with at least PGN_TOKEN_TEXT readable bytes) at
 * offset off, line line, column col, with the move number and periods
 * written before it. */
static inline void move_elem(PgnElem *el, uint64_t off, uint32_t line, uint32_t col, const unsigned char *t,
                             unsigned len, int32_t number, unsigned dots)
{
    el->pos.offset = off;
    el->pos.line = line;
    el->pos.col = col;
    slot_init(el, number, dots);
    el->len = (uint8_t)len;
    memcpy(el->text, t, PGN_TOKEN_TEXT);
    el->text[len] = '\0';
}

static inline PgnElem *new_elem(PgnReader *r, PgnElemKind kind, PgnPos p)
{
    PgnGame *g = r->g;
    PgnElem *el;
    if (g->nelems < ((GameStore *)g->priv)->ecap)
        el = &g->elems[g->nelems++];
    else if ((el = pgn_elem_slow(r, p)) == NULL)
        return NULL;
    el->pos = p;
    el->kind = (uint8_t)kind;
    el->len = 0;
    el->dots = 0;
    el->truncated = 0;
    el->nags = 0;
    el->number = -1;
    el->clock = -1;
    el->text[0] = '\0';
    return el;
}

/* ---------------------------------------------------------------------
 * Symbols.  Reads a run of bytes of class mask starting at pos into
 * tok (up to PGN_TOKEN_TEXT-1 bytes kept); returns the full length.
 * ------------------------------------------------------------------- */
static size_t read_run(PgnReader *r, unsigned mask, char *tok)
{
    size_t len = 0;
    for (;;) {
        const unsigned char *b = r->buf;
        size_t i = r->pos, e = r->end;
        while (i < e && (pgn_cls[b[i]] & mask)) {
            if (len < PGN_TOKEN_TEXT - 1)
                tok[len] = (char)b[i];
            len++;
            i++;
        }
        r->pos = i;
        if (i < e || pgn_refill(r) == 0)
            break;
    }
    tok[len < PGN_TOKEN_TEXT - 1 ? len : PGN_TOKEN_TEXT - 1] = '\0';
    return len;
}

/* Stores a move token (text already in tok, NUL-terminated, full length len). */
static inline void emit_move(PgnReader *r, PgnPos p, const char *tok, size_t full)
{
    size_t len = full < PGN_TOKEN_TEXT - 1 ? full : PGN_TOKEN_TEXT - 1;
    r->last_tok = p;
    if (r->depth > PGN_MAX_DEPTH) {
        r->pend_num = -1;
        r->pend_dots = 0;
        return;
    }
    PgnElem *el = new_elem(r, PGN_EL_MOVE, p);
    if (el == NULL)
        return;
    memcpy(el->text, tok, len);
    el->text[len] = '\0';
    el->len = (uint8_t)len;
    el->number = r->pend_num;
    el->dots = (uint8_t)r->pend_dots;
    r->pend_num = -1;
    r->pend_dots = 0;
    if (full > len) {
        el->truncated = 1;
        pgn_game_diag(r, D_TOKEN_TOO_LONG, p, "symbol longer than any move; kept truncated");
    }
}

/* Comments the movetext fast path reads in place, at s[0] == '{' with n
 * bytes buffered: "{ [%clk H:MM:SS] }" (blanks inside the braces optional,
 * ".f" after the seconds optional, an "[%eval x] " before it allowed), whose
 * time goes to *cs, and comments of printable ASCII without '%' (*cs = -1).
 * Returns the comment's length, or 0 for anything else (read_comment then
 * takes it). */
typedef size_t (*PlainFn)(const unsigned char *s, size_t n);
ALWAYS_INLINE static inline size_t fast_comment(const unsigned char *s, size_t n, int32_t *cs, PlainFn plain)
{
#ifdef PGN_SWAR
    /* the usual "{ [%clk H:MM:SS] }" with word operations: the second word
     * xor "0:00:00]" has its bytes at most 9, 0, 5, 9, 0, 5, 9, 0 (adding
     * 0x7F - limit to each sets bit 7 of the bytes above it) */
    if (n >= 48 && memcmp(s, "{ [%clk ", 8) == 0 && s[16] == ' ' && s[17] == '}') {
        uint64_t x = load64(s + 8) ^ UINT64_C(0x5D30303A30303A30);
        if ((((x + UINT64_C(0x7F767A7F767A7F76)) | x) & W_HIGH) == 0) {
            unsigned h = (unsigned)x & 0xFF, m = ((unsigned)(x >> 16) & 0xFF) * 10 + ((unsigned)(x >> 24) & 0xFF);
            unsigned sec = ((unsigned)(x >> 40) & 0xFF) * 10 + ((unsigned)(x >> 48) & 0xFF);
            *cs = (int32_t)(((h * 60 + m) * 60 + sec) * 100);
            return 18;
        }
    }
#endif
    size_t k = 1 + (s[1] == ' ');
    *cs = -1;
    if (n >= 48 && memcmp(s + k, "[%eval ", 7) == 0) {
        size_t j = k + 7;
        while (j < k + 20 && (pgn_digc[s[j]] || s[j] == '.' || s[j] == '-' || s[j] == '+' || s[j] == '#'))
            j++;
        if (s[j] != ']' || s[j + 1] != ' ')
            return 0;
        k = j + 2;
    }
    if (n >= 48 && memcmp(s + k, "[%clk ", 6) == 0) {
        const unsigned char *t = s + k + 6;
        unsigned h = (unsigned)t[0] - '0', m1 = (unsigned)t[2] - '0', m0 = (unsigned)t[3] - '0';
        unsigned s1 = (unsigned)t[5] - '0', s0 = (unsigned)t[6] - '0';
        if ((h > 9) | (m0 > 9) | (s0 > 9) | (m1 > 5) | (s1 > 5) | (t[1] != ':') | (t[4] != ':'))
            return 0;
        unsigned frac = 0;
        k += 6 + 7;
        if (s[k] == '.') {
            frac = (unsigned)s[k + 1] - '0';
            if (frac > 9 || pgn_digc[s[k + 2]])
                return 0;
            frac *= 10;
            k += 2;
        }
        if (s[k] != ']')
            return 0;
        k += 1 + (s[k + 1] == ' ');
        if (s[k] != '}')
            return 0;
        *cs = (int32_t)((((h * 60 + m1 * 10 + m0) * 60) + s1 * 10 + s0) * 100 + frac);
        return k + 1;
    }
    size_t q = plain(s + 1, n - 1);
    return s[1 + q] == '}' ? q + 2 : 0;
}

/* A comment met in movetext; returns true if it ended the game. */
static bool movetext_comment(PgnReader *r, PgnPos p)
{
    PgnGame *g = r->g;
    int rc = pgn_read_comment(r);
    if (rc == 0) {
        pgn_note(r, PGN_NOTE_COMMENT, p.offset, off_of(r, r->pos) - p.offset, 0);
        return false;
    }
    if (rc == 1) {
        pgn_game_diag(r, D_UNTERMINATED_COMMENT, p, "comment not closed before the end of input");
        g->syntax_error = true;
        g->truncated = true;
        return pgn_ends_at(r, off_of(r, r->pos));
    }
    if (rc == 2) {
        pgn_game_diag(r, D_UNTERMINATED_COMMENT, p, "comment not closed before the next game");
        g->syntax_error = true;
        return pgn_ends_at(r, off_of(r, r->pos));
    }
    return false;
}

/* State of the movetext block walk (walk_blocks), shared with movetext_fast. */
typedef struct Walk {
    uint64_t base, lstart;
    uint32_t line;
    int32_t pnum;
    unsigned pdots;
    bool ltok;
    uint64_t last_off;            /* offset of the last token (on the current line), or NO_LAST */
    PgnPos last;                  /* the last token if last_off is NO_LAST */
    PgnElem *el;                  /* the next element */
    PgnElem *el_begin;            /* the game's first element */
    size_t room;                  /* elements that fit from el on */
    bool clocks;                  /* a [%clk] was read (PgnGame.clocks) */
    Masks next_mk;                /* the next block's masks (walk_body) */
} Walk;

/* Every bit below bit k (k <= 64). */
static inline uint64_t below(unsigned k) { return k >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << k) - 1; }

/* The run the first bad bit of bad (not 0) falls in: the highest run start
 * of rs at or below it. */
static inline unsigned bad_run_at(uint64_t bad, uint64_t rs)
{
    return top64(rs & (((uint64_t)2 << ctz64(bad)) - 1));
}

/* The bytes of a block's runs (masks mk, run starts rs) the walk does not
 * take: runs starting with a byte other than a letter or digit, with a
 * byte other than a letter or period right after a period, or with a
 * period right after a letter (a separate "e.p."); and runs starting with
 * a move number it does not take: more than three digits, or digits
 * followed by anything but a period, a blank or the end of the run ("1-0",
 * "1/2-1/2", "12a").  The walk stops at the first such run. */
ALWAYS_INLINE static inline uint64_t bad_runs(const Masks *mk, uint64_t rs)
{
    uint64_t tm = mk->tok, dg = mk->dg, dt = mk->dt;
    uint64_t bad = (((rs & ~dg) | (tm & ~dt & (dt << 1))) & ~mk->al) | (dt & (mk->al << 1));
    /* dg + ds carries each digit prefix of a run into the byte after it */
    uint64_t ds = rs & dg;
    return bad | (ds & dg >> 1 & dg >> 2 & dg >> 3) | ((dg + ds) & ~dg & ~dt & ~mk->sp & ~mk->nl);
}

/* A move number at byte p of the block bw, its digits dg and periods dt:
 * its value and periods go to the pending element el; returns the byte
 * after the periods (the move of the same run, if any). */
ALWAYS_INLINE static inline unsigned number_event(PgnElem *el, const unsigned char *bw, unsigned p, uint64_t dg,
                                                  uint64_t dt)
{
    /* all lengths from the masks (the run ends inside the block) */
    const unsigned char *t = bw + p;
    unsigned len = ctz64(~(dg >> p));     /* 1 to 3 (see bad) */
    unsigned q = p + len;
    uint32_t v = (uint32_t)(t[0] - '0');
    uint32_t d1 = (uint32_t)(t[1] - '0'), d2 = (uint32_t)(t[2] - '0');
    uint32_t v2 = v * 10 + d1, v3 = v2 * 10 + d2;
    v = len >= 2 ? v2 : v;
    v = len == 3 ? v3 : v;
    unsigned dd = ctz64(~(dt >> q));
    el->number = (int32_t)v;
    el->dots = (uint8_t)dd;
    return q + dd;
}

/* The position of a block's first byte as one vector (pos_add). */
#ifdef PGN_POS128
typedef __m128i PosBase;
#define POS_BASE(lc, off0) _mm_set_epi64x((long long)(lc), (long long)(off0))
#else
typedef int PosBase;
#define POS_BASE(lc, off0) 0
#endif

/* A move, len bytes at byte p of the block bw (at input offset off0, its
 * line and first column lc, both as pb), into el; the next element is
 * readied for a move. */
ALWAYS_INLINE static inline void move_event(PgnElem *el, const unsigned char *bw, unsigned p, unsigned len,
                                            uint64_t off0, uint64_t lc, PosBase pb)
{
#ifdef PGN_POS128
    (void)off0;
    (void)lc;
    _mm_storeu_si128((__m128i *)(void *)&el->pos,
                     _mm_add_epi64(pb, _mm_loadu_si128((const __m128i *)(const void *)pos_add[p])));
#elif defined(PGN_SWAR)
    (void)pb;
    el->pos.offset = off0 + p;
    uint64_t w2 = lc + ((uint64_t)p << 32);
    memcpy((unsigned char *)el + 8, &w2, 8);
#else
    (void)pb;
    el->pos.offset = off0 + p;
    el->pos.line = (uint32_t)lc;
    el->pos.col = p + (uint32_t)(lc >> 32);
#endif
    el->len = (uint8_t)len;
    memcpy(el->text, bw + p, PGN_TOKEN_TEXT);
    el->text[len] = '\0';
    slot_init(el + 1, -1, 0);
}

/* The walk's place on its line: the line (low half of lc) and the column
 * of the block's first byte (high half), the line's start, the last token
 * of the line (last_off, or the last move of el_line..el) and whether
 * one was seen (ltok). */
typedef struct WalkLine {
    uint64_t lc, lstart, last_off;
    PgnElem *el_line;
    bool ltok;
} WalkLine;

/* The last token's offset, el the next element (see WalkLine). */
ALWAYS_INLINE static inline uint64_t last_off_of(const WalkLine *wl, const PgnElem *el)
{
    return el > wl->el_line && (wl->last_off == NO_LAST || el[-1].pos.offset > wl->last_off) ? el[-1].pos.offset
                                                                                               : wl->last_off;
}

/* Line ends are not events: the line ends lm of the block bw (at offset
 * off0), before an event or the end of the block, are counted when it is
 * reached.  The last token's position is fixed first (it is on the old
 * line), in s->last. */
ALWAYS_INLINE static inline void line_ends(WalkLine *wl, Walk *s, PgnElem *el, uint64_t lm, const unsigned char *bw,
                                           uint64_t off0)
{
    wl->ltok = false;
    uint64_t last_off = last_off_of(wl, el);
    wl->el_line = el;
    if (last_off != NO_LAST) {
        s->last.offset = last_off;
        s->last.line = (uint32_t)wl->lc;
        s->last.col = (uint32_t)(last_off - wl->lstart + 1);
        last_off = NO_LAST;
    }
    wl->last_off = last_off;
    uint32_t ln = (uint32_t)wl->lc;
    unsigned at;
    do {
        at = ctz64(lm);
        ln += !(bw[at] == '\n' && (bw - 1)[at] == '\r');
        lm &= lm - 1;
    } while (lm);
    wl->lstart = off0 + at + 1;
    wl->lc = ln | (uint64_t)(0u - at) << 32;
}

/* A comment at byte p of the block bw, n bytes buffered from it, read in
 * place (fast_comment), its clock going to the move before el: returns the
 * byte after it, or 0 if it is not read in place (the walk stops). */
ALWAYS_INLINE static inline unsigned comment_event(const unsigned char *bw, unsigned p, size_t n, PlainFn plain,
                                                   PgnElem *el, Walk *s)
{
    int32_t cs;
    size_t len = fast_comment(bw + p, n, &cs, plain);
    if (len == 0)
        return 0;
    if (cs >= 0) {
        s->clocks = true;
        if (el != s->el_begin && el[-1].kind == PGN_EL_MOVE)
            el[-1].clock = cs;
    }
    return p + (unsigned)len;
}

/* The events of a block after a comment that ends at byte end, before its
 * first bad run (runs inside the comment do not count: *bad and *badrun
 * are moved past it). */
ALWAYS_INLINE static inline uint64_t events_after(unsigned end, uint64_t *bad, unsigned *badrun, uint64_t rs,
                                                  uint64_t ev_all)
{
    if (*badrun < end) {
        *bad &= ~(uint64_t)0 << end;
        *badrun = *bad ? bad_run_at(*bad, rs) : 64;
    }
    return ev_all & ~(uint64_t)0 << end & below(*badrun);
}

/* The walk's state from s (el = s->el): the place on the line in *wl;
 * returns whether el holds the pending number and periods.  They wait in
 * the next element: its fields but position, length and text are those
 * of a move after them (slot_init), a move number writes its value and
 * periods there, and a move fills in the rest and readies the element
 * after it.  Blocks are walked only with room for 64 elements, so
 * el < el_end while they are. */
ALWAYS_INLINE static inline bool walk_begin(Walk *s, WalkLine *wl)
{
    PgnElem *el = s->el;
    bool slot = s->room > 0;
    if (slot)
        slot_init(el, s->pnum, s->pdots);
    wl->lstart = s->lstart;
    wl->lc = s->line;
    wl->ltok = s->ltok;           /* see walk_done */
    /* The last token on the current line: moves leave it to their
     * elements (the last of el_line..el, made after the last line end, is
     * the last move), numbers set last_off; the later of the two counts. */
    wl->last_off = s->last_off;
    wl->el_line = el;
    return slot;
}

/* Writes the walk's state back to s where it stopped (el the next
 * element, slot whether it holds the pending number and periods). */
ALWAYS_INLINE static inline void walk_done(Walk *s, WalkLine *wl, PgnElem *el, PgnElem *el_end, bool slot)
{
    /* a token after the last line end leaves last_off set */
    uint64_t last_off = last_off_of(wl, el);
    s->ltok = wl->ltok || last_off != NO_LAST;
    s->lstart = wl->lstart;
    s->line = (uint32_t)wl->lc;
    if (slot) {
        s->pnum = el->number;
        s->pdots = el->dots;
    }
    s->last_off = last_off;
    s->room = (size_t)(el_end - el);
    s->el = el;
}

/* Block walk: the 64 bytes at w classified at once; the events (non-blank
 * bytes that do not continue a symbol) are visited in order with bit
 * operations, so a token's place does not wait on the previous token's
 * bytes.  A symbol run still open at the end of a block is left to the
 * next block.  Walks blocks from b[i] while a whole block lies below lim and
 * at least 64 elements fit; stops at anything unusual (the byte dispatch in
 * movetext_fast takes it).  The 64 bytes from lim on must be in the buffer
 * too (lim <= e - 64, as movetext_fast's FAST_GUARD makes it): each block's
 * successor, which can begin at its end, is classified ahead: before the
 * block's events, as its start depends on this block's masks (lt), so
 * otherwise its load and classification would wait for them and then
 * stall the start of its events; now they overlap this block's events
 * (faster for a few more instructions: tests/BENCH.md).  It
 * is in the buffer: i + lt + 64 <= i + 128 <= lim + 64 <= e.  A walk that
 * goes elsewhere (past a comment, or out) classifies again.  Returns the
 * index where the walk stopped; *need_room is set if it stopped for want of
 * element room.  classify is classify64 or a variant with the same masks,
 * plain comment_plain or a variant with the same results. */
_Static_assert(FAST_GUARD >= 64, "walk_body classifies the 64 bytes after a block that ends at lim");
typedef void (*ClassifyFn)(const unsigned char *s, Masks *mk);
/* walk_body stores an element's line and column as one word */
_Static_assert(offsetof(PgnElem, pos) == 0 && offsetof(PgnPos, line) == 8 && offsetof(PgnPos, col) == 12,
               "PgnPos layout assumed by walk_body");
ALWAYS_INLINE static inline size_t walk_body(Walk *s, const unsigned char *b, size_t i, size_t lim, size_t e,
                                             bool *need_room, ClassifyFn classify, PlainFn plain)
{
    const uint64_t base = s->base;
    WalkLine wl;
    PgnElem *el = s->el;
    PgnElem *const el_end = s->el + s->room;
    const bool slot = walk_begin(s, &wl);
    *need_room = false;
    /* Columns that cannot saturate: if no block up to lim can reach
     * UINT32_MAX columns from the line start at entry, none is tested */
    const bool col_test = base + lim + 64 - wl.lstart >= UINT32_MAX;
    size_t next_i = SIZE_MAX;       /* where next_mk was classified */
    while (lim - i >= 64 && i < lim) {
        if ((size_t)(el_end - el) < 64) {   /* room for every element a block can hold */
            *need_room = true;
            break;
        }
        if (col_test && base + i + 64 - wl.lstart >= UINT32_MAX)
            break;
        Masks mk;
        if (i == next_i)
            mk = s->next_mk;
        else
            classify(b + i, &mk);
        uint64_t tm = mk.tok, dg = mk.dg, dt = mk.dt;
        if (~tm == 0)
            break;
        unsigned lt = top64(~tm) + 1;      /* start of a trailing symbol run, or 64 */
        next_i = i + lt;              /* classified ahead (see above) */
        classify(b + next_i, &s->next_mk);
        uint64_t nm = mk.nl;
        uint64_t rs = tm & ~(tm << 1);     /* symbol run starts */
        uint64_t ev_all = ~mk.sp & ~nm & ~(tm & (tm << 1));
        uint64_t bad = bad_runs(&mk, rs);
        unsigned badrun = bad ? bad_run_at(bad, rs) : 64;
        if (lt < 64) {
            ev_all &= ((uint64_t)1 << lt) - 1;
            nm &= ((uint64_t)1 << lt) - 1;
        }
        uint64_t ev = ev_all & below(badrun);   /* the events before the first bad run */
        const unsigned char *bw = b + i;
        uint64_t off0 = base + i;
        wl.lc = (uint32_t)wl.lc | (uint64_t)(uint32_t)(off0 - wl.lstart + 1) << 32;
        PosBase pb = POS_BASE(wl.lc, off0);
        /* The events are taken a line at a time: seg holds those before the
         * first line end not yet counted ((nm & -nm) - 1 is every bit below
         * it, or all of them), so an event need not look for line ends. */
        uint64_t seg = ev & ((nm & (0 - nm)) - 1);
        for (;;) {
            while (seg) {
                unsigned p = ctz64(seg);
                /* the kind of event from the masks (known before the byte is
                 * loaded): a move number, a move, or something else */
                if ((dg >> p) & 1) {
                    /* a move number, and maybe the move in the same run */
                    wl.last_off = off0 + p;
                    p = number_event(el, bw, p, dg, dt);
                    if (!((tm >> p) & 1)) {
                        seg &= seg - 1;
                        continue;
                    }
                } else if (!((tm >> p) & 1)) {
                    unsigned c = bw[p];
                    if (c == '{') {
                        unsigned end = comment_event(bw, p, e - (size_t)(bw + p - b), plain, el, s);
                        if (end == 0)
                            goto stop;
                        wl.ltok = true;
                        if (end >= lt) {
                            i = (size_t)(bw - b) + end;
                            goto next_block;
                        }
                        ev = events_after(end, &bad, &badrun, rs, ev_all);
                        seg = ev & ((nm & (0 - nm)) - 1);   /* no line end inside the comment */
                        continue;
                    }
                    if (pgn_act[c] != A_SP)
                        goto stop;
                    seg &= seg - 1;
                    continue;
                }
                /* a move: the rest of the symbol run at p */
                unsigned len = ctz64(~(tm >> p));
                if (len >= PGN_TOKEN_TEXT)
                    goto stop;
                move_event(el, bw, p, len, off0, wl.lc, pb);
                el++;
                seg &= seg - 1;
                continue;
stop:
                i = (size_t)(bw - b) + p;
                goto done;
            }
            /* the line ends before the next event, and its line's events */
            ev &= ~((nm & (0 - nm)) - 1);
            if (!ev)
                break;
            uint64_t lm = nm & (((uint64_t)1 << ctz64(ev)) - 1);
            nm &= ~lm;
            line_ends(&wl, s, el, lm, bw, off0);
            pb = POS_BASE(wl.lc, off0);
            seg = ev & ((nm & (0 - nm)) - 1);
        }
        if (badrun < lt) {
            /* stopped at such a run */
            if (nm & below(badrun))
                line_ends(&wl, s, el, nm & below(badrun), bw, off0);
            i = (size_t)(bw - b) + badrun;
            goto done;
        }
        if (nm)
            line_ends(&wl, s, el, nm, bw, off0);
        i = (size_t)(bw - b) + lt;
next_block:;
    }
done:
    walk_done(s, &wl, el, el_end, slot);
    return i;
}

/* walk_body with each classification inlined (the AVX2 one compiled for
 * AVX2), chosen at run time by pgn_walk_avx2 (pgn_bytes_init) */
NOINLINE static size_t walk_blocks(Walk *s, const unsigned char *b, size_t i, size_t lim, size_t e,
                                   bool *need_room)
{
    return walk_body(s, b, i, lim, e, need_room, classify64, comment_plain);
}

#ifdef PGN_AVX2
/* the bit operations of the walk take fewer instructions with BMI1/BMI2
 * (andn, blsr, shrx; clang's __builtin_cpu_supports has no "lzcnt", so not
 * that one) */
__attribute__((target("avx2,bmi,bmi2"))) NOINLINE static size_t
walk_blocks_avx2(Walk *s, const unsigned char *b, size_t i, size_t lim, size_t e, bool *need_room)
{
    return walk_body(s, b, i, lim, e, need_room, classify64_avx2, comment_plain_avx2);
}

/* and with the AVX-512 classification (where pgn_walk_avx512 says the CPU has it) */
__attribute__((target("avx512f,avx512bw,avx2,bmi,bmi2"))) NOINLINE static size_t
walk_blocks_avx512(Walk *s, const unsigned char *b, size_t i, size_t lim, size_t e, bool *need_room)
{
    return walk_body(s, b, i, lim, e, need_room, classify64_avx512, comment_plain_avx2);
}
#endif

/* The block walk with the widest classification the CPU has (pgn_bytes_init). */
ALWAYS_INLINE static inline size_t walk_best(Walk *ws, const unsigned char *b, size_t i, size_t lim, size_t e,
                                             bool *need_room)
{
#ifdef PGN_AVX2
    if (pgn_walk_avx512)
        return walk_blocks_avx512(ws, b, i, lim, e, need_room);
    if (pgn_walk_avx2)
        return walk_blocks_avx2(ws, b, i, lim, e, need_room);
#endif
    return walk_blocks(ws, b, i, lim, e, need_room);
}

/* A walk from movetext_fast's state: the line (base, lstart, line), the
 * pending number and periods, the last token (last_off, or last), the
 * elements (el[0..ne) stored, room for ecap). */
ALWAYS_INLINE static inline void walk_from(Walk *ws, uint64_t base, uint64_t lstart, uint32_t line, int32_t pnum,
                                           unsigned pdots, bool ltok, uint64_t last_off, PgnPos last, PgnElem *el,
                                           size_t ne, size_t ecap)
{
    ws->base = base;
    ws->lstart = lstart;
    ws->line = line;
    ws->pnum = pnum;
    ws->pdots = pdots;
    ws->ltok = ltok;
    ws->last_off = last_off;
    ws->last = last;
    ws->el = el + ne;
    ws->el_begin = el;
    ws->room = ecap - ne;
    ws->clocks = false;
}

/* The termination marker 1-0, 0-1 or 1/2-1/2 at t, not glued to a symbol,
 * as the general steps take it, *rl its length; PGN_RES_NONE if none. */
static inline PgnResult marker_at(const unsigned char *t, size_t *rl)
{
    PgnResult res = PGN_RES_NONE;
    *rl = 3;
    if (memcmp(t, "1-0", 3) == 0)
        res = PGN_RES_WHITE;
    else if (memcmp(t, "0-1", 3) == 0)
        res = PGN_RES_BLACK;
    else if (memcmp(t, "1/2-1/2", 7) == 0) {
        res = PGN_RES_DRAW;
        *rl = 7;
    }
    if (res != PGN_RES_NONE && (pgn_cls[t[*rl]] & (K_SYM | K_ANNO | K_SLASH)))
        res = PGN_RES_NONE;
    return res;
}

/* movetext_fast's state: the reader's in locals (byte stores would
 * otherwise force reloads), written back (fast_sync) before anything else
 * looks at the reader.  The steps below work on it, all inlined. */
typedef struct Fast {
    const unsigned char *b;       /* the buffer */
    size_t i, e, lim;             /* the next byte, the buffer's end, and where the fast path stops */
    uint64_t base, lstart;        /* input offset of b[0], and of the line's first byte */
    uint32_t line;
    int32_t pnum;                 /* the pending move number and periods */
    unsigned pdots;
    bool ltok;                    /* a token was seen on the line */
    PgnPos last;                  /* the last token if last_off is NO_LAST */
    uint64_t last_off;            /* the last token's offset (on the line), or NO_LAST */
    PgnElem *el;                  /* the game's elements: ne stored, room for ecap */
    size_t ne, ecap;
} Fast;

/* The steps' outcomes: go on, a token of that kind at b[i], leave the
 * rest to the general steps, or the game ended. */
enum { F_NEXT, F_MOVE, F_NUMBER, F_COMMENT, F_SCALAR, F_OUT, F_ENDED };

/* The position of b[at]. */
ALWAYS_INLINE static inline PgnPos fast_pos(const Fast *f, size_t at)
{
    PgnPos p;
    p.offset = f->base + at;
    p.line = f->line;
    uint64_t c = p.offset - f->lstart + 1;
    p.col = c > UINT32_MAX ? UINT32_MAX : (uint32_t)c;
    return p;
}

/* The last token's position fixed before the line changes. */
ALWAYS_INLINE static inline void fast_fix_last(Fast *f)
{
    if (f->last_off != NO_LAST) {
        f->last = fast_pos(f, f->last_off - f->base);
        f->last_off = NO_LAST;
    }
}

/* The state written back to the reader, and read again from it. */
ALWAYS_INLINE static inline void fast_sync(PgnReader *r, Fast *f)
{
    fast_fix_last(f);
    r->line = f->line;
    r->line_start = f->lstart;
    r->pend_num = f->pnum;
    r->pend_dots = f->pdots;
    r->line_tok = f->ltok;
    r->last_tok = f->last;
    r->g->nelems = f->ne;
}

ALWAYS_INLINE static inline void fast_reload(PgnReader *r, Fast *f)
{
    f->b = r->buf;
    f->base = r->base;
    f->lstart = r->line_start;
    f->line = r->line;
    f->el = r->g->elems;
    f->ne = r->g->nelems;
    f->ecap = ((GameStore *)r->g->priv)->ecap;
}

/* The block walk from b[i] (lim - i >= 64): F_NEXT after it, F_SCALAR
 * where a byte is left to the byte steps. */
ALWAYS_INLINE static inline int fast_walk(PgnReader *r, Fast *f)
{
    if (f->ecap - f->ne < 64) {
        fast_sync(r, f);
        if (!pgn_elems_reserve(r, f->ne + 64))
            return F_SCALAR;
        fast_reload(r, f);
    }
    Walk ws;
    walk_from(&ws, f->base, f->lstart, f->line, f->pnum, f->pdots, f->ltok, f->last_off, f->last, f->el, f->ne,
              f->ecap);
    bool need_room;
    f->i = walk_best(&ws, f->b, f->i, f->lim, f->e, &need_room);
    f->lstart = ws.lstart;
    f->line = ws.line;
    f->pnum = ws.pnum;
    f->pdots = ws.pdots;
    f->ltok = ws.ltok;
    f->last_off = ws.last_off;
    f->last = ws.last;
    f->ne = (size_t)(ws.el - f->el);
    r->g->clocks |= ws.clocks;
    return need_room || f->i >= f->lim ? F_NEXT : F_SCALAR;
}

/* A variation's '(' or ')' (c) at b[i]; deeper '(' than PGN_MAX_DEPTH,
 * and ')' without '(', go to the general steps. */
ALWAYS_INLINE static inline int fast_paren(PgnReader *r, Fast *f, unsigned c)
{
    if (c == '(' ? r->depth >= PGN_MAX_DEPTH : r->depth == 0)
        return F_OUT;
    f->last_off = NO_LAST;
    f->last = fast_pos(f, f->i);
    f->ltok = true;
    fast_sync(r, f);
    if (c == '(') {
        r->depth++;
        new_elem(r, PGN_EL_VAR_START, f->last);
    } else {
        new_elem(r, PGN_EL_VAR_END, f->last);
        r->depth--;
    }
    fast_reload(r, f);
    f->i++;
    return F_NEXT;
}

/* A NAG at b[i], counted on the move before it. */
ALWAYS_INLINE static inline int fast_nag(PgnReader *r, Fast *f)
{
    size_t s0 = f->i;
    int v = nag_at(f->b, s0, &f->i);
    if (v < 0)
        return F_OUT;
    pgn_note(r, PGN_NOTE_NAG, f->base + s0, f->i - s0, (unsigned)v);
    f->last_off = f->base + s0;
    f->ltok = true;
    PgnElem *el = f->el;
    size_t ne = f->ne;
    if (ne > 0 && el[ne - 1].kind == PGN_EL_MOVE && el[ne - 1].nags < UINT16_MAX)
        el[ne - 1].nags++;
    return F_NEXT;
}

/* The byte at b[i]: blanks, line ends, periods, variations and NAGs taken
 * here; moves, numbers and comments said. */
ALWAYS_INLINE static inline int fast_byte(PgnReader *r, Fast *f)
{
    unsigned c = f->b[f->i];
    switch (pgn_act[c]) {
    case A_SP:
        f->i++;
        return F_NEXT;
    case A_NL:
        fast_fix_last(f);
        if (!(c == '\n' && f->b[f->i - 1] == '\r'))
            f->line++;
        f->lstart = f->base + f->i + 1;
        f->ltok = false;
        f->i++;
        return F_NEXT;
    case A_ALPHA:
        return F_MOVE;
    case A_DIGIT:
        return F_NUMBER;
    case A_DOT:
        f->ltok = true;
        if (f->pdots < 255)
            f->pdots++;
        f->i++;
        return F_NEXT;
    case A_LBRACE:
        return F_COMMENT;
    case A_LPAREN:
    case A_RPAREN:
        return fast_paren(r, f, c);
    case A_DOLLAR:
        return fast_nag(r, f);
    default:
        return F_OUT;
    }
}

/* A move at b[i] (not "e.p.", which the general steps fold into the move
 * before it); a comment right after it is said. */
ALWAYS_INLINE static inline int fast_move(Fast *f)
{
    const unsigned char *t = f->b + f->i;
    unsigned len = token_len(t);
    uint32_t w;
    memcpy(&w, t, 4);
    uint32_t ep;
    memcpy(&ep, "e.p.", 4);
    if ((len >= PGN_TOKEN_TEXT) | ((len == 4) & (w == ep)) | (f->ne >= f->ecap))
        return F_OUT;
    uint64_t off = f->base + f->i, col = off - f->lstart + 1;
    move_elem(&f->el[f->ne++], off, f->line, col > UINT32_MAX ? UINT32_MAX : (uint32_t)col, t, (unsigned)len,
              f->pnum, f->pdots);
    f->last_off = f->base + f->i;
    f->ltok = true;
    f->pnum = -1;
    f->pdots = 0;
    f->i += len;
    f->i += f->b[f->i] == ' ';
    if (f->b[f->i] == '{' && f->i < f->lim)
        return F_COMMENT;
    return F_NEXT;
}

/* A move number at b[i] with its periods (a move right after it is said),
 * or a termination marker, which ends the game. */
ALWAYS_INLINE static inline int fast_number(PgnReader *r, Fast *f)
{
    const unsigned char *t = f->b + f->i;
    unsigned len;
    uint32_t v = digits_at(t, &len);
    if ((pgn_cls[t[len]] & (K_SYM | K_ANNO | K_SLASH)) || len > 9 || (len == 4 && memcmp(t, "0000", 4) == 0)) {
        /* a termination marker, or the general steps take it */
        size_t rl;
        PgnResult res = marker_at(t, &rl);
        if (res == PGN_RES_NONE)
            return F_OUT;
        PgnPos p = fast_pos(f, f->i);
        fast_sync(r, f);
        r->line_tok = true;
        r->last_tok = p;
        r->pos = f->i + rl;
        pgn_ends_result(r, res, p);
        return F_ENDED;
    }
    f->last_off = f->base + f->i;
    f->ltok = true;
    f->pnum = (int32_t)v;
    unsigned dd = periods_at(t + len);
    f->pdots = dd < 255 ? dd : 255;
    f->i += len + dd;
    f->i += f->b[f->i] == ' ';
    if (pgn_act[f->b[f->i]] == A_ALPHA && f->i < f->lim)
        return F_MOVE;
    return F_NEXT;
}

/* A comment at b[i], read by the general step (read_comment) with the
 * state written back; the fast path goes on after it if the buffer allows. */
ALWAYS_INLINE static inline int fast_comment_step(PgnReader *r, Fast *f)
{
    PgnPos p = fast_pos(f, f->i);
    f->ltok = true;
    fast_sync(r, f);
    r->pos = f->i;
    if (movetext_comment(r, p))
        return F_ENDED;
    fast_reload(r, f);
    f->ltok = r->line_tok;
    f->i = r->pos;
    f->e = r->end;
    if (f->e - f->i < FAST_GUARD)
        return F_OUT;
    f->lim = f->e - FAST_GUARD;
    f->i += f->b[f->i] == ' ';
    return F_NEXT;
}

/* Fast path for the bulk of movetext well inside the buffer: blanks, line
 * ends, move numbers, periods, plain moves, comments, NAGs and variation
 * marks, by blocks (the walk) and where it stops by bytes.  Anything else
 * (or anything near the end of the buffer) is left at r->pos for the
 * general steps.  Returns true if the game ended. */
NOINLINE static bool movetext_fast(PgnReader *r)
{
    Fast f;
    f.i = r->pos;
    f.e = r->end;
    /* depth stays <= PGN_MAX_DEPTH here: deeper '(' go to the slow path */
    if (r->depth > PGN_MAX_DEPTH || f.e - f.i < FAST_GUARD)
        return false;
    f.lim = f.e - FAST_GUARD;
    fast_reload(r, &f);           /* (elems may still be NULL) */
    f.pnum = r->pend_num;
    f.pdots = r->pend_dots;
    f.ltok = r->line_tok;
    f.last = r->last_tok;
    f.last_off = NO_LAST;
    /* (the block walk reads comments in place; where the reader keeps
     * notes, the byte steps take them, and the walk has nothing to keep) */
    const bool walk = !r->opt.notes;
    while (f.i < f.lim) {
        int k = F_SCALAR;
        if (walk && f.lim - f.i >= 64)
            k = fast_walk(r, &f);
        if (k == F_SCALAR)
            k = fast_byte(r, &f);
        if (k == F_NUMBER)
            k = fast_number(r, &f);
        if (k == F_MOVE)
            k = fast_move(&f);
        if (k == F_COMMENT)
            k = fast_comment_step(r, &f);
        if (k == F_ENDED)
            return true;
        if (k == F_OUT)
            break;
    }
    fast_sync(r, &f);
    r->pos = f.i;
    return false;
}

/* ---------------------------------------------------------------------
 * The general steps: one token at a time at buf[pos] (p), after blanks.
 * Those that can end the game return true when it did.
 * ------------------------------------------------------------------- */
/* A symbol: a move, or a separate "e.p." folded into the previous move's
 * text ("exd6 e.p."). */
static void slow_symbol(PgnReader *r, PgnPos p, char *tok)
{
    r->last_tok = p;
    size_t len = read_run(r, K_SYM | K_ANNO | K_DOT, tok);
    if (len == 4 && memcmp(tok, "e.p.", 4) == 0) {
        PgnElem *el = pgn_last_move(r);
        if (el) {
            size_t l = el->len;
            if (l + 4 < PGN_TOKEN_TEXT) {
                memcpy(el->text + l, "e.p.", 5);
                el->len = (uint8_t)(l + 4);
            } else {
                el->truncated = 1;
            }
        } else if (r->g->nelems == 0) {
            pgn_note(r, PGN_NOTE_SKIPPED, p.offset, 4, 0);
        }
        return;
    }
    emit_move(r, p, tok, (size_t)(r->base + r->pos - p.offset));
}

/* A token starting with a digit: a termination marker, a move number, or
 * (anything else) a move token. */
static bool slow_digits(PgnReader *r, PgnPos p, char *tok)
{
    r->last_tok = p;
    size_t len = read_run(r, K_SYM | K_ANNO | K_SLASH, tok);
    if (len == 3 && memcmp(tok, "1-0", 3) == 0) return pgn_ends_result(r, PGN_RES_WHITE, p);
    if (len == 3 && memcmp(tok, "0-1", 3) == 0) return pgn_ends_result(r, PGN_RES_BLACK, p);
    if (len == 7 && memcmp(tok, "1/2-1/2", 7) == 0) return pgn_ends_result(r, PGN_RES_DRAW, p);
    size_t d = 0;
    while (d < len && d < PGN_TOKEN_TEXT - 1 && pgn_cls[(unsigned char)tok[d]] & K_DIGIT)
        d++;
    if (d == len && !(len == 4 && memcmp(tok, "0000", 4) == 0)) {
        int64_t v = 0;
        for (size_t q = 0; q < d && v <= INT32_MAX; q++)
            v = v * 10 + (tok[q] - '0');
        r->pend_num = v > INT32_MAX ? INT32_MAX : (int32_t)v;
        r->pend_dots = 0;
        return false;
    }
    emit_move(r, p, tok, (size_t)(r->base + r->pos - p.offset));
    return false;
}

/* A NAG, $0 to $255, counted on the previous move. */
static void slow_nag(PgnReader *r, PgnPos p, char *tok)
{
    r->last_tok = p;
    r->pos++;
    size_t len = read_run(r, K_DIGIT, tok);
    unsigned v = 256;
    if (len > 0 && len <= 3)
        v = (unsigned)atoi(tok);
    if (v > 255) {
        pgn_game_diag(r, D_BAD_NAG, p, len ? "NAG outside $0-$255" : "$ without a number");
    } else {
        pgn_note(r, PGN_NOTE_NAG, p.offset, 1 + len, v);
        PgnElem *el = pgn_last_move(r);
        if (el && el->nags < UINT16_MAX)
            el->nags++;
    }
}

/* The NAG of a suffix annotation (PGN 8.2.4: !, ?, !!, ??, !?, ?!),
 * 0 for any other run of them. */
static unsigned suffix_nag(const char *t, size_t n)
{
    static const char sfx[6][3] = {"!", "?", "!!", "??", "!?", "?!"};
    for (unsigned i = 0; i < 6; i++)
        if (strlen(sfx[i]) == n && memcmp(sfx[i], t, n) == 0)
            return i + 1;
    return 0;
}

/* A detached suffix annotation ("!?"): a NAG of the previous move. */
static void slow_annotation(PgnReader *r, PgnPos p, char *tok)
{
    r->last_tok = p;
    size_t len = read_run(r, K_ANNO, tok);
    pgn_note(r, PGN_NOTE_SUFFIX, p.offset, len, suffix_nag(tok, len));
    PgnElem *el = pgn_last_move(r);
    if (el && el->nags < UINT16_MAX)
        el->nags++;
}

/* A variation's '(' or ')'. */
static void slow_paren(PgnReader *r, PgnPos p, unsigned c)
{
    r->last_tok = p;
    r->pos++;
    if (c == ')') {
        if (r->depth == 0) {
            pgn_game_diag(r, D_UNBALANCED_VARIATION, p, ") without a matching (");
        } else {
            if (r->depth <= PGN_MAX_DEPTH)
                new_elem(r, PGN_EL_VAR_END, p);
            else
                pgn_note(r, PGN_NOTE_SKIPPED, p.offset, 1, 0);
            r->depth--;
        }
        return;
    }
    r->depth++;
    if (r->depth <= PGN_MAX_DEPTH) {
        new_elem(r, PGN_EL_VAR_START, p);
        return;
    }
    if (!r->too_deep) {
        r->too_deep = true;
        char msg[PGN_MSG];
        snprintf(msg, sizeof msg, "variations nested deeper than %d; deeper content is skipped", PGN_MAX_DEPTH);
        pgn_game_diag(r, D_VARIATION_TOO_DEEP, p, msg);
    }
}

/* A reserved '<' or '>': "<br>" and the like, printable ASCII within a
 * line, is one reserved token, said once, not a < and a > with a "move"
 * br between them. */
static void slow_reserved(PgnReader *r, PgnPos p, unsigned c)
{
    if (c == '<') {
        size_t n = pgn_need(r, 48), j = 1;
        if (n > 48)
            n = 48; /* the same answer for any cut of the input */
        while (j < n && r->buf[r->pos + j] != '>' && r->buf[r->pos + j] >= 0x20 && r->buf[r->pos + j] < 0x7F &&
               r->buf[r->pos + j] != '<' && r->buf[r->pos + j] != '{' && r->buf[r->pos + j] != '}')
            j++;
        if (j < n && r->buf[r->pos + j] == '>') {
            char msg[PGN_MSG];
            snprintf(msg, sizeof msg, "reserved characters < and > in movetext: \"%.*s\" is skipped", (int)j + 1,
                     (const char *)r->buf + r->pos);
            r->pos += j + 1;
            pgn_game_diag(r, D_RESERVED_TOKEN, p, msg);
            return;
        }
    }
    r->pos++;
    pgn_game_diag(r, D_RESERVED_TOKEN, p, "reserved character < or > in movetext");
}

/* Any other byte: a syntax error.  A byte glued to the move before it
 * ("O" then an en dash, in "O–O") breaks the token as a whole, one error,
 * not also a "move" O that is not a move. */
static void slow_unexpected(PgnReader *r, PgnPos p)
{
    PgnElem *el = pgn_last_move(r);
    if (el && !el->truncated && el->pos.offset + el->len == p.offset) {
        char what[64];
        snprintf(what, sizeof what, "unexpected character in \"%s...\"", el->text);
        r->g->nelems--;
        pgn_ends_syntax(r, D_UNEXPECTED_CHAR, what);
        return;
    }
    pgn_ends_syntax(r, D_UNEXPECTED_CHAR, "unexpected character");
}

/* One token by the general steps (tok: room for its text); true when the
 * game ended. */
static bool slow_token(PgnReader *r, char *tok)
{
    unsigned c = r->buf[r->pos];
    PgnPos p = pos_of(r, r->pos);
    bool first_on_line = !r->line_tok;
    r->line_tok = true;
    unsigned k = pgn_cls[c];
    if (k & K_ALPHA || c == '-' || c == '+' || c == '=') {
        slow_symbol(r, p, tok);
        return false;
    }
    if (k & K_DIGIT)
        return slow_digits(r, p, tok);
    switch (c) {
    case '.':
        r->pos++;
        if (r->pend_dots < 255)
            r->pend_dots++;
        return false;
    case '*':
        r->pos++;
        return pgn_ends_result(r, PGN_RES_UNKNOWN, p);
    case '{':
        return movetext_comment(r, p);
    case ';':
        pgn_skip_line(r);
        pgn_note(r, PGN_NOTE_SEMICOLON, p.offset, 0, 0);
        return false;
    case '%':
        if (p.col == 1) {
            pgn_skip_line(r);
            pgn_note(r, PGN_NOTE_ESCAPE, p.offset, 0, 0);
            return false;
        }
        return pgn_ends_syntax(r, D_UNEXPECTED_CHAR, "% escape not in column 1");
    case '$':
        slow_nag(r, p, tok);
        return false;
    case '!':
    case '?':
        slow_annotation(r, p, tok);
        return false;
    case '(':
    case ')':
        slow_paren(r, p, c);
        return false;
    case '<':
    case '>':
        slow_reserved(r, p, c);
        return false;
    case '[':
        /* a line that starts with '[': the next game's tag section, well
         * formed or not (after a game without a termination marker) */
        if (first_on_line) {
            return pgn_ends_at(r, p.offset);
        }
        return pgn_ends_syntax(r, D_SYNTAX, "[ inside movetext");
    case ']':
        return pgn_ends_syntax(r, D_SYNTAX, "] inside movetext");
    case '"':
        return pgn_ends_syntax(r, D_SYNTAX, "string inside movetext");
    default:
        slow_unexpected(r, p);
        return true;
    }
}

/* Movetext of one game (pgn_movetext.h): the fast paths, and where they
 * stop one token by the general steps. */
PgnEnd pgn_movetext_read(PgnReader *r)
{
    char tok[PGN_TOKEN_TEXT];
    for (;;) {
        if (movetext_fast(r))
            return r->ended;
        if (!pgn_skip_ws_at(r)) {
            r->g->truncated = true;
            pgn_ends_at(r, off_of(r, r->pos));
            return r->ended;
        }
        if (slow_token(r, tok))
            return r->ended;
    }
}
