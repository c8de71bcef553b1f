/* cli.c - the command line: options into one const struct, the file loop
 * (read on the main thread, check on N-1 workers and on the main thread
 * whenever it is ahead, report in input order; with -jN a large regular file
 * is cut into pieces at sync points that the threads read and check whole)
 * and the exit policy.  Only this file and main.c decide the exit status. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chess.h"
#include "diag.h"
#include "dup.h"
#include "game.h"
#include "input.h"
#include "mem.h"
#include "pgn.h"
#include "progress.h"
#include "report.h"

#define PROG "pgncheck"
#define BATCH_GAMES 64          /* games handed to a worker at once */
#define SLOT_KEEP_RAW 4096      /* text room a batch slot keeps between games */
/* Memory: the games read but not yet written (their tags, moves, text)
 * that batches hold.  A batch is closed at BATCH_HELD bytes of them, and
 * past RUN_HELD in all batches the oldest are written before more is
 * read.  A game's text is held (or read again to be copied) to GAME_TEXT
 * bytes.  A regular file's games are not held for their text: it is read
 * again (pread) when a game is copied or an error's line is shown. */
#define BATCH_HELD (4u << 20)
#define RUN_HELD (16u << 20)
#define GAME_TEXT (16u << 20)
#define COPY_KEEP (1u << 20)    /* of the buffer a copy is read into, bytes kept */
#define PIECE_BYTES (1u << 20) /* -jN: a regular file is cut into pieces this big */
#define PIECE_GAMES 1024        /* games of one piece at most: a piece holding this
                                 * many stopped there, not at a sync point */
#define MAX_JOBS 256

typedef enum Select { SELECT_NONE = 0, SELECT_VALID, SELECT_INVALID, SELECT_UNIQUE } Select;

#define DUP_MEMORY_DEFAULT (2ull << 30) /* --duplicates-memory: 2 GiB, about ten million games */
#define DUP_MEMORY_MAX (32ull << 30)    /* the arena's 32-bit offsets count 8-byte units */
#define DUP_RESULT_PLIES 20             /* duplicate-result-differs from a line this long */

/* Everything the command line says, decided once, then read-only. */
typedef struct Options {
    ReportFormat format;
    bool quiet;
    bool summary;
    bool stats;                 /* --stats */
    int min_severity;           /* --min-severity; 0: by the format */
    int color;                  /* --color: -1 auto, 0 never, 1 always */
    bool werror;                /* warnings become errors (applied in parse_args) */
    bool kept_warning[D_COUNT]; /* --warn=CODE: stays a warning under --werror */
    bool list_checks;
    bool fix_results;
    Select select;
    bool duplicates;            /* --duplicates (and --select=unique) */
    uint64_t dup_memory;        /* --duplicates-memory, bytes */
    int progress;               /* -1 automatic, 0 off, 1 on */
    unsigned jobs;
    const char *label;          /* name reported for standard input */
    bool stdin_implied;         /* no FILE given: standard input is read */
    bool recursive;             /* -r: directories are walked */
    bool dir_implied;           /* -r and no FILE: the current directory is */
    CheckOptions check;
    char **files;
    int nfiles;
} Options;

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
          "      --color=WHEN       auto (default: stdout a terminal, TERM not dumb,\n"
          "                         NO_COLOR unset or empty), always or never\n"
          "      --label=NAME       file name to report for standard input (only;\n"
          "                         a warning when no input is standard input)\n"
          "      --progress         show a progress line on standard error\n"
          "      --no-progress      never show it (default: on for a terminal and\n"
          "                         regular files over 8 MB in all)\n"
          "\n"
          "Games:\n"
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
          "      --unwin-nodes=N    where no proof says whether the winner of a decisive\n"
          "                         result could still mate, search (a helpmate, every\n"
          "                         position that can follow) up to N nodes; 0 (default)\n"
          "                         no search; 200000 takes up to about 0.1 s a game\n"
          "  -j, --jobs=N           check on N threads (default: all online cores)\n"
          "\n"
          "  -h, --help             show this help and exit\n"
          "  -V, --version          show the version and exit\n"
          "\n"
          "Exit status: 0 no errors, 1 at least one error, 2 trouble.\n",
          out);
}

static int usage_error(const char *fmt_msg, const char *arg)
{
    fprintf(stderr, PROG ": %s '%s'\n", fmt_msg, arg);
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
    {"recursive", false, OPT_RECURSIVE},
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
            if (strlen(severity_name(v)) == len && memcmp(severity_name(v), p, len) == 0)
                named = v;
        if (named != SEV_NONE) {
            for (int c = 0; c < D_COUNT; c++)
                if (o->check.severity[c] == named) {
                    o->check.severity[c] = SEV_NONE;
                    o->kept_warning[c] = false;
                }
        } else if (len) {
            DiagCode c = diag_lookup(p, len);
            if (c == D_COUNT) {
                char name[80];
                snprintf(name, sizeof name, "%.*s", (int)(len < 64 ? len : 64), p);
                fprintf(stderr, PROG ": unknown check '%s' (see " PROG " --list-checks)\n", name);
                return EXIT_TROUBLE;
            }
            o->check.severity[c] = sev;
            o->kept_warning[c] = sev == SEV_WARNING;
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
    case OPT_FIX: o->fix_results = true; break;
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

/* GNU conventions: long options with = or a separate argument, unique
 * prefixes, clustered short options, options anywhere before "--". */
static int parse_args(int argc, char **argv, Options *o)
{
    memset(o, 0, sizeof *o);
    o->format = FMT_TEXT;
    o->progress = -1;
    o->color = -1;
    o->dup_memory = DUP_MEMORY_DEFAULT;
    check_options_default(&o->check);
    o->files = calloc((size_t)argc + 1, sizeof *o->files);
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
        int rc;
        if (a[1] == '-') {
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
                else if (i + 1 < argc)
                    val = argv[++i];
                else
                    return usage_error("option requires an argument", a);
            } else if (eq) {
                return usage_error("option takes no argument", a);
            }
            rc = apply_option(o, hit->key, val, a);
            if (rc >= 0)
                return rc;
            continue;
        }
        for (const char *s = a + 1; *s; s++) {
            char spelled[3] = {'-', *s, '\0'};
            const char *val = NULL;
            if (*s == 'f' || *s == 'j') {
                if (s[1])
                    val = s + 1;
                else if (i + 1 < argc)
                    val = argv[++i];
                else
                    return usage_error("option requires an argument", spelled);
            } else if (!strchr("qshVr", *s)) {
                return usage_error("invalid option", spelled);
            }
            rc = apply_option(o, *s, val, spelled);
            if (rc >= 0)
                return rc;
            if (val)
                break;
        }
    }
    if (o->select && o->fix_results) {
        /* One copies games as read, the other changes them: which games a
         * changed copy would select (by the input's verdict or the
         * output's) has no answer a user could rely on. */
        fputs(PROG ": --select and --fix-results cannot be combined\n", stderr);
        fputs("Try '" PROG " --help' for more information.\n", stderr);
        return EXIT_TROUBLE;
    }
    /* --strict: the export format has no suffix annotations (PGN 8.2.3.8).
     * --werror (and --strict) make every warning an error, as gcc's -Werror
     * does, so that what is printed and counted is what the exit status
     * says; a code named in --warn stays a warning (gcc's -Wno-error=). */
    if (o->check.strict && o->check.severity[D_SUFFIX_ANNOTATION] == SEV_NOTE)
        o->check.severity[D_SUFFIX_ANNOTATION] = SEV_WARNING;
    for (int c = 0; o->werror && c < D_COUNT; c++)
        if (o->check.severity[c] == SEV_WARNING && !o->kept_warning[c])
            o->check.severity[c] = SEV_ERROR;
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
    o->check.collect_line = o->duplicates;
    return -1;
}

/* ---------------------------------------------------------------- inputs */

struct Run;
/* Where a piece's bytes come from: a regular file (pread); a segment of a
 * pipe, held in memory, [mem_lo, mem_lo + mem_len); or, for the thread
 * that writes the output and reads a stretch of a pipe again in order, the
 * segments in flight and then the pipe itself (stream_read). */
typedef struct Source {
    int fd;
    bool memory;
    const unsigned char *mem;
    uint64_t mem_lo;
    size_t mem_len;
    int end_err;                /* memory: the error its end stands for (a read error), 0 if none */
    struct Run *run;
    Input *in;
} Source;

static long stream_read(struct Run *run, Input *in, unsigned char *buf, size_t cap, uint64_t off);
static bool source_keeps(const Source *src, uint64_t off);

/* Up to cap bytes at off: 0 at the end, -1 with *err set on an error. */
static long source_read(const Source *src, unsigned char *buf, size_t cap, uint64_t *off, int *err)
{
    if (src->memory) {
        uint64_t at = *off - src->mem_lo;
        if (*off < src->mem_lo || (at >= src->mem_len && src->end_err)) {
            errno = *err = *off < src->mem_lo ? EIO : src->end_err;
            return -1;
        }
        size_t n = at >= src->mem_len ? 0 : src->mem_len - (size_t)at < cap ? src->mem_len - (size_t)at : cap;
        if (n)
            memcpy(buf, src->mem + at, n);
        *off += n;
        return (long)n;
    }
    if (src->in) {
        long k = stream_read(src->run, src->in, buf, cap, *off);
        if (k < 0)
            errno = *err = src->in->err ? src->in->err : EIO;
        else
            *off += (uint64_t)k;
        return k;
    }
    return input_read_retry(src->fd, (char *)buf, cap, off, err);
}

