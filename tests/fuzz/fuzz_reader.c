/* fuzz_reader.c - libFuzzer target: arbitrary bytes through the streaming PGN reader.
 *
 * Invariants (beyond "no crash, no sanitizer report"):
 *  1. Chunking does not matter: the input read in one piece, in chunks whose
 *     sizes are derived from the bytes, and (for small inputs) one byte per
 *     read give the same games, tags, elements and diagnostics.
 *  2. Games tile the input: starts and ends increase, each game's kept raw
 *     bytes equal the input slice [start.offset, end_offset).
 *  3. The game count is bounded by the plausible game starts: a game ends
 *     only at a termination marker, at a line whose first non-blank byte is
 *     '[' (new tag section / resync line), at an Event pair in a tag section
 *     that has one (also within a line: `[Event "a"][Event "b"]` is two
 *     games) or at the end of input (pgn.h), so
 *        games <= markers + '['-lines + '[Event's + 1
 *     where markers counts every substring "1-0", "0-1", "1/2-1/2" or "*"
 *     (an over-count: markers inside comments or tags are included), a
 *     line starts after '\n' or '\r' (also an over-count) and '[Event's
 *     counts every '[' followed by blanks and "Event" not at a line start.
 */
#include "fuzz_common.h"
#include "pgn.h"

typedef struct Src {
    const uint8_t *d;
    size_t n, at;
    int mode;          /* 0 whole, 1 derived chunks, 2 one byte */
    uint64_t rng;
} Src;

static long src_read(void *ctx, char *buf, size_t cap)
{
    Src *s = ctx;
    if (s->at >= s->n)
        return 0;
    size_t k = s->n - s->at;
    if (s->mode == 1) {
        uint64_t r = fz_next(&s->rng);
        /* mostly tiny chunks, sometimes larger ones */
        size_t c = (r & 3) == 0 ? (size_t)(r >> 8) % 4096 + 1 : (size_t)(r >> 8) % 17 + 1;
        if (k > c)
            k = c;
    } else if (s->mode == 2) {
        k = 1;
    }
    if (k > cap)
        k = cap;
    memcpy(buf, s->d + s->at, k);
    s->at += k;
    return (long)k;
}

typedef struct Out {
    char *p;
    size_t len, cap;
} Out;

