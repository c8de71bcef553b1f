/* test_unwin.c - runs unwin_decide over a classified test vector (CHA's format: "XY FEN", X W or -, Y B or -). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "movegen.h"
#include "rules.h"
#include "unwin.h"

/* The process's CPU time: the build machine is shared, and its load
 * would stretch a wall clock's figures several times over. */
static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void usage(void)
{
    fputs("usage: tests/test_unwin FILE [EVERY [BUDGET [MINPCT]]]\n"
          "       tests/test_unwin -b FILE [BUDGET]   questions/s on a FEN a line, as game.c asks\n"
          "       tests/test_unwin -u FILE BUDGET     every question of FILE ends at its budget\n"
          "       tests/test_unwin -c FILE BUDGET     classifies a FEN a line as the vector does\n"
          "       tests/test_unwin -q FILE [EXCEPTIONS]   the cheap filter passes nothing unwinnable\n"
          "       tests/test_unwin -p FILE BUDGET [EXCEPTIONS]   material, filter, search, as --unwin-nodes\n"
          "       tests/test_unwin -x FILE LIMIT [strict]   each blockade proof against brute force (LIMIT\n"
          "                                            positions); strict: '-' must be proven, W or B mated\n"
          "  every EVERY-th position of FILE (default 1), BUDGET nodes a question;\n"
          "  fails on an unsound verdict (unwinnable where FILE says winnable), a\n"
          "  helpmate that does not replay to a mate, a replayed helpmate where FILE\n"
          "  says unwinnable, or fewer than MINPCT% of the questions decided (99);\n"
          "  UNWIN_TABLE_MB=N: an N MB search table (the program's: unwin_table_bytes)\n",
          stderr);
}

/* -b FILE [BUDGET]: a FEN a line (anything after its six fields
 * ignored), both colours asked as game.c asks (can_mate there): the
 * material rules, then the blockade proof where unwin_may_be_blocked
 * holds.  Prints what each step settled and the questions per second;
 * with a BUDGET, the whole procedure (unwin_decide, as --unwin-nodes
 * runs it) on every question as well, timed apart: its verdicts (every
 * helpmate replayed), questions per second, the mean and the longest. */
static int bench(const char *file, unsigned long long budget)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        perror(file);
        return 2;
    }
    void *mem = budget ? malloc(unwin_table_bytes(budget)) : NULL;
    UnwinTable t;
    if (mem)
        unwin_table_init(&t, mem, unwin_table_bytes(budget));
    static UnwinResult r;
    char line[512];
    unsigned long q = 0, material = 0, passed = 0, locked = 0, blockade = 0, bad = 0, verdicts[3] = {0};
    unsigned long bad_line = 0;
    double t0 = now_seconds(), tsearch = 0, worst = 0;
    while (fgets(line, sizeof line, f)) {
        /* The FEN: its first six fields. */
        char *p = line;
        for (int spaces = 0; *p && *p != '\n'; p++)
            if (*p == ' ' && ++spaces == 6)
                break;
        *p = 0;
        Position pos;
        if (pos_from_fen(&pos, line, strlen(line), false, NULL) != FEN_OK) {
            bad++;
            continue;
        }
        for (int c = 0; c < 2; c++) {
            q++;
            if (mem) {
                double s0 = now_seconds();
                UnwinVerdict v = unwin_decide(&pos, c, &t, budget, &r);
                double dt = now_seconds() - s0;
                tsearch += dt;
                worst = dt > worst ? dt : worst;
                verdicts[v]++;
                if (v == UNWIN_WINNABLE && !unwin_line_mates(&pos, c, r.line, r.line_len))
                    bad_line++;
            }
            if (!rules_can_mate(&pos, c)) {
                material++;
                continue;
            }
            if (!unwin_may_be_blocked(&pos))
                continue;
            passed++;
            locked += unwin_pawns_locked(&pos);
            blockade += unwin_blockade(&pos, c);
        }
    }
    double secs = now_seconds() - t0 - tsearch;
    fclose(f);
    free(mem);
    printf("# %s: %lu questions (%lu FENs rejected): %lu settled by the material rules, %lu passed the filter "
           "(%lu with every pawn locked), %lu of them proven unwinnable by the blockade; %.3f s, %.0f questions/s\n",
           file, q, bad, material, passed, locked, blockade, secs, secs > 0 ? (double)q / secs : 0);
    if (mem)
        printf("# the whole procedure (unwin_decide, %llu nodes) on every question: %lu winnable, %lu unwinnable, "
               "%lu undetermined; %.3f s, %.0f questions/s, %.0f us on average, %.1f ms at most\n",
               budget, verdicts[UNWIN_WINNABLE], verdicts[UNWIN_UNWINNABLE], verdicts[UNWIN_UNDETERMINED], tsearch,
               tsearch > 0 ? (double)q / tsearch : 0, q ? 1e6 * tsearch / (double)q : 0, 1e3 * worst);
    printf("%d passed, %d failed\n", bad_line ? 0 : 1, bad_line ? 1 : 0);
    return bad_line ? 1 : 0;
}