/* A piece's reader's source: from an offset.  Past soft (the piece's end)
 * usually only the next game start is wanted: reads stop at soft and are
 * small after it. */
typedef struct PieceSrc {
    const Source *src;
    uint64_t off;
    uint64_t soft;
    int err;
} PieceSrc;

#define PIECE_TAIL_READ 4096

static long piece_read(void *ctx, char *buf, size_t cap)
{
    PieceSrc *ps = ctx;
    if (ps->off < ps->soft && ps->soft - ps->off < cap)
        cap = (size_t)(ps->soft - ps->off);
    else if (ps->off >= ps->soft && cap > PIECE_TAIL_READ)
        cap = PIECE_TAIL_READ;
    return source_read(ps->src, (unsigned char *)buf, cap, &ps->off, &ps->err);
}

/* Up to cap bytes at off (fewer only at the end of the source); -1 on an
 * error. */
static long read_at(const Source *from, unsigned char *buf, size_t cap, uint64_t off)
{
    PieceSrc src = {from, off, UINT64_MAX, 0};
    size_t n = 0;
    while (n < cap) {
        long k = piece_read(&src, (char *)buf + n, cap - n);
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        n += (size_t)k;
    }
    return (long)n;
}

#define SYNC_BEFORE 3           /* bytes before a sync point's '[' it looks at */
#define SYNC_AFTER 160          /* and after it (the reader's tag lookahead) */

/* Is offset off of the source a sync point (pgn_sync_at)? */
static bool sync_at_offset(const Source *src, uint64_t off)
{
    unsigned char buf[SYNC_BEFORE + SYNC_AFTER];
    if (off < SYNC_BEFORE)
        return false;
    long n = read_at(src, buf, sizeof buf, off - SYNC_BEFORE);
    return n > 0 && pgn_sync_at(buf, (size_t)n, SYNC_BEFORE);
}

/* The first sync point at an offset in [lo, hi), or UINT64_MAX. */
static uint64_t sync_find(const Source *src, uint64_t lo, uint64_t hi)
{
    unsigned char buf[16384];
    size_t want = 4096;         /* a game start is usually near: read little first */
    uint64_t at = lo < SYNC_BEFORE ? SYNC_BEFORE : lo;  /* next candidate */
    while (at < hi) {
        uint64_t from = at - SYNC_BEFORE;
        long n = read_at(src, buf, want, from);
        if (n <= 0)
            return UINT64_MAX;
        size_t len = (size_t)n;
        bool eof = len < want;
        want = sizeof buf;
        /* Candidates whose tag start might run past the buffer wait for
         * the next read, which begins SYNC_BEFORE bytes before them. */
        size_t limit = eof ? len : len - SYNC_AFTER;
        size_t p = SYNC_BEFORE;
        while (p < limit) {
            const unsigned char *q = memchr(buf + p, '[', limit - p);
            if (!q)
                break;
            p = (size_t)(q - buf);
            if (from + p >= hi)
                return UINT64_MAX;
            if (pgn_sync_at(buf, len, p))
                return from + p;
            p++;
        }
        if (eof)
            break;
        at = from + limit;
    }
    return UINT64_MAX;
}

/* ---------------------------------------------------------------- batches */

typedef struct DiagList {
    Diag *v;
    size_t n, cap;
} DiagList;

typedef struct Slot {
    PgnGame *game;
    GameReport rep;             /* in a piece: a copy, its diags in the piece's pool */
    DiagList pre;               /* file-level findings read before this game */
    size_t pool_at;             /* in a piece: where rep's diagnostics are in the pool */
    size_t lpool_at;            /* and its main line (--duplicates) in the line pool */
} Slot;

/* A batch is either BATCH_GAMES games read by the main thread, or a piece
 * of a regular file that the thread checking it also reads: the games that
 * start at the first sync point in [lo, hi) and end before the first game
 * at or after hi that begins at a sync point.  The reader started at the
 * piece's sync point reads what a reader from the file's start would read
 * there (pgn.h), which the output side confirms: a piece is used only when
 * it starts where the one before stopped; otherwise that stretch is read
 * again in order (piece_output). */
typedef struct Batch {
    Input *input;
    size_t ngames;
    bool file_end;              /* the input ends with this batch */
    bool done;                  /* checked (guarded by Run.mu) */
    DiagList tail;              /* file-level findings after the last game */
    Slot *slot;
    size_t cap;                 /* slots allocated */
    size_t held;                /* bytes its games hold (pgn_game_bytes), batches read by the main thread */
    /* pieces */
    bool piece;
    bool oom;
    int err;                    /* errno of a failed read, 0 if none */
    uint64_t lo, hi;            /* the stretch it covers; hi = UINT64_MAX for the last */
    uint64_t start;             /* offset of its first game; UINT64_MAX: none */
    uint64_t stop;              /* offset of the first game not taken; UINT64_MAX: end */
    uint32_t stop_line;         /* its line, the line of start counting as 1 */
    uint32_t stop_col;          /* its column */
    bool stop_tok;              /* a token before it on its line */
    uint64_t read_end;          /* offset after the last byte read */
    Diag *pool;                 /* the games' diagnostics */
    size_t npool, pool_cap;
    uint16_t *lpool;            /* --duplicates: the games' main lines (GameReport.line) */
    size_t nlpool, lpool_cap;
    Report *rec;                /* Run.defer: the batch's records, formatted by
                                 * the thread that checks it */
    bool capped;                /* the piece stopped at PIECE_GAMES */
    /* A segment of a pipe: its bytes [seg_lo, seg_lo + seg_len), from
     * SYNC_BEFORE bytes before lo to all that had been read when it was
     * cut (at least SYNC_AFTER past hi, or the end of input) */
    bool segment;
    int seg_err;                /* the last segment: the read error the pipe ended with */
    unsigned char *seg;
    size_t seg_len, seg_cap;
    uint64_t seg_lo;
} Batch;

/* What a thread reads and checks a piece's games with, one game at a time. */
typedef struct PieceTools {
    PgnGame *game;
    GameReport rep;
} PieceTools;

static void tools_free(PieceTools *t)
{
    if (t->game)
        pgn_game_free(t->game);
    game_report_free(&t->rep);
}

/* Slot i exists, with its game allocated. */
static bool slot_ready(Batch *b, size_t i)
{
    if (i >= b->cap) {
        size_t cap = b->cap ? b->cap * 2 : BATCH_GAMES;
        while (cap <= i)
            cap *= 2;
        Slot *v = realloc(b->slot, cap * sizeof *v);
        if (!v)
            return false;
        memset(v + b->cap, 0, (cap - b->cap) * sizeof *v);
        for (size_t k = b->cap; k < cap; k++)
            game_report_init(&v[k].rep);
        b->slot = v;
        b->cap = cap;
    }
    return b->slot[i].game || (b->slot[i].game = pgn_game_new()) != NULL;
}

/* Keeps a copy of file-level findings; the reader's array is short-lived. */
static bool diags_take(DiagList *l, PgnReader *r, const Options *opt)
{
    size_t n;
    const Diag *d = pgn_file_diags(r, &n);
    for (size_t i = 0; i < n; i++) {
        Severity sev = d[i].code < D_COUNT ? opt->check.severity[d[i].code] : d[i].severity;
        if (sev == SEV_NONE)
            continue;
        if (l->n == l->cap) {
            size_t cap = l->cap ? l->cap * 2 : 4;
            Diag *v = realloc(l->v, cap * sizeof *v);
            if (!v)
                return false;
            l->v = v;
            l->cap = cap;
        }
        l->v[l->n] = d[i];
        l->v[l->n].severity = sev;
        l->n++;
    }
    return true;
}

/* ---------------------------------------------------------------- the run */

/* What of a checked game the output will use besides its report: nothing
 * (-q alone), its tags and text when it has findings to show (text output:
 * the header and the source lines under them), or always (records show
 * tags; copying writes the text). */
typedef enum KeepText { KEEP_NONE, KEEP_WITH_FINDINGS, KEEP_ALL } KeepText;

