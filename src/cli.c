/* cli.c - the command line: options into one const struct (options.h),
 * help, the file loop over the inputs (each read and checked by the run,
 * run.h) and the exit policy.  Only this file and main.c decide the exit
 * status. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chess.h"
#include "diag.h"
#include "game.h"
#include "input.h"
#include "mem.h"
#include "names.h"
#include "options.h"
#include "pgn.h"
#include "report.h"
#include "rollup.h"
#include "run.h"

#define MAX_JOBS 256

#define DUP_MEMORY_DEFAULT (2ull << 30) /* --duplicates-memory: 2 GiB, about ten million games */
#define DUP_MEMORY_MAX (32ull << 30)    /* the arena's 32-bit offsets count 8-byte units */

/* ---------------------------------------------------------------- usage */

static void usage(FILE *out)
{
    fputs("Usage: " PROG " [OPTION]... [FILE]...\n"
          "Check PGN files: every move replayed, every declared result verified.\n"
          "With no FILE, or when FILE is -, read standard input.\n"
          "A gzip, xz, bzip2 or zstd file is read through that program (-dc).\n"
          "\n"
          "Input:\n"
          "  -r, --recursive        check the PGN files in each directory FILE and\n"
          "                         below (*.pgn, *.pgn.gz, .xz, .bz2, .zst), in name\n"
          "                         order; with no FILE, the current directory\n"
          "\n"
          "Output:\n"
          "  -f, --format=FMT       text (default), jsonl, tsv or github\n"
          "  -q, --quiet            print no diagnostics; only the exit status (and -s)\n"
          "  -s, --summary          print a final count on standard error\n"
          "      --stats            print the count of each code's diagnostics and\n"
          "                         games, per file and in total (standard error;\n"
          "                         records in jsonl)\n"
          "      --min-severity=SEV note, warning or error: print no diagnostic below\n"
          "                         it (default: warning in text and github, note in\n"
          "                         jsonl and tsv); never changes the exit status\n"
          "      --max-repeats=N    text: a warning or note repeated in many games of\n"
          "                         an input is printed for the first N games (default\n"
          "                         5), then summed up in one line; github: N of each\n"
          "                         code an input, and a count; 0: all\n"
          "      --color=WHEN       auto (default: stdout a terminal, TERM not dumb,\n"
          "                         NO_COLOR unset or empty), always or never\n"
          "      --label=NAME       file name to report for standard input (only;\n"
          "                         a warning when no input is standard input)\n"
          "      --progress         show a progress line on standard error\n"
          "      --no-progress      never show it (default: on for a terminal and\n"
          "                         regular files over 8 MB in all)\n"
          "\n",
          out);
    /* (two strings: C17 compilers need take only 4,095 bytes in one) */
    fputs("Games:\n"
          "      --select=valid|invalid|unique  copy the selected games, byte for byte,\n"
          "                         to standard output; diagnostics go to standard error;\n"
          "                         unique: the first game of each main line (--duplicates)\n"
          "      --duplicates       report a game whose main line (the moves, from the same\n"
          "                         start position) is an earlier game's, in every input\n"
          "      --duplicates-memory=SIZE  --duplicates in at most SIZE bytes of memory\n"
          "                         (default 2G; a K, M or G suffix; the run stops there)\n"
          "      --fix-results      copy every game, correcting the Result tag and\n"
          "                         termination marker where the board proves them wrong,\n"
          "                         and writing a missing marker; not with --select\n"
          "      --export           copy every game (or those --select picks) in the PGN\n"
          "                         standard's export format; a game with an error as read\n"
          "      --repair           copy every game; a game whose main line breaks and one\n"
          "                         single edit makes the whole rest replay legally to its\n"
          "                         result gets that edit (a repaired note, old and new text);\n"
          "                         with --fix-results, --export; not with --select\n",
          out);
    fputs("  -o, --output=FILE      write the games copied to FILE, not standard output\n"
          "                         (the diagnostics then go to standard output)\n"
          "  -i, --in-place         with --fix-results or --export: rewrite each FILE\n"
          "                         (a temporary file, fsync, rename; on any failure\n"
          "                         the file is left as it was, exit status 2)\n"
          "\n"
          "CI:\n"
          "      --report=FILE      write the diagnostics to FILE (in the -f format)\n"
          "      --write-baseline=FILE  record the findings (warnings, errors) in FILE\n"
          "      --baseline=FILE    report and count only findings not in FILE\n"
          "      --summary-md=FILE  write a Markdown summary (per file, per code, the\n"
          "                         first errors) to FILE, e.g. $GITHUB_STEP_SUMMARY\n"
          "\n"
          "Checks:\n"
          "      --strict           check the PGN standard's export format too (tag\n"
          "                         order, empty lines, move numbers, lines of at most\n"
          "                         80 characters, no % or ; lines); implies --werror\n"
          "      --werror           report every warning as an error (--warn=CODE\n"
          "                         keeps CODE a warning)\n"
          "      --ignore=CODE,...  do not report these checks (a severity, note,\n"
          "                         warning or error: the checks that have it)\n"
          "      --error=CODE,...   report these checks as errors\n"
          "      --warn=CODE,...    report these checks as warnings\n"
          "      --list-checks      list every check: severity, FIDE or PGN article, meaning\n"
          "      --no-variations    check the main line only\n"
          "      --rules=LAWS       auto (default): the Laws of the game's Date; a game\n"
          "                         from 2014-07-01 ends at fivefold repetition or 75\n"
          "                         moves, an earlier one goes on (claimable draws);\n"
          "                         2014 or 1997 judge every game by those Laws\n"
          "      --unwin-nodes=N    where no proof says whether a side can still mate,\n"
          "                         search (a helpmate, every position that can follow)\n"
          "                         up to N nodes in every game; 0 no search; default:\n"
          "                         wins on time 20000, other wins and unfinished games\n"
          "                         2000, drawn games none\n"
          "  -j, --jobs=N           check on N threads (default: all online cores)\n"
          "\n"
          "  -h, --help             show this help and exit\n"
          "  -V, --version          show the version and exit\n"
          "\n"
          "Exit status: 0 no errors, 1 at least one error, 2 trouble.  --fix-results,\n"
          "--export: 0 the games written have no error left, 1 some have, 2 the output\n"
          "is not complete (with -i: the file is left as it was).\n",
          out);
}