/* -u FILE BUDGET: positions too hard for BUDGET nodes, each line two
 * characters (? for a colour asked), a space and a FEN: each question
 * must come back undetermined -- never unwinnable
 * (the budget spent proves nothing), never a wrong helpmate -- having
 * spent no more than the budget and one position's moves (the
 * exhaustive search tests the budget once a position; every other
 * search once a node), so that no position can hold the program up. */
static int budget_run(const char *file, unsigned long long budget)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        perror(file);
        return 2;
    }
    void *mem = malloc(unwin_table_bytes(budget));
    if (!mem) {
        fclose(f);
        return 2;
    }
    UnwinTable t;
    unwin_table_init(&t, mem, unwin_table_bytes(budget));
    static UnwinResult r;
    char line[512];
    long lineno = 0;
    unsigned long questions = 0, bad = 0;
    double worst = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || strlen(line) < 4)
            continue;
        line[strcspn(line, "\r\n")] = 0;
        char *comment = strstr(line, " #");
        if (comment)
            *comment = 0;
        Position pos;
        if (pos_from_fen(&pos, line + 3, strlen(line + 3), false, NULL) != FEN_OK) {
            printf("FAIL %s:%ld: FEN rejected\n", file, lineno);
            bad++;
            continue;
        }
        for (int c = 0; c < 2; c++) {
            if (line[c] != '?')
                continue; /* a colour not asked */
            double q0 = now_seconds();
            UnwinVerdict v = unwin_decide(&pos, c, &t, budget, &r);
            double dt = now_seconds() - q0;
            worst = dt > worst ? dt : worst;
            questions++;
            if (v != UNWIN_UNDETERMINED || r.nodes > budget + MAX_MOVES) {
                printf("FAIL %s:%ld: %s for %s: verdict %d after %llu nodes (budget %llu: undetermined wanted)\n",
                       file, lineno, line + 3, c == WHITE ? "white" : "black", (int)v,
                       (unsigned long long)r.nodes, budget);
                bad++;
            }
        }
    }
    fclose(f);
    free(mem);
    printf("# %s: %lu questions at %llu nodes, %.1f ms at most\n", file, questions, budget, 1e3 * worst);
    printf("%s unwin budget %s\n%d passed, %d failed\n", bad ? "FAIL" : "ok", file, bad ? 0 : 1, bad ? 1 : 0);
    return bad ? 1 : 0;
}

/* -c FILE BUDGET: classifies every FEN of FILE (a FEN a line, anything
 * after its six fields ignored) by the search at BUDGET nodes, in the
 * vector's format: "XY FEN", X W when White can mate (a helpmate found
 * and replayed) and - when it cannot (proven), Y the same for Black, ?
 * when undetermined.  How tests/unwin/lichess.txt was made. */
static int classify(const char *file, unsigned long long budget)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        perror(file);
        return 2;
    }
    void *mem = malloc(unwin_table_bytes(budget));
    if (!mem) {
        fclose(f);
        return 2;
    }
    UnwinTable t;
    unwin_table_init(&t, mem, unwin_table_bytes(budget));
    static UnwinResult r;
    char line[512];
    int bad = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        for (int spaces = 0; *p && *p != '\n'; p++)
            if (*p == ' ' && ++spaces == 6)
                break;
        *p = 0;
        Position pos;
        if (pos_from_fen(&pos, line, strlen(line), false, NULL) != FEN_OK) {
            printf("!! %s\n", line);
            bad = 1;
            continue;
        }
        char v[2];
        for (int c = 0; c < 2; c++) {
            UnwinVerdict d = unwin_decide(&pos, c, &t, budget, &r);
            if (d == UNWIN_WINNABLE && !unwin_line_mates(&pos, c, r.line, r.line_len))
                bad = 1, d = UNWIN_UNDETERMINED;
            v[c] = d == UNWIN_WINNABLE ? "WB"[c] : d == UNWIN_UNWINNABLE ? '-' : '?';
        }
        printf("%c%c %s\n", v[0], v[1], line);
    }
    fclose(f);
    free(mem);
    return bad;
}

