/* perft.c - perft runner: checks the node counts of an EPD file (FEN ;D1 n ;D2 n ...), benches, divides. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "movegen.h"
#include "fen960.h"
#include "san.h"

#define STARTPOS "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define MAX_DEPTHS 16

typedef struct DepthCount {
    int depth;
    uint64_t count;
} DepthCount;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(void)
{
    fputs("usage: tests/perft FILE.epd [MAXDEPTH]\n"
          "       tests/perft -b DEPTH [FEN]    nodes per second (default: start position)\n"
          "       tests/perft -d DEPTH FEN      divide: the count below each legal move\n",
          stderr);
}

static bool parse_uint(const char *s, uint64_t *out)
{
    char *end;
    if (*s < '0' || *s > '9')
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || *end != '\0')
        return false;
    *out = (uint64_t)v;
    return true;
}

static bool has_substr_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && (hay[i] | 0x20) == (needle[i] | 0x20))
            i++;
        if (i == n)
            return true;
    }
    return false;
}


static int cmd_bench(int depth, const char *fen)
{
    Position pos;
    FenInfo info;
    FenError e = pos_from_fen(&pos, fen, strlen(fen), fen_looks_960(fen), &info);
    if (e != FEN_OK) {
        fprintf(stderr, "perft: bad FEN (%s at column %d): %s\n", pos_fen_error_text(e), info.column, fen);
        return 2;
    }
    double t0 = now_seconds();
    uint64_t n = perft(&pos, depth);
    double dt = now_seconds() - t0;
    printf("perft %d: %llu nodes in %.3f s = %.1f Mnps\n", depth, (unsigned long long)n, dt,
           dt > 0 ? (double)n / dt / 1e6 : 0.0);
    return 0;
}

static int cmd_divide(int depth, const char *fen)
{
    Position pos, next;
    FenInfo info;
    MoveList list;
    char uci[8];
    FenError e = pos_from_fen(&pos, fen, strlen(fen), fen_looks_960(fen), &info);
    if (e != FEN_OK) {
        fprintf(stderr, "perft: bad FEN (%s at column %d): %s\n", pos_fen_error_text(e), info.column, fen);
        return 2;
    }
    if (depth < 1)
        depth = 1;
    gen_legal(&pos, &list);
    uint64_t total = 0;
    for (int i = 0; i < list.count; i++) {
        pos_make(&pos, list.moves[i], &next);
        uint64_t n = depth > 1 ? perft(&next, depth - 1) : 1;
        move_to_uci(&pos, list.moves[i], uci);
        printf("%s: %llu\n", uci, (unsigned long long)n);
        total += n;
    }
    printf("moves %d, nodes %llu\n", list.count, (unsigned long long)total);
    return 0;
}

/* Splits "FEN ;D1 n ;D2 n" into the FEN (NUL-terminated in place) and its counts.
 * Returns the number of counts, or -1 on a malformed count. */
static int parse_epd_line(char *line, char **fen_out, DepthCount *dc)
{
    char *semi = strchr(line, ';');
    char *end = semi ? semi : line + strlen(line);
    while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    char *fen = line;
    while (*fen == ' ' || *fen == '\t')
        fen++;
    int n = 0;
    char *p = semi;
    *end = '\0';
    *fen_out = fen;
    while (p) {
        char *next = strchr(p + 1, ';');
        if (next)
            *next = '\0';
        char *q = p + 1;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '\0') {
            char *stop;
            if (*q != 'D' || n == MAX_DEPTHS)
                return -1;
            errno = 0;
            long d = strtol(q + 1, &stop, 10);
            if (stop == q + 1 || d < 0 || d > 99 || (*stop != ' ' && *stop != '\t'))
                return -1;
            while (*stop == ' ' || *stop == '\t')
                stop++;
            char *cend;
            unsigned long long c = strtoull(stop, &cend, 10);
            if (cend == stop || errno != 0)
                return -1;
            while (*cend == ' ' || *cend == '\t')
                cend++;
            if (*cend != '\0')
                return -1;
            dc[n].depth = (int)d;
            dc[n].count = (uint64_t)c;
            n++;
        }
        p = next;
    }
    return n;
}

static int cmd_file(const char *path, int maxdepth)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "perft: %s: %s\n", path, strerror(errno));
        return 2;
    }
    bool file960 = has_substr_nocase(path, "960") || has_substr_nocase(path, "frc");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    unsigned long passed = 0, failed = 0;
    uint64_t nodes = 0;
    double t0 = now_seconds();
    while ((len = getline(&line, &cap, f)) != -1) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        char *fen;
        DepthCount dc[MAX_DEPTHS];
        int n = parse_epd_line(line, &fen, dc);
        if (n < 0) {
            printf("FAIL %s:%ld: malformed count list\n", path, lineno);
            failed++;
            continue;
        }
        int todo = 0;
        for (int i = 0; i < n; i++)
            todo += dc[i].depth <= maxdepth;
        Position pos;
        FenInfo info;
        bool c960 = file960 || fen_looks_960(fen);
        FenError e = pos_from_fen(&pos, fen, strlen(fen), c960, &info);
        if (e != FEN_OK) {
            printf("FAIL %s:%ld: %s: FEN rejected: %s (column %d)\n", path, lineno, fen,
                   pos_fen_error_text(e), info.column);
            failed += todo > 0 ? (unsigned long)todo : 1;
            continue;
        }
        int ok = 0, maxd = 0;
        for (int i = 0; i < n; i++) {
            if (dc[i].depth > maxdepth)
                continue;
            uint64_t got = perft(&pos, dc[i].depth);
            nodes += got;
            if (got == dc[i].count) {
                ok++;
                passed++;
                if (dc[i].depth > maxd)
                    maxd = dc[i].depth;
            } else {
                printf("FAIL %s:%ld: %s: depth %d expected %llu got %llu\n", path, lineno, fen,
                       dc[i].depth, (unsigned long long)dc[i].count, (unsigned long long)got);
                failed++;
            }
        }
        if (ok > 0 && ok == todo)
            printf("ok %s:%ld: %s (%d counts to depth %d)\n", path, lineno, fen, ok, maxd);
    }
    free(line);
    if (ferror(f)) {
        fprintf(stderr, "perft: %s: read error\n", path);
        failed++;
    }
    fclose(f);
    double dt = now_seconds() - t0;
    printf("# %s: %llu nodes in %.2f s\n", path, (unsigned long long)nodes, dt);
    printf("%lu passed, %lu failed\n", passed, failed);
    if (fflush(stdout) != 0)
        return 2;
    return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
    chess_init();
    uint64_t v;
    if (argc >= 3 && (strcmp(argv[1], "-b") == 0 || strcmp(argv[1], "-d") == 0)) {
        if (!parse_uint(argv[2], &v) || v > 20 || argc > 4) {
            usage();
            return 2;
        }
        const char *fen = argc == 4 ? argv[3] : STARTPOS;
        return argv[1][1] == 'b' ? cmd_bench((int)v, fen) : cmd_divide((int)v, fen);
    }
    if (argc < 2 || argc > 3 || argv[1][0] == '-') {
        usage();
        return 2;
    }
    int maxdepth = 99;
    if (argc == 3) {
        if (!parse_uint(argv[2], &v) || v > 99) {
            usage();
            return 2;
        }
        maxdepth = (int)v;
    }
    return cmd_file(argv[1], maxdepth);
}
