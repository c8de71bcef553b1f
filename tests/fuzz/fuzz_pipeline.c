/* fuzz_pipeline.c - libFuzzer target: bytes -> reader -> game_check for every game.
 *
 * The first byte chooses options (variations or not, strict); the rest is
 * the input.  Beyond "no crash": the report is well formed (status, reason,
 * counts, sorted diagnostics), plies never exceed the main line's moves, the
 * final FEN it reports parses back to a consistent position, and an own
 * replay of the main line (san_parse + pos_make from the FEN tag or the
 * start) keeps every position self-consistent; and the game's record in
 * each output format is whole lines of valid UTF-8 with no control byte but
 * the line ends (and tabs where a format has them): one line with 21
 * fields in TSV, one JSON object line in JSON Lines. */
#include "movegen.h"
#include "fuzz_common.h"
#include "game.h"
#include "pgn.h"
#include "report.h"
#include "san.h"

#include <stdio.h>

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
    memcpy(buf, s->d + s->at, k);
    s->at += k;
    return (long)k;
}

static const char *tag(const PgnGame *g, const char *name)
{
    for (size_t i = 0; i < g->ntags; i++)
        if (strcmp(g->tags[i].name, name) == 0)
            return g->tags[i].value;
    return NULL;
}

static void own_replay(const PgnGame *g)
{
    Position pos;
    const char *fen = tag(g, "FEN");
    const char *var = tag(g, "Variant");
    bool c960 = var && (strstr(var, "960") || strstr(var, "andom"));
    if (fen) {
        FenInfo fi = {0};
        if (pos_from_fen(&pos, fen, strlen(fen), c960, &fi) != FEN_OK)
            return;
    } else {
        pos_startpos(&pos);
    }
    FZ_CHECK(pos_is_consistent(&pos), "start position inconsistent");
    int depth = 0;
    for (size_t i = 0; i < g->nelems; i++) {
        const PgnElem *e = &g->elems[i];
        if (e->kind == PGN_EL_VAR_START) {
            depth++;
            continue;
        }
        if (e->kind == PGN_EL_VAR_END) {
            depth--;
            continue;
        }
        if (depth != 0)
            continue;
        SanResult r;
        if (san_parse(&pos, e->text, e->len, &r) != SAN_OK)
            return;
        Position next;
        pos_make(&pos, r.move, &next);
        FZ_CHECK(pos_is_consistent(&next), "own replay: inconsistent after \"%s\" (element %zu)", e->text, i);
        pos = next;
    }
}

static void check_report(const PgnGame *g, const GameReport *rep)
{
    FZ_CHECK(rep->game == g, "report of another game");
    FZ_CHECK(rep->status <= STATUS_SKIPPED && rep->reason < REASON_COUNT, "status %d reason %d", (int)rep->status,
             (int)rep->reason);
    FZ_CHECK(result_reason(rep->reason) != NULL, "reason slug");
    FZ_CHECK(rep->ndiags <= GAME_MAX_DIAGS, "ndiags %zu", rep->ndiags);
    size_t main_moves = 0;
    int depth = 0;
    for (size_t i = 0; i < g->nelems; i++) {
        if (g->elems[i].kind == PGN_EL_VAR_START)
            depth++;
        else if (g->elems[i].kind == PGN_EL_VAR_END)
            depth--;
        else if (depth == 0)
            main_moves++;
    }
    FZ_CHECK(rep->plies <= main_moves, "%u plies replayed of %zu main-line moves", rep->plies, main_moves);
    unsigned counted[4] = {0};
    for (size_t i = 0; i < rep->ndiags; i++) {
        const Diag *d = &rep->diags[i];
        FZ_CHECK(d->code < D_COUNT && d->severity >= SEV_NOTE && d->severity <= SEV_ERROR, "diag %zu: code %d sev %d",
                 i, (int)d->code, (int)d->severity);
        FZ_CHECK(strnlen(d->msg, sizeof d->msg) < sizeof d->msg && strnlen(d->move, sizeof d->move) < sizeof d->move,
                 "diag text not terminated");
        counted[d->severity]++;
        if (i > 0)
            FZ_CHECK(rep->diags[i - 1].pos.offset <= d->pos.offset, "diagnostics not sorted at %zu", i);
    }
    if (rep->dropped == 0)
        for (int s = 1; s < 4; s++)
            FZ_CHECK(counted[s] == rep->counts[s], "severity %d: %u listed, %u counted", s, counted[s],
                     rep->counts[s]);
    bool errors = rep->counts[SEV_ERROR] > 0;
    if (rep->status == STATUS_OK)
        FZ_CHECK(!errors && rep->counts[SEV_WARNING] == 0, "status ok with warnings or errors");
    /* A game of an unchecked variant is "skipped" even when the reader
     * found errors in it (game.c); reported separately by hostile.sh. */
    if (errors && rep->status != STATUS_SKIPPED)
        FZ_CHECK(rep->status == STATUS_ERROR, "errors but status %d", (int)rep->status);
    size_t fl = strnlen(rep->fen, sizeof rep->fen);
    FZ_CHECK(fl < sizeof rep->fen, "fen not terminated");
    if (fl > 0) {
        Position pos;
        FenInfo fi = {0};
        FenError e = pos_from_fen(&pos, rep->fen, fl, false, &fi);
        if (e != FEN_OK)
            e = pos_from_fen(&pos, rep->fen, fl, true, &fi);
        FZ_CHECK(e == FEN_OK, "reported FEN \"%s\" does not parse: %s", rep->fen, pos_fen_error_text(e));
        FZ_CHECK(pos_is_consistent(&pos), "reported FEN \"%s\" inconsistent", rep->fen);
    }
}