static int usage_error(const char *fmt_msg, const char *arg)
{
    char *shown = name_shown(arg);
    fprintf(stderr, PROG ": %s '%s'\n", fmt_msg, shown ? shown : "?");
    mem_free(shown);
    fputs("Try '" PROG " --help' for more information.\n", stderr);
    return EXIT_TROUBLE;
}

/* ---------------------------------------------------------------- options */

enum {
    OPT_FORMAT = 'f', OPT_QUIET = 'q', OPT_SUMMARY = 's', OPT_JOBS = 'j',
    OPT_HELP = 'h', OPT_VERSION = 'V', OPT_RECURSIVE = 'r',
    OPT_SELECT = 256, OPT_FIX, OPT_STRICT, OPT_WERROR, OPT_IGNORE, OPT_ERROR, OPT_WARN,
    OPT_LIST, OPT_NOVAR, OPT_PROGRESS, OPT_NOPROGRESS, OPT_LABEL,
    OPT_RULES, OPT_STATS, OPT_MINSEV, OPT_COLOR, OPT_UNWIN_NODES, OPT_DUPLICATES, OPT_DUP_MEMORY,
    OPT_EXPORT, OPT_OUTPUT = 'o', OPT_IN_PLACE = 'i', OPT_REPORT = 512, OPT_BASELINE,
    OPT_WRITE_BASELINE, OPT_SUMMARY_MD, OPT_MAX_REPEATS, OPT_REPAIR,
};

typedef struct LongOpt {
    const char *name;
    bool arg;
    int key;
} LongOpt;

static const LongOpt long_opts[] = {
    {"format", true, OPT_FORMAT},       {"quiet", false, OPT_QUIET},
    {"summary", false, OPT_SUMMARY},    {"select", true, OPT_SELECT},
    {"fix-results", false, OPT_FIX},    {"strict", false, OPT_STRICT},
    {"repair", false, OPT_REPAIR},
    {"werror", false, OPT_WERROR},      {"ignore", true, OPT_IGNORE},
    {"error", true, OPT_ERROR},         {"warn", true, OPT_WARN},
    {"list-checks", false, OPT_LIST},   {"no-variations", false, OPT_NOVAR},
    {"jobs", true, OPT_JOBS},           {"progress", false, OPT_PROGRESS},
    {"no-progress", false, OPT_NOPROGRESS}, {"label", true, OPT_LABEL},
    {"help", false, OPT_HELP},          {"version", false, OPT_VERSION},
    {"rules", true, OPT_RULES},         {"stats", false, OPT_STATS},
    {"min-severity", true, OPT_MINSEV}, {"color", true, OPT_COLOR},
    {"unwin-nodes", true, OPT_UNWIN_NODES},
    {"duplicates", false, OPT_DUPLICATES}, {"duplicates-memory", true, OPT_DUP_MEMORY},
    {"recursive", false, OPT_RECURSIVE}, {"export", false, OPT_EXPORT},
    {"output", true, OPT_OUTPUT},       {"report", true, OPT_REPORT},
    {"in-place", false, OPT_IN_PLACE},  {"baseline", true, OPT_BASELINE},
    {"write-baseline", true, OPT_WRITE_BASELINE}, {"summary-md", true, OPT_SUMMARY_MD},
    {"max-repeats", true, OPT_MAX_REPEATS},
};
#define NLONG (sizeof long_opts / sizeof long_opts[0])

