/* pgn.c - streaming PGN reader: the buffer, games and their boundaries,
 * resync, sync points; tags and movetext in their rooms (knows no chess). */
#include "pgn.h"
#include "pgn_buf.h"
#include "pgn_comment.h"
#include "pgn_movetext.h"
#include "pgn_tags.h"
#include "mem.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pgn_init(void) { pgn_bytes_init(PGN_SIMD_BEST); }

void pgn_init_simd(const char *limit)
{
    pgn_bytes_init(limit && strcmp(limit, "sse2") == 0   ? PGN_SIMD_SSE2
                   : limit && strcmp(limit, "avx2") == 0 ? PGN_SIMD_AVX2
                                                         : PGN_SIMD_BEST);
}

static void file_diag(PgnReader *r, DiagCode code, PgnPos pos, const char *msg)
{
    if (r->nfdiag < FILE_DIAGS)
        pgn_fill_diag(&r->fdiag[r->nfdiag++], code, pos, msg);
}

/* ---------------------------------------------------------------------
 * Buffer management.
 * ------------------------------------------------------------------- */
/* A sync point (pgn.h): buf[p] is a '[' that starts a line and begins a
 * tag pair, all within buf[0..len), after a blank line ("\n\n" or
 * "\n\r\n" before it) or with the name Event (any case).  Close to the reader's own
 * new-game tests (tag_like after a blank line, or an Event tag in movetext
 * or a comment), which almost always hold there; pgn.h says what is done
 * where they do not. */
bool pgn_sync_at(const unsigned char *buf, size_t len, size_t p)
{
    if (p < 2 || p >= len || buf[p] != '[' || buf[p - 1] != '\n')
        return false;
    bool blank = buf[p - 2] == '\n' || (buf[p - 2] == '\r' && p >= 3 && buf[p - 3] == '\n');
    if (!blank && !(len - p > 8 && name_event(buf + p + 1) && buf[p + 6] == ' ' && buf[p + 7] == '"'))
        return false;
    const unsigned char *s = buf + p;
    size_t n = len - p < LOOKAHEAD ? len - p : LOOKAHEAD;
    size_t k = 1;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    size_t name = k;
    if (k >= n || !((pgn_cls[s[k]] & (K_ALPHA | K_DIGIT)) || s[k] == '_'))
        return false;
    while (k < n && (pgn_cls[s[k]] & K_SYM))
        k++;
    if (k - name > PGN_MAX_TAG_NAME - 1)
        return false;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    return k < n && s[k] == '"';
}

/* Between games, a line starting '[' blanks name-character begins a tag
 * section even when the pair is malformed (it is then reported as BAD_TAG). */
static bool tag_start(PgnReader *r)
{
    size_t n = pgn_need(r, LOOKAHEAD);
    const unsigned char *s = r->buf + r->pos;
    size_t k = 1;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    return k < n && ((pgn_cls[s[k]] & (K_ALPHA | K_DIGIT)) || s[k] == '_');
}

/* ---------------------------------------------------------------------
 * Game storage.
 * ------------------------------------------------------------------- */
PgnGame *pgn_game_new(void)
{
    PgnGame *g = mem_calloc(1, sizeof *g);
    GameStore *st = mem_calloc(1, sizeof *st);
    if (g == NULL || st == NULL) {
        mem_free(g);
        mem_free(st);
        return NULL;
    }
    g->priv = st;               /* diags: allocated by the first one (game_diag) */
    return g;
}

void pgn_game_free(PgnGame *g)
{
    if (g == NULL)
        return;
    GameStore *st = g->priv;
    if (st) {
        mem_free(st->arena);
        mem_free(st->raw);
        mem_free(st->slices);
        mem_free(st->emts);
        mem_free(st->notes);
        mem_free(st);
    }
    mem_free(g->tags);
    mem_free(g->elems);
    mem_free(g->diags);
    mem_free(g);
}