/* Reads the next question file line: "XY FEN" (the vector's format), or
 * with `exceptions` a FEN a line (anything after its six fields ignored)
 * whose answers are the line of `exceptions` with the same FEN, else WB.
 * Returns false at the end. */
typedef struct Answers {
    char (*fen)[100];
    char (*xy)[3];
    size_t n;
} Answers;

static bool next_question(FILE *f, const Answers *ex, bool want[2], bool ask[2], char *fen, size_t fen_size)
{
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strlen(line) < 4)
            continue;
        line[strcspn(line, "\r\n")] = 0;
        char *comment = strstr(line, " #");
        if (comment)
            *comment = 0;
        const char *body = line + 3, *xy = line;
        if (ex) {
            char *p = line;
            for (int spaces = 0; *p; p++)
                if (*p == ' ' && ++spaces == 6)
                    break;
            *p = 0;
            body = line;
            xy = "WB";
            for (size_t i = 0; i < ex->n; i++)
                if (strcmp(ex->fen[i], line) == 0)
                    xy = ex->xy[i];
        }
        int spaces = 0;
        for (const char *q = body; *q; q++)
            spaces += *q == ' ';
        snprintf(fen, fen_size, "%s%s", body, spaces == 1 ? " - -" : "");
        for (int c = 0; c < 2; c++) {
            ask[c] = xy[c] != '?';
            want[c] = xy[c] == "WB"[c];
        }
        return true;
    }
    return false;
}

/* -q FILE [EXCEPTIONS]: the cheap filter (unwin_quick_winnable) on every
 * question of FILE (the vector's format; or FENs answered WB but for the
 * lines of EXCEPTIONS, in the vector's format): it must pass no question
 * FILE answers unwinnable.  Prints how many winnable ones it passes and
 * its time a question. */
static int quick_run(const char *file, const char *exceptions)
{
    Answers ex = {0};
    if (exceptions) {
        FILE *e = fopen(exceptions, "r");
        if (!e) {
            perror(exceptions);
            return 2;
        }
        char line[512];
        size_t cap = 0;
        while (fgets(line, sizeof line, e)) {
            if (line[0] == '#' || strlen(line) < 4)
                continue;
            line[strcspn(line, "\r\n")] = 0;
            if (ex.n == cap) {
                cap = cap ? 2 * cap : 1024;
                ex.fen = realloc(ex.fen, cap * sizeof *ex.fen);
                ex.xy = realloc(ex.xy, cap * sizeof *ex.xy);
                if (!ex.fen || !ex.xy) {
                    fclose(e);
                    return 2;
                }
            }
            snprintf(ex.fen[ex.n], sizeof ex.fen[0], "%.99s", line + 3);
            snprintf(ex.xy[ex.n], sizeof ex.xy[0], "%.2s", line);
            ex.n++;
        }
        fclose(e);
    }
    FILE *f = fopen(file, "r");
    if (!f) {
        perror(file);
        return 2;
    }
    char fen[600];
    bool want[2], ask[2];
    unsigned long q[2] = {0}, pass[2] = {0}, bad = 0;
    Position *all_pos = NULL;
    size_t npos = 0, cap = 0;
    while (next_question(f, exceptions ? &ex : NULL, want, ask, fen, sizeof fen)) {
        Position pos;
        if (pos_from_fen(&pos, fen, strlen(fen), false, NULL) != FEN_OK)
            continue; /* (the vector's material no game reaches: R3) */
        if (npos == cap) {
            cap = cap ? 2 * cap : 4096;
            Position *more = realloc(all_pos, cap * sizeof *all_pos);
            if (!more)
                break;
            all_pos = more;
        }
        all_pos[npos++] = pos;
        for (int c = 0; c < 2; c++) {
            if (!ask[c])
                continue;
            bool passed = unwin_quick_winnable(&pos, c);
            q[want[c]]++;
            pass[want[c]] += passed;
            if (passed && !want[c]) {
                printf("FAIL %s: %s: the filter passes %s, which cannot mate\n", file, fen, c == WHITE ? "white" : "black");
                bad++;
            }
        }
    }
    fclose(f);
    free(ex.fen);
    free(ex.xy);
    /* The time: every position, both colours, five times over. */
    double t0 = now_seconds();
    unsigned long sink = 0;
    for (int round = 0; round < 5; round++)
        for (size_t i = 0; i < npos; i++)
            sink += unwin_quick_winnable(&all_pos[i], WHITE) + unwin_quick_winnable(&all_pos[i], BLACK);
    double secs = now_seconds() - t0;
    free(all_pos);
    printf("# %s: the filter passes %lu of %lu winnable questions (%.2f%%) and %lu of %lu unwinnable; "
           "%.0f ns a question (%lu)\n",
           file, pass[1], q[1], q[1] ? 100.0 * (double)pass[1] / (double)q[1] : 0, pass[0], q[0],
           npos ? 1e9 * secs / (double)(10 * npos) : 0, sink);
    printf("%s unwin filter %s: %lu unwinnable questions passed\n%d passed, %d failed\n", bad ? "FAIL" : "ok", file, bad,
           bad ? 0 : 1, bad ? 1 : 0);
    return bad ? 1 : 0;
}