/* Sets the severity of each code in a comma-separated list. */
static int set_severity(Options *o, const char *list, Severity sev)
{
    const char *p = list;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        /* --ignore=note: every check that has that severity now */
        Severity named = SEV_NONE;
        for (Severity v = SEV_NOTE; sev == SEV_NONE && v <= SEV_ERROR; v++)
            if (strlen(diag_severity_name(v)) == len && memcmp(diag_severity_name(v), p, len) == 0)
                named = v;
        if (named != SEV_NONE) {
            for (int c = 0; c < D_COUNT; c++)
                if (o->check.severity[c] == named) {
                    o->check.severity[c] = SEV_NONE;
                    o->kept_warning[c] = false;
                }
            if (o->check.after_draw == named)
                o->check.after_draw = SEV_NONE;
        } else if (len) {
            DiagCode c = diag_lookup(p, len);
            if (c == D_COUNT) {
                char name[80];
                snprintf(name, sizeof name, "%.*s", (int)(len < 64 ? len : 64), p);
                char *shown = name_shown(name);
                fprintf(stderr, PROG ": unknown check '%s' (see " PROG " --list-checks)\n", shown ? shown : "?");
                mem_free(shown);
                return EXIT_TROUBLE;
            }
            o->check.severity[c] = sev;
            o->kept_warning[c] = sev == SEV_WARNING;
            if (c == D_MOVES_AFTER_END)   /* (and after a draw the record keeps: game.h) */
                o->check.after_draw = sev;
        }
        if (!e)
            return -1;
        p = e + 1;
    }
}

