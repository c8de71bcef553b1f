/* run_ci.h - what a run does for pipelines and CI (issue 37): where the
 * games (-o) and the diagnostics (--report) go, the messages as records
 * where they would share the report's stream, files rewritten in place
 * (-i), the findings of a baseline left out or recorded, and the
 * Markdown summary.  Called by run.c on its output side (one thread),
 * which gives it what it needs of the run (RunCi's pointers). */
#ifndef PGNCHECK_RUN_CI_H
#define PGNCHECK_RUN_CI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "batch.h"
#include "diag.h"
#include "game.h"
#include "input.h"
#include "options.h"
#include "progress.h"
#include "report.h"

struct Baseline;
struct SummaryMd;
struct Rewrite;

typedef struct RunCi {
    FILE *report_stream;        /* where the diagnostics go */
    FILE *report_fp;            /* --report FILE (owned) */
    FILE *out_fp;               /* -o FILE (owned) */
    bool report_shared;         /* the report is on standard error's file, not a terminal */
    bool msg_records;           /* messages are {"type":"message"} records */
    struct Baseline *known;     /* --baseline */
    struct Baseline *rec;       /* --write-baseline */
    uint64_t baselined;         /* findings left out for the baseline */
    struct SummaryMd *smd;      /* --summary-md */
    const Input *file_in;       /* the input whose findings outside games are counted */
    uint64_t file_id;           /* its identity */
    uint32_t file_nth[D_COUNT]; /* its findings outside games so far, per code */
    struct Rewrite *rw;         /* --in-place: the input being rewritten */
    const Input *rw_in;
    bool rw_failed;             /* that input could not be rewritten */
    uint64_t not_copied;        /* games that could not be copied (run.c) */
    uint64_t rw_not_copied;     /* not_copied when the rewrite began */
    /* The run's own state that run_ci reads or sets, pointed at by run.c
     * (run_init): all of the run it sees. */
    const Options *opt;
    const InputList *inputs;
    BatchConfig *cfg;           /* reads copying, sets ids (baselines) */
    Report *const *rp;          /* the report (messages as records) */
    const ReportSummary *sum;   /* the run's totals (--summary-md) */
    Progress *progress;
    FILE **games_out;           /* where the games are copied (-o, --in-place) */
    bool *trouble;              /* exit 2 */
    const bool *stop;           /* the run stopped */
    void (*out_of_memory)(void *run);
    void *run;
} RunCi;

/* The stream the diagnostics go to (--report, or where the games do not
 * go); NULL with a message said when --report cannot be opened. */
FILE *run_ci_report_stream(RunCi *ci);

/* Once the inputs are listed: -o opened (never over an input), --in-place's
 * inputs checked, the baseline read, the messages' and the progress
 * line's streams decided.  False with a message said (exit 2). */
bool run_ci_start(RunCi *ci) __attribute__((warn_unused_result));

/* A message on standard error ("pgncheck: " and a line end added), or a
 * {"type":"message"} record where the JSON Lines report shares that
 * stream. */
void run_ci_say(RunCi *ci, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A game's findings, before they are counted: those of the baseline
 * dropped (rep and pend[0..*npend)), the rest recorded for
 * --write-baseline. */
void run_ci_game_filter(RunCi *ci, Slot *s, Diag *pend, size_t *npend);
/* A game as reported, for --summary-md. */
void run_ci_game_done(RunCi *ci, const Input *in, const GameReport *rep, const Diag *extra, size_t nextra);
/* A rewriting mode (--fix-results, --export): the game as written has no
 * error left (each was one the rewrite mended). */
bool run_ci_mended(const GameReport *rep, const Diag *extra, size_t nextra);
/* A finding outside games: true when the baseline has it (it is then not
 * reported or counted). */
bool run_ci_file_diag(RunCi *ci, const Input *in, const Diag *d);

/* An input's first output (--in-place: its rewrite begins) and its end
 * (the file replaced, or left as it was with a message; its row of the
 * summary). */
void run_ci_input_begins(RunCi *ci, const Input *in);
void run_ci_input_ends(RunCi *ci, const Input *in);

/* The end of the run: the baseline written, the summary, the files
 * closed (their write errors said, exit 2). */
void run_ci_finish(RunCi *ci);
void run_ci_free(RunCi *ci);

#endif