typedef struct Run {
    const Options *opt;
    Report *rp;                 /* diagnostics: stdout, or stderr when games are copied */
    Report *side;               /* text on stderr for what a TSV row cannot hold */
    ReportStats *stats;         /* --stats */
    FILE *games_out;            /* copied games (--select, --fix-results), else NULL */
    bool rp_on_tty;
    bool stderr_tty;
    /* (read by the threads: set before they start, apart from the fields
     * the output side writes) */
    bool text_lines;            /* the diagnostics show errors' source lines (text format), or
                                 * count characters of their lines (github) */
    bool github;
    bool copying;               /* --select, --fix-results */
    bool raw_check;             /* the checks read the game's text (--strict, --fix-results) */
    ReportSummary sum;
    bool found;                 /* exit 1 */
    bool trouble;               /* exit 2 */
    bool stop;                  /* a write failed: stop reading */
    size_t held;                /* bytes the batches' games hold (Batch.held) */
    char *copy;                 /* a game of a regular file read again to be copied */
    size_t copy_cap;
    uint64_t piece_bytes;       /* -jN: size of a piece of a regular file */
    KeepText keep_text;         /* which checked games' tags and text a piece copies */
    /* The records are formatted by the threads that check the games, into
     * their batch's Batch.rec, and the output side only writes them (JSON
     * Lines and TSV with -jN: the thread that writes them in order formatted
     * every record, 8.6% of the work on one thread). */
    bool defer;
    DupTable *dup;              /* --duplicates: the main lines seen, in input order */
    PieceTools own;             /* the main thread's, for checking a piece */
    Batch spare;                /* a stretch read again in order (piece_output) */
    double t0;
    uint64_t games_read;
    uint64_t bytes_done;        /* bytes of the inputs already finished (progress:
                                 * as on disk, compressed or not) */
    uint64_t bytes_total;       /* of all the inputs (regular files when listed) */
    bool total_known;           /* every input is a regular file */
    size_t reading;             /* the input being read: its place in inputs, from 1 */
    Progress progress;
    InputList inputs;           /* what is checked, in order */

    Batch *batches;
    size_t nbatches, head, count;   /* in-flight ring, oldest first */

    pthread_mutex_t mu;
    pthread_cond_t work_cv, done_cv;
    Batch **work;               /* FIFO of batches waiting for a worker */
    size_t whead, wcount;
    bool quit;
    pthread_t *threads;
    unsigned nthreads;
} Run;

/* A reader of an input's games: it keeps their text where the checks read
 * it (--strict, --fix-results), and through a pipe where the output will
 * use it (a copy, errors' source lines), which cannot be read again. */
static PgnOptions read_options(const Run *run, bool stream)
{
    /* (GAME_TEXT: a game's text held, to be copied or checked, is
     * bounded as a copy read again from a file is) */
    PgnOptions po = {0};
    po.keep_raw = run->raw_check || (stream && (run->copying || run->text_lines));
    po.raw_max = GAME_TEXT;
    return po;
}

/* Keeps in dst, for text output, the slices of src's raw text its
 * errors' source lines are cut from, once the game is checked (rep): the
 * raw text itself need not be held until the game is written. */
static bool keep_slices(const Run *run, PgnGame *dst, PgnGame *src, const GameReport *rep)
{
    if (!run->text_lines || !src->raw || !rep->ndiags)
        return true;
    return report_take_slices(dst, rep, src->start.offset + src->raw_len, run->github, report_read_raw, src);
}

/* Keeps the checked game's report in slot s; its diagnostics go to the
 * piece's pool (one array for the piece, not one per game). */
static bool piece_keep(Batch *b, Slot *s, const GameReport *work)
{
    if (s->rep.priv)
        game_report_free(&s->rep);  /* the slot was last used by a plain batch */
    if (b->npool + work->ndiags > b->pool_cap) {
        size_t cap = b->pool_cap ? b->pool_cap : 256;
        while (cap < b->npool + work->ndiags)
            cap *= 2;
        Diag *v = realloc(b->pool, cap * sizeof *v);
        if (!v)
            return false;
        b->pool = v;
        b->pool_cap = cap;
    }
    if (work->ndiags)
        memcpy(b->pool + b->npool, work->diags, work->ndiags * sizeof *work->diags);
    if (b->nlpool + work->line_len > b->lpool_cap) {
        size_t cap = b->lpool_cap ? b->lpool_cap : 4096;
        while (cap < b->nlpool + work->line_len)
            cap *= 2;
        uint16_t *v = realloc(b->lpool, cap * sizeof *v);
        if (!v)
            return false;
        b->lpool = v;
        b->lpool_cap = cap;
    }
    s->lpool_at = b->nlpool;
    if (work->line_len)
        memcpy(b->lpool + b->nlpool, work->line, work->line_len * sizeof *work->line);
    b->nlpool += work->line_len;
    s->rep = *work;
    s->rep.line = NULL;         /* in the line pool while it is output */
    s->rep.priv = NULL;
    s->rep.diags = NULL;        /* pointed into the pool while it is output */
    s->rep.game = s->game;
    s->pool_at = b->npool;
    b->npool += work->ndiags;
    return true;
}

/* Run.defer: formats file-level findings, or a checked game, into the
 * batch's records (on the thread that checks the batch). */
static void defer_diags(const Batch *b, const DiagList *l)
{
    for (size_t i = 0; i < l->n; i++)
        report_file_diag(b->rec, b->input->name, &l->v[i]);
}

static void defer_game(const Batch *b, const DiagList *pre, const PgnGame *g, const GameReport *rep)
{
    defer_diags(b, pre);
    report_game(b->rec, b->input->name, g, rep, NULL, 0);
}

/* Reads and checks the games of a piece from offset from: those before the
 * first game at or after `after` that begins at a sync point, at most
 * PIECE_GAMES of them (more only where a pipe's stretch read again may not
 * stop, source_keeps).  Runs on any thread; touches only b. */
static void piece_fill(const Run *run, Batch *b, PieceTools *t, const Source *from_src, uint64_t from,
                       uint32_t from_col, bool from_tok, uint64_t after)
{
    GameReport *work = &t->rep;
    b->ngames = 0;
    b->capped = false;
    b->tail.n = 0;
    b->npool = 0;
    b->nlpool = 0;
    b->err = 0;
    b->start = from;
    b->stop = UINT64_MAX;
    b->stop_line = 0;
    b->read_end = from;
    if (b->rec)
        report_deferred_reset(b->rec);
    PieceSrc src = {from_src, from, after, 0};
    bool stream = from_src->memory || from_src->in;   /* (a pipe's bytes, not a file's) */
    PgnOptions po = read_options(run, stream);
    po.offset = from;
    po.column = from_col;
    po.line_tok = from_tok;
    PgnReader *r = t->game || (t->game = pgn_game_new()) ? pgn_reader_new(piece_read, &src, &po) : NULL;
    if (!r) {
        b->oom = true;
        return;
    }
    PgnGame *g = t->game;     /* read and checked here; the slot keeps a copy */
    for (;;) {
        if (!slot_ready(b, b->ngames)) {
            b->oom = true;
            break;
        }
        Slot *s = &b->slot[b->ngames];
        s->pre.n = 0;
        int got = pgn_next(r, g);
        if (got == 1 && source_keeps(from_src, g->start.offset) &&
            (b->ngames >= PIECE_GAMES || (g->start.offset >= after && sync_at_offset(from_src, g->start.offset)))) {
            /* This game is the next piece's first: what came before it is ours. */
            b->capped = b->ngames >= PIECE_GAMES;
            b->stop = g->start.offset;
            b->stop_line = g->start.line;
            b->stop_col = g->start.col;
            b->stop_tok = g->start_line_tok;
            if (!diags_take(&b->tail, r, run->opt))
                b->oom = true;
            break;
        }
        if (!diags_take(got == 1 ? &s->pre : &b->tail, r, run->opt))
            b->oom = true;
        if (got != 1) {
            if (got < 0)
                b->err = src.err ? src.err : EIO;
            break;
        }
        game_check(g, &run->opt->check, work);
        if (work->out_of_memory)
            b->oom = true; /* never a silent verdict on a game not wholly checked */
        /* The copy holds what the output will use of the game (a piece
         * holds up to PIECE_GAMES of them until they are written): its
         * tags; a pipe's text for a copy, else the slices of it that
         * errors' lines are cut from (a file's are read again). */
        bool text = run->keep_text == KEEP_ALL || (run->keep_text == KEEP_WITH_FINDINGS && work->ndiags > 0);
        bool raw = text && stream && run->copying;
        if (!pgn_game_keep(s->game, g, text ? PGN_COPY_TAGS | (raw ? PGN_COPY_RAW : 0) : 0) ||
            (text && !raw && !keep_slices(run, s->game, g, work)) || !piece_keep(b, s, work)) {
            b->oom = true;
            break;
        }
        if (run->defer)
            defer_game(b, &s->pre, g, work);
        /* The Result value the report points at: the same tag in the copy. */
        s->rep.result_tag = NULL;
        for (size_t k = 0; work->result_tag && k < s->game->ntags; k++)
            if (g->tags[k].value == work->result_tag)
                s->rep.result_tag = s->game->tags[k].value;
        pgn_game_trim(g);
        game_report_trim(work);
        b->ngames++;
    }
    b->read_end = from + pgn_bytes_read(r);
    pgn_reader_free(r);
    if (run->defer)
        defer_diags(b, &b->tail);
}