/* -p FILE BUDGET [EXCEPTIONS]: the questions of FILE (as -q reads them)
 * asked as pgncheck --unwin-nodes=BUDGET asks of a win on time: the
 * material rules, the cheap filter, then unwin_decide.  Prints how many
 * were searched, their time, how many were left undetermined, and fails
 * on a verdict against FILE. */
static int pipeline(const char *file, unsigned long long budget, const char *exceptions)
{
    Answers ex = {0};
    if (exceptions) {
        FILE *e = fopen(exceptions, "r");
        if (!e) {
            perror(exceptions);
            return 2;
        }
        char line[512];
        size_t cap = 0;
        while (fgets(line, sizeof line, e)) {
            if (line[0] == '#' || strlen(line) < 4)
                continue;
            line[strcspn(line, "\r\n")] = 0;
            if (ex.n == cap) {
                cap = cap ? 2 * cap : 1024;
                ex.fen = realloc(ex.fen, cap * sizeof *ex.fen);
                ex.xy = realloc(ex.xy, cap * sizeof *ex.xy);
                if (!ex.fen || !ex.xy) {
                    fclose(e);
                    return 2;
                }
            }
            snprintf(ex.fen[ex.n], sizeof ex.fen[0], "%.99s", line + 3);
            snprintf(ex.xy[ex.n], sizeof ex.xy[0], "%.2s", line);
            ex.n++;
        }
        fclose(e);
    }
    FILE *f = fopen(file, "r");
    void *mem = malloc(unwin_table_bytes(budget));
    if (!f || !mem) {
        perror(file);
        free(mem);
        return 2;
    }
    UnwinTable t;
    unwin_table_init(&t, mem, unwin_table_bytes(budget));
    static UnwinResult r;
    char fen[600];
    bool want[2], ask[2];
    unsigned long q = 0, searched = 0, undetermined = 0, wrong = 0;
    double secs = 0;
    while (next_question(f, exceptions ? &ex : NULL, want, ask, fen, sizeof fen)) {
        Position pos;
        if (pos_from_fen(&pos, fen, strlen(fen), false, NULL) != FEN_OK)
            continue;
        for (int c = 0; c < 2; c++) {
            if (!ask[c])
                continue;
            q++;
            bool can;
            if (!rules_can_mate(&pos, c) || unwin_blockade(&pos, c))
                can = false;
            else if (unwin_quick_winnable(&pos, c))
                can = true;
            else {
                searched++;
                double t0 = now_seconds();
                UnwinVerdict v = unwin_decide(&pos, c, &t, budget, &r);
                secs += now_seconds() - t0;
                if (v == UNWIN_UNDETERMINED) {
                    undetermined++;
                    continue;
                }
                can = v == UNWIN_WINNABLE;
            }
            if (can != want[c]) {
                printf("FAIL %s: %s: %s %s, the file says otherwise\n", file, fen, c == WHITE ? "white" : "black",
                       can ? "can mate" : "cannot mate");
                wrong++;
            }
        }
    }
    fclose(f);
    free(mem);
    free(ex.fen);
    free(ex.xy);
    printf("# %s at %llu nodes: %lu questions, %lu searched (%.2f s, %.0f us each), %lu undetermined, %lu wrong\n",
           file, budget, q, searched, secs, searched ? 1e6 * secs / (double)searched : 0, undetermined, wrong);
    printf("%d passed, %d failed\n", wrong ? 0 : 1, wrong ? 1 : 0);
    return wrong ? 1 : 0;
}

