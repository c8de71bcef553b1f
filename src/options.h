/* options.h - everything the command line says, decided once by cli.c
 * (parse_args), then read-only for the run. */
#ifndef PGNCHECK_OPTIONS_H
#define PGNCHECK_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "game.h"
#include "report.h"

#define PROG "pgncheck"

typedef enum Select { SELECT_NONE = 0, SELECT_VALID, SELECT_INVALID, SELECT_UNIQUE } Select;

typedef struct Options {
    ReportFormat format;
    bool quiet;
    bool summary;
    bool stats;                 /* --stats */
    int min_severity;           /* --min-severity; 0: by the format */
    int color;                  /* --color: -1 auto, 0 never, 1 always */
    uint64_t max_repeats;       /* --max-repeats (text, github); 0: all */
    bool werror;                /* warnings become errors (applied in parse_args) */
    bool kept_warning[D_COUNT]; /* --warn=CODE: stays a warning under --werror */
    bool list_checks;
    bool fix_results;
    bool export_games;          /* --export */
    bool repair;                /* --repair: copy every game, its one proven repair applied */
    Select select;
    bool duplicates;            /* --duplicates (and --select=unique) */
    uint64_t dup_memory;        /* --duplicates-memory, bytes */
    int progress;               /* -1 automatic, 0 off, 1 on */
    unsigned jobs;
    const char *label;          /* name reported for standard input */
    bool stdin_implied;         /* no FILE given: standard input is read */
    bool recursive;             /* -r: directories are walked */
    bool dir_implied;           /* -r and no FILE: the current directory is */
    /* issue 37: where the data and the report go, rewriting in place, a
     * baseline, a Markdown summary (NULL or false: none) */
    const char *output;         /* -o, --output: the games copied */
    const char *report_file;    /* --report: the diagnostics ("-": stdout) */
    bool in_place;              /* -i, --in-place */
    const char *baseline;       /* --baseline: findings in it are not reported */
    const char *write_baseline; /* --write-baseline */
    const char *summary_md;     /* --summary-md */
    CheckOptions check;
    char **files;
    int nfiles;
} Options;

#endif