/* A worker's share of a piece: find where its games start, read them. */
static void piece_work(const Run *run, Batch *b, PieceTools *work)
{
    Source src = {.fd = b->input->fd};
    if (b->segment) {
        src.memory = true;
        src.mem = b->seg;
        src.mem_lo = b->seg_lo;
        src.mem_len = b->seg_len;
        src.end_err = b->seg_err;
    }
    uint64_t start = b->lo == 0 ? 0 : sync_find(&src, b->lo, b->hi);
    if (start == UINT64_MAX) {
        b->ngames = 0;
        b->tail.n = 0;
        if (b->rec)
            report_deferred_reset(b->rec);
        b->start = UINT64_MAX;  /* no game starts here: a stretch inside a game */
        return;
    }
    piece_fill(run, b, work, &src, start, 1, false, b->hi);    /* (a sync point starts a line) */
}

static void check_batch(const Run *run, Batch *b, PieceTools *work)
{
    if (b->piece) {
        piece_work(run, b, work);
        return;
    }
    for (size_t i = 0; i < b->ngames; i++) {
        Slot *s = &b->slot[i];
        game_check(s->game, &run->opt->check, &s->rep);
        if (s->rep.out_of_memory)
            b->oom = true; /* never a silent verdict on a game not wholly checked */
        if (run->defer)
            defer_game(b, &s->pre, s->game, &s->rep);
        /* The text is held to be written only where it is copied from a
         * pipe; a file's is read again, the lines under errors are kept. */
        if (s->game->raw && !(run->copying && !b->input->regular)) {
            if (!keep_slices(run, s->game, s->game, &s->rep))
                b->oom = true;
            pgn_game_forget_raw(s->game, SLOT_KEEP_RAW);
        }
    }
    if (run->defer)
        defer_diags(b, &b->tail);
}

/* Takes the oldest queued batch and checks it; called and returning with
 * run->mu held (released while checking).  Workers and the reading thread
 * (batch_is_done) both use it; work is the calling thread's report. */
static void check_queued(Run *run, PieceTools *work)
{
    Batch *b = run->work[run->whead];
    run->whead = (run->whead + 1) % run->nbatches;
    run->wcount--;
    pthread_mutex_unlock(&run->mu);
    check_batch(run, b, work);
    pthread_mutex_lock(&run->mu);
    b->done = true;
    pthread_cond_signal(&run->done_cv);
}

static void *worker(void *arg)
{
    Run *run = arg;
    PieceTools work = {0};
    progress_block_signals();
    pthread_mutex_lock(&run->mu);
    for (;;) {
        while (!run->wcount && !run->quit)
            pthread_cond_wait(&run->work_cv, &run->mu);
        if (!run->wcount)
            break;
        check_queued(run, &work);
    }
    pthread_mutex_unlock(&run->mu);
    tools_free(&work);
    return NULL;
}

static void submit(Run *run, Batch *b)
{
    if (!run->nthreads) {
        check_batch(run, b, &run->own);
        b->done = true;
        return;
    }
    pthread_mutex_lock(&run->mu);
    b->done = false;
    run->work[(run->whead + run->wcount) % run->nbatches] = b;
    run->wcount++;
    pthread_cond_signal(&run->work_cv);
    pthread_mutex_unlock(&run->mu);
}

static bool batch_is_done(Run *run, Batch *b, bool wait)
{
    if (!run->nthreads)
        return true;
    pthread_mutex_lock(&run->mu);
    while (wait && !b->done) {
        /* Rather than sit idle, the reading thread checks the oldest
         * batch still queued itself. */
        if (run->wcount)
            check_queued(run, &run->own);
        else
            pthread_cond_wait(&run->done_cv, &run->mu);
    }
    bool done = b->done;
    pthread_mutex_unlock(&run->mu);
    return done;
}

/* ---- progress ---- */

/* The progress line (progress.h) where the input stands. */
static void show_progress(Run *run, const Input *in, bool force)
{
    if (!progress_due(&run->progress, force))
        return;
    uint64_t here = input_pos(in);
    ProgressAt at = {
        .name = in->name, .here = here, .psize = in->psize, .bytes = run->bytes_done + here,
        .total = run->bytes_total, .total_known = run->total_known,
        .reading = run->reading, .ninputs = run->inputs.n, .games = run->games_read,
    };
    progress_draw(&run->progress, &at);
}

/* ---- output, in input order, on the main thread ---- */

/* (--werror has made warnings errors already: parse_args) */
static bool game_is_bad(GameStatus st)
{
    return st == STATUS_ERROR;
}

static void output_file_diags(Run *run, const Input *in, const DiagList *l)
{
    for (size_t i = 0; i < l->n; i++) {
        Severity sev = l->v[i].severity;
        if (sev == SEV_ERROR)
            run->found = true;
        if (run->stats)
            report_stats_diag(run->stats, &l->v[i]);
        /* (TSV's go to standard error as text, never to the records) */
        if (!run->opt->quiet && !run->stop && (!run->defer || run->opt->format == FMT_TSV))
            report_file_diag(run->opt->format == FMT_TSV ? run->side : run->rp, in->name,
                             &l->v[i]);
    }
}

static void out_of_memory(Run *run);

/* A game of a regular file to be copied: its text read again into
 * run->copy (g->raw points there until reset_copy); the errno of a failed
 * read, 0 otherwise (a game over GAME_TEXT is left without text). */
static int read_copy(Run *run, Input *in, PgnGame *g)
{
    uint64_t len = g->end_offset - g->start.offset;
    if (len > GAME_TEXT)
        return 0;
    if (len + 1 > run->copy_cap) {
        char *p = realloc(run->copy, (size_t)len + 1);
        if (!p)
            return ENOMEM;
        run->copy = p;
        run->copy_cap = (size_t)len + 1;
    }
    long k = input_pread(in, run->copy, (size_t)len, g->start.offset);
    if (k < 0 || (uint64_t)k != len)
        return k < 0 ? errno : EIO;
    g->raw = run->copy;
    g->raw_len = (size_t)len;
    g->raw_complete = true;
    return 0;
}

static void reset_copy(Run *run, PgnGame *g)
{
    if (g->raw != run->copy || !g->raw)
        return;
    g->raw = NULL;
    g->raw_len = 0;
    if (run->copy_cap > COPY_KEEP) {
        free(run->copy);
        run->copy = NULL;
        run->copy_cap = 0;
    }
}

/* --duplicates, in input order (so -jN answers as -j1 does): has an
 * earlier game of the run this game's main line?  If so the finding is
 * made in *d and counted in the game's report (its status follows), and
 * the answer is true.  A table at its limit stops the run. */
static bool dup_look(Run *run, const Input *in, Slot *s, Diag *d)
{
    GameReport *rep = &s->rep;
    const PgnGame *g = s->game;
    rep->dup_state = 1;
    if (!rep->line_len || run->stop)
        return false;
    DupFirst f;
    DupVerdict v = dup_add(run->dup, in->name, g->index, g->start.line, (int)rep->declared, rep->line,
                           rep->line_len, &f);
    if (v == DUP_NOMEM) {
        out_of_memory(run);
        return false;
    }
    if (v == DUP_FULL) {
        progress_clear(&run->progress);
        fprintf(stderr,
                PROG ": --duplicates: the table of main lines reached its limit of %llu bytes (%llu distinct "
                "games) at game %llu of %s; raise --duplicates-memory\n",
                (unsigned long long)run->opt->dup_memory, (unsigned long long)dup_lines(run->dup),
                (unsigned long long)g->index, in->name);
        run->trouble = true;
        run->stop = true;
        return false;
    }
    if (v != DUP_SEEN)
        return false;
    rep->dup_state = 2;
    rep->dup_file = f.file;
    rep->dup_index = f.index;
    rep->dup_line = f.line;
    /* Results differ only where both copies declare one (a missing or
     * unreadable one is the game's own finding), and are a warning only
     * on a line long enough to be one game: the short lines are played
     * again by others (a forfeit after one move, an aborted online game;
     * in the benchmark input every pair with the same moves and other
     * results has 1 to 3 plies and other players). */
    bool differ = f.result != (int)rep->declared && f.result != PGN_RES_NONE && rep->declared != PGN_RES_NONE;
    DiagCode code = differ && rep->plies >= DUP_RESULT_PLIES ? D_DUPLICATE_RESULT : D_DUPLICATE_GAME;
    Severity sev = run->opt->check.severity[code];
    memset(d, 0, sizeof *d);
    d->code = code;
    d->severity = sev;
    d->pos = g->start;
    char res[48] = "";
    if (differ)
        snprintf(res, sizeof res, ", result %s there, %s here", result_text((PgnResult)f.result),
                 result_text(rep->declared));
    snprintf(d->msg, sizeof d->msg, "%s game %llu of %.60s (line %u): the same %u plies%s",
             code == D_DUPLICATE_GAME ? "a duplicate of" : "another result than", (unsigned long long)f.index, f.file,
             (unsigned)f.line, (unsigned)rep->plies, res);
    if (sev != SEV_NONE) {
        rep->counts[sev]++;
        if (sev == SEV_ERROR)
            rep->status = STATUS_ERROR;
        else if (sev == SEV_WARNING && rep->status == STATUS_OK)
            rep->status = STATUS_WARNING;
    }
    return true;
}

