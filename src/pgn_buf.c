/* pgn_buf.c - beneath the PGN reader's rooms: the input window and the
 * game being built (its storage, diagnostics and notes). */
#include "pgn_buf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"

void pgn_fill_diag(Diag *d, DiagCode code, PgnPos pos, const char *msg)
{
    d->code = code;
    d->severity = diag_info[code].severity;
    d->pos = pos;
    d->ply = 0;
    d->move[0] = '\0';
    size_t n = strlen(msg);
    if (n >= PGN_MSG)
        n = PGN_MSG - 1;
    memcpy(d->msg, msg, n);
    d->msg[n] = '\0';
}

void pgn_game_diag(PgnReader *r, DiagCode code, PgnPos pos, const char *msg)
{
    PgnGame *g = r->g;
    /* text read past with this finding: it has no place in the notes */
    if (r->opt.notes && (code == D_BAD_TAG || code == D_UNTERMINATED_STRING || code == D_TOO_MANY_TAGS ||
                         code == D_GAME_TOO_LONG || code == D_RESERVED_TOKEN || code == D_BAD_NAG ||
                         code == D_VARIATION_TOO_DEEP || code == D_UNBALANCED_VARIATION))
        pgn_note_add(r, PGN_NOTE_SKIPPED, pos.offset, 0, 0);
    if (g->diags == NULL && (g->diags = mem_realloc(NULL, PGN_MAX_DIAGS, sizeof *g->diags)) == NULL) {
        g->ndiags_dropped++;
        g->out_of_memory = true; /* the caller says so and exits 2 */
        return;
    }
    if (g->ndiags < PGN_MAX_DIAGS - 1) {
        pgn_fill_diag(&g->diags[g->ndiags++], code, pos, msg);
    } else if (g->ndiags == PGN_MAX_DIAGS - 1) {
        pgn_fill_diag(&g->diags[g->ndiags++], D_TOO_MANY_DIAGNOSTICS, pos,
                  "further reader diagnostics of this game were dropped");
        g->ndiags_dropped++;
    } else {
        g->ndiags_dropped++;
    }
}

void pgn_note_add(PgnReader *r, PgnNoteKind k, uint64_t off, uint64_t len, unsigned value)
{
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    PgnNote *p = mem_grow(st->notes, &st->ncap, g->nnotes + 1, sizeof(PgnNote), PGN_MAX_ELEMS);
    if (p == NULL) {
        g->notes_dropped = true;
        g->out_of_memory |= g->nnotes < PGN_MAX_ELEMS; /* (not the cap: the caller says so, exit 2) */
        return;
    }
    st->notes = p;
    g->notes = p;
    PgnNote *n = &p[g->nnotes++];
    n->offset = off;
    n->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
    n->kind = (uint8_t)k;
    n->value = (uint8_t)value;
}

void pgn_bad_byte(PgnReader *r, size_t i, unsigned c)
{
    if (r->g == NULL || r->bad_byte)
        return;
    char msg[80];
    snprintf(msg, sizeof msg, "byte 0x%02X is neither valid UTF-8 nor printable Latin-1", c);
    pgn_game_diag(r, D_BAD_BYTE, pos_of(r, i), msg);
    r->bad_byte = true;
}

/* Appends input bytes [r->raw_next, upto) of the current game to its raw copy. */
void pgn_raw_take(PgnReader *r, uint64_t upto)
{
    if (!r->raw_on || upto <= r->raw_next)
        return;
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    const unsigned char *src = r->buf + (size_t)(r->raw_next - r->base);
    size_t n = (size_t)(upto - r->raw_next);
    r->raw_next = upto;
    if (!g->raw_complete)
        return;
    size_t most = r->opt.raw_max;
    if (g->raw_len + n > most) {
        n = most - g->raw_len;
        g->raw_complete = false;
    }
    char *p = mem_grow(st->raw, &st->rawcap, g->raw_len + n, 1, most);
    if (p == NULL) {
        g->raw_complete = false;
        g->out_of_memory = true; /* (not the cap: raw_len + n <= most) */
        return;
    }
    st->raw = p;
    memcpy(st->raw + g->raw_len, src, n);
    g->raw_len += n;
}

/* Discards consumed bytes (keeping one byte of history) and reads more.
 * Returns the bytes now available after pos (0 at end of input). */
