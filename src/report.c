/* report.c - the calls the run makes, each handed to the output format's
 * file: the Report's life, deferred records, --min-severity, --max-repeats
 * and the summary line. */
#include "report.h"

#include <string.h>

#include "mem.h"
#include "report_core.h"
#include "report_github.h"
#include "report_jsonl.h"
#include "report_text.h"
#include "report_tsv.h"
#include "tags.h"

Report *report_new(FILE *out, ReportFormat fmt, bool color)
{
    Report *rp = mem_calloc(1, sizeof *rp);
    if (!rp)
        return NULL;
    rp->out = out;
    rp->fmt = fmt;
    rp->color = color && fmt == FMT_TEXT;
    rp->min = SEV_NOTE;
    return rp;
}

void report_set_min_severity(Report *rp, Severity min)
{
    rp->min = min;
}

void report_hidden(const Report *rp, uint64_t hidden[SEV_ERROR + 1])
{
    for (int i = 0; i <= SEV_ERROR; i++)
        hidden[i] += rp->hidden[i];
}

Report *report_new_deferred(ReportFormat fmt)
{
    if (fmt != FMT_JSONL && fmt != FMT_TSV)
        return NULL;
    Report *rp = report_new(NULL, fmt, false);
    if (rp)
        rp->defer = true;
    return rp;
}

bool report_deferred_write(Report *src, Report *dst, uint64_t index_base, uint64_t line_delta)
{
    if (src->b.failed) {
        dst->oom = true;    /* (a record cut short is not written, nor any after it) */
        report_deferred_reset(src);
        return false;
    }
    OutBuf *o = &dst->b;
    size_t at = 0;
    for (size_t i = 0; i < src->nsp; i++) {
        const ReportSplice *sp = &src->sp[i];
        ob_add(o, src->b.p + at, sp->at - at);
        /* lines as the reader's 32-bit counts shifted (pieces.c lines_shift) */
        ob_u64(o, sp->kind == REPORT_NUM_INDEX ? sp->value + index_base : (uint32_t)(sp->value + line_delta));
        at = sp->at;
        if (o->len >= (64u << 10))
            report_flush(dst);
    }
    ob_add(o, src->b.p + at, src->b.len - at);
    report_flush(dst);
    for (int i = 0; i <= SEV_ERROR; i++)
        dst->hidden[i] += src->hidden[i];
    report_deferred_reset(src);
    return !dst->oom;
}

bool report_out_of_memory(const Report *rp)
{
    return rp && rp->oom;
}

void report_deferred_reset(Report *src)
{
    src->b.len = 0;
    src->b.failed = false;
    src->nsp = 0;
    memset(src->hidden, 0, sizeof src->hidden);
    /* a batch with long records gives the memory back */
    if (src->b.cap > (1u << 20)) {
        mem_free(src->b.p);
        src->b.p = NULL;
        src->b.cap = 0;
    }
    if (src->spcap > (1u << 14)) {
        mem_free(src->sp);
        src->sp = NULL;
        src->spcap = 0;
    }
}

void report_free(Report *rp)
{
    if (rp) {
        rollup_free(rp->roll);
        mem_free(rp->sp);
        ob_free(&rp->b);
        mem_free(rp);
    }
}

void report_show_duplicates(Report *rp)
{
    rp->dups = true;
}

bool report_set_max_repeats(Report *rp, uint64_t max)
{
    if (!max || (rp->fmt != FMT_TEXT && rp->fmt != FMT_GITHUB))
        return true;
    rp->roll = rollup_new(max, rp->fmt == FMT_GITHUB);
    return rp->roll != NULL;
}

/* Is d printed, as far as --max-repeats goes?  Text prints every error. */
static bool repeats_shown(Report *rp, const Diag *d)
{
    return !rp->roll || (rp->fmt == FMT_TEXT && d->severity == SEV_ERROR) ||
           rollup_show(rp->roll, d, report_message_of(rp, d));
}

bool report_format_parse(const char *name, ReportFormat *fmt)
{
    static const char *const names[] = {"text", "jsonl", "tsv", "github"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *fmt = (ReportFormat)i;
            return true;
        }
    return false;
}

void report_begin(Report *rp)
{
    if (rp->fmt != FMT_TSV)
        return;
    report_tsv_begin(rp);
    report_flush(rp);
}