/* A finding about a whole input, made on the output side when it ends:
 * one that could not be opened or read (line 0: no position), or one with
 * no game (line 1, column 1; a directory with no PGN file: none).  In every format, as the reader's file-level
 * findings are; written at once, also where the records are deferred (the
 * input's own are written by then). */
static void output_input_diag(Run *run, const Input *in, DiagCode code, uint32_t line, const char *msg)
{
    Diag d;
    memset(&d, 0, sizeof d);
    d.code = code;
    d.severity = run->opt->check.severity[code];
    d.pos.line = line;
    d.pos.col = line ? 1 : 0;
    snprintf(d.msg, sizeof d.msg, "%s", msg);
    if (d.severity == SEV_NONE)
        return;
    if (d.severity == SEV_ERROR)
        run->found = true;
    if (run->stats)
        report_stats_diag(run->stats, &d);
    if (run->opt->quiet || run->stop)
        return;
    progress_clear(&run->progress);
    report_file_diag(run->opt->format == FMT_TSV ? run->side : run->rp, in->name, &d);
}

static void output_game(Run *run, Input *in, Slot *s)
{
    const Options *opt = run->opt;
    const GameReport *rep = &s->rep;
    ReportSummary *sum = &run->sum;
    Diag extra[3];              /* --fix-results' changes, then --duplicates' finding */
    bool dup = run->dup && dup_look(run, in, s, &extra[2]);
    sum->games++;
    in->ngames++;
    sum->plies += rep->plies;
    switch (rep->status) {
    case STATUS_OK: sum->ok++; break;
    case STATUS_WARNING: sum->warning++; break;
    case STATUS_ERROR: sum->error++; break;
    case STATUS_SKIPPED: sum->skipped++; break;
    }
    bool bad = game_is_bad(rep->status);
    if (bad)
        run->found = true;
    size_t nextra = 0;
    int copied = 0;
    /* A regular file's game is read again where it is copied or an
     * error's source line is shown. */
    PgnGame *g = s->game;
    bool copy = !run->stop && (opt->select == SELECT_UNIQUE ? !dup
                               : opt->select  ? (opt->select == SELECT_VALID) != bad
                                              : opt->fix_results);
    int again = 0;
    if (in->regular && !g->raw && copy) {
        again = read_copy(run, in, g);
    } else if (in->regular && !g->raw && !g->nslices && run->text_lines && rep->ndiags && !run->stop) {
        if (!report_take_slices(g, rep, g->end_offset, run->github, input_pread, in))
            again = ENOMEM;
    }
    if (again == ENOMEM) {
        out_of_memory(run);
    } else if (again) {
        progress_clear(&run->progress);
        fprintf(stderr, PROG ": %s: game %llu could not be read again to be copied: %s\n", in->name,
                (unsigned long long)g->index, strerror(again));
        run->trouble = true;
    }
    if (run->stop) {
        /* Standard output failed (or the duplicates' table is full): nothing more is written. */
    } else if (opt->select) {
        if (opt->select == SELECT_UNIQUE ? !dup : (opt->select == SELECT_VALID) != bad)
            copied = report_write_game(run->games_out, s->game, NULL, NULL, NULL);
    } else if (opt->fix_results) {
        copied = report_write_game(run->games_out, s->game, rep, extra, &nextra);
    }
    if (dup && nextra < 2)
        extra[nextra] = extra[2];
    nextra += dup;
    if (copied < 0 && !again) {
        progress_clear(&run->progress);
        fprintf(stderr, PROG ": %s: game %llu is larger than %u MiB and was not copied\n",
                in->name, (unsigned long long)s->game->index,
                (unsigned)(GAME_TEXT >> 20));
        run->trouble = true;
    }
    if (run->stats)
        report_stats_game(run->stats, rep, extra, nextra);
    if (!opt->quiet && !run->stop && !run->defer)
        report_game(run->rp, in->name, s->game, rep, extra, nextra);
    reset_copy(run, g);
}

/* Anything this batch writes to the terminal the progress line is on? */
static bool batch_prints(const Run *run, const Batch *b)
{
    if (run->opt->quiet)
        return b->file_end && b->input->err;
    if (!run->rp_on_tty && !(b->file_end && b->input->err))
        return false;
    if (b->tail.n || (b->file_end && b->input->err))
        return true;
    if (run->opt->format == FMT_JSONL || run->opt->format == FMT_TSV)
        return b->ngames > 0;
    for (size_t i = 0; i < b->ngames; i++)
        if (b->slot[i].pre.n || b->slot[i].rep.ndiags)
            return true;
    return false;
}

/* Flushes stdout after a batch: a failed write stops the run. */
static void check_stdout(Run *run)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return;
    int e = errno;
    run->stop = true;
    if (e == EPIPE)
        return;                 /* the reader went away: a normal stop */
    progress_clear(&run->progress);
    fprintf(stderr, PROG ": write error: %s\n", strerror(e ? e : EIO));
    run->trouble = true;
}

/* One game with the file-level findings before it; then a long game's
 * slot gives back what it took, so memory stays flat, and of the game's
 * text room keeps at most keep_raw bytes: every slot of every batch (and a
 * piece has up to PIECE_GAMES of them) keeping up to PGN_KEEP_BYTES made
 * 24 MB at -j2 through a pipe and 93 MB in pieces. */
static void output_slot(Run *run, Input *in, Slot *s, size_t keep_raw)
{
    output_file_diags(run, in, &s->pre);
    output_game(run, in, s);
    pgn_game_trim(s->game);
    pgn_game_drop_raw(s->game, keep_raw);
    game_report_trim(&s->rep);     /* a piece's copy holds no scratch: nothing */
}

static void lines_shift(Diag *d, size_t n, uint64_t by)
{
    for (size_t i = 0; i < n; i++)
        if (d[i].pos.line)
            d[i].pos.line += (uint32_t)by;
}

/* Writes out a piece whose games start where the input's last one stopped:
 * lines and game numbers made the file's, then the input moves on. */
static void piece_emit(Run *run, Batch *b)
{
    Input *in = b->input;
    if (b->oom)
        out_of_memory(run);
    uint64_t dl = in->line_base - 1;
    if (batch_prints(run, b))
        progress_clear(&run->progress);
    for (size_t i = 0; i < b->ngames; i++) {
        Slot *s = &b->slot[i];
        s->rep.diags = b->pool + s->pool_at;
        if (s->rep.line_len)
            s->rep.line = b->lpool + s->lpool_at;
        lines_shift(s->rep.diags, s->rep.ndiags, dl);
        lines_shift(s->pre.v, s->pre.n, dl);
        PgnGame *g = s->game;
        g->start.line += (uint32_t)dl;
        if (g->result_pos.line)
            g->result_pos.line += (uint32_t)dl;
        if (s->rep.marker_pos.line)
            s->rep.marker_pos.line += (uint32_t)dl;
        for (size_t k = 0; k < g->ntags; k++) {
            g->tags[k].pos.line += (uint32_t)dl;
            g->tags[k].value_pos.line += (uint32_t)dl;
        }
        g->index += in->index_base;
        output_slot(run, in, s, 0);     /* a copy is made to its size */
        s->rep.diags = NULL;
        s->rep.line = NULL;
    }
    lines_shift(b->tail.v, b->tail.n, dl);
    output_file_diags(run, in, &b->tail);
    if (run->defer && !run->stop && !report_deferred_write(b->rec, run->rp, in->index_base, dl))
        out_of_memory(run);
    in->index_base += b->ngames;
    run->games_read += b->ngames;
    if (b->read_end > in->bytes)
        in->bytes = b->read_end;
    if (b->err) {
        in->err = b->err;
        in->ended = true;
    } else if (b->stop == UINT64_MAX) {
        in->ended = true;
    } else {
        in->line_base += b->stop_line - 1;
        in->expect = b->stop;
        in->expect_col = b->stop_col;
        in->expect_tok = b->stop_tok;
    }
}

/* ---- pipes in segments ---- */

#define SEG_READ INPUT_PEND_READ /* bytes read from the pipe at once */
#define SEG_KEEP (128u << 10)   /* of a stretch read again, bytes kept behind it */

/* The pipe's bytes at off for the thread that writes the output (a stretch
 * read again): from the segments in flight, then the pending bytes, then
 * more of the pipe.  A stretch read again can run far past the segments
 * (a game longer than a segment); the pending bytes then keep SEG_KEEP
 * behind the reading, more than its reader can hold, so that the next
 * segment can begin where that reading stops. */
