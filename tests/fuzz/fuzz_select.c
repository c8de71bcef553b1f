/* fuzz_select.c - libFuzzer target: --select=valid and --select=invalid
 * keep the games (issue 33, defect 12).
 *
 * The first byte chooses options (bit 0: no variations, bit 1: --strict);
 * the rest is the input.  Every game is checked and copied as --select
 * copies it (pgn_write_game, as read) to the valid or the invalid side.
 * Each side then re-reads as the same games: as many, in order, each with
 * the same tags, elements, plies replayed and verdict, unless pgncheck
 * says (pgn_write_apart) that a copy re-reads as part of the one before:
 * a game without a termination marker followed by one that does not begin
 * with a tag pair, where no byte could keep them apart. */
#include "movegen.h"
#include "fuzz_common.h"
#include "game.h"
#include "pgn.h"
#include "pgn_write.h"

typedef struct Src {
    const uint8_t *d;
    size_t n, at;
} Src;

static long src_read(void *ctx, char *buf, size_t cap)
{
    Src *s = ctx;
    size_t k = s->n - s->at;
    if (k > cap)
        k = cap;
    if (k == 0)
        return 0;
    memcpy(buf, s->d + s->at, k);
    s->at += k;
    return (long)k;
}

#define MAX_GAMES 512

typedef struct Seen {
    size_t ntags, nelems;
    uint32_t plies;
    GameStatus status;
    Reason reason;
} Seen;

typedef struct Side {
    Seen seen[MAX_GAMES];
    size_t n;
    char *text;
    size_t len;
    FILE *f;
    PgnCopyEnd end;     /* how the last copy ends */
    bool joined;        /* a copy does not re-read apart from the one before */
} Side;

static void seen_of(Seen *v, const PgnGame *g, const GameReport *rep)
{
    v->ntags = g->ntags;
    v->nelems = g->nelems;
    v->plies = rep->plies;
    v->status = rep->status;
    v->reason = rep->reason;
}

/* Reads d[0..n); with sides, copies each game to its side (and records
 * it); without, compares each game with want[] (count in *n). */
static void pass(const uint8_t *d, size_t n, const CheckOptions *opt, Side sides[2], const Side *want,
                 const char *name)
{
    Src s = {d, n, 0};
    PgnOptions po = {0};
    po.keep_raw = true;
    PgnReader *r = pgn_reader_new(src_read, &s, &po);
    PgnGame *g = pgn_game_new();
    GameReport rep;
    game_report_init(&rep);
    FZ_CHECK(r && g, "allocation");
    size_t k = 0;
    while (pgn_next(r, g) == 1) {
        game_check(g, opt, &rep);
        Seen v;
        seen_of(&v, g, &rep);
        if (sides) {
            Side *side = &sides[rep.status == STATUS_ERROR];
            /* where pgncheck says the copy re-reads as part of the one
             * before (no bytes can keep them apart), the side is not
             * compared */
            side->joined |= !pgn_write_apart(side->end, g);
            side->end = pgn_write_end(g, &rep, NULL);
            int w = pgn_write_game(side->f, g, NULL, NULL, NULL);
            FZ_CHECK(w == 0, "game %llu not copied as read (%d)", (unsigned long long)g->index, w);
            if (side->n < MAX_GAMES)
                side->seen[side->n] = v;
            side->n++;
        } else {
            if (k < want->n && k < MAX_GAMES) {
                const Seen *o = &want->seen[k];
                FZ_CHECK(o->ntags == v.ntags && o->nelems == v.nelems && o->plies == v.plies &&
                             o->status == v.status && o->reason == v.reason,
                         "%s game %zu: tags %zu/%zu, elements %zu/%zu, plies %u/%u, status %d/%d, reason %d/%d",
                         name, k + 1, o->ntags, v.ntags, o->nelems, v.nelems, o->plies, v.plies, (int)o->status,
                         (int)v.status, (int)o->reason, (int)v.reason);
            }
            k++;
        }
    }
    if (!sides)
        FZ_CHECK(k == want->n, "%s: %zu games copied re-read as %zu", name, want->n, k);
    game_report_free(&rep);
    pgn_game_free(g);
    pgn_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool init;
    static Side sides[2];
    if (!init) {
        chess_init();
        init = true;
    }
    if (size < 1 || size > 65536)
        return 0;
    CheckOptions opt;
    game_options_default(&opt);
    opt.no_variations = data[0] & 1;
    opt.strict = (data[0] >> 1) & 1;
    for (int i = 0; i < 2; i++) {
        sides[i].n = 0;
        sides[i].end = PGN_COPY_CLOSED;
        sides[i].joined = false;
        sides[i].text = NULL;
        sides[i].len = 0;
        sides[i].f = open_memstream(&sides[i].text, &sides[i].len);
        FZ_CHECK(sides[i].f, "open_memstream");
    }
    pass(data + 1, size - 1, &opt, sides, NULL, "");
    for (int i = 0; i < 2; i++) {
        fclose(sides[i].f);
        if (!sides[i].joined)
            pass((const uint8_t *)sides[i].text, sides[i].len, &opt, NULL, &sides[i], i ? "invalid" : "valid");
        free(sides[i].text);
    }
    return 0;
}
