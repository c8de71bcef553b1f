/* report_stats.c - --stats: the counts of each code's diagnostics and games, as text or JSON Lines. */
#include "report_stats.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "report_core.h"

typedef struct StatCount {
    uint64_t diags, games;
} StatCount;

struct ReportStats {
    ReportFormat fmt;
    StatCount file[D_COUNT][SEV_ERROR + 1];     /* this file's, so far */
    StatCount total[D_COUNT][SEV_ERROR + 1];
    uint64_t seen[D_COUNT][SEV_ERROR + 1];      /* the last game counted */
    uint64_t game;                              /* games counted, this one's serial */
    uint64_t clocked[2], games[2];              /* games with clocks, and games: this file's, the total */
    OutBuf lines;                               /* the files' lines, to be written */
};

ReportStats *report_stats_new(ReportFormat fmt)
{
    ReportStats *st = mem_calloc(1, sizeof *st);
    if (st)
        st->fmt = fmt;
    return st;
}

void report_stats_free(ReportStats *st)
{
    if (!st)
        return;
    ob_free(&st->lines);
    mem_free(st);
}

static void stats_count(ReportStats *st, const Diag *d, bool in_game)
{
    if (d->severity == SEV_NONE || d->severity > SEV_ERROR || d->code >= D_COUNT)
        return;
    StatCount *c = &st->file[d->code][d->severity];
    c->diags++;
    if (in_game && st->seen[d->code][d->severity] != st->game) {
        st->seen[d->code][d->severity] = st->game;
        c->games++;
    }
}

void report_stats_game(ReportStats *st, const GameReport *rep, const Diag *extra, size_t nextra)
{
    st->game++;
    st->games[0]++;
    st->clocked[0] += rep->clocks.present;
    for (size_t i = 0; i < rep->ndiags; i++)
        stats_count(st, &rep->diags[i], true);
    for (size_t i = 0; i < nextra; i++)
        stats_count(st, &extra[i], true);
}

void report_stats_diag(ReportStats *st, const Diag *d)
{
    stats_count(st, d, false);
}

typedef struct StatRow {
    uint64_t diags;
    int code, sev;
} StatRow;

/* Most diagnostics first; then in the order of --list-checks, errors
 * before warnings before notes: a total order, so the lines never
 * depend on qsort. */
static int stat_row_cmp(const void *a, const void *b)
{
    const StatRow *x = a, *y = b;
    if (x->diags != y->diags)
        return x->diags > y->diags ? -1 : 1;
    if (x->code != y->code)
        return x->code < y->code ? -1 : 1;
    if (x->sev != y->sev)
        return x->sev > y->sev ? -1 : 1;
    return 0;
}

/* The lines of one set of counts; file NULL for the total. */
static void stats_format(OutBuf *b, ReportFormat fmt, const char *file, StatCount c[D_COUNT][SEV_ERROR + 1])
{
    StatRow rows[D_COUNT * SEV_ERROR];
    size_t n = 0;
    for (int code = 0; code < D_COUNT; code++)
        for (int sev = SEV_NOTE; sev <= SEV_ERROR; sev++)
            if (c[code][sev].diags)
                rows[n++] = (StatRow){c[code][sev].diags, code, sev};
    qsort(rows, n, sizeof *rows, stat_row_cmp);
    for (size_t i = 0; i < n; i++) {
        const StatCount *k = &c[rows[i].code][rows[i].sev];
        const char *slug = diag_info[rows[i].code].slug, *sev = diag_severity_name((Severity)rows[i].sev);
        if (fmt == FMT_JSONL) {
            OB_LIT(b, "{\"type\":\"stats\",\"file\":");
            ob_json(b, file);
            OB_KEY(b, "code");
            ob_json(b, slug);
            OB_KEY(b, "severity");
            ob_json(b, sev);
            OB_KEY(b, "diagnostics");
            ob_u64(b, k->diags);
            OB_KEY(b, "games");
            ob_u64(b, k->games);
            OB_LIT(b, "}\n");
        } else {
            OB_LIT(b, "pgncheck: stats: ");
            if (file)
                ob_name(b, file);
            else
                OB_LIT(b, "total");
            OB_LIT(b, ": ");
            ob_puts(b, slug);
            OB_LIT(b, " (");
            ob_puts(b, sev);
            OB_LIT(b, "): ");
            ob_u64(b, k->diags);
            ob_puts(b, k->diags == 1 ? " diagnostic in " : " diagnostics in ");
            ob_u64(b, k->games);
            ob_puts(b, k->games == 1 ? " game\n" : " games\n");
        }
    }
}

/* The games with clock comments (clock.c), where there are any. */
static void stats_clocks(OutBuf *b, ReportFormat fmt, const char *file, uint64_t clocked, uint64_t games)
{
    if (!clocked)
        return;
    if (fmt == FMT_JSONL) {
        OB_LIT(b, "{\"type\":\"stats\",\"file\":");
        ob_json(b, file);
        OB_KEY(b, "games_with_clocks");
        ob_u64(b, clocked);
        OB_KEY(b, "games");
        ob_u64(b, games);
        OB_LIT(b, "}\n");
    } else {
        OB_LIT(b, "pgncheck: stats: ");
        if (file)
            ob_cstr(b, file, ESC_TEXT);
        else
            OB_LIT(b, "total");
        OB_LIT(b, ": games with clocks: ");
        ob_u64(b, clocked);
        OB_LIT(b, " of ");
        ob_u64(b, games);
        ob_putc(b, '\n');
    }
}

bool report_stats_file_end(ReportStats *st, const char *file)
{
    stats_format(&st->lines, st->fmt, file, st->file);
    stats_clocks(&st->lines, st->fmt, file, st->clocked[0], st->games[0]);
    st->clocked[1] += st->clocked[0];
    st->games[1] += st->games[0];
    st->clocked[0] = st->games[0] = 0;
    for (int code = 0; code < D_COUNT; code++)
        for (int sev = 0; sev <= SEV_ERROR; sev++) {
            st->total[code][sev].diags += st->file[code][sev].diags;
            st->total[code][sev].games += st->file[code][sev].games;
        }
    memset(st->file, 0, sizeof st->file);
    return !st->lines.failed;
}

void report_stats_write(ReportStats *st, Report *rp, FILE *err)
{
    stats_format(&st->lines, st->fmt, NULL, st->total);
    stats_clocks(&st->lines, st->fmt, NULL, st->clocked[1], st->games[1]);
    FILE *out = st->fmt == FMT_JSONL ? rp->out : err;
    if (st->lines.failed)
        rp->oom = true;     /* (lines lost: none is written) */
    else if (st->lines.len)
        fwrite(st->lines.p, 1, st->lines.len, out);
    st->lines.len = 0;
}
