/* fuzz_unwin.c - libFuzzer target: arbitrary bytes as a FEN, then "can each
 * colour still mate?" (unwin.c, unwin_blockade.c, unwin_quick.c).
 *
 * For an accepted, legal position and each colour, at a small budget:
 * - the search spends no more than its budget and one position's moves;
 * - a helpmate it claims replays to a mate by that colour;
 * - the same question asked again gives the same verdict (remembered
 *   answers change nothing);
 * - a proof of unwinnability (material, blockade, exhaustive search) is
 *   held against an independent oracle: every line of up to ORACLE_PLIES
 *   plies is tried, and none may end in a mate by that colour.  The
 *   blockade proof never claims where its cheap filter says it cannot,
 *   and the cheap filter that a colour can mate never passes a position
 *   proven unwinnable. */
#include "movegen.h"
#include "unwin.h"
#include "fuzz_common.h"

#define BUDGET 2000u
#define ORACLE_PLIES 4
#define ORACLE_NODES 200000ul

/* A mate by c within `plies` plies of p, by brute force (false also
 * when *nodes runs out: no finding then). */
static bool mate_within(const Position *p, int c, int plies, unsigned long *nodes)
{
    if (*nodes == 0)
        return false;
    (*nodes)--;
    MoveList l;
    gen_legal(p, &l);
    if (l.count == 0)
        return p->checkers && p->side != c;
    if (plies == 0)
        return false;
    for (int i = 0; i < l.count; i++) {
        Position q;
        pos_make(p, l.moves[i], &q);
        if (mate_within(&q, c, plies - 1, nodes))
            return true;
    }
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool init;
    static UnwinTable t;
    static void *mem;
    if (!init) {
        chess_init();
        mem = malloc(unwin_table_bytes(BUDGET));
        if (!mem)
            abort();
        unwin_table_init(&t, mem, unwin_table_bytes(BUDGET));
        init = true;
    }
    if (size > 128)
        return 0;
    Position pos;
    FenInfo info = {0};
    if (pos_from_fen(&pos, (const char *)data, size, false, &info) != FEN_OK)
        return 0;
    /* (the searches ask legal positions: the side not to move not in check) */
    if (pos_square_attacked(&pos, pos.king_sq[pos.side ^ 1], pos.side, pos.by_type[0]))
        return 0;
    bool may_block = unwin_may_be_blocked(&pos);
    for (int c = 0; c < 2; c++) {
        static UnwinResult r;
        UnwinVerdict v = unwin_decide(&pos, c, &t, BUDGET, &r);
        FZ_CHECK(v == UNWIN_WINNABLE || v == UNWIN_UNWINNABLE || v == UNWIN_UNDETERMINED, "verdict %d", (int)v);
        FZ_CHECK(r.nodes <= BUDGET + MAX_MOVES, "%llu nodes at a budget of %u", (unsigned long long)r.nodes,
                 BUDGET);
        if (v == UNWIN_WINNABLE)
            FZ_CHECK(unwin_line_mates(&pos, c, r.line, r.line_len), "colour %d: a helpmate of %d plies that is none",
                     c, r.line_len);
        UnwinReason why;
        UnwinVerdict again = unwin_decide_verdict(&pos, c, &t, BUDGET, &why);
        UnwinVerdict third = unwin_decide_verdict(&pos, c, &t, BUDGET, &why);
        FZ_CHECK(again == v && third == v, "colour %d: %d, then %d and %d", c, (int)v, (int)again, (int)third);
        bool blocked = unwin_blockade(&pos, c);
        FZ_CHECK(!blocked || may_block, "colour %d: the blockade proof holds where its filter says it cannot", c);
        FZ_CHECK(!blocked || v == UNWIN_UNWINNABLE, "colour %d: a blockade proof, and the search says %d", c, (int)v);
        if (v == UNWIN_UNWINNABLE) {
            FZ_CHECK(!unwin_quick_winnable(&pos, c), "colour %d: the cheap filter passes a proven position", c);
            unsigned long nodes = ORACLE_NODES;
            FZ_CHECK(!mate_within(&pos, c, ORACLE_PLIES, &nodes),
                     "colour %d: proven unwinnable (reason %d), but it mates within %d plies", c, (int)r.reason,
                     ORACLE_PLIES);
        }
    }
    return 0;
}
