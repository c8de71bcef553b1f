/* fuzz_export.c - libFuzzer target: --export is a fixed point and keeps
 * the games (issue 33, defects 3 and 8).
 *
 * The first byte chooses options (bit 0: --fix-results, bit 1: --strict);
 * the rest is the input.  Every game is checked and exported as --export
 * does it (pgn_export_game); the games it exports (PGN_EXPORT_DONE), one
 * after the other, are the export X1.  Then:
 *  1. X1 re-reads as the same games: as many, each with the same plies
 *     replayed, the same final position and the same termination marker,
 *     none with an error, and no text between them (non-game-text);
 *  2. X1 exported again is X1, byte for byte: every game of it is
 *     exported (none left as read) and written as it is. */
#include "movegen.h"
#include "fuzz_common.h"
#include "game.h"
#include "pgn.h"
#include "pgn_export.h"

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

#define MAX_GAMES 256

/* What is compared of an exported game and its re-reading. */
typedef struct Seen {
    uint32_t plies;
    char fen[100];
    PgnResult result;
} Seen;

/* Exports every game of d[0..n) that --export rewrites into *out; their
 * number in *ngames (those over MAX_GAMES are exported but not kept in
 * seen).  With reread, also: no game left as read, none with an error,
 * and no file-level finding (text between games). */
static void export_all(const uint8_t *d, size_t n, const CheckOptions *opt, bool fix, bool reread,
                       PgnExportText *out, Seen *seen, size_t *ngames)
{
    Src s = {d, n, 0};
    PgnOptions po = {0};
    po.keep_raw = true;
    PgnReader *r = pgn_reader_new(src_read, &s, &po);
    PgnGame *g = pgn_game_new();
    PgnExport *x = pgn_export_new();
    GameReport rep;
    game_report_init(&rep);
    FZ_CHECK(r && g && x, "allocation");
    *ngames = 0;
    while (pgn_next(r, g) == 1) {
        game_check(g, opt, &rep);
        uint32_t esc = 0;
        PgnExportStatus st = pgn_export_game(x, g, &rep, fix, out, &esc);
        FZ_CHECK(st != PGN_EXPORT_NO_MEMORY, "out of memory");
        if (reread) {
            FZ_CHECK(st == PGN_EXPORT_DONE, "game %llu of the export is left as read: %s",
                     (unsigned long long)g->index, pgn_export_why(x) ? pgn_export_why(x) : "an error");
            FZ_CHECK(rep.counts[SEV_ERROR] == 0, "game %llu of the export has an error: %s",
                     (unsigned long long)g->index, rep.ndiags ? rep.diags[0].msg : "?");
            size_t nf;
            const Diag *fd = pgn_file_diags(r, &nf);
            FZ_CHECK(nf == 0, "text between games in the export before game %llu: %s",
                     (unsigned long long)g->index, fd[0].msg);
        }
        if (st != PGN_EXPORT_DONE)
            continue;
        if (*ngames < MAX_GAMES) {
            Seen *v = &seen[*ngames];
            v->plies = rep.plies;
            snprintf(v->fen, sizeof v->fen, "%s", rep.fen);
            v->result = fix && rep.fixed != PGN_RES_NONE ? rep.fixed
                        : g->result != PGN_RES_NONE      ? g->result
                                                         : rep.marker;
            if (reread)
                v->result = g->result;
        }
        (*ngames)++;
    }
    if (reread) {
        size_t nf;
        const Diag *fd = pgn_file_diags(r, &nf);
        FZ_CHECK(nf == 0, "text after the export's last game: %s", fd[0].msg);
    }
    game_report_free(&rep);
    pgn_export_free(x);
    pgn_game_free(g);
    pgn_reader_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool init;
    static Seen seen1[MAX_GAMES], seen2[MAX_GAMES];
    if (!init) {
        chess_init();
        init = true;
    }
    if (size < 1 || size > 65536)
        return 0;
    CheckOptions opt;
    game_options_default(&opt);
    bool fix = data[0] & 1;
    opt.strict = (data[0] >> 1) & 1;
    PgnExportText x1 = {0}, x2 = {0};
    size_t n1, n2;
    export_all(data + 1, size - 1, &opt, fix, false, &x1, seen1, &n1);
    /* the export read again: as --export reads it, without --fix-results
     * (nothing is left to mend) */
    export_all((const uint8_t *)x1.p, x1.len, &opt, false, true, &x2, seen2, &n2);
    FZ_CHECK(n1 == n2, "%zu games exported re-read as %zu", n1, n2);
    for (size_t i = 0; i < n1 && i < MAX_GAMES; i++) {
        FZ_CHECK(seen1[i].plies == seen2[i].plies, "game %zu: %u plies, %u re-read", i + 1, seen1[i].plies,
                 seen2[i].plies);
        FZ_CHECK(strcmp(seen1[i].fen, seen2[i].fen) == 0, "game %zu: position %s, re-read %s", i + 1, seen1[i].fen,
                 seen2[i].fen);
        FZ_CHECK(seen1[i].result == seen2[i].result, "game %zu: result %d, re-read %d", i + 1, (int)seen1[i].result,
                 (int)seen2[i].result);
    }
    FZ_CHECK(x1.len == x2.len && (x1.len == 0 || memcmp(x1.p, x2.p, x1.len) == 0), "export(export(x)) != export(x): %zu bytes, %zu",
             x1.len, x2.len);
    pgn_export_text_free(&x1);
    pgn_export_text_free(&x2);
    return 0;
}