void report_game(Report *rp, const char *file, const PgnGame *g, const GameReport *rep,
                 const Diag *extra, size_t nextra)
{
    rp->dup_text = rep->dup_text;
    switch (rp->fmt) {
    case FMT_JSONL:
        report_jsonl_game(rp, file, g, rep, extra, nextra);
        break;
    case FMT_TSV:
        report_tsv_game(rp, file, g, rep, extra, nextra);
        break;
    case FMT_TEXT:
    case FMT_GITHUB: {
        bool header = false;
        if (rp->roll)
            rollup_game(rp->roll);
        for (size_t i = 0; i < rep->ndiags + nextra; i++) {
            const Diag *d = i < rep->ndiags ? &rep->diags[i] : &extra[i - rep->ndiags];
            if (!report_shown(rp, d, i >= rep->ndiags) || !repeats_shown(rp, d))
                continue;
            if (rp->fmt == FMT_GITHUB) {
                report_github_diag(rp, file, g, d);
                continue;
            }
            if (!header)
                report_text_header(rp, file, g);
            header = true;
            report_text_diag(rp, file, g, d);
        }
        break;
    }
    }
    rp->dup_text = NULL;
    report_flush(rp);
}

void report_file_diag(Report *rp, const char *file, const Diag *d)
{
    if (!report_shown(rp, d, false))
        return;
    switch (rp->fmt) {
    case FMT_TEXT:
        report_text_diag(rp, file, NULL, d);
        break;
    case FMT_GITHUB:
        report_github_diag(rp, file, NULL, d);
        break;
    case FMT_JSONL:
        report_jsonl_file_diag(rp, file, d);
        break;
    case FMT_TSV:
        /* One row per game: a finding outside any game has no row.  The
         * caller repeats it on standard error in text form. */
        break;
    }
    report_flush(rp);
}

void report_file_end(Report *rp, const char *file)
{
    if (!rp->roll)
        return;
    size_t n;
    const RollLine *line = rollup_file_end(rp->roll, &n);
    if (rp->fmt != FMT_TEXT)
        return;                 /* github: one summary of the run per code (report_summary) */
    for (size_t i = 0; i < n; i++) {
        Diag d;
        memset(&d, 0, sizeof d);
        d.code = line[i].code;
        d.severity = line[i].severity;
        snprintf(d.msg, sizeof d.msg, "%s", line[i].msg);
        report_text_diag(rp, file, NULL, &d);
    }
    report_flush(rp);
}

static double per_second(uint64_t n, double seconds)
{
    return seconds > 0 ? (double)n / seconds : 0.0;
}

void report_summary(Report *rp, const ReportSummary *s)
{
    if (rp->fmt == FMT_GITHUB && rp->roll)
        report_github_summary(rp);
    else if (rp->fmt == FMT_JSONL)
        report_jsonl_summary(rp, s);
    report_flush(rp);
}

void report_summary_text(FILE *out, const ReportSummary *s)
{
    fprintf(out,
            "pgncheck: %llu %s, %llu plies: %llu ok, %llu with errors, %llu with warnings, "
            "%llu skipped; %.2f s, %.0f games/s\n",
            (unsigned long long)s->games, s->games == 1 ? "game" : "games",
            (unsigned long long)s->plies, (unsigned long long)s->ok,
            (unsigned long long)s->error, (unsigned long long)s->warning,
            (unsigned long long)s->skipped, s->seconds, per_second(s->games, s->seconds));
    if (s->failed)
        fprintf(out, "pgncheck: %llu of %llu %s failed (not opened, not read to the end or not PGN text)\n",
                (unsigned long long)s->failed, (unsigned long long)s->inputs, s->inputs == 1 ? "input" : "inputs");
    /* What the threshold kept back, and how to see it: the lowest
     * severity hidden is the threshold that shows everything. */
    const char *sees = NULL;
    char what[96] = "";
    size_t at = 0;
    for (int v = SEV_WARNING; v >= SEV_NOTE; v--) {
        uint64_t n = s->hidden[v];
        if (!n)
            continue;
        int k = snprintf(what + at, sizeof what - at, "%s%llu %s%s", at ? " and " : "", (unsigned long long)n,
                         diag_severity_name((Severity)v), n == 1 ? "" : "s");
        if (k > 0 && (size_t)k < sizeof what - at)
            at += (size_t)k;
        sees = diag_severity_name((Severity)v);
    }
    if (sees)
        fprintf(out, "pgncheck: %s not shown (--min-severity=%s shows them)\n", what, sees);
}

/* A message for a person (a file not rewritten, the counts --export left
 * out) as a {"type":"message"} record, where the JSON Lines report shares
 * standard error's stream (issue 37). */
void report_message(Report *rp, const char *text)
{
    if (rp->fmt != FMT_JSONL)
        return;
    report_jsonl_message(rp, text);
    report_flush(rp);
}

const char *report_tag(const PgnGame *g, const char *name)
{
    return tags_value(g, name);
}
