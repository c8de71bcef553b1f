/* run_ci.c - pipelines and CI on a run's output side (run_ci.h). */
#include "run_ci.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"
#include "mem.h"
#include "rewrite.h"
#include "summary_md.h"

/* Do two descriptors reach the same file (a pipe, a terminal, a file)? */
static bool same_file(int a, int b)
{
    struct stat sa, sb;
    return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void run_ci_say(RunCi *ci, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    progress_clear(ci->progress);
    if (ci->msg_records && *ci->rp) {
        report_message(*ci->rp, text);
        return;
    }
    fprintf(stderr, PROG ": %s\n", text);
}

static FILE *report_stream(RunCi *ci)
{
    const Options *opt = ci->opt;
    if (opt->report_file && strcmp(opt->report_file, "-") != 0) {
        ci->report_fp = fopen(opt->report_file, "w");
        if (!ci->report_fp) {
            fprintf(stderr, PROG ": --report: %s: %s\n", opt->report_file, strerror(errno));
            *ci->trouble = true;
        }
        return ci->report_fp;
    }
    if (opt->report_file)
        return stdout;
    /* the games on standard output: the diagnostics beside them */
    return ci->cfg->copying && !opt->output && !opt->in_place ? stderr : stdout;
}

FILE *run_ci_report_stream(RunCi *ci)
{
    return ci->report_stream = report_stream(ci);
}

/* -o FILE: never one of the inputs (opening it would empty it first). */
static bool open_output(RunCi *ci)
{
    const char *path = ci->opt->output;
    struct stat so;
    if (stat(path, &so) == 0 && S_ISREG(so.st_mode)) {
        for (size_t i = 0; i < ci->inputs->n; i++) {
            struct stat si;
            if (strcmp(ci->inputs->v[i].path, "-") != 0 && stat(ci->inputs->v[i].path, &si) == 0 &&
                si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
                fprintf(stderr, PROG ": -o %s is also an input: use --in-place to rewrite it\n", path);
                return false;
            }
        }
    }
    if (!(ci->out_fp = fopen(path, "w"))) {
        fprintf(stderr, PROG ": -o: %s: %s\n", path, strerror(errno));
        return false;
    }
    *ci->games_out = ci->out_fp;
    return true;
}

/* --in-place: every input a regular file, and not compressed (the
 * rewrite would write it back plain); checked before any is touched. */
static bool in_place_inputs(RunCi *ci)
{
    for (size_t i = 0; i < ci->inputs->n; i++) {
        const char *path = ci->inputs->v[i].path;
        const char *why = NULL;
        struct stat st;
        unsigned char head[8];
        int fd = open(path, O_RDONLY);
        if (fd < 0 || fstat(fd, &st) != 0) {
            fprintf(stderr, PROG ": --in-place: %s: %s\n", path, strerror(errno));
            if (fd >= 0)
                close(fd);
            return false;
        }
        ssize_t n = S_ISREG(st.st_mode) ? read(fd, head, sizeof head) : 0;
        close(fd);
        if (!S_ISREG(st.st_mode))
            why = "not a regular file";
        else if (n > 0 && input_sniff(head, (size_t)n).kind == SNIFF_COMPRESSED)
            why = "compressed: decompress it, rewrite it, compress it again";
        if (why) {
            fprintf(stderr, PROG ": --in-place: %s: %s; no file rewritten\n", path, why);
            return false;
        }
    }
    rewrite_catch_signals();
    return true;
}

static bool load_baseline(RunCi *ci)
{
    const Options *opt = ci->opt;
    char why[512];
    if (opt->baseline) {
        if (!(ci->known = baseline_new()) || !baseline_load(ci->known, opt->baseline, why, sizeof why)) {
            fprintf(stderr, PROG ": --baseline: %s\n", ci->known ? why : "out of memory");
            return false;
        }
    }
    if (opt->write_baseline && !(ci->rec = baseline_new())) {
        fputs(PROG ": out of memory\n", stderr);
        return false;
    }
    ci->cfg->ids = opt->baseline || opt->write_baseline;
    return true;
}

bool run_ci_start(RunCi *ci)
{
    const Options *opt = ci->opt;
    bool ok = (!opt->output || open_output(ci)) && (!opt->in_place || in_place_inputs(ci)) && load_baseline(ci);
    if (ok && opt->summary_md && !(ci->smd = smd_new())) {
        fputs(PROG ": out of memory\n", stderr);
        ok = false;
    }
    if (!ok) {
        *ci->trouble = true;
        return false;
    }
    /* The report on standard error's file (--select's default, 2>&1, a
     * --report naming it): in JSON Lines every line of it is a record,
     * and no progress line is drawn into it but on a terminal. */
    ci->report_shared = same_file(fileno(ci->report_stream), STDERR_FILENO) && !isatty(STDERR_FILENO);
    ci->msg_records = ci->report_shared && opt->format == FMT_JSONL;
    return true;
}

void run_ci_game_filter(RunCi *ci, Slot *s, Diag *pend, size_t *npend)
{
    if (!ci->cfg->ids)
        return;
    bool oom = false;
    ci->baselined += baseline_game(ci->known, ci->rec, s->ident, &s->rep, pend, npend, &oom);
    if (oom)
        ci->out_of_memory(ci->run);
}

void run_ci_game_done(RunCi *ci, const Input *in, const GameReport *rep, const Diag *extra, size_t nextra)
{
    if (ci->smd)
        smd_game(ci->smd, in->name, rep, extra, nextra);
}

bool run_ci_mended(const GameReport *rep, const Diag *extra, size_t nextra)
{
    bool result = false, marker = false;
    for (size_t i = 0; i < nextra; i++) {
        if (extra[i].severity == SEV_ERROR)
            return false;
        result |= extra[i].code == D_WRONG_RESULT;
        marker |= extra[i].code == D_MISSING_TERMINATION;
    }
    if (rep->dropped || rep->ndiags < rep->counts[SEV_ERROR])
        return false;
    for (size_t i = 0; i < rep->ndiags; i++) {
        const Diag *d = &rep->diags[i];
        if (d->severity != SEV_ERROR)
            continue;
        bool fixed = (result && (d->code == D_WRONG_RESULT || d->code == D_RESULT_MISMATCH ||
                                 d->code == D_BAD_RESULT_TAG)) ||
                     (marker && d->code == D_MISSING_TERMINATION);
        if (!fixed)
            return false;
    }
    return true;
}

static bool file_diag_known(RunCi *ci, const Input *in, const Diag *d)
{
    if (ci->file_in != in) {
        ci->file_in = in;
        ci->file_id = baseline_file_id(in->name);
        memset(ci->file_nth, 0, sizeof ci->file_nth);
    }
    bool oom = false;
    bool known = baseline_file_diag(ci->known, ci->rec, ci->file_id, d, ++ci->file_nth[d->code], &oom);
    if (oom)
        ci->out_of_memory(ci->run);
    ci->baselined += known;
    return known;
}

bool run_ci_file_diag(RunCi *ci, const Input *in, const Diag *d)
{
    bool known = ci->cfg->ids && d->code < D_COUNT && file_diag_known(ci, in, d);
    if (ci->smd && d->severity != SEV_NONE && !known)
        smd_file_diag(ci->smd, in->name, d);
    return known;
}

void run_ci_input_begins(RunCi *ci, const Input *in)
{
    if (ci->rw_in == in || in->err)
        return;
    ci->rw_in = in;
    ci->rw_failed = false;
    ci->rw_not_copied = ci->not_copied;
    char why[600];
    if (!(ci->rw = rewrite_begin(in->name, true, why, sizeof why))) {
        run_ci_say(ci, "%s; %s left as it was", why, in->shown);
        ci->rw_failed = true;
        *ci->trouble = true;
    }
    *ci->games_out = ci->rw ? rewrite_file(ci->rw) : NULL;
}

void run_ci_input_ends(RunCi *ci, const Input *in)
{
    ci->file_in = NULL;     /* (the next input may be at the same address) */
    if (ci->smd && !smd_file_end(ci->smd, in->name))
        ci->out_of_memory(ci->run);
    if (!ci->opt->in_place)
        return;
    if (ci->rw_in != in) {
        if (in->err)
            run_ci_say(ci, "%s left as it was: it could not be read", in->shown);
        return;
    }
    Rewrite *rw = ci->rw;
    ci->rw = NULL;
    ci->rw_in = NULL;
    *ci->games_out = NULL;
    if (!rw)
        return;
    const char *why = in->err ? "it could not be read to its end"
                      : ci->not_copied != ci->rw_not_copied ? "a game of it could not be copied"
                      : *ci->stop ? "the run stopped"
                                  : NULL;
    char msg[600];
    if (!why && rewrite_commit(rw, msg, sizeof msg))
        return;
    if (why)
        rewrite_abort(rw);
    run_ci_say(ci, "%s left as it was: %s", in->shown, why ? why : msg);
    *ci->trouble = true;
}

void run_ci_finish(RunCi *ci)
{
    const Options *opt = ci->opt;
    char why[600];
    if (ci->rw) {
        rewrite_abort(ci->rw);  /* (an input the run stopped in) */
        ci->rw = NULL;
        run_ci_say(ci, "%s left as it was: the run stopped", ci->rw_in ? ci->rw_in->shown : "a file");
        *ci->trouble = true;
    }
    if (ci->known && !opt->quiet) {
        size_t gone = baseline_unmatched(ci->known);
        if (ci->baselined || gone)
            run_ci_say(ci, "--baseline: %llu finding%s of the baseline not reported; %zu of its entries no longer found",
                    (unsigned long long)ci->baselined, ci->baselined == 1 ? "" : "s", gone);
    }
    /* (an input not read to its end leaves findings out: they will be
     * new ones, never hidden; a run stopped is not written) */
    if (ci->rec && !*ci->stop && !baseline_write(ci->rec, opt->write_baseline, why, sizeof why)) {
        run_ci_say(ci, "--write-baseline: %s", why);
        *ci->trouble = true;
    } else if (ci->rec && *ci->stop) {
        run_ci_say(ci, "--write-baseline: %s not written: the run stopped", opt->write_baseline);
        *ci->trouble = true;
    }
    if (ci->smd && !smd_write(ci->smd, opt->summary_md, ci->sum, why, sizeof why)) {
        run_ci_say(ci, "--summary-md: %s", why);
        *ci->trouble = true;
    }
    FILE *own[2] = {ci->out_fp, ci->report_fp};
    const char *name[2] = {opt->output, opt->report_file};
    for (int k = 0; k < 2; k++) {
        if (!own[k])
            continue;
        int e = ferror(own[k]) ? EIO : 0;
        if (fclose(own[k]) != 0 && !e)
            e = errno;
        if (e) {
            fprintf(stderr, PROG ": write error: %s: %s\n", name[k], strerror(e));
            *ci->trouble = true;
        }
    }
    ci->out_fp = ci->report_fp = NULL;
}

void run_ci_free(RunCi *ci)
{
    if (ci->rw)
        rewrite_abort(ci->rw);
    baseline_free(ci->known);
    baseline_free(ci->rec);
    smd_free(ci->smd);
    if (ci->out_fp)
        fclose(ci->out_fp);
    if (ci->report_fp)
        fclose(ci->report_fp);
}
