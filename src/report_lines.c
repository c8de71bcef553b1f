/* report_lines.c - the slices of a game's text that findings' lines are cut from. */
#include "report_lines.h"

#include <string.h>

#include "outbuf.h"

/* Does a finding show its source line? */
static bool shows_line(const PgnGame *g, const Diag *d)
{
    return d->severity == SEV_ERROR && d->pos.offset >= g->start.offset;
}

bool report_excerpt_text(const PgnGame *g, const Diag *d, const unsigned char **s, size_t *n, size_t *rel)
{
    if (!g || d->pos.offset < g->start.offset)
        return false;
    if (g->raw) {
        uint64_t rel64 = d->pos.offset - g->start.offset;
        if (rel64 > g->raw_len)
            return false;
        *s = (const unsigned char *)g->raw;
        *n = g->raw_len;
        *rel = (size_t)rel64;
        return true;
    }
    for (size_t i = 0; i < g->nslices; i++) {
        const PgnSlice *sl = &g->slices[i];
        if (sl->offset == d->pos.offset) {
            *s = (const unsigned char *)sl->text;
            *n = sl->len;
            *rel = (size_t)(sl->offset - sl->base);
            return true;
        }
    }
    return false;
}

/* github: counts the characters of d's line before it (ob_utf8_next's,
 * read in pieces, a character never split between two) and, where they
 * are fewer than its bytes, keeps the count as a slice without text whose
 * base is the offset the line would start at were each character one
 * byte (report_char_column); an ASCII line keeps nothing, so github output holds
 * no more than text output. */
static bool take_prefix(PgnGame *g, const Diag *d, ReportReadAt read, void *ctx)
{
    uint64_t off = d->pos.offset, back = d->pos.col ? d->pos.col - 1 : 0;
    uint64_t chars = 0;
    if (back > off - g->start.offset) {
        /* (the line began before the game: those bytes count one each) */
        chars = back - (off - g->start.offset);
        back = off - g->start.offset;
    }
    uint64_t at = off - back;
    unsigned char buf[PGN_SLICE];
    size_t have = 0;
    while (at < off || have) {
        size_t want = sizeof buf - have;
        if (want > off - at)
            want = (size_t)(off - at);
        if (want) {
            long k = read(ctx, (char *)buf + have, want, at);
            if (k <= 0)
                return true;    /* (a file that cannot be read again: bytes) */
            have += (size_t)k;
            at += (uint64_t)k;
        }
        size_t i = 0;
        /* a sequence cut at the buffer's end waits for the next read */
        while (i < have && (have - i >= 4 || at == off)) {
            uint32_t cp;
            i += ob_utf8_next(buf + i, have - i, &cp);
            chars++;
        }
        memmove(buf, buf + i, have - i);
        have -= i;
    }
    if (chars == (d->pos.col ? d->pos.col - 1 : 0))
        return true;            /* one byte a character: the byte column is right */
    return pgn_game_add_slice(g, off, off - chars, (const char *)buf, 0);
}

bool report_take_slices(PgnGame *g, const GameReport *rep, uint64_t end, bool prefix, ReportReadAt read,
                        void *ctx)
{
    for (size_t i = 0; i < rep->ndiags; i++) {
        const Diag *d = &rep->diags[i];
        uint64_t off = d->pos.offset;
        if (!(prefix ? d->pos.line && off >= g->start.offset : shows_line(g, d)) || off > end)
            continue;
        bool have = false;
        for (size_t k = g->nslices; k-- > 0 && !have;)
            have = g->slices[k].offset == off;
        if (have)
            continue;
        if (prefix) {
            if (!take_prefix(g, d, read, ctx))
                return false;
            continue;
        }
        uint64_t lo = off - g->start.offset > SLICE_BEFORE ? off - SLICE_BEFORE : g->start.offset;
        uint64_t hi = end - off > SLICE_AFTER ? off + SLICE_AFTER : end;
        char buf[PGN_SLICE];
        long k = read(ctx, buf, (size_t)(hi - lo), lo);
        if (k < 0)
            continue;           /* (a file that cannot be read again: no line) */
        if (!pgn_game_add_slice(g, off, lo, buf, (size_t)k))
            return false;
    }
    return true;
}

long report_read_raw(void *ctx, char *buf, size_t n, uint64_t off)
{
    const PgnGame *src = ctx;
    if (!src->raw || off < src->start.offset || off - src->start.offset > src->raw_len)
        return -1;
    size_t at = (size_t)(off - src->start.offset);
    if (n > src->raw_len - at)
        n = src->raw_len - at;
    memcpy(buf, src->raw + at, n);
    return (long)n;
}

uint64_t report_char_column(const PgnGame *g, const Diag *d)
{
    uint64_t col = d->pos.col;
    if (col < 2 || !g)
        return col;
    for (size_t i = 0; i < g->nslices; i++) {
        const PgnSlice *sl = &g->slices[i];
        if (sl->offset == d->pos.offset && sl->len == 0)
            return sl->offset - sl->base + 1;
    }
    /* the game's text itself (a game copied with --select, --fix-results) */
    uint64_t rel = d->pos.offset - g->start.offset;
    if (!g->raw || d->pos.offset < g->start.offset || rel > g->raw_len)
        return col;
    const unsigned char *s = (const unsigned char *)g->raw;
    uint64_t chars = col - 1 > rel ? col - 1 - rel : 0;  /* (bytes before the game) */
    for (size_t i = col - 1 > rel ? 0 : (size_t)(rel - (col - 1)); i < rel;) {
        uint32_t cp;
        i += ob_utf8_next(s + i, (size_t)rel - i, &cp);
        chars++;
    }
    return chars + 1;
}