/* Applies one option; returns -1 to go on, or an exit status. */
static int apply_option(Options *o, int key, const char *val, const char *spelled)
{
    switch (key) {
    case OPT_FORMAT:
        if (!report_format_parse(val, &o->format))
            return usage_error("invalid format (text, jsonl, tsv, github):", val);
        break;
    case OPT_QUIET: o->quiet = true; break;
    case OPT_SUMMARY: o->summary = true; break;
    case OPT_STATS: o->stats = true; break;
    case OPT_MINSEV:
        if (strcmp(val, "note") == 0)
            o->min_severity = SEV_NOTE;
        else if (strcmp(val, "warning") == 0)
            o->min_severity = SEV_WARNING;
        else if (strcmp(val, "error") == 0)
            o->min_severity = SEV_ERROR;
        else
            return usage_error("invalid --min-severity (note, warning, error):", val);
        break;
    case OPT_COLOR:
        if (strcmp(val, "auto") == 0)
            o->color = -1;
        else if (strcmp(val, "always") == 0)
            o->color = 1;
        else if (strcmp(val, "never") == 0)
            o->color = 0;
        else
            return usage_error("invalid --color (auto, always, never):", val);
        break;
    case OPT_SELECT:
        if (strcmp(val, "valid") == 0)
            o->select = SELECT_VALID;
        else if (strcmp(val, "invalid") == 0)
            o->select = SELECT_INVALID;
        else if (strcmp(val, "unique") == 0)
            o->select = SELECT_UNIQUE, o->duplicates = true;
        else
            return usage_error("invalid --select (valid, invalid, unique):", val);
        break;
    case OPT_DUPLICATES: o->duplicates = true; break;
    case OPT_DUP_MEMORY: {
        /* a size in bytes, or with K, M or G (binary units) */
        char *end;
        errno = 0;
        unsigned long long n = strtoull(val, &end, 10);
        int shift = *end == 'K' || *end == 'k' ? 10 : *end == 'M' || *end == 'm' ? 20 : *end == 'G' || *end == 'g' ? 30 : 0;
        if (shift)
            end++;
        if (errno || end == val || *end || val[0] == '-' || n == 0 || n > (DUP_MEMORY_MAX >> shift))
            return usage_error("invalid --duplicates-memory (1 byte to 32G):", val);
        o->dup_memory = (uint64_t)n << shift;
        o->duplicates = true;
        break;
    }
    case OPT_MAX_REPEATS: {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(val, &end, 10);
        if (errno || end == val || *end || val[0] == '-')
            return usage_error("invalid --max-repeats (a number, 0 for all):", val);
        o->max_repeats = (uint64_t)n;
        break;
    }
    case OPT_FIX: o->fix_results = true; break;
    case OPT_EXPORT: o->export_games = true; break;
    case OPT_REPAIR: o->repair = true; break;
    case OPT_STRICT: o->check.strict = true; o->werror = true; break;
    case OPT_WERROR: o->werror = true; break;
    case OPT_IGNORE: return set_severity(o, val, SEV_NONE);
    case OPT_ERROR: return set_severity(o, val, SEV_ERROR);
    case OPT_WARN: return set_severity(o, val, SEV_WARNING);
    case OPT_LIST: o->list_checks = true; break;
    case OPT_NOVAR: o->check.no_variations = true; break;
    case OPT_RULES:
        if (strcmp(val, "auto") == 0)
            o->check.rules = RULES_AUTO;
        else if (strcmp(val, "2014") == 0)
            o->check.rules = RULES_2014;
        else if (strcmp(val, "1997") == 0)
            o->check.rules = RULES_1997;
        else
            return usage_error("invalid --rules (auto, 2014, 1997):", val);
        break;
    case OPT_UNWIN_NODES: {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(val, &end, 10);
        if (errno || end == val || *end || val[0] == '-' || n > 1000000000000ull)
            return usage_error("invalid --unwin-nodes (0-1000000000000):", val);
        o->check.unwin_nodes = n;
        o->check.unwin_auto = false;
        break;
    }
    case OPT_JOBS: {
        char *end;
        errno = 0;
        unsigned long n = strtoul(val, &end, 10);
        if (errno || end == val || *end || val[0] == '-' || n > MAX_JOBS)
            return usage_error("invalid number of jobs (0-256):", val);
        o->jobs = (unsigned)n;
        break;
    }
    case OPT_PROGRESS: o->progress = 1; break;
    case OPT_NOPROGRESS: o->progress = 0; break;
    case OPT_LABEL: o->label = val; break;
    case OPT_RECURSIVE: o->recursive = true; break;
    case OPT_OUTPUT: o->output = val; break;
    case OPT_REPORT: o->report_file = val; break;
    case OPT_IN_PLACE: o->in_place = true; break;
    case OPT_BASELINE: o->baseline = val; break;
    case OPT_WRITE_BASELINE: o->write_baseline = val; break;
    case OPT_SUMMARY_MD: o->summary_md = val; break;
    case OPT_HELP:
        usage(stdout);
        return EXIT_CLEAN;
    case OPT_VERSION:
        fputs(PROG " " PGNCHECK_VERSION "\n", stdout);
        return EXIT_CLEAN;
    default:
        return usage_error("unrecognized option", spelled);
    }
    return -1;
}

/* A long option, argv[*i] (its argument, if separate, takes the next
 * one): unique prefixes, "=" or a separate argument.  -1 to go on, or an
 * exit status. */
static int parse_long(Options *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    const char *name = a + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const LongOpt *hit = NULL;
    int nhits = 0;
    for (size_t k = 0; k < NLONG; k++) {
        if (strncmp(long_opts[k].name, name, len) != 0)
            continue;
        if (strlen(long_opts[k].name) == len) {
            hit = &long_opts[k];
            nhits = 1;
            break;
        }
        hit = &long_opts[k];
        nhits++;
    }
    if (nhits == 0)
        return usage_error("unrecognized option", a);
    if (nhits > 1)
        return usage_error("ambiguous option", a);
    const char *val = NULL;
    if (hit->arg) {
        if (eq)
            val = eq + 1;
        else if (*i + 1 < argc)
            val = argv[++*i];
        else
            return usage_error("option requires an argument", a);
    } else if (eq) {
        return usage_error("option takes no argument", a);
    }
    return apply_option(o, hit->key, val, a);
}

/* Short options clustered in argv[*i]; one that takes an argument takes
 * the rest of the cluster, or the next argument.  -1 to go on, or an exit
 * status. */