/* The length of the valid UTF-8 character at s (no overlong forms, no
 * surrogates, nothing above U+10FFFF), or 0. */
static size_t utf8_char(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!len || len > n)
        return 0;
    uint32_t v = len == 1 ? c : c & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    static const uint32_t min[5] = {0, 0, 0x80, 0x800, 0x10000};
    return v < min[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) ? 0 : len;
}

static void check_records(const PgnGame *g, const GameReport *rep)
{
    static const ReportFormat fmts[] = {FMT_JSONL, FMT_TSV, FMT_TEXT, FMT_GITHUB};
    static const char *const names[] = {"jsonl", "tsv", "text", "github"};
    for (int k = 0; k < 4; k++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        FZ_CHECK(f, "open_memstream");
        Report *rp = report_new(f, fmts[k], false);
        FZ_CHECK(rp, "report_new");
        report_game(rp, "in.pgn", g, rep, NULL, 0);
        report_free(rp);
        fclose(f);
        const unsigned char *u = (const unsigned char *)buf;
        size_t lines = 0, tabs = 0;
        for (size_t i = 0; i < len;) {
            size_t c = utf8_char(u + i, len - i);
            FZ_CHECK(c, "%s record: byte %zu (0x%02X) is not valid UTF-8", names[k], i, u[i]);
            FZ_CHECK(c > 1 || u[i] >= 0x20 || u[i] == '\n' || u[i] == '\t', "%s record: control byte 0x%02X at %zu",
                     names[k], u[i], i);
            lines += u[i] == '\n';
            tabs += u[i] == '\t';
            i += c;
        }
        FZ_CHECK(len == 0 || u[len - 1] == '\n', "%s record: no line end at its end", names[k]);
        if (fmts[k] == FMT_JSONL) {
            FZ_CHECK(lines == 1 && tabs == 0 && len > 3 && memcmp(buf, "{\"type\":\"game\",", 15) == 0 &&
                         memcmp(buf + len - 3, "]}\n", 3) == 0,
                     "jsonl record is not one object line: %.80s", buf);
        } else if (fmts[k] == FMT_TSV) {
            /* 22 fields: the 21 of the first design and rules (R45) */
            FZ_CHECK(lines == 1 && tabs == 21, "tsv record: %zu lines, %zu tabs", lines, tabs);
        }
        free(buf);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool init;
    if (!init) {
        chess_init();
        init = true;
    }
    if (size < 1)
        return 0;
    CheckOptions opt;
    game_options_default(&opt);
    opt.no_variations = data[0] & 1;
    opt.strict = (data[0] >> 1) & 1;
    Src s = {data + 1, size - 1, 0};
    PgnReader *r = pgn_reader_new(src_read, &s, NULL);
    PgnGame *g = pgn_game_new();
    GameReport rep;
    game_report_init(&rep);
    FZ_CHECK(r && g, "allocation");
    while (pgn_next(r, g) == 1) {
        game_check(g, &opt, &rep);
        check_report(g, &rep);
        check_records(g, &rep);
        own_replay(g);
    }
    game_report_free(&rep);
    pgn_game_free(g);
    pgn_reader_free(r);
    return 0;
}