static void out_put(Out *o, const void *s, size_t n)
{
    if (o->len + n > o->cap) {
        size_t c = o->cap ? o->cap * 2 : 4096;
        while (c < o->len + n)
            c *= 2;
        o->p = realloc(o->p, c);
        FZ_CHECK(o->p != NULL, "out of memory");
        o->cap = c;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

static void out_fmt(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void out_fmt(Out *o, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        out_put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static void put_pos(Out *o, PgnPos p) { out_fmt(o, "@%llu:%u:%u", (unsigned long long)p.offset, p.line, p.col); }

static void put_diags(Out *o, const Diag *d, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out_fmt(o, " D%d/%d", (int)d[i].code, (int)d[i].severity);
        put_pos(o, d[i].pos);
        out_fmt(o, " p%d", (int)d[i].ply);
        out_put(o, d[i].move, strnlen(d[i].move, sizeof d[i].move));
        out_put(o, "|", 1);
        out_put(o, d[i].msg, strnlen(d[i].msg, sizeof d[i].msg));
        out_put(o, "\n", 1);
    }
}

/* Serialises everything the reader reports, checking invariant 2 on the way.
 * Returns the number of games. */
static size_t run(const uint8_t *d, size_t n, int mode, Out *o)
{
    Src s = {d, n, 0, mode, fz_seed(d, n)};
    PgnOptions opt = {.keep_raw = true};
    PgnReader *r = pgn_reader_new(src_read, &s, &opt);
    PgnGame *g = pgn_game_new();
    FZ_CHECK(r && g, "allocation");
    size_t games = 0;
    uint64_t prev_end = 0;
    for (;;) {
        int rc = pgn_next(r, g);
        size_t nf;
        const Diag *fd = pgn_file_diags(r, &nf);
        out_fmt(o, "rc%d F%zu\n", rc, nf);
        put_diags(o, fd, nf);
        if (rc != 1)
            break;
        games++;
        FZ_CHECK(g->index == games, "index %llu, expected %zu", (unsigned long long)g->index, games);
        FZ_CHECK(g->start.offset >= prev_end, "game %zu starts at %llu before previous end %llu", games,
                 (unsigned long long)g->start.offset, (unsigned long long)prev_end);
        FZ_CHECK(g->end_offset >= g->start.offset && g->end_offset <= n, "game %zu: bad range [%llu,%llu) of %zu",
                 games, (unsigned long long)g->start.offset, (unsigned long long)g->end_offset, n);
        prev_end = g->end_offset;
        size_t span = (size_t)(g->end_offset - g->start.offset);
        if (g->raw_complete) {
            FZ_CHECK(g->raw_len == span && (span == 0 || memcmp(g->raw, d + g->start.offset, span) == 0),
                     "game %zu: raw bytes differ from the input slice (raw_len %zu, span %zu)", games, g->raw_len,
                     span);
        }
        out_fmt(o, "G%llu", (unsigned long long)g->index);
        put_pos(o, g->start);
        out_fmt(o, " e%llu r%d", (unsigned long long)g->end_offset, (int)g->result);
        put_pos(o, g->result_pos);
        out_fmt(o, " t%d s%d T%zu E%zu dd%zu\n", g->truncated, g->syntax_error, g->ntags, g->nelems,
                g->ndiags_dropped);
        for (size_t i = 0; i < g->ntags; i++) {
            out_fmt(o, "[%s \"%s\"]", g->tags[i].name, g->tags[i].value);
            put_pos(o, g->tags[i].pos);
            put_pos(o, g->tags[i].value_pos);
            out_put(o, "\n", 1);
        }
        for (size_t i = 0; i < g->nelems; i++) {
            const PgnElem *e = &g->elems[i];
            FZ_CHECK(e->len < PGN_TOKEN_TEXT && strlen(e->text) == e->len, "element text length");
            out_fmt(o, "%d %s n%d d%d t%d a%u c%d", e->kind, e->text, (int)e->number, e->dots, e->truncated,
                    e->nags, (int)e->clock);
            put_pos(o, e->pos);
            out_put(o, "\n", 1);
        }
        put_diags(o, g->diags, g->ndiags);
    }
    FZ_CHECK(pgn_bytes_read(r) == n, "bytes read %llu of %zu", (unsigned long long)pgn_bytes_read(r), n);
    pgn_game_free(g);
    pgn_reader_free(r);
    return games;
}

static size_t game_start_bound(const uint8_t *d, size_t n)
{
    size_t bound = 1;
    bool line_start = true;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = d[i];
        if (c == '*')
            bound++;
        if (i + 3 <= n && (memcmp(d + i, "1-0", 3) == 0 || memcmp(d + i, "0-1", 3) == 0))
            bound++;
        if (i + 7 <= n && memcmp(d + i, "1/2-1/2", 7) == 0)
            bound++;
        if (c == '\n' || c == '\r') {
            line_start = true;
        } else if (line_start && (c == ' ' || c == '\t' || c == '\f' || c == '\v')) {
            /* leading blanks keep the line "fresh" */
        } else {
            if (c == '[') {
                size_t j = i + 1;
                while (j < n && (d[j] == ' ' || d[j] == '\t'))
                    j++;
                if (line_start || (j + 5 <= n && memcmp(d + j, "Event", 5) == 0))
                    bound++;
            }
            line_start = false;
        }
    }
    return bound;
}

/* Shows where two serialisations part, to make a finding readable. */
static void same_or_die(const Out *a, const Out *b, const char *what)
{
    if (a->len == b->len && memcmp(a->p, b->p, a->len) == 0)
        return;
    size_t i = 0;
    while (i < a->len && i < b->len && a->p[i] == b->p[i])
        i++;
    size_t from = i > 200 ? i - 200 : 0;
    fprintf(stderr, "--- whole read, from byte %zu:\n%.*s\n", from,
            (int)((a->len - from) < 600 ? a->len - from : 600), a->p + from);
    fprintf(stderr, "--- %s, from byte %zu:\n%.*s\n", what, from,
            (int)((b->len - from) < 600 ? b->len - from : 600), b->p + from);
    FZ_CHECK(0, "%s differs from the whole read", what);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Out a = {0}, b = {0};
    size_t games = run(data, size, 0, &a);
    size_t bound = game_start_bound(data, size);
    FZ_CHECK(games <= bound, "%zu games but only %zu plausible game starts", games, bound);
    run(data, size, 1, &b);
    same_or_die(&a, &b, "chunked read");
    if (size <= 2048) {
        b.len = 0;
        run(data, size, 2, &b);
        same_or_die(&a, &b, "byte-at-a-time read");
    }
    free(a.p);
    free(b.p);
    return 0;
}