size_t pgn_refill(PgnReader *r)
{
    if (r->pos > 1) {
        size_t drop = r->pos - 1;
        pgn_raw_take(r, r->base + drop);
        memmove(r->buf, r->buf + drop, r->end - drop);
        r->base += drop;
        r->end -= drop;
        r->pos = 1;
    }
    while (!r->eof && r->end < BUF_CAP) {
        long n = r->read(r->ctx, (char *)r->buf + r->end, BUF_CAP - r->end);
        if (n > 0) {
            r->end += (size_t)n;
            r->total += (uint64_t)n;
            break;
        }
        if (n < 0 && errno == EINTR)
            continue;
        r->eof = true;
        if (n < 0) {
            r->failed = true;
            r->fail_errno = errno;
        }
    }
    r->buf[r->end] = 0;           /* sentinel: stops class-table loops */
    return r->end - r->pos;
}

/* Skips whitespace, counting line ends into nl_run.  Returns false at end of input. */
bool pgn_skip_ws(PgnReader *r)
{
    const unsigned char *b = r->buf;
    size_t i = r->pos, e = r->end;
    r->nl_run = 0;
    for (;;) {
        while (i < e) {
            unsigned k = pgn_cls[b[i]];
            if (!(k & K_WS))
                goto done;
            if (k & K_NL) {
                if (!(b[i] == '\n' && b[i - 1] == '\r')) {
                    r->line++;
                    r->nl_run++;
                }
                r->line_start = r->base + i + 1;
                r->line_tok = false;
            }
            i++;
        }
        r->pos = i;
        if (pgn_refill(r) == 0)
            return false;
        b = r->buf;
        i = r->pos;
        e = r->end;
    }
done:
    r->pos = i;
    return true;
}

/* Skips to the end of the current line, consuming the line end (CRLF whole). */
void pgn_skip_line(PgnReader *r)
{
    for (;;) {
        const unsigned char *b = r->buf;
        size_t i = r->pos, e = r->end;
        while (i < e && !(pgn_cls[b[i]] & K_NL))
            i++;
        if (i < e) {
            newline_at(r, i);
            i++;
            r->pos = i;
            if (b[i - 1] == '\r') {
                if (pgn_need(r, 1) && r->buf[r->pos] == '\n') {
                    newline_at(r, r->pos);
                    r->pos++;
                }
            }
            return;
        }
        r->pos = i;
        if (pgn_refill(r) == 0)
            return;
    }
}

/* Is buf[pos] the start of a tag pair: '[' blanks Name blanks '"'?
 * If event is non-NULL it receives whether Name is "Event" (any case). */
bool pgn_tag_like(PgnReader *r, bool *event)
{
    size_t n = pgn_need(r, LOOKAHEAD), name, nlen;
    const unsigned char *s = r->buf + r->pos;
    if (!pgn_tag_shape(s, n, PGN_MAX_TAG_NAME - 1, &name, &nlen))
        return false;
    if (event)
        *event = nlen == 5 && name_event(s + name);
    return true;
}

/* A new element when the game's array is full: the array grown, or NULL
 * (said once: the cap, or out of memory). */
PgnElem *pgn_elem_slow(PgnReader *r, PgnPos p)
{
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    size_t cap = st->ecap;
    PgnElem *q = mem_grow(g->elems, &cap, g->nelems < ELEMS_INIT ? ELEMS_INIT : g->nelems + 1, sizeof(PgnElem),
                          PGN_MAX_ELEMS);
    if (q == NULL) {
        if (!r->too_long) {
            r->too_long = true;
            if (g->nelems < PGN_MAX_ELEMS) {
                g->out_of_memory = true; /* the caller says so and exits 2 */
                pgn_game_diag(r, D_GAME_TOO_LONG, p, "out of memory: the rest of the movetext is not stored");
            } else
                pgn_game_diag(r, D_GAME_TOO_LONG, p,
                          "more movetext elements than the reader keeps; the rest is not stored");
        }
        return NULL;
    }
    g->elems = q;
    st->ecap = cap;
    return &g->elems[g->nelems++];
}

/* Makes room for need elements without a diagnostic (pgn_elem_slow reports the
 * cap); false if the cap or memory does not allow it. */
bool pgn_elems_reserve(PgnReader *r, size_t need)
{
    PgnGame *g = r->g;
    GameStore *st = g->priv;
    size_t cap = st->ecap;
    PgnElem *q = mem_grow(g->elems, &cap, need < ELEMS_INIT ? ELEMS_INIT : need, sizeof(PgnElem), PGN_MAX_ELEMS);
    if (q == NULL)
        return false;
    g->elems = q;
    st->ecap = cap;
    return true;
}