/* A line of the vector's format, "XY FEN" (then " # " and a hand-worked
 * case's reasoning): false for a comment or blank line; else its FEN,
 * without the comment, in fen, the castling and en passant fields added
 * where the vector leaves them out (always '-' there). */
static bool vector_line(char *line, char *fen, size_t size)
{
    if (line[0] == '#' || strlen(line) < 4)
        return false;
    line[strcspn(line, "\r\n")] = 0;
    char *comment = strstr(line, " #");
    if (comment)
        *comment = 0;
    int spaces = 0;
    for (const char *q = line + 3; *q; q++)
        spaces += *q == ' ';
    snprintf(fen, size, "%s%s", line + 3, spaces == 1 ? " - -" : "");
    return true;
}

/* -x FILE LIMIT: the blockade proof against brute force.  For every
 * question (a line "XY FEN" as the vector's) the blockade proof settles
 * as unwinnable, a breadth-first search over every position reachable
 * from it (both sides' every legal move; no pruning but the material
 * rules), positions stored whole (never by hash alone), up to LIMIT
 * positions: a mate given by the colour is an unsound proof; the whole
 * set exhausted confirms it; a set over LIMIT says nothing.  With
 * "strict" (hand-worked cases, tests/unwin/blockade.txt), a '-' in the
 * line is a question the proof must settle and brute force confirm, a
 * W or B one brute force must find a mate for (the proof must not hold
 * there), a '?' one is not asked but for soundness.  It shares
 * no code with unwin.c's searches or the proof; positions with castling
 * rights are left out (an entry stores none). */
typedef struct BruteEntry {
    uint8_t board[64];
    uint8_t side, ep, used;
} BruteEntry;

typedef struct Brute {
    BruteEntry *tab;
    uint32_t *queue;
    size_t cap, count, head, tail;
} Brute;

/* Adds p: false when the set is full. */
static bool brute_add(Brute *b, const Position *p)
{
    size_t i = (size_t)(p->key % b->cap);
    uint8_t ep = p->ep_legal ? p->ep : SQ_NONE;
    for (; b->tab[i].used; i = i + 1 == b->cap ? 0 : i + 1)
        if (b->tab[i].side == p->side && b->tab[i].ep == ep && !memcmp(b->tab[i].board, p->board, 64))
            return true;
    if (b->count * 4 >= b->cap * 3)
        return false;
    memcpy(b->tab[i].board, p->board, 64);
    b->tab[i].side = p->side;
    b->tab[i].ep = ep;
    b->tab[i].used = 1;
    b->count++;
    b->queue[b->tail++] = (uint32_t)i;
    return true;
}

/* 1 exhausted (no mate by color), 0 over the limit, 2 a mate. */
static int brute_force(Brute *b, const Position *root, int color)
{
    memset(b->tab, 0, b->cap * sizeof *b->tab);
    b->count = b->head = b->tail = 0;
    if (!brute_add(b, root))
        return 0;
    while (b->head < b->tail) {
        const BruteEntry *e = &b->tab[b->queue[b->head++]];
        Position p, c;
        pos_from_board(&p, e->board, e->side, e->ep);
        MoveList list;
        gen_legal(&p, &list);
        for (int i = 0; i < list.count; i++) {
            pos_make(&p, list.moves[i], &c);
            if (c.side != color && c.checkers && !gen_has_legal_move(&c))
                return 2;
            if (rules_can_mate(&c, color) && !brute_add(b, &c))
                return 0;
        }
    }
    return 1;
}