static long stream_read(Run *run, Input *in, unsigned char *buf, size_t cap, uint64_t off)
{
    for (size_t k = 0; k < run->count; k++) {
        const Batch *b = &run->batches[(run->head + k) % run->nbatches];
        if (b->input == in && b->segment && off >= b->seg_lo && off - b->seg_lo < b->seg_len) {
            size_t at = (size_t)(off - b->seg_lo), n = b->seg_len - at < cap ? b->seg_len - at : cap;
            memcpy(buf, b->seg + at, n);
            return (long)n;
        }
    }
    for (;;) {
        if (off < in->pend_off)
            return -1;          /* gone: cannot happen (see source_keeps) */
        if (off - in->pend_off < in->pend_len) {
            size_t at = (size_t)(off - in->pend_off), n = in->pend_len - at < cap ? in->pend_len - at : cap;
            memcpy(buf, in->pend + at, n);
            return (long)n;
        }
        if (off > SEG_KEEP) {
            uint64_t cut = off - SEG_KEEP, held = 0;
            for (size_t k = 0; k < run->count; k++) {
                const Batch *b = &run->batches[(run->head + k) % run->nbatches];
                if (b->input == in && b->segment && b->seg_lo + b->seg_len > held)
                    held = b->seg_lo + b->seg_len;
            }
            /* (bytes the segments still hold are kept: the next segment
             * begins where the pending bytes do) */
            if (cut > held) {
                if (cut > in->gap_end && cut > in->pend_off)
                    in->gap_end = cut;
                input_pend_drop(in, cut);
            }
        }
        if (!input_pend_more(in))
            return in->err ? -1 : 0;
    }
}

/* Can a stretch be read (again) from offset off of the source?  A pipe's
 * bytes before Input.gap_end are gone: a stretch read again does not stop
 * at a game that began there (the next would have to read it from its
 * start), but takes it and stops at a later one. */
static bool source_keeps(const Source *src, uint64_t off)
{
    return !src->in || off >= src->in->gap_end + SYNC_BEFORE;
}

/* Reads the stretch of the input from where it stands to the first game at
 * or after `upto` that begins at a sync point again, in order, on this
 * thread, and writes it out (a spare batch, PIECE_GAMES games at a time). */
static void piece_reread_to(Run *run, Batch *b, uint64_t upto)
{
    Input *in = b->input;
    Source src = {.fd = in->fd};
    if (in->stream) {
        src.run = run;
        src.in = in;
    }
    Batch *r = &run->spare;
    r->input = in;
    r->piece = true;
    r->lo = b->lo;
    r->hi = b->hi;
    do {
        r->oom = false;
        piece_fill(run, r, &run->own, &src, in->expect, in->expect_col, in->expect_tok, upto);
        piece_emit(run, r);
    } while (r->capped && !in->ended && !run->stop && in->expect < upto);
    r->input = NULL;
}

/* piece_reread_to the end of b's stretch (b's own reading is not used) */
static void piece_reread(Run *run, Batch *b)
{
    piece_reread_to(run, b, b->hi);
}

/* Writes out a piece used as read.  Where it stopped short of its
 * stretch's end (at PIECE_GAMES), what is left is read again here for a
 * segment (its stretch is still in memory) and for a file's last piece
 * (no piece after it would: its games past the cap were once lost); a
 * file's other pieces leave it to the next (piece_output). */
static void piece_emit_whole(Run *run, Batch *b)
{
    Input *in = b->input;
    piece_emit(run, b);
    if ((b->segment || b->file_end) && !in->ended && !run->stop && in->expect < b->hi)
        piece_reread(run, b);
}

/* A piece in input order.  It is used as read when it starts where the one
 * before stopped; a piece with no game start, or one inside what an earlier
 * piece read, adds nothing; otherwise (the one before stopped at
 * PIECE_GAMES, or the reader did not begin a game at this piece's sync
 * point) its stretch is read again here from where the input stands.  A
 * segment of a pipe is used only if its reading also ended where the next
 * begins (its reader sees only the segment and a little past its end), and
 * is finished here at once when it stopped at PIECE_GAMES: the stretch
 * before the next segment is then still in memory. */
static void piece_output(Run *run, Batch *b)
{
    Input *in = b->input;
    if (in->ended || run->stop)
        return;
    bool whole = !b->segment || b->file_end || (b->capped && b->stop < b->hi) || b->stop == b->hi;
    if (b->start == in->expect && whole) {
        piece_emit_whole(run, b);
        return;
    }
    if (in->expect >= b->hi)
        return;
    /* A piece of a file behind a piece that stopped short of it (at
     * PIECE_GAMES: 6 of the benchmark input's 191 pieces): the games
     * between are read here up to this piece's first game, and where
     * that reading meets it there, this piece is used as read rather than
     * read again whole on this thread (which made -j2 about 3% slower).
     * A segment's stretch read again comes from the segments in flight
     * and the pipe (stream_read), which this does not try: it is read
     * again whole, as before. */
    if (!b->segment && b->start != UINT64_MAX && in->expect < b->start) {
        piece_reread_to(run, b, b->start);
        if (in->ended || run->stop)
            return;
        if (b->start == in->expect) {
            piece_emit_whole(run, b);
            return;
        }
        if (in->expect >= b->hi)
            return;
    }
    piece_reread(run, b);
}

static void output_batch(Run *run, Batch *b)
{
    Input *in = b->input;
    if (b->piece) {
        piece_output(run, b);
    } else {
        if (b->oom)
            out_of_memory(run);
        if (batch_prints(run, b))
            progress_clear(&run->progress);
        /* the reader writes the next game's text into the same room */
        for (size_t i = 0; i < b->ngames; i++)
            output_slot(run, in, &b->slot[i], SLOT_KEEP_RAW);
        output_file_diags(run, in, &b->tail);
        if (run->defer && !run->stop && !report_deferred_write(b->rec, run->rp, 0, 0))
            out_of_memory(run);
        run->held -= b->held;
        b->held = 0;
    }
    if (b->file_end) {
        run->sum.inputs++;
        if (in->err) {
            /* The reader's own read-error, where it was reading, is out
             * already; an input never read is one in every format too. */
            if (!in->reader && !in->pieces)
                output_input_diag(run, in, in->open_failed ? D_OPEN_ERROR : D_READ_ERROR, 0,
                                  in->why[0] ? in->why : strerror(in->err));
            progress_clear(&run->progress);
            fprintf(stderr, PROG ": %s: %s\n", in->name, in->why[0] ? in->why : strerror(in->err));
            run->trouble = true;
            run->sum.failed++;
        } else if (in->ngames == 0) {
            char msg[PGN_MSG];
            if (in->no_pgn)
                snprintf(msg, sizeof msg, "no PGN file (*.pgn, *.pgn.gz, .xz, .bz2, .zst) in this directory or below");
            else if (in->bytes == 0)
                snprintf(msg, sizeof msg, "the input is empty: no game to check");
            else
                snprintf(msg, sizeof msg,
                         "no game in the input's %llu bytes (only blank lines, comments, escape lines or text "
                         "that is not a game)",
                         (unsigned long long)in->bytes);
            output_input_diag(run, in, D_NO_GAMES, in->no_pgn ? 0 : 1, msg);   /* (a directory has no lines) */
        }
        if (run->stats && !report_stats_file_end(run->stats, in->name))
            out_of_memory(run);
        if (in->reader || in->pieces)
            run->sum.files++;
        run->sum.bytes += in->bytes;
        if (in->pieces)
            run->bytes_done += input_done_bytes(in);
        if (in->reader)
            pgn_reader_free(in->reader);
        input_close(in);
    }
    b->input = NULL;
    if (!run->stop)
        check_stdout(run);
}

/* The next free batch; when all are in flight, the oldest is waited for,
 * written out and reused: memory stays bounded by the pool. */
static Batch *batch_acquire(Run *run)
{
    if (run->count == run->nbatches) {
        Batch *old = &run->batches[run->head];
        batch_is_done(run, old, true);
        output_batch(run, old);
        run->head = (run->head + 1) % run->nbatches;
        run->count--;
    }
    Batch *b = &run->batches[(run->head + run->count) % run->nbatches];
    run->count++;
    b->ngames = 0;
    b->file_end = false;
    b->done = false;
    b->piece = false;
    b->segment = false;
    b->oom = false;
    b->tail.n = 0;
    for (size_t i = 0; i < b->cap; i++)
        b->slot[i].pre.n = 0;
    return b;
}

/* Waits for the oldest batch in flight and writes it out. */
static void output_oldest(Run *run)
{
    batch_is_done(run, &run->batches[run->head], true);
    output_batch(run, &run->batches[run->head]);
    run->head = (run->head + 1) % run->nbatches;
    run->count--;
}

/* Writes out every finished batch at the head of the ring; with wait, all. */
static void output_ready(Run *run, bool wait)
{
    while (run->count && batch_is_done(run, &run->batches[run->head], wait)) {
        output_batch(run, &run->batches[run->head]);
        run->head = (run->head + 1) % run->nbatches;
        run->count--;
    }
}