void pgn_game_trim(PgnGame *g)
{
    GameStore *st = g->priv;
    if (g->diags) {
        /* PGN_MAX_DIAGS of them: kept by every object that ever had one, they
         * would add up; few games have reader diagnostics. */
        mem_free(g->diags);
        g->diags = NULL;
        g->ndiags = 0;
    }
    if (st->ecap > PGN_KEEP_ELEMS) {
        mem_free(g->elems);
        g->elems = NULL;
        g->nelems = 0;
        st->ecap = 0;
    }
    if (st->acap > PGN_KEEP_BYTES || st->tcap > PGN_KEEP_TAGS) {
        mem_free(st->arena);
        mem_free(g->tags);
        st->arena = NULL;
        g->tags = NULL;
        st->acap = st->alen = st->tcap = 0;
        g->ntags = 0;
    }
    if (st->scap > PGN_KEEP_SLICES) {
        mem_free(st->slices);
        st->slices = NULL;
        st->scap = 0;
        g->slices = NULL;
        g->nslices = 0;
    }
    if (st->mcap > PGN_KEEP_ELEMS) {
        mem_free(st->emts);
        st->emts = NULL;
        st->mcap = 0;
        g->emts = NULL;
        g->nemts = 0;
    }
    if (st->ncap > PGN_KEEP_ELEMS) {
        mem_free(st->notes);
        st->notes = NULL;
        st->ncap = 0;
        g->notes = NULL;
        g->nnotes = 0;
    }
    pgn_game_drop_raw(g, PGN_KEEP_BYTES);
}

void pgn_game_forget_raw(PgnGame *g, size_t keep)
{
    pgn_game_drop_raw(g, keep);
    g->raw = NULL;
    g->raw_len = 0;
}

bool pgn_game_add_slice(PgnGame *g, uint64_t offset, uint64_t base, const char *bytes, size_t len)
{
    GameStore *st = g->priv;
    if (len > PGN_SLICE)
        return false;
    PgnSlice *p = mem_grow(st->slices, &st->scap, g->nslices + 1, sizeof(PgnSlice), SIZE_MAX / sizeof(PgnSlice));
    if (p == NULL)
        return false;
    st->slices = p;
    PgnSlice *sl = &st->slices[g->nslices++];
    sl->offset = offset;
    sl->base = base;
    sl->len = (uint32_t)len;
    memcpy(sl->text, bytes, len);
    g->slices = st->slices;
    return true;
}

size_t pgn_game_bytes(const PgnGame *g)
{
    const GameStore *st = g->priv;
    return st->alen + g->ntags * sizeof(PgnTag) + g->nelems * sizeof(PgnElem) + (g->raw ? g->raw_len : 0) +
           g->ndiags * sizeof(Diag) + g->nslices * sizeof(PgnSlice) + g->nemts * sizeof(PgnEmt) +
           g->nnotes * sizeof(PgnNote);
}

void pgn_game_drop_raw(PgnGame *g, size_t keep)
{
    GameStore *st = g->priv;
    if (st->rawcap <= keep)
        return;
    mem_free(st->raw);
    st->raw = NULL;
    st->rawcap = 0;
    g->raw = NULL;
    g->raw_len = 0;
}

bool pgn_game_keep(PgnGame *dst, const PgnGame *src, unsigned what)
{
    GameStore *d = dst->priv;
    const GameStore *s = src->priv;
    dst->index = src->index;
    dst->start = src->start;
    dst->start_line_tok = src->start_line_tok;
    dst->end_offset = src->end_offset;
    dst->result = src->result;
    dst->result_pos = src->result_pos;
    dst->truncated = src->truncated;
    dst->out_of_memory = src->out_of_memory;
    dst->syntax_error = src->syntax_error;
    dst->tag_case_twin = src->tag_case_twin;
    dst->clocks = src->clocks;
    dst->nelems = 0;
    dst->nemts = 0;
    dst->nnotes = 0;
    dst->ndiags = 0;
    dst->ndiags_dropped = 0;
    dst->ntags = 0;
    dst->raw = NULL;
    dst->raw_len = 0;
    dst->raw_complete = src->raw_complete;
    dst->nslices = 0;
    d->alen = 0;
    if (!(what & PGN_COPY_TAGS))
        return true;
    if (src->ntags) {
        PgnTag *tp = mem_grow(dst->tags, &d->tcap, src->ntags, sizeof(PgnTag), PGN_MAX_TAGS);
        if (tp == NULL)
            return false;
        dst->tags = tp;
        char *a = mem_grow(d->arena, &d->acap, s->alen, 1, SIZE_MAX);
        if (a == NULL)
            return false;
        d->arena = a;
        memcpy(d->arena, s->arena, s->alen);
        d->alen = s->alen;
        for (size_t t = 0; t < src->ntags; t++) {
            dst->tags[t] = src->tags[t];
            dst->tags[t].name = d->arena + (src->tags[t].name - s->arena);
            dst->tags[t].value = d->arena + (src->tags[t].value - s->arena);
        }
        dst->ntags = src->ntags;
    }
    if (src->raw && (what & PGN_COPY_RAW)) {
        char *p = mem_grow(d->raw, &d->rawcap, src->raw_len ? src->raw_len : 1, 1, PGN_MAX_RAW);
        if (p == NULL)
            return false;
        d->raw = p;
        memcpy(d->raw, src->raw, src->raw_len);
        dst->raw = d->raw;
        dst->raw_len = src->raw_len;
    }
    return true;
}

