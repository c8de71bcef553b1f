/* sanbench.c - benchmark: SAN parse + make over the main lines of a PGN file (reader time excluded). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "movegen.h"
#include "pgn.h"
#include "san.h"

typedef struct Tok {
    char text[PGN_TOKEN_TEXT];
    uint8_t len;
    uint8_t first; /* first move of a game */
} Tok;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: sanbench FILE.pgn [MAXMOVES]\n");
        return 2;
    }
    size_t max = argc > 2 ? (size_t)strtoull(argv[2], NULL, 10) : 5000000;
    chess_init();
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        perror(argv[1]);
        return 2;
    }
    PgnReader *r = pgn_reader_new(input_read_fd, &fd, NULL);
    PgnGame *g = pgn_game_new();
    Tok *toks = malloc(max * sizeof *toks);
    if (!r || !g || !toks)
        return 2;
    size_t n = 0;
    /* Collect main-line tokens of standard games without a FEN start. */
    while (n < max && pgn_next(r, g) == 1) {
        bool skip = false;
        for (size_t i = 0; i < g->ntags; i++)
            if (!strcmp(g->tags[i].name, "FEN") || !strcmp(g->tags[i].name, "Variant"))
                skip = true;
        if (skip)
            continue;
        int depth = 0;
        bool first = true;
        for (size_t i = 0; i < g->nelems && n < max; i++) {
            const PgnElem *e = &g->elems[i];
            if (e->kind == PGN_EL_VAR_START)
                depth++;
            else if (e->kind == PGN_EL_VAR_END)
                depth--;
            else if (depth == 0) {
                memcpy(toks[n].text, e->text, sizeof toks[n].text);
                toks[n].len = e->len;
                toks[n].first = first;
                first = false;
                n++;
            }
        }
    }
    Position cur, next;
    size_t ok = 0;
    bool dead = false;
    double t0 = now();
    for (size_t i = 0; i < n; i++) {
        if (toks[i].first) {
            pos_startpos(&cur);
            dead = false;
        }
        if (dead)
            continue;
        SanResult res;
        if (san_parse(&cur, toks[i].text, toks[i].len, &res) != SAN_OK) {
            dead = true;
            continue;
        }
        pos_make(&cur, res.move, &next);
        cur = next;
        ok++;
    }
    double t = now() - t0;
    printf("san parse+make: %zu moves in %.3f s = %.1f M moves/s\n", ok, t, (double)ok / t / 1e6);
    free(toks);
    pgn_game_free(g);
    pgn_reader_free(r);
    close(fd);
    return 0;
}