static bool run_init(Run *run)
{
    /* -jN: N-1 workers; the reading thread checks queued batches while it
     * waits (batch_is_done), so N threads keep N cores busy without the
     * reader competing with N workers for them. */
    run->nthreads = run->opt->jobs > 1 ? run->opt->jobs - 1 : 0;
    /* One batch per worker, one being filled, two of slack for batches that
     * finish out of order.  Games are allocated on first use, so a small
     * input costs little whatever -j says. */
    run->nbatches = run->nthreads ? (size_t)run->nthreads + 3 : 1;
    run->batches = calloc(run->nbatches, sizeof *run->batches);
    run->work = calloc(run->nbatches, sizeof *run->work);
    if (!run->batches || !run->work)
        return false;
    for (size_t k = 0; k < run->nbatches; k++) {
        Batch *b = &run->batches[k];
        b->slot = calloc(BATCH_GAMES, sizeof *b->slot);
        if (!b->slot)
            return false;
        b->cap = BATCH_GAMES;
        for (size_t i = 0; i < BATCH_GAMES; i++)
            game_report_init(&b->slot[i].rep);
    }

    run->piece_bytes = PIECE_BYTES;
    const char *pb = getenv("PGNCHECK_PIECE");
    if (pb && *pb) {
        /* For the tests: small pieces put many cuts in small files. */
        char *end;
        unsigned long long v = strtoull(pb, &end, 10);
        if (*end == '\0' && v >= 1 && v <= (1ull << 40))
            run->piece_bytes = v;
    }
    if (!run->nthreads)
        return true;
    if (pthread_mutex_init(&run->mu, NULL) || pthread_cond_init(&run->work_cv, NULL) ||
        pthread_cond_init(&run->done_cv, NULL))
        return false;
    run->threads = calloc(run->nthreads, sizeof *run->threads);
    if (!run->threads)
        return false;
    for (unsigned t = 0; t < run->nthreads; t++)
        if (pthread_create(&run->threads[t], NULL, worker, run) != 0) {
            /* Fewer workers still work; none at all means inline. */
            run->nthreads = t;
            break;
        }
    return true;
}

static void run_free(Run *run)
{
    if (run->threads) {
        pthread_mutex_lock(&run->mu);
        run->quit = true;
        pthread_cond_broadcast(&run->work_cv);
        pthread_mutex_unlock(&run->mu);
        for (unsigned t = 0; t < run->nthreads; t++)
            pthread_join(run->threads[t], NULL);
        free(run->threads);
        pthread_mutex_destroy(&run->mu);
        pthread_cond_destroy(&run->work_cv);
        pthread_cond_destroy(&run->done_cv);
    }
    for (size_t k = 0; k <= run->nbatches; k++) {
        Batch *b = k < run->nbatches ? (run->batches ? &run->batches[k] : NULL) : &run->spare;
        if (!b)
            continue;
        for (size_t i = 0; i < b->cap; i++) {
            if (b->slot[i].game)
                pgn_game_free(b->slot[i].game);
            game_report_free(&b->slot[i].rep);
            free(b->slot[i].pre.v);
        }
        free(b->slot);
        free(b->tail.v);
        free(b->pool);
        free(b->lpool);
        free(b->seg);
        report_free(b->rec);
    }
    tools_free(&run->own);
    free(run->copy);
    input_list_free(&run->inputs);
    free(run->batches);
    free(run->work);
}

static void out_of_memory(Run *run)
{
    progress_clear(&run->progress);
    fputs(PROG ": out of memory\n", stderr);
    run->trouble = true;
    run->stop = true;
}

/* An input stopped early: an empty last batch still closes it in turn. */
static void close_in_turn(Run *run, Input *in)
{
    Batch *b = batch_acquire(run);
    b->input = in;
    b->file_end = true;
    submit(run, b);
}

/* -jN on a regular file read from its start: pieces, which the threads
 * read and check whole, written out in order. */
static void run_pieces(Run *run, Input *in)
{
    in->pieces = true;
    in->expect = 0;
    in->line_base = 1;
    in->index_base = 0;
    uint64_t size = run->piece_bytes;
    uint64_t n = (in->size + size - 1) / size;
    bool last = false;
    for (uint64_t j = 0; j < n && !run->stop; j++) {
        Batch *b = batch_acquire(run);
        b->input = in;
        b->piece = true;
        b->lo = j * size;
        last = j + 1 == n;
        b->hi = last ? UINT64_MAX : (j + 1) * size;   /* the last reads to the end */
        b->file_end = last;
        submit(run, b);
        if (last)
            break;              /* in may be closed from here on */
        output_ready(run, false);
        if (!in->ended)
            show_progress(run, in, false);
    }
    if (!last)
        close_in_turn(run, in);
}

/* run_segments' next cut after lo: the first sync point at or after
 * lo + size with SYNC_AFTER bytes after it in the pending bytes (1), else
 * lo + most (0: none comes), else the end of input (-1: *hi UINT64_MAX). */
static int seg_cut(Input *in, uint64_t lo, uint64_t size, uint64_t most, uint64_t *hi)
{
    uint64_t scan = lo + size;
    for (;;) {
        uint64_t end = in->pend_off + in->pend_len;
        uint64_t limit = in->pend_eof ? end : end > SYNC_AFTER ? end - SYNC_AFTER : 0;
        if (limit > lo + most)
            limit = lo + most;
        while (scan < limit) {
            const unsigned char *q = memchr(in->pend + (scan - in->pend_off), '[', (size_t)(limit - scan));
            if (!q)
                break;
            uint64_t p = in->pend_off + (uint64_t)(q - in->pend);
            if (p - in->pend_off >= SYNC_BEFORE && pgn_sync_at(in->pend, in->pend_len, (size_t)(p - in->pend_off))) {
                *hi = p;
                return 1;
            }
            scan = p + 1;
        }
        scan = limit > scan ? limit : scan;
        if (scan >= lo + most) {
            *hi = lo + most;
            return 0;
        }
        if (!input_pend_more(in)) {
            *hi = UINT64_MAX;   /* the end of input (or a read error) */
            return -1;
        }
    }
}

/* -jN on a pipe: segments of about run->piece_bytes cut at sync points
 * (or at four times that, or 64 KB, where none comes), each held in memory
 * and read and checked whole by a thread like a piece of a file, written
 * out in order.  So a pipe is not read by one thread alone: this thread
 * only reads it into the segments' buffers and looks for sync points.
 * False, having read nothing but the pending bytes, when the pipe is to be
 * read in batches instead (below). */
static bool run_segments(Run *run, Input *in)
{
    uint64_t size = run->piece_bytes, most = 4 * size > (64u << 10) ? 4 * size : (64u << 10);
    /* A pipe with no sync point between its first `size` and `most` bytes
     * (bare movetext, say) would be cut only where none is, and every
     * segment read again on this thread: it is read on this thread in
     * batches instead, from the bytes looked at (input_read takes them
     * first). */
    uint64_t lo = 0, hi;
    int cut = seg_cut(in, lo, size, most, &hi);
    if (cut == 0)
        return false;
    in->pieces = true;
    in->stream = true;
    in->expect = 0;
    in->line_base = 1;
    in->index_base = 0;
    bool last = false;
    while (!last && !run->stop) {
        /* (may write older segments out, and reading one again may take
         * more of the pipe and drop what is behind it) */
        Batch *b = batch_acquire(run);
        if (lo > 0) {
            if (in->pend_off > 0 && lo < in->pend_off + SYNC_BEFORE)
                lo = in->pend_off + SYNC_BEFORE;
            cut = seg_cut(in, lo, size, most, &hi);   /* 0: cut anyway (see piece_output) */
        }
        last = cut < 0;
        /* The pending bytes (from SYNC_BEFORE before lo, all that has been
         * read) become the segment: their buffer is handed over, not
         * copied, and the batch's old buffer takes the bytes from
         * SYNC_BEFORE before hi on, the next segment's start. */
        uint64_t end = in->pend_off + in->pend_len;
        size_t keep = last ? 0 : (size_t)(end - (hi - SYNC_BEFORE));
        if (keep > b->seg_cap) {
            size_t cap = keep > 2 * SEG_READ ? keep : 2 * SEG_READ;
            unsigned char *p = realloc(b->seg, cap);
            if (!p) {
                out_of_memory(run);
                in->err = ENOMEM;
                last = true;
                keep = 0;
            } else {
                b->seg = p;
                b->seg_cap = cap;
            }
        }
        unsigned char *spare = b->seg;
        size_t spare_cap = b->seg_cap;
        b->seg = in->pend;
        b->seg_cap = in->pend_cap;
        b->seg_lo = in->pend_off;
        b->seg_len = in->pend_len;
        in->pend = spare;
        in->pend_cap = spare_cap;
        in->pend_off = last ? end : hi - SYNC_BEFORE;
        in->pend_len = keep;
        if (keep)
            memcpy(in->pend, b->seg + (in->pend_off - b->seg_lo), keep);
        b->segment = true;
        b->seg_err = last ? in->err : 0;
        b->input = in;
        b->piece = true;
        b->lo = lo;
        b->hi = last ? UINT64_MAX : hi;
        b->file_end = last;
        submit(run, b);
        if (last)
            break;
        lo = hi;
        output_ready(run, false);
        show_progress(run, in, false);
    }
    if (!last)
        close_in_turn(run, in);
    return true;
}