static int brute_run(const char *file, unsigned long long limit, bool strict)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        perror(file);
        return 2;
    }
    Brute b = {.cap = (size_t)(limit / 3 * 4 + 1)};
    b.tab = malloc(b.cap * sizeof *b.tab);
    b.queue = malloc(b.cap * sizeof *b.queue);
    if (!b.tab || !b.queue) {
        free(b.tab);
        free(b.queue);
        fclose(f);
        return 2;
    }
    char line[512];
    long lineno = 0;
    unsigned long proofs = 0, confirmed = 0, open = 0, unsound = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char fen[sizeof line + 8];
        if (!vector_line(line, fen, sizeof fen))
            continue;
        Position pos;
        if (pos_from_fen(&pos, fen, strlen(fen), false, NULL) != FEN_OK || pos.castling) {
            /* (generated positions are often illegal; a hand-worked case
             * must be asked) */
            if (strict) {
                unsound++;
                printf("FAIL %s:%ld: %s: not asked (FEN rejected, or castling rights)\n", file, lineno, fen);
            }
            continue;
        }
        for (int c = 0; c < 2; c++) {
            char want = line[c];
            bool proven = rules_can_mate(&pos, c) && unwin_blockade(&pos, c);
            if (strict && (want == '-' || want == (c == WHITE ? 'W' : 'B'))) {
                /* a hand-worked case: '-' the proof holds and brute force
                 * confirms it, W or B brute force finds the mate */
                int x = proven || want != '-' ? brute_force(&b, &pos, c) : -1;
                if (want == '-' ? x != 1 : x != 2) {
                    unsound++;
                    printf("FAIL %s:%ld: %s for %s: %s\n", file, lineno, fen, c == WHITE ? "White" : "Black",
                           want != '-' ? (x ? "brute force finds no mate" : "too large for brute force")
                           : !proven   ? "the blockade proof does not hold"
                           : x == 2    ? "UNSOUND: brute force finds a mate"
                                       : "too large for brute force");
                }
                proofs += proven;
                confirmed += proven && x == 1;
                continue;
            }
            if (!proven)
                continue;
            proofs++;
            int x = brute_force(&b, &pos, c);
            confirmed += x == 1;
            open += x == 0;
            if (x == 2) {
                unsound++;
                printf("FAIL %s:%ld: UNSOUND: the blockade proof says %s cannot mate, brute force finds a mate: %s\n",
                       file, lineno, c == WHITE ? "White" : "Black", fen);
            }
        }
    }
    fclose(f);
    free(b.tab);
    free(b.queue);
    printf("%s unwin brute %s: %lu blockade proofs, %lu confirmed by brute force (%llu positions at most), %lu too "
           "large, %lu unsound\n",
           unsound ? "FAIL" : "ok", file, proofs, confirmed, limit, open, unsound);
    printf("%d passed, %d failed\n", unsound ? 0 : 1, unsound ? 1 : 0);
    return unsound ? 1 : 0;
}

