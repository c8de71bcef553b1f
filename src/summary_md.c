/* summary_md.c - the Markdown summary of a run (summary_md.h). */
#include "summary_md.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"

typedef struct FileRow {
    char *name;
    uint64_t games, errors, warnings, other;
} FileRow;

typedef struct FirstError {
    char *file;
    PgnPos pos;
    DiagCode code;
    char msg[PGN_MSG];
} FirstError;

struct SummaryMd {
    FileRow cur;                /* the input being output */
    FileRow *rows;
    size_t nrows, cap;
    uint64_t findings[D_COUNT][SEV_ERROR + 1], games[D_COUNT];
    FirstError first[SMD_FIRST_ERRORS];
    size_t nfirst;
    uint64_t more_errors;       /* errors past the first ones */
    bool oom;
};

SummaryMd *smd_new(void)
{
    return mem_calloc(1, sizeof(SummaryMd));
}

void smd_free(SummaryMd *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nrows; i++)
        mem_free(m->rows[i].name);
    for (size_t i = 0; i < m->nfirst; i++)
        mem_free(m->first[i].file);
    mem_free(m->rows);
    mem_free(m);
}

static void count(SummaryMd *m, const char *file, const Diag *d, bool seen[D_COUNT])
{
    if (d->code >= D_COUNT || d->severity == SEV_NONE)
        return;
    m->findings[d->code][d->severity]++;
    if (seen && !seen[d->code]) {
        seen[d->code] = true;
        m->games[d->code]++;
    }
    if (d->severity != SEV_ERROR)
        return;
    if (m->nfirst == SMD_FIRST_ERRORS) {
        m->more_errors++;
        return;
    }
    FirstError *e = &m->first[m->nfirst];
    if (!(e->file = mem_strdup(file))) {
        m->oom = true;
        return;
    }
    e->pos = d->pos;
    e->code = d->code;
    snprintf(e->msg, sizeof e->msg, "%s", d->msg);
    m->nfirst++;
}

void smd_game(SummaryMd *m, const char *file, const GameReport *rep, const Diag *extra, size_t nextra)
{
    bool seen[D_COUNT] = {false};
    m->cur.games++;
    m->cur.errors += rep->status == STATUS_ERROR;
    m->cur.warnings += rep->status == STATUS_WARNING;
    for (size_t i = 0; i < rep->ndiags; i++)
        count(m, file, &rep->diags[i], seen);
    for (size_t i = 0; i < nextra; i++)
        count(m, file, &extra[i], seen);
}

void smd_file_diag(SummaryMd *m, const char *file, const Diag *d)
{
    m->cur.other += d->severity >= SEV_WARNING;
    count(m, file, d, NULL);
}

bool smd_file_end(SummaryMd *m, const char *file)
{
    FileRow *v = mem_grow(m->rows, &m->cap, m->nrows + 1, sizeof *v, SIZE_MAX / sizeof *v);
    if (!v || !(m->cur.name = mem_strdup(file))) {
        m->oom = true;
        memset(&m->cur, 0, sizeof m->cur);
        return false;
    }
    m->rows = v;
    m->rows[m->nrows++] = m->cur;
    memset(&m->cur, 0, sizeof m->cur);
    return true;
}

/* Text in a table cell or a list item: no line break, no markup the
 * text could start (a | ends a cell, ` a code span, < an HTML tag). */
static void md_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f)
            fputc('?', f);
        else if (strchr("|`*_[]<>\\#~", c))
            fprintf(f, "\\%c", c);
        else
            fputc(c, f);
    }
}

bool smd_write(const SummaryMd *m, const char *path, const ReportSummary *sum, char *why, size_t cap)
{
    if (m->oom) {
        snprintf(why, cap, "out of memory");
        return false;
    }
    FILE *f = fopen(path, "a");
    if (!f) {
        snprintf(why, cap, "%s: %s", path, strerror(errno));
        return false;
    }
    fprintf(f, "### pgncheck: %s\n\n", sum->error ? "errors found" : sum->failed ? "inputs not read" : "no error");
    fprintf(f, "%llu games in %llu files: %llu ok, %llu with errors, %llu with warnings, %llu skipped.\n\n",
            (unsigned long long)sum->games, (unsigned long long)sum->inputs, (unsigned long long)sum->ok,
            (unsigned long long)sum->error, (unsigned long long)sum->warning, (unsigned long long)sum->skipped);
    fputs("| file | games | with errors | with warnings | findings outside games |\n|---|---:|---:|---:|---:|\n", f);
    for (size_t i = 0; i < m->nrows; i++) {
        const FileRow *r = &m->rows[i];
        fputs("| ", f);
        md_text(f, r->name);
        fprintf(f, " | %llu | %llu | %llu | %llu |\n", (unsigned long long)r->games, (unsigned long long)r->errors,
                (unsigned long long)r->warnings, (unsigned long long)r->other);
    }
    bool any = false;
    for (int c = 0; c < D_COUNT; c++) {
        for (int s = SEV_ERROR; s >= SEV_WARNING; s--) {
            if (!m->findings[c][s])
                continue;
            if (!any)
                fputs("\n| code | severity | findings | games |\n|---|---|---:|---:|\n", f);
            any = true;
            fprintf(f, "| `%s` | %s | %llu | %llu |\n", diag_info[c].slug, diag_severity_name((Severity)s),
                    (unsigned long long)m->findings[c][s], (unsigned long long)m->games[c]);
        }
    }
    if (m->nfirst)
        fprintf(f, "\n%s errors:\n\n", m->more_errors ? "The first" : "The");
    for (size_t i = 0; i < m->nfirst; i++) {
        const FirstError *e = &m->first[i];
        fputs("- ", f);
        md_text(f, e->file);
        if (e->pos.line)
            fprintf(f, ":%u:%u", (unsigned)e->pos.line, (unsigned)e->pos.col);
        fputs(": ", f);
        md_text(f, e->msg);
        fprintf(f, " (`%s`)\n", diag_info[e->code].slug);
    }
    if (m->more_errors)
        fprintf(f, "- and %llu more\n", (unsigned long long)m->more_errors);
    fputc('\n', f);
    int e = ferror(f) ? (errno ? errno : EIO) : 0;
    if (fclose(f) != 0 && !e)
        e = errno;
    if (e)
        snprintf(why, cap, "%s: %s", path, strerror(e));
    return e == 0;
}