/* Reads one input into batches; the workers check them meanwhile. */
static void run_input(Run *run, const InputItem *it)
{
    const char *path = it->path;
    Input *in = it->kind == ITEM_INPUT ? input_open(path, run->opt->label) : input_failed(path, it->err);
    /* Inputs in flight keep their files open until their output is
     * written: out of file descriptors, write what is queued (closing the
     * inputs it ends) and try again, so that -jN checks every file -j1
     * does under a low limit (ulimit -n). */
    while (in && (in->err == EMFILE || in->err == ENFILE) && run->count > 0) {
        input_close(in);
        output_ready(run, true);
        in = input_open(path, run->opt->label);
    }
    if (!in) {
        out_of_memory(run);
        return;
    }
    if (it->kind == ITEM_NO_PGN) {
        in->open_failed = false;
        in->no_pgn = true;
        close_in_turn(run, in);     /* nothing to read: a no-games finding */
        return;
    }
    /* --strict reads each input on one reader, which sees the text between
     * every two games (the export format's empty line); the checking is
     * still shared by the threads. */
    bool whole = run->opt->check.strict;
    if (!in->err && run->nthreads && !whole && in->regular && in->size >= 2 * run->piece_bytes &&
        lseek(in->fd, 0, SEEK_CUR) == 0) {
        run_pieces(run, in);
        return;
    }
    if (!in->err && run->nthreads && !whole && !in->regular && run_segments(run, in))
        return;
    if (!in->err) {
        PgnOptions po = read_options(run, !in->regular);
        in->reader = pgn_reader_new(input_read, in, &po);
        if (!in->reader) {
            input_close(in);
            out_of_memory(run);
            return;
        }
    }
    int got = in->err ? 0 : 1;
    bool ended = false;
    do {
        Batch *b = batch_acquire(run);
        b->input = in;
        while (got == 1 && b->ngames < BATCH_GAMES && b->held < BATCH_HELD) {
            Slot *s = &b->slot[b->ngames];
            if (!s->game && !(s->game = pgn_game_new())) {
                out_of_memory(run);
                break;
            }
            got = pgn_next(in->reader, s->game);
            if (!diags_take(got == 1 ? &s->pre : &b->tail, in->reader, run->opt))
                out_of_memory(run);
            if (got == 1) {
                size_t w = pgn_game_bytes(s->game);
                b->held += w;
                run->held += w;
                b->ngames++;
                run->games_read++;
            }
        }
        if (got < 0 && !in->err)
            in->err = EIO;
        ended = got != 1;
        b->file_end = ended;
        if (ended)
            run->bytes_done += input_done_bytes(in);    /* in may be closed once submitted */
        submit(run, b);
        output_ready(run, false);
        /* Long games: the oldest batches are written before more is read. */
        while (run->held > RUN_HELD && run->count)
            output_oldest(run);
        if (!ended)
            show_progress(run, in, false);
    } while (!ended && !run->stop);
    if (!ended)
        close_in_turn(run, in);
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

int cli_main(int argc, char **argv)
{
    hold_closed_stdout();
    /* Test hook (tests/suites/oom.sh): allocation number N fails. */
    const char *fail_at = getenv("PGNCHECK_FAIL_ALLOC");
    if (fail_at && *fail_at)
        mem_fail_at(strtoul(fail_at, NULL, 10));
    Options o;
    int rc = parse_args(argc, argv, &o);
    if (rc >= 0) {
        free(o.files);
        if (rc == EXIT_CLEAN && (fflush(stdout) || ferror(stdout))) {
            if (errno != EPIPE)
                fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
            return EXIT_TROUBLE;
        }
        return rc;
    }
    const Options *opt = &o;

    if (opt->list_checks) {
        free(o.files);
        report_list_checks(stdout, opt->check.severity);
        if (fflush(stdout) || ferror(stdout)) {
            if (errno != EPIPE)
                fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
            return EXIT_TROUBLE;
        }
        return EXIT_CLEAN;
    }

    chess_init();
    pgn_init();                 /* before threads: pieces look for sync points */
    Run run;
    memset(&run, 0, sizeof run);
    run.opt = opt;
    run.t0 = progress_now();
    bool copying = opt->select || opt->fix_results;
    FILE *diag_out = copying ? stderr : stdout;
    run.games_out = copying ? stdout : NULL;
    run.stderr_tty = isatty(STDERR_FILENO);
    run.rp_on_tty = copying ? run.stderr_tty : isatty(STDOUT_FILENO);
    /* --color=auto: a terminal, TERM not "dumb", NO_COLOR unset or empty
     * (no-color.org); always and never are for both streams. */
    const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
    bool color_ok = !(nc && nc[0]) && !(term && strcmp(term, "dumb") == 0);
    run.rp = report_new(diag_out, opt->format, opt->color > 0 || (opt->color < 0 && color_ok && run.rp_on_tty));
    run.side = report_new(stderr, FMT_TEXT, opt->color > 0 || (opt->color < 0 && color_ok && run.stderr_tty));
    /* --min-severity: by default notes are printed only where every game
     * has a record (jsonl, tsv; TSV's findings outside games, on stderr,
     * follow the format's rule) */
    Severity min = opt->min_severity ? (Severity)opt->min_severity
                   : opt->format == FMT_TEXT || opt->format == FMT_GITHUB ? SEV_WARNING
                                                                            : SEV_NOTE;
    if (run.rp)
        report_set_min_severity(run.rp, min);
    if (run.side)
        report_set_min_severity(run.side, min);
    if (opt->stats)
        run.stats = report_stats_new(opt->format);
    /* The source line under an error needs the game's text; so do copying
     * and the checks of --strict (the export format) and --fix-results (a
     * marker written wrongly): read_options. */
    run.github = opt->format == FMT_GITHUB;
    run.text_lines = (opt->format == FMT_TEXT || run.github) && !opt->quiet;
    run.copying = copying;
    run.raw_check = opt->check.strict || opt->fix_results;
    /* (--duplicates adds a finding in the output stage: text shows the tags
     * of a game the checking found nothing in) */
    run.keep_text = copying ? KEEP_ALL
                    : opt->quiet ? KEEP_NONE
                    : opt->format == FMT_TEXT && !opt->duplicates ? KEEP_WITH_FINDINGS
                                                                  : KEEP_ALL;
    bool ready = run.rp && run.side && (run.stats || !opt->stats) &&
                 (!opt->duplicates || (run.dup = dup_new(opt->dup_memory))) && run_init(&run);
    if (ready && opt->duplicates)
        report_show_duplicates(run.rp);
    for (int i = 0; i < opt->nfiles && ready; i++)
        ready = input_list_add(&run.inputs, opt->files[i], opt->recursive, opt->dir_implied);
    /* --duplicates decides in the output stage, which must then format the
     * records itself */
    if (ready && run.nthreads && (opt->format == FMT_JSONL || opt->format == FMT_TSV) && !copying &&
        !opt->quiet && !opt->duplicates) {
        /* (not with -j1, whose records the tests compare -jN's with) */
        run.defer = true;
        run.keep_text = KEEP_NONE;  /* the records are made before the copy */
        for (size_t k = 0; k <= run.nbatches && ready; k++) {
            Batch *b = k < run.nbatches ? &run.batches[k] : &run.spare;
            ready = (b->rec = report_new_deferred(opt->format)) != NULL;
            if (ready)
                report_set_min_severity(b->rec, min);
        }
    }
    if (!ready) {
        out_of_memory(&run);
    } else {
        if (!opt->quiet)
            report_begin(run.rp);
        if (opt->stdin_implied && isatty(STDIN_FILENO))
            fputs(PROG ": reading PGN from standard input (Ctrl-D to end; --help for usage)\n", stderr);
        run.total_known = true;
        for (size_t i = 0; i < run.inputs.n; i++) {
            run.bytes_total += run.inputs.v[i].size;
            run.total_known &= run.inputs.v[i].regular;
        }
        /* --progress, or by default a terminal and more than 8 MB of
         * regular files to read */
        run.progress.on = opt->progress >= 0 ? opt->progress == 1
                          : run.stderr_tty && run.bytes_total > PROGRESS_MIN_BYTES;
        run.progress.t0 = run.t0;
        if (opt->progress == 1 || (opt->progress < 0 && run.stderr_tty))
            progress_catch_signals();
        for (size_t i = 0; i < run.inputs.n && !run.stop; i++) {
            run.reading = i + 1;
            run_input(&run, &run.inputs.v[i]);
        }
        output_ready(&run, true);
        run.sum.seconds = progress_now() - run.t0;
        progress_clear(&run.progress);
        if (run.stats && (opt->format != FMT_JSONL || !run.stop))
            report_stats_write(run.stats, run.rp, stderr);
        if (!run.stop) {
            report_summary(run.rp, &run.sum);
            check_stdout(&run);
        }
        report_hidden(run.rp, run.sum.hidden);
        report_hidden(run.side, run.sum.hidden);
        if (opt->summary)
            report_summary_text(stderr, &run.sum);
    }
    run_free(&run);
    dup_free(run.dup);
    report_free(run.rp);
    report_free(run.side);
    report_stats_free(run.stats);
    free(o.files);
    if (fclose(stdout) != 0 && !run.stop) {
        if (errno != EPIPE) {
            fprintf(stderr, PROG ": write error: %s\n", strerror(errno));
            run.trouble = true;
        }
    }
    if (run.trouble)
        return EXIT_TROUBLE;
    return run.found ? EXIT_FOUND : EXIT_CLEAN;
}
