/* unwin.h - can a colour ever checkmate?  Per position, with evidence (FIDE 5.2.2, 6.9; R22, R29, R43). */
#ifndef PGNCHECK_UNWIN_H
#define PGNCHECK_UNWIN_H

#include "chess.h"
#include "unwin_blockade.h"

typedef enum UnwinVerdict {
    UNWIN_WINNABLE = 0,   /* a helpmate is given (UnwinResult.line) */
    UNWIN_UNWINNABLE,     /* proven: no series of legal moves ends in a mate by the colour */
    UNWIN_UNDETERMINED    /* the node budget ran out first: never to be taken as unwinnable */
} UnwinVerdict;

typedef enum UnwinReason {
    UNWIN_BY_HELPMATE = 0, /* winnable: the line */
    UNWIN_BY_MATERIAL,     /* the material alone (rules_can_mate's proven rules) */
    UNWIN_BY_BLOCKADE,     /* pawns that never move or capture again; no square allows a mating net */
    UNWIN_BY_EXHAUSTION,   /* every position reachable was visited (or proven as above): none is a mate */
    UNWIN_BY_BUDGET        /* undetermined */
} UnwinReason;

#define UNWIN_MAX_LINE 256

typedef struct UnwinResult {
    UnwinVerdict verdict;
    UnwinReason reason;
    int line_len;               /* plies of the helpmate, from the position */
    Move line[UNWIN_MAX_LINE];
    uint64_t nodes;             /* positions searched */
} UnwinResult;

/* The search's memory: a fixed table in memory the caller owns, reused
 * from one question to the next without clearing (a generation stamp
 * tells this question's entries).  unwin_table_init takes `bytes` of
 * `mem` (suitably aligned, e.g. from malloc); at least UNWIN_TABLE_MIN. */
typedef struct UnwinTable {
    void *tt;                   /* helpmate search: failed depths per position */
    size_t tt_mask;
    void *seen;                 /* exhaustive search: positions visited, stored whole */
    size_t seen_count;          /* its entries */
    void *queue;                /* exhaustive search: its queue */
    uint32_t gen, seen_gen;     /* generation stamps of the two */
    void *answers;              /* unwin_decide_verdict: the last answers */
    size_t answers_mask;
} UnwinTable;

#define UNWIN_TABLE_MIN ((size_t)1 << 16)
#define UNWIN_TABLE_DEFAULT ((size_t)6 << 20)
/* The table a question of `budget` nodes is given (ctx.c): room for every
 * position its exhaustive search can visit, a power of two from
 * UNWIN_TABLE_MIN, at most UNWIN_TABLE_DEFAULT.  A function of the budget
 * alone, so that an answer does not depend on the questions asked before
 * it on the same thread (the output of -j n is that of -j 1). */
size_t unwin_table_bytes(uint64_t budget);
/* Default node budget of one question. */
#define UNWIN_BUDGET_DEFAULT 200000u
/* The budgets of a run without --unwin-nodes (game.c): whether the winner
 * of a game lost on time can still mate (the verdict, FIDE 6.9; few
 * games), and whether the final position of a decisive or unfinished
 * game is dead (FIDE 5.2.2; most games, nearly all settled by the
 * filter).  tests/BENCH.md has what they cost. */
#define UNWIN_ON_TIME_NODES 20000u
/* A question left undetermined at the budgets above is asked again with
 * this many nodes, in a table of its own (6 MB, allocated when first
 * needed): a win on time (dead.c: dead_can_mate) and the last step of a
 * draw's question (UNWIN_DRAW_NODES).  The real positions that need it
 * are rare (none of big.pgn's, none of the lichess sample's 30,000 wins
 * on time), and a first budget this large would spend many more nodes on
 * the many whose helpmate comes late in the search's schedule (+3.7% of
 * big.pgn's check at 200,000); the test vector's need the room as much
 * as the nodes (as games, wins on time judged right: 98.5% with a second
 * question of 200,000 nodes in the first question's 2 MB, 99.5% with
 * this one). */
#define UNWIN_LAST_NODES 1000000u
/* The first budget of a question whether a position is dead (dead.c:
 * dead_by_search, dead_final_draw): each colour is asked at
 * UNWIN_DRAW_NODES, and a colour left undetermined again at 2,000,
 * 20,000 and UNWIN_LAST_NODES, each in the table of its budget.  Real
 * games are answered at the first two (big.pgn: 3 positions reach the
 * third); CHA's dead positions need all (found as drawn games: 585 of
 * 711 at 150 nodes alone, 707 with the steps; as decisive games, 655 at
 * 2,000 nodes alone, 711 with the steps). */
#define UNWIN_DRAW_NODES 250u

void unwin_table_init(UnwinTable *t, void *mem, size_t bytes);

/* Can `color` checkmate from pos by any series of legal moves (the other
 * side cooperating)?  Spends at most about `budget` nodes.  Requires a
 * legal position (the side not to move not in check). */
UnwinVerdict unwin_decide(const Position *pos, int color, UnwinTable *t, uint64_t budget, UnwinResult *r);

/* unwin_decide's verdict alone (*why: its reason), remembered: a
 * question asked again of the same position, colour and budget (the
 * same ending in a game's copies, or a game's plies asked again) is
 * answered from the table without a search.  The answer is the one the
 * search gives, so the output does not depend on what was asked before. */
UnwinVerdict unwin_decide_verdict(const Position *pos, int color, UnwinTable *t, uint64_t budget, UnwinReason *why);

/* The cheap filter before the search (unwin_quick.c, a fraction of a
 * microsecond): true when `color` plainly can still mate -- mating
 * material, no forced play, no wall between the kings, a force free to
 * move.  False says nothing.  Held against every question of CHA's test
 * vector and of the lichess sample (tests/test_unwin -q): it passes none
 * that is unwinnable. */
bool unwin_quick_winnable(const Position *pos, int color);
/* The same for either colour (`first` tried first): true when one of
 * them plainly can still mate, so the position is not dead. */
bool unwin_quick_alive(const Position *pos, int first);
/* Forced play may decide the position: a side has fewer than
 * QUICK_MOBILITY moves by its men's reach (unwin_quick.c, 1 at its head).
 * A cheap sign, for the questions asked only of positions that may be
 * dead (dead.c: draw_may_be_dead). */
bool unwin_quick_forced(const Position *pos);
/* Frees the thread's memory of the filter's lookahead answers (game.c,
 * at a thread's end, beside its search tables). */
void unwin_quick_thread_free(void);

/* Replays line[0..n) from pos: every move legal and the last one a
 * checkmate given by `color`.  (Tests and callers verify every helpmate.) */
bool unwin_line_mates(const Position *pos, int color, const Move *line, int n);

#endif