static void game_reset(PgnReader *r, PgnGame *g)
{
    GameStore *st = g->priv;
    st->alen = 0;
    g->index = 0;
    memset(&g->start, 0, sizeof g->start);
    g->end_offset = 0;
    g->ntags = 0;
    g->nelems = 0;
    g->result = PGN_RES_NONE;
    memset(&g->result_pos, 0, sizeof g->result_pos);
    g->truncated = false;
    g->out_of_memory = false;
    g->syntax_error = false;
    g->tag_case_twin = false;
    g->clocks = false;
    g->nemts = 0;
    g->nnotes = 0;
    g->notes_dropped = false;
    g->ndiags = 0;
    g->ndiags_dropped = 0;
    g->raw = NULL;
    g->raw_len = 0;
    g->raw_complete = true;
    g->nslices = 0;
    r->g = g;
    r->bad_byte = r->too_deep = r->too_long = r->too_many_tags = false;
    r->depth = 0;
    r->pend_num = -1;
    r->pend_dots = 0;
}

/* Does a line begin with movetext (a game without tags)?  pos at the line's
 * first non-blank byte. */
static bool movetext_start(PgnReader *r)
{
    size_t n = pgn_need(r, 24);
    if (n > 24)
        n = 24;                /* the same answer however much is buffered */
    const unsigned char *s = r->buf + r->pos;
    unsigned c = s[0];
    if (c == '{' || c == '*' || c == '(')
        return true;
    size_t k = 0;
    if (pgn_cls[c] & K_DIGIT) {
        while (k < n && pgn_cls[s[k]] & K_DIGIT)
            k++;
        size_t d = k;
        while (k < n && (s[k] == ' ' || s[k] == '\t'))
            k++;
        if (k < n && s[k] == '.')
            return true;
        k = d;
        while (k < n && pgn_cls[s[k]] & (K_SYM | K_SLASH))
            k++;
        if ((k == 3 && (memcmp(s, "1-0", 3) == 0 || memcmp(s, "0-1", 3) == 0 || memcmp(s, "0-0", 3) == 0))
            || (k == 7 && memcmp(s, "1/2-1/2", 7) == 0) || (k == 5 && memcmp(s, "0-0-0", 5) == 0))
            return k == n || !(pgn_cls[s[k]] & (K_ALPHA | K_DIGIT));
        return false;
    }
    if (!(pgn_cls[c] & K_ALPHA))
        return false;
    /* SAN shape: [KQRBNP]? [a-h]? [1-8]? x? [a-h][1-8] ... or O-O */
    if (n >= 3 && memcmp(s, "O-O", 3) == 0)
        return true;
    if (c == 'K' || c == 'Q' || c == 'R' || c == 'B' || c == 'N' || c == 'P')
        k++;
    size_t j = k;
    while (j < n && j < k + 5 && ((s[j] >= 'a' && s[j] <= 'h') || (s[j] >= '1' && s[j] <= '8') || s[j] == 'x' || s[j] == '-'))
        j++;
    if (j - k < 2 || !(s[j - 1] >= '1' && s[j - 1] <= '8') || !(s[j - 2] >= 'a' && s[j - 2] <= 'h'))
        return false;
    return j == n || !(pgn_cls[s[j]] & K_ALPHA) || s[j] == 'e';
}

