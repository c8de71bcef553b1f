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
#include "run.h"
#include "summary_md.h"

/* Do two descriptors reach the same file (a pipe, a terminal, a file)? */
static bool same_file(int a, int b)
{
    struct stat sa, sb;
    return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

void run_say(Run *run, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    progress_clear(&run->progress);
    if (run->ci.msg_records && run->rp) {
        report_message(run->rp, text);
        return;
    }
    fprintf(stderr, PROG ": %s\n", text);
}

static FILE *report_stream(Run *run)
{
    const Options *opt = run->opt;
    if (opt->report_file && strcmp(opt->report_file, "-") != 0) {
        run->ci.report_fp = fopen(opt->report_file, "w");
        if (!run->ci.report_fp) {
            fprintf(stderr, PROG ": --report: %s: %s\n", opt->report_file, strerror(errno));
            run->trouble = true;
        }
        return run->ci.report_fp;
    }
    if (opt->report_file)
        return stdout;
    /* the games on standard output: the diagnostics beside them */
    return run->cfg.copying && !opt->output && !opt->in_place ? stderr : stdout;
}

FILE *run_ci_report_stream(Run *run)
{
    return run->ci.report_stream = report_stream(run);
}

/* -o FILE: never one of the inputs (opening it would empty it first). */
static bool open_output(Run *run)
{
    const char *path = run->opt->output;
    struct stat so;
    if (stat(path, &so) == 0 && S_ISREG(so.st_mode)) {
        for (size_t i = 0; i < run->inputs.n; i++) {
            struct stat si;
            if (strcmp(run->inputs.v[i].path, "-") != 0 && stat(run->inputs.v[i].path, &si) == 0 &&
                si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
                fprintf(stderr, PROG ": -o %s is also an input: use --in-place to rewrite it\n", path);
                return false;
            }
        }
    }
    if (!(run->ci.out_fp = fopen(path, "w"))) {
        fprintf(stderr, PROG ": -o: %s: %s\n", path, strerror(errno));
        return false;
    }
    run->games_out = run->ci.out_fp;
    return true;
}

/* --in-place: every input a regular file, and not compressed (the
 * rewrite would write it back plain); checked before any is touched. */
static bool in_place_inputs(Run *run)
{
    for (size_t i = 0; i < run->inputs.n; i++) {
        const char *path = run->inputs.v[i].path;
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

static bool load_baseline(Run *run)
{
    const Options *opt = run->opt;
    char why[512];
    if (opt->baseline) {
        if (!(run->ci.known = baseline_new()) || !baseline_load(run->ci.known, opt->baseline, why, sizeof why)) {
            fprintf(stderr, PROG ": --baseline: %s\n", run->ci.known ? why : "out of memory");
            return false;
        }
    }
    if (opt->write_baseline && !(run->ci.rec = baseline_new())) {
        fputs(PROG ": out of memory\n", stderr);
        return false;
    }
    run->cfg.ids = opt->baseline || opt->write_baseline;
    return true;
}

bool run_ci_start(Run *run)
{
    const Options *opt = run->opt;
    bool ok = (!opt->output || open_output(run)) && (!opt->in_place || in_place_inputs(run)) && load_baseline(run);
    if (ok && opt->summary_md && !(run->ci.smd = smd_new())) {
        fputs(PROG ": out of memory\n", stderr);
        ok = false;
    }
    if (!ok) {
        run->trouble = true;
        return false;
    }
    /* The report on standard error's file (--select's default, 2>&1, a
     * --report naming it): in JSON Lines every line of it is a record,
     * and no progress line is drawn into it but on a terminal. */
    run->ci.report_shared = same_file(fileno(run->ci.report_stream), STDERR_FILENO) && !isatty(STDERR_FILENO);
    run->ci.msg_records = run->ci.report_shared && opt->format == FMT_JSONL;
    return true;
}

void run_ci_game_filter(Run *run, Slot *s, Diag *pend, size_t *npend)
{
    if (!run->cfg.ids)
        return;
    bool oom = false;
    run->ci.baselined += baseline_game(run->ci.known, run->ci.rec, s->ident, &s->rep, pend, npend, &oom);
    if (oom)
        run_out_of_memory(run);
}

void run_ci_game_done(Run *run, const Input *in, const GameReport *rep, const Diag *extra, size_t nextra)
{
    if (run->ci.smd)
        smd_game(run->ci.smd, in->name, rep, extra, nextra);
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

static bool file_diag_known(Run *run, const Input *in, const Diag *d)
{
    if (run->ci.file_in != in) {
        run->ci.file_in = in;
        run->ci.file_id = baseline_file_id(in->name);
        memset(run->ci.file_nth, 0, sizeof run->ci.file_nth);
    }
    bool oom = false;
    bool known = baseline_file_diag(run->ci.known, run->ci.rec, run->ci.file_id, d, ++run->ci.file_nth[d->code], &oom);
    if (oom)
        run_out_of_memory(run);
    run->ci.baselined += known;
    return known;
}

bool run_ci_file_diag(Run *run, const Input *in, const Diag *d)
{
    bool known = run->cfg.ids && d->code < D_COUNT && file_diag_known(run, in, d);
    if (run->ci.smd && d->severity != SEV_NONE && !known)
        smd_file_diag(run->ci.smd, in->name, d);
    return known;
}

void run_ci_input_begins(Run *run, const Input *in)
{
    if (run->ci.rw_in == in || in->err)
        return;
    run->ci.rw_in = in;
    run->ci.rw_failed = false;
    run->ci.rw_not_copied = run->ci.not_copied;
    char why[600];
    if (!(run->ci.rw = rewrite_begin(in->name, true, why, sizeof why))) {
        run_say(run, "%s; %s left as it was", why, in->shown);
        run->ci.rw_failed = true;
        run->trouble = true;
    }
    run->games_out = run->ci.rw ? rewrite_file(run->ci.rw) : NULL;
}

void run_ci_input_ends(Run *run, const Input *in)
{
    run->ci.file_in = NULL;     /* (the next input may be at the same address) */
    if (run->ci.smd && !smd_file_end(run->ci.smd, in->name))
        run_out_of_memory(run);
    if (!run->opt->in_place)
        return;
    if (run->ci.rw_in != in) {
        if (in->err)
            run_say(run, "%s left as it was: it could not be read", in->shown);
        return;
    }
    Rewrite *rw = run->ci.rw;
    run->ci.rw = NULL;
    run->ci.rw_in = NULL;
    run->games_out = NULL;
    if (!rw)
        return;
    const char *why = in->err ? "it could not be read to its end"
                      : run->ci.not_copied != run->ci.rw_not_copied ? "a game of it could not be copied"
                      : run->stop ? "the run stopped"
                                  : NULL;
    char msg[600];
    if (!why && rewrite_commit(rw, msg, sizeof msg))
        return;
    if (why)
        rewrite_abort(rw);
    run_say(run, "%s left as it was: %s", in->shown, why ? why : msg);
    run->trouble = true;
}

void run_ci_finish(Run *run)
{
    const Options *opt = run->opt;
    char why[600];
    if (run->ci.rw) {
        rewrite_abort(run->ci.rw);  /* (an input the run stopped in) */
        run->ci.rw = NULL;
        run_say(run, "%s left as it was: the run stopped", run->ci.rw_in ? run->ci.rw_in->shown : "a file");
        run->trouble = true;
    }
    if (run->ci.known && !opt->quiet) {
        size_t gone = baseline_unmatched(run->ci.known);
        if (run->ci.baselined || gone)
            run_say(run, "--baseline: %llu finding%s of the baseline not reported; %zu of its entries no longer found",
                    (unsigned long long)run->ci.baselined, run->ci.baselined == 1 ? "" : "s", gone);
    }
    /* (an input not read to its end leaves findings out: they will be
     * new ones, never hidden; a run stopped is not written) */
    if (run->ci.rec && !run->stop && !baseline_write(run->ci.rec, opt->write_baseline, why, sizeof why)) {
        run_say(run, "--write-baseline: %s", why);
        run->trouble = true;
    } else if (run->ci.rec && run->stop) {
        run_say(run, "--write-baseline: %s not written: the run stopped", opt->write_baseline);
        run->trouble = true;
    }
    if (run->ci.smd && !smd_write(run->ci.smd, opt->summary_md, &run->sum, why, sizeof why)) {
        run_say(run, "--summary-md: %s", why);
        run->trouble = true;
    }
    FILE *own[2] = {run->ci.out_fp, run->ci.report_fp};
    const char *name[2] = {opt->output, opt->report_file};
    for (int k = 0; k < 2; k++) {
        if (!own[k])
            continue;
        int e = ferror(own[k]) ? EIO : 0;
        if (fclose(own[k]) != 0 && !e)
            e = errno;
        if (e) {
            fprintf(stderr, PROG ": write error: %s: %s\n", name[k], strerror(e));
            run->trouble = true;
        }
    }
    run->ci.out_fp = run->ci.report_fp = NULL;
}

void run_ci_free(Run *run)
{
    if (run->ci.rw)
        rewrite_abort(run->ci.rw);
    baseline_free(run->ci.known);
    baseline_free(run->ci.rec);
    smd_free(run->ci.smd);
    if (run->ci.out_fp)
        fclose(run->ci.out_fp);
    if (run->ci.report_fp)
        fclose(run->ci.report_fp);
}