static int parse_short(Options *o, int argc, char **argv, int *i)
{
    for (const char *s = argv[*i] + 1; *s; s++) {
        char spelled[3] = {'-', *s, '\0'};
        const char *val = NULL;
        if (*s == 'f' || *s == 'j' || *s == 'o') {
            if (s[1])
                val = s + 1;
            else if (*i + 1 < argc)
                val = argv[++*i];
            else
                return usage_error("option requires an argument", spelled);
        } else if (!strchr("qshVri", *s)) {
            return usage_error("invalid option", spelled);
        }
        int rc = apply_option(o, *s, val, spelled);
        if (rc >= 0)
            return rc;
        if (val)
            break;
    }
    return -1;
}

/* -o, --report and --in-place (issue 37): which go together; -1 to go
 * on, or an exit status. */
static int settle_streams(const Options *o)
{
    bool copying = o->select || o->fix_results || o->export_games;
    bool rewriting = o->fix_results || o->export_games || o->repair;
    const char *why = NULL;
    if (o->output && !copying)
        why = "-o (--output) names where games are copied: with --select, --fix-results or --export";
    else if (o->in_place && !rewriting)
        why = "--in-place rewrites files: with --fix-results or --export";
    else if (o->in_place && o->output)
        why = "--in-place and -o cannot be combined: the games go back to each FILE";
    else if (o->in_place && o->select)
        why = "--in-place and --select cannot be combined: a rewrite keeps every game";
    else if (o->in_place && o->recursive)
        why = "--in-place takes the files to rewrite by name, not -r";
    else if (copying && !o->output && !o->in_place && o->report_file && strcmp(o->report_file, "-") == 0)
        why = "--report=- would put the diagnostics among the games on standard output: use -o FILE";
    for (int i = 0; o->in_place && !why && i <= o->nfiles; i++)
        if (i == o->nfiles ? o->nfiles == 0 : strcmp(o->files[i], "-") == 0)
            why = "--in-place rewrites named files, not standard input (use -o FILE or > FILE)";
    if (!why)
        return -1;
    fprintf(stderr, PROG ": %s\n", why);
    fputs("Try '" PROG " --help' for more information.\n", stderr);
    return EXIT_TROUBLE;
}

/* What the options imply once all are read; -1 to go on, or an exit
 * status. */
static int settle_options(Options *o)
{
    if (o->select && o->repair) {
        fputs(PROG ": --select and --repair cannot be combined\n", stderr);
        fputs("Try '" PROG " --help' for more information.\n", stderr);
        return EXIT_TROUBLE;
    }
    if (o->select && o->fix_results) {
        /* One copies games as read, the other changes them: which games a
         * changed copy would select (by the input's verdict or the
         * output's) has no answer a user could rely on. */
        fputs(PROG ": --select and --fix-results cannot be combined\n", stderr);
        fputs("Try '" PROG " --help' for more information.\n", stderr);
        return EXIT_TROUBLE;
    }
    int rc = settle_streams(o);
    if (rc >= 0)
        return rc;
    /* --strict: the export format has no suffix annotations (PGN 8.2.3.8).
     * --werror (and --strict) make every warning an error, as gcc's -Werror
     * does, so that what is printed and counted is what the exit status
     * says; a code named in --warn stays a warning (gcc's -Wno-error=). */
    if (o->check.strict && o->check.severity[D_SUFFIX_ANNOTATION] == SEV_NOTE)
        o->check.severity[D_SUFFIX_ANNOTATION] = SEV_WARNING;
    for (int c = 0; o->werror && c < D_COUNT; c++)
        if (o->check.severity[c] == SEV_WARNING && !o->kept_warning[c])
            o->check.severity[c] = SEV_ERROR;
    if (o->werror && o->check.after_draw == SEV_WARNING && !o->kept_warning[D_MOVES_AFTER_END])
        o->check.after_draw = SEV_ERROR;
    if (o->jobs == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        o->jobs = n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (unsigned)n;
    }
    if (o->nfiles == 0) {
        /* -r alone: the current directory, as grep -r checks it */
        static char dash[] = "-", dot[] = ".";
        o->files[o->nfiles++] = o->recursive ? dot : dash;
        o->stdin_implied = !o->recursive;
        o->dir_implied = o->recursive;
    }
    if (o->label && !o->list_checks) {
        /* A label names standard input only (as grep's does); given where
         * no input is standard input it would be dropped unseen. */
        bool read = false;
        for (int i = 0; i < o->nfiles && !read; i++)
            read = strcmp(o->files[i], "-") == 0;
        if (!read)
            fputs(PROG ": warning: --label is ignored: it names standard input ('-'), "
                  "which is not among the inputs\n", stderr);
    }
    if (!o->label)
        o->label = "<stdin>";
    /* Only jsonl and tsv print the final FEN; the others skip writing it. */
    o->check.no_fen = !(o->format == FMT_JSONL || o->format == FMT_TSV);
    o->check.report_laws = !o->check.no_fen;
    o->check.record_moves = o->export_games;    /* (the export writes the moves as played) */
    o->check.collect_line = o->duplicates;
    return -1;
}