/* ---------------------------------------------------------------------
 * Game assembly.
 * ------------------------------------------------------------------- */
static void start_game(PgnReader *r, PgnGame *g)
{
    g->index = ++r->index;
    g->start = pos_of(r, r->pos);
    g->start_line_tok = r->line_tok;
    r->last_tok = g->start;
    r->raw_on = r->opt.keep_raw;
    r->raw_next = g->start.offset;
    r->ng_reported = false;
}

/* A token written where a game's termination marker belongs that is no
 * marker but plainly means a result (PGN standard 8.2.6 allows only 1-0,
 * 0-1, 1/2-1/2 and *): "1/2", "1/2:1/2", "1:0" or "0:1", or the forfeit
 * marks "+--" and "--+" of some tournament exports.  Returns the marker
 * meant ("" when it names none), or NULL when t is no such token. */
static const char *near_marker(const char *t)
{
    if (!strcmp(t, "1/2") || !strcmp(t, "1/2:1/2"))
        return "1/2-1/2";
    if (!strcmp(t, "1:0"))
        return "1-0";
    if (!strcmp(t, "0:1"))
        return "0-1";
    if (!strcmp(t, "+--") || !strcmp(t, "--+"))
        return "";
    return NULL;
}

/* Finishes the game at input offset end (<= offset of buf[end]). */
static void end_game(PgnReader *r, uint64_t end)
{
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    g->end_offset = end;
    if (r->depth > 0 && !g->syntax_error)
        pgn_game_diag(r, D_UNBALANCED_VARIATION, r->last_tok, "a ( is not closed by )");
    if (g->result == PGN_RES_NONE && !g->syntax_error) {
        /* One mistake, one error: a game's last token "1/2" is a result
         * written wrongly, not a move of the game (which "not a move" and
         * "moves after the end" would say besides). */
        const PgnElem *last = g->nelems ? &g->elems[g->nelems - 1] : NULL;
        const char *meant = last && r->depth == 0 && last->kind == PGN_EL_MOVE && !last->truncated
                          ? near_marker(last->text) : NULL;
        if (meant) {
            char msg[PGN_MSG];
            if (*meant)
                snprintf(msg, sizeof msg, "\"%s\" is not a termination marker: did you mean %s?", last->text,
                         meant);
            else
                snprintf(msg, sizeof msg, "\"%s\" is not a termination marker (1-0, 0-1, 1/2-1/2 or *)",
                         last->text);
            pgn_game_diag(r, D_MISSING_TERMINATION, last->pos, msg);
            g->nelems--;
        } else {
            /* Said where the marker belongs: just past the game's last
             * token when that is a move (not at the move, which may be
             * fine, or wrong on its own account). */
            PgnPos at = r->last_tok;
            if (last && last->kind == PGN_EL_MOVE && !last->truncated && last->pos.offset == at.offset) {
                at.offset += last->len;
                at.col += last->len;
            }
            pgn_game_diag(r, D_MISSING_TERMINATION, at,
                      g->truncated ? "input ends inside the game: no termination marker"
                                   : "no termination marker (1-0, 0-1, 1/2-1/2, *) before the next game");
        }
    }
    if (g->ntags > 0 && g->nelems == 0 && !g->syntax_error)
        pgn_game_diag(r, D_EMPTY_GAME, g->start, "game has tags but no moves");
    pgn_raw_take(r, end);
    r->raw_on = false;
    g->raw = st->raw;
}

/* After a termination marker: the rest of its line (blanks, ; comment,
 * { } comments) belongs to the game. */
