/* repair_write.c - --repair: the one proven repair applied to a game's
 * copy (see repair_write.h). */
#include "repair_write.h"

#include <string.h>

#include "mem.h"
#include "pgn_export.h"
#include "pgn_write.h"
#include "repair.h"

typedef struct MemSrc {
    const char *p;
    size_t len, at;
} MemSrc;

static long mem_read(void *ctx, char *buf, size_t cap)
{
    MemSrc *m = ctx;
    size_t n = m->len - m->at < cap ? m->len - m->at : cap;
    memcpy(buf, m->p + m->at, n);
    m->at += n;
    return (long)n;
}

static bool number_byte(char c) { return (c >= '0' && c <= '9') || c == '.'; }
static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* The repaired text of g into *out (mem_alloc'd), *len bytes. */
static bool repaired_text(const PgnGame *g, const Repair *r, char **out, size_t *len)
{
    size_t extra = 0;
    for (int i = 0; i < r->nput; i++)
        extra += strlen(r->put_text + r->put[i].text);
    char *t = mem_alloc(g->raw_len + extra + 1);
    if (!t)
        return false;
    size_t n = 0, at = 0;
    for (int i = 0; i < r->nput; i++) {
        if (r->put[i].at < g->start.offset)
            break;
        size_t from = (size_t)(r->put[i].at - g->start.offset), to = from + r->put[i].len;
        if (to > g->raw_len || from < at)
            break;
        const char *text = r->put_text + r->put[i].text;
        size_t tl = strlen(text);
        if (r->put[i].loose) {
            /* a token taken out: with its move number and the blanks
             * before them (a token before it is always there: the first
             * move is never taken out) */
            while (from > at && blank(g->raw[from - 1]))
                from--;
            size_t f = from;
            while (f > at && number_byte(g->raw[f - 1]))
                f--;
            if (f < from && (f == at || blank(g->raw[f - 1]))) {
                from = f;
                while (from > at && blank(g->raw[from - 1]))
                    from--;
            }
        } else {
            /* the fewest bytes: what old and new share at either end stays */
            while (tl && to > from && g->raw[from] == text[0])
                from++, text++, tl--;
            while (tl && to > from && g->raw[to - 1] == text[tl - 1])
                to--, tl--;
        }
        memcpy(t + n, g->raw + at, from - at);
        n += from - at;
        memcpy(t + n, text, tl);
        n += tl;
        at = to;
    }
    memcpy(t + n, g->raw + at, g->raw_len - at);
    n += g->raw_len - at;
    t[n] = 0;
    *out = t;
    *len = n;
    return true;
}

/* The repaired note: old and new text. */
static void repaired_note(const RepairSet *rs, const Repair *r, Diag *d)
{
    memset(d, 0, sizeof *d);
    d->code = D_REPAIRED;
    d->severity = SEV_NOTE;
    d->pos = r->pos;
    d->ply = (int32_t)r->ply;
    snprintf(d->move, sizeof d->move, "%.15s", r->old_text);
    char msg[256];
    if (rs->rest)
        snprintf(msg, sizeof msg, "repaired %s \"%s\" to \"%s\" (%s): the rest of the game (%u %s) replays legally",
                 r->label, r->old_text, r->new_text, repair_edit_slug(r->edit), (unsigned)rs->rest,
                 rs->rest == 1 ? "ply" : "plies");
    else
        snprintf(msg, sizeof msg, "repaired %s \"%s\" to \"%s\" (%s): the game then ends legally",
                 r->label, r->old_text, r->new_text, repair_edit_slug(r->edit));
    size_t n = strlen(msg) < sizeof d->msg ? strlen(msg) : sizeof d->msg - 1;
    memcpy(d->msg, msg, n);
    d->msg[n] = 0;
}

int repair_write(FILE *out, const PgnGame *g, const GameReport *rep, const CheckOptions *opt, bool fix,
                 bool export, Diag change[REPAIR_WRITE_NOTES], size_t *nchange)
{
    *nchange = 0;
    const Repair *r = repair_unique(rep->repair);
    if (!r)
        return 0;
    if (!g->raw || !g->raw_complete)
        return -1;
    char *text;
    size_t len;
    if (!repaired_text(g, r, &text, &len))
        return -1;
    MemSrc src = {text, len, 0};
    PgnOptions po = {.keep_raw = true, .offset = g->start.offset, .notes = export};
    PgnReader *rd = pgn_reader_new(mem_read, &src, &po);
    PgnGame *g2 = rd ? pgn_game_new() : NULL;
    int got = g2 ? pgn_next(rd, g2) : -1;
    int ret = -1;
    if (got == 1) {
        g2->index = g->index;
        GameReport rep2;
        game_report_init(&rep2);
        CheckOptions o = *opt;
        o.repair_search = false;
        game_check(g2, &o, &rep2);
        repaired_note(rep->repair, r, &change[0]);
        size_t k = 0;
        ret = 1;
        PgnExport *x = export ? pgn_export_new() : NULL;
        PgnExportText et = {0};
        uint32_t esc = 0;
        if (x && pgn_export_game(x, g2, &rep2, fix, &et, &esc) == PGN_EXPORT_DONE) {
            fwrite(et.p, 1, et.len, out);
            if (fix)
                k = pgn_export_notes(g2, &rep2, change + 1);
        } else if (pgn_write_game(out, g2, fix ? &rep2 : NULL, change + 1, &k) < 0)
            ret = -1;
        /* (the notes of the repaired text: its lines counted from the game's) */
        for (size_t i = 1; i <= k; i++)
            if (change[i].pos.line)
                change[i].pos.line += g->start.line - 1;
        *nchange = 1 + k;
        pgn_export_text_free(&et);
        pgn_export_free(x);
        game_report_free(&rep2);
    }
    if (g2)
        pgn_game_free(g2);
    pgn_reader_free(rd);
    mem_free(text);
    return ret;
}