/* GNU conventions: long options with = or a separate argument, unique
 * prefixes, clustered short options, options anywhere before "--".
 * -1 to go on, or an exit status. */
static int parse_args(int argc, char **argv, Options *o)
{
    memset(o, 0, sizeof *o);
    o->format = FMT_TEXT;
    o->progress = -1;
    o->color = -1;
    o->dup_memory = DUP_MEMORY_DEFAULT;
    o->max_repeats = ROLLUP_DEFAULT;
    game_options_default(&o->check);
    o->files = mem_calloc((size_t)argc + 1, sizeof *o->files);
    if (!o->files) {
        fputs(PROG ": out of memory\n", stderr);
        return EXIT_TROUBLE;
    }
    bool only_files = false;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (only_files || a[0] != '-' || a[1] == '\0') {
            o->files[o->nfiles++] = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_files = true;
            continue;
        }
        int rc = a[1] == '-' ? parse_long(o, argc, argv, &i) : parse_short(o, argc, argv, &i);
        if (rc >= 0)
            return rc;
    }
    return settle_options(o);
}

/* A closed standard output (>&-) is kept closed to writes but not left
 * free: the first file opened would take descriptor 1, stdout's writes
 * would go to it and its close would close it twice.  Held by /dev/null
 * opened for reading, a write still fails (EBADF, reported), and a run
 * that writes nothing ends as it would with stdout open. */
static void hold_closed_stdout(void)
{
    if (fcntl(STDOUT_FILENO, F_GETFD) >= 0 || errno != EBADF)
        return;
    int fd = open("/dev/null", O_RDONLY);
    if (fd >= 0 && fd != STDOUT_FILENO) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
    }
}

/* After the options: --help, --version, a usage error (rc), or
 * --list-checks; standard output is checked before the exit. */
static int options_only(Options *o, int rc)
{
    if (rc < 0) {
        report_list_checks(stdout, o->check.severity);
        rc = EXIT_CLEAN;
    }
    mem_free(o->files);
    if (rc == EXIT_CLEAN && (fflush(stdout) || ferror(stdout))) {
        if (errno != EPIPE)
            fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
        return EXIT_TROUBLE;
    }
    return rc;
}

/* The exit status (man page, EXIT STATUS): standard output closed
 * without error (a closed pipe ends quietly, but with 2), then 2 for trouble,
 * 1 for a game or input with an error, else 0. */
static int exit_status(Run *run)
{
    if (fclose(stdout) != 0 && !run->stop) {
        if (errno != EPIPE)
            fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
        run->trouble = true;    /* (a closed pipe too: quietly) */
    }
    if (run->trouble)
        return EXIT_TROUBLE;
    return run->found ? EXIT_FOUND : EXIT_CLEAN;
}

int cli_main(int argc, char **argv)
{
    hold_closed_stdout();
    Options o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0 || o.list_checks)
        return options_only(&o, rc);
    const Options *opt = &o;

    chess_init();
    pgn_init_simd(getenv("PGNCHECK_SIMD")); /* before threads: pieces look for sync points */
    Run run;
    bool ready = run_init(&run, opt);
    for (int i = 0; i < opt->nfiles && ready; i++)
        ready = input_list_add(&run.inputs, opt->files[i], opt->recursive, opt->dir_implied);
    if (ready)
        ready = run_start(&run);
    if (!ready) {
        if (!run.trouble)       /* (a file of -o, --report or --baseline said why) */
            run_out_of_memory(&run);
    } else {
        /* the file loop */
        for (size_t i = 0; i < run.inputs.n && !run.stop; i++) {
            run.reading = i + 1;
            run_input(&run, &run.inputs.v[i]);
        }
        run_finish(&run);
    }
    run_free(&run);
    mem_free(o.files);
    return exit_status(&run);
}