static void finish_result_line(PgnReader *r)
{
    for (;;) {
        if (r->pos >= r->end && pgn_refill(r) == 0) {
            end_game(r, off_of(r, r->pos));
            return;
        }
        unsigned c = r->buf[r->pos];
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v') {
            r->pos++;
        } else if (c == '\n') {
            /* the usual end: skip_line's step here */
            newline_at(r, r->pos);
            r->pos++;
            end_game(r, off_of(r, r->pos));
            return;
        } else if (c == '\r' || c == ';') {
            uint64_t at = off_of(r, r->pos);
            pgn_skip_line(r);
            if (c == ';')
                pgn_note(r, PGN_NOTE_SEMICOLON, at, 0, 0);
            end_game(r, off_of(r, r->pos));
            return;
        } else if (c == '{') {
            PgnPos cp = pos_of(r, r->pos);
            int rc = pgn_read_comment(r);
            if (rc == 0)
                pgn_note(r, PGN_NOTE_COMMENT, cp.offset, off_of(r, r->pos) - cp.offset, 0);
            if (rc != 0) {
                pgn_game_diag(r, D_UNTERMINATED_COMMENT, cp, "comment not closed before the next game");
                end_game(r, off_of(r, r->pos));
                return;
            }
        } else {
            end_game(r, off_of(r, r->pos));
            return;
        }
    }
}

/* After a syntax error: skip to the next line that starts a tag section. */
static void resync(PgnReader *r)
{
    for (;;) {
        pgn_skip_line(r);
        if (r->pos >= r->end && pgn_refill(r) == 0)
            break;
        /* leading blanks of the line */
        for (;;) {
            if (r->pos >= r->end && pgn_refill(r) == 0)
                goto eof;
            unsigned c = r->buf[r->pos];
            if (c != ' ' && c != '\t' && c != '\f' && c != '\v')
                break;
            r->pos++;
        }
        if (r->buf[r->pos] == '[' && pgn_tag_like(r, NULL)) {
            end_game(r, off_of(r, r->pos));
            return;
        }
    }
eof:
    end_game(r, off_of(r, r->pos));
}

/* A syntax error at buf[pos] (what, and the byte): the rest of the game
 * is skipped to the next line that starts a tag section (resync). */
static void syntax_error(PgnReader *r, DiagCode code, const char *what)
{
    char msg[PGN_MSG];
    unsigned c = r->buf[r->pos];
    if (c >= 0x20 && c < 0x7F)
        snprintf(msg, sizeof msg, "%s '%c'; the rest of the game is skipped", what, (int)c);
    else
        snprintf(msg, sizeof msg, "%s (byte 0x%02X); the rest of the game is skipped", what, c);
    pgn_game_diag(r, code, pos_of(r, r->pos), msg);
    r->g->syntax_error = true;
    resync(r);
}

/* The game's termination marker res at p, pos just past it: the rest of
 * its line belongs to the game, which ends there. */
static void set_result(PgnReader *r, PgnResult res, PgnPos p)
{
    r->g->result = res;
    r->g->result_pos = p;
    finish_result_line(r);
}

/* Tags and movetext of one game, read by their rooms, which say how the
 * game ended: it is finished here. */
static void read_game(PgnReader *r, bool tagless)
{
    r->nl_run = 0;
    r->ended = PGN_END_NONE;
    PgnEnd how = tagless ? PGN_END_NONE : pgn_tags_read(r);
    if (how == PGN_END_NONE)
        how = pgn_movetext_read(r);
    switch (how) {
    case PGN_END_RESULT:
        set_result(r, r->end_res, r->end_pos);
        break;
    case PGN_END_SYNTAX:
        syntax_error(r, r->end_code, r->end_what);
        break;
    default: /* (PGN_END_AT; the movetext never ends without saying how) */
        end_game(r, r->end_at);
        break;
    }
}

/* ---------------------------------------------------------------------
 * Public interface.
 * ------------------------------------------------------------------- */
PgnReader *pgn_reader_new(PgnReadFn read, void *ctx, const PgnOptions *opt)
{
    pgn_bytes_init(PGN_SIMD_BEST);
    PgnReader *r = mem_calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->buf = mem_alloc(BUF_CAP + 1);
    if (r->buf == NULL) {
        mem_free(r);
        return NULL;
    }
    r->read = read;
    r->ctx = ctx;
    if (opt)
        r->opt = *opt;
    if (!r->opt.raw_max || r->opt.raw_max > PGN_MAX_RAW)
        r->opt.raw_max = PGN_MAX_RAW;
    r->buf[0] = '\n';          /* history byte before the input */
    r->buf[1] = 0;             /* sentinel */
    r->pos = r->end = 1;
    r->base = r->opt.offset - 1;   /* offset of buf[1] (wraps for 0) */
    r->line = 1;
    r->line_start = r->opt.offset;
    if (r->opt.column > 1 && r->opt.column - 1 <= r->opt.offset)
        r->line_start = r->opt.offset - (r->opt.column - 1);
    r->line_tok = r->opt.line_tok;
    r->started = r->opt.offset > 0; /* a BOM only at the start of the input */
    return r;
}