int main(int argc, char **argv)
{
    if ((argc == 4 || argc == 5) && strcmp(argv[1], "-p") == 0) {
        chess_init();
        return pipeline(argv[2], strtoull(argv[3], NULL, 10), argc == 5 ? argv[4] : NULL);
    }
    if ((argc == 3 || argc == 4) && strcmp(argv[1], "-q") == 0) {
        chess_init();
        return quick_run(argv[2], argc == 4 ? argv[3] : NULL);
    }
    if (argc == 4 && strcmp(argv[1], "-c") == 0) {
        chess_init();
        return classify(argv[2], strtoull(argv[3], NULL, 10));
    }
    if ((argc == 4 || (argc == 5 && strcmp(argv[4], "strict") == 0)) && strcmp(argv[1], "-x") == 0) {
        chess_init();
        return brute_run(argv[2], strtoull(argv[3], NULL, 10), argc == 5);
    }
    if (argc == 4 && strcmp(argv[1], "-u") == 0) {
        chess_init();
        return budget_run(argv[2], strtoull(argv[3], NULL, 10));
    }
    if (argc >= 3 && strcmp(argv[1], "-b") == 0) {
        chess_init();
        return bench(argv[2], argc > 3 ? strtoull(argv[3], NULL, 10) : 0);
    }
    if (argc < 2 || argc > 5) {
        usage();
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    long every = argc > 2 ? strtol(argv[2], NULL, 10) : 1;
    unsigned long long budget = argc > 3 ? strtoull(argv[3], NULL, 10) : UNWIN_BUDGET_DEFAULT;
    double minpct = argc > 4 ? strtod(argv[4], NULL) : 99.0;
    if (every < 1 || budget < 1 || minpct < 0 || minpct > 100) {
        usage();
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    chess_init();
    /* UNWIN_TABLE_MB: another table size (the program's is the default) */
    size_t bytes = unwin_table_bytes(budget);
    const char *mb = getenv("UNWIN_TABLE_MB");
    if (mb && strtoul(mb, NULL, 10) > 0)
        bytes = (size_t)strtoul(mb, NULL, 10) << 20;
    void *mem = malloc(bytes);
    if (!mem) {
        fputs("out of memory\n", stderr);
        return 2;
    }
    UnwinTable t;
    unwin_table_init(&t, mem, bytes);
    char line[512];
    long n = 0, lineno = 0;
    unsigned long questions = 0, decided = 0, unsound = 0, bad_line = 0, wrong_win = 0;
    unsigned long by[5] = {0}, undetermined[2] = {0};
    unsigned long long nodes = 0;
    double worst = 0, t0 = now_seconds();
    static UnwinResult r;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        if (line[0] == '#' || strlen(line) < 4)
            continue;
        if (n++ % every)
            continue;
        char fen[sizeof line + 8];
        vector_line(line, fen, sizeof fen);
        bool want[2] = {line[0] == 'W', line[1] == 'B'};
        Position pos;
        if (pos_from_fen(&pos, fen, strlen(fen), false, NULL) != FEN_OK) {
            printf("FAIL %s:%ld: FEN rejected: %s\n", argv[1], lineno, fen);
            bad_line++;
            continue;
        }
        for (int c = 0; c < 2; c++) {
            /* The filter game.c runs first must pass every position the
             * proof settles (unwin.h: a necessary condition). */
            if (pos.by_type[PAWN] && unwin_blockade(&pos, c) && !unwin_may_be_blocked(&pos)) {
                printf("FAIL %s:%ld: %s: the blockade proof holds but unwin_may_be_blocked says no\n", argv[1],
                       lineno, fen);
                bad_line++;
            }
            double q0 = now_seconds();
            UnwinVerdict v = unwin_decide(&pos, c, &t, budget, &r);
            double dt = now_seconds() - q0;
            if (dt > worst)
                worst = dt;
            questions++;
            nodes += r.nodes;
            const char *who = c == WHITE ? "white" : "black";
            if (v == UNWIN_UNDETERMINED) {
                undetermined[want[c]]++;
                printf("# undetermined %s:%ld %s (%s winnable: %s)\n", argv[1], lineno, fen, who,
                       want[c] ? "yes" : "no");
                continue;
            }
            decided++;
            by[r.reason]++;
            if (v == UNWIN_UNWINNABLE && want[c]) {
                printf("FAIL %s:%ld: UNSOUND: %s unwinnable for %s (reason %d), the vector says winnable\n", argv[1],
                       lineno, fen, who, (int)r.reason);
                unsound++;
            }
            if (v == UNWIN_WINNABLE) {
                if (!unwin_line_mates(&pos, c, r.line, r.line_len)) {
                    printf("FAIL %s:%ld: %s: the helpmate for %s does not replay to a mate\n", argv[1], lineno, fen,
                           who);
                    bad_line++;
                } else if (!want[c]) {
                    printf("FAIL %s:%ld: %s: a helpmate for %s replays, but the vector says unwinnable\n", argv[1],
                           lineno, fen, who);
                    wrong_win++;
                }
            }
        }
    }
    fclose(f);
    free(mem);
    double secs = now_seconds() - t0;
    double pct = questions ? 100.0 * (double)decided / (double)questions : 0;
    printf("# %lu questions, %lu decided (%.2f%%): %lu helpmates, %lu material, %lu blockade, %lu exhaustive; "
           "undetermined %lu winnable + %lu unwinnable\n",
           questions, decided, pct, by[UNWIN_BY_HELPMATE], by[UNWIN_BY_MATERIAL], by[UNWIN_BY_BLOCKADE],
           by[UNWIN_BY_EXHAUSTION], undetermined[1], undetermined[0]);
    printf("# %.2f s, %.0f questions/s, %.0f us on average, %.1f ms at most, %llu nodes, budget %llu\n", secs,
           secs > 0 ? (double)questions / secs : 0, questions ? 1e6 * secs / (double)questions : 0, 1e3 * worst,
           nodes, budget);
    bool ok = !unsound && !bad_line && !wrong_win && pct >= minpct;
    printf("%s unwin %s: %lu unsound, %lu bad helpmates, %lu winnable against the file, %.2f%% decided (at least "
           "%.2f%% wanted)\n",
           ok ? "ok" : "FAIL", argv[1], unsound, bad_line, wrong_win, pct, minpct);
    printf("%d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
    return ok ? 0 : 1;
}