void pgn_reader_free(PgnReader *r)
{
    if (r == NULL)
        return;
    mem_free(r->buf);
    mem_free(r);
}

uint64_t pgn_bytes_read(const PgnReader *r) { return r->total; }

uint64_t pgn_take_gap_lines(PgnReader *r)
{
    uint64_t n = r->gap_skipped;
    r->gap_skipped = 0;
    return n;
}

const Diag *pgn_file_diags(PgnReader *r, size_t *n)
{
    *n = r->nfdiag;
    return r->fdiag;
}

int pgn_next(PgnReader *r, PgnGame *g)
{
    r->nfdiag = 0;
    r->g = NULL;
    if (!r->started) {
        r->started = true;
        /* UTF-8 BOM: skipped; columns count from the byte after it */
        if (pgn_need(r, 3) >= 3 && memcmp(r->buf + r->pos, "\xEF\xBB\xBF", 3) == 0) {
            r->pos += 3;
            r->line_start = 3;
        }
    }
    /* what lies between the previous game and this one (PgnGame.gap_*) */
    PgnPos gap = pos_of(r, r->pos), esc_at = {0}, semi_at = {0};
    uint32_t nesc = 0, nsemi = 0;
    for (;;) {
        if (!pgn_skip_ws(r))
            break;
        unsigned c = r->buf[r->pos];
        PgnPos p = pos_of(r, r->pos);
        if ((c == '%' && p.col == 1) || c == ';') {
            if (c == ';' ? !nsemi++ : !nesc++)
                *(c == ';' ? &semi_at : &esc_at) = p;
            r->gap_skipped++;
            pgn_skip_line(r);
            continue;
        }
        bool tagless = false;
        if (c == '[' && tag_start(r)) {
            tagless = false;
        } else if (movetext_start(r)) {
            tagless = true;
        } else {
            if (!r->ng_reported) {
                file_diag(r, D_NON_GAME_TEXT, p, "text between games that is not a game; skipped");
                r->ng_reported = true;
            }
            pgn_skip_line(r);
            continue;
        }
        game_reset(r, g);
        start_game(r, g);
        g->gap_lines = r->gap_unknown ? UINT32_MAX : g->start.line - gap.line;
        g->gap_bytes = g->start.offset - gap.offset > UINT32_MAX ? UINT32_MAX
                                                                 : (uint32_t)(g->start.offset - gap.offset);
        g->gap_escapes = nesc;
        g->gap_semicolons = nsemi;
        g->gap_escape_pos = esc_at;
        g->gap_semicolon_pos = semi_at;
        read_game(r, tagless);
        if (tagless && g->nelems == 0 && g->result == PGN_RES_NONE && !g->syntax_error) {
            /* a stray comment or bracket between games: not a game */
            r->index--;
            if (!r->ng_reported) {
                file_diag(r, D_NON_GAME_TEXT, g->start, "text between games that is not a game; skipped");
                r->ng_reported = true;
            }
            r->g = NULL;
            continue;
        }
        r->g = NULL;
        r->gap_unknown = g->result == PGN_RES_NONE || g->syntax_error;
        return 1;
    }
    if (r->failed && !r->fail_returned) {
        char msg[PGN_MSG];
        r->fail_returned = true;
        snprintf(msg, sizeof msg, "read failed: %s", strerror(r->fail_errno));
        file_diag(r, D_READ_ERROR, pos_of(r, r->pos), msg);
        return -1;
    }
    return 0;
}

int pgn_name_casecmp(const char *a, const char *b)
{
    for (;; a++, b++) {
        int x = (unsigned char)*a, y = (unsigned char)*b;
        x += x >= 'A' && x <= 'Z' ? 'a' - 'A' : 0;
        y += y >= 'A' && y <= 'Z' ? 'a' - 'A' : 0;
        if (x != y || !x)
            return x - y;
    }
}
