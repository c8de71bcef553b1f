/* dead.c - can a side still mate, and is a position dead (R22, R29): the material rules and unwin.c's proofs. */
#include "dead.h"

#include "laws.h"
#include "movegen.h"
#include "rules.h"

/* FIDE 6.9 / R29: can `color` checkmate from p by any series of legal
 * moves?  False only when proven: by the material rules (rules.c), or
 * for a position whose pawns may be locked (unwin_may_be_blocked: a man
 * ahead of every pawn on its file, no castling right) by the
 * blockade proof of unwin_blockade.c, a static test of a few microseconds.  The
 * searches of unwin_decide are not run here: they cost milliseconds on
 * a locked position that is winnable, and those are far more common in
 * real games than unwinnable ones.  *why: the proof when false. */
static bool can_mate(const Position *p, int color, UnwinReason *why)
{
    *why = UNWIN_BY_MATERIAL;
    if (!rules_can_mate(p, color))
        return false;
    *why = UNWIN_BY_BLOCKADE;
    return !(unwin_may_be_blocked(p) && unwin_blockade(p, color));
}

/* can_mate, and then the cheap filter (unwin_quick_winnable) and, where
 * it does not answer, the searches of unwin_decide (a helpmate; every
 * position that can follow), on the final position of a decisive result:
 * false only for a proof (UNWIN_UNWINNABLE); a helpmate, or the budget
 * spent (undetermined), leave the result standing.  By default only a
 * loss on time (on_time) is searched, UNWIN_ON_TIME_NODES (then, if
 * undetermined, UNWIN_LAST_NODES in a larger table): there the
 * answer is the verdict (FIDE 6.9); elsewhere it is a note, and the
 * final position is asked whether it is dead (dead_by_search).  With
 * --unwin-nodes every such question, that many nodes. */
bool dead_can_mate(Ctx *c, const Position *p, int color, bool on_time, UnwinReason *why)
{
    if (!can_mate(p, color, why))
        return false;
    uint64_t budget = !c->opt->unwin_auto ? c->opt->unwin_nodes : on_time ? UNWIN_ON_TIME_NODES : 0;
    if (!budget || unwin_quick_winnable(p, color))
        return true;
    UnwinTable *t = ctx_unwin_table(budget);
    if (!t) {
        c->rep->out_of_memory = true;
        return true;
    }
    UnwinVerdict v = unwin_decide_verdict(p, color, t, budget, why);
    if (v == UNWIN_UNDETERMINED && c->opt->unwin_auto) {
        /* (unwin.h: asked again, in a table of its own) */
        if (!(t = ctx_unwin_table(UNWIN_LAST_NODES))) {
            c->rep->out_of_memory = true;
            return true;
        }
        v = unwin_decide_verdict(p, color, t, UNWIN_LAST_NODES, why);
    }
    return v != UNWIN_UNWINNABLE;
}

/* Why a colour cannot mate, after can_mate said so: "" for the material
 * alone (the message says enough), else a short clause (a message has
 * PGN_MSG bytes): the blockade proof of unwin_blockade.c, the pawns locked for
 * ever and no square the king can reach where a mate could be given. */
const char *dead_why(UnwinReason why)
{
    switch (why) {
    case UNWIN_BY_BLOCKADE: return " (pawns locked for ever, no mating square)";
    case UNWIN_BY_EXHAUSTION: return " (no position that can follow is a mate)";
    default: return "";
    }
}

/* R22 (FIDE 5.2.2): dead beyond the material list, where the pawns may
 * be locked (unwin_may_be_blocked, a necessary condition) and the
 * blockade proof of unwin_blockade.c shows that neither colour can ever mate.  The general rule is in the Laws of
 * 1997 and after (5.2 b; laws.h, Laws): applied only where the game's
 * date shows them (its earliest day from 1997-07-01; an undated game is
 * judged by the older laws, whose list the material rules cover). */
/* The blockade proof for both colours, behind its necessary condition. */
static bool blocked_dead(const Position *p)
{
    return unwin_may_be_blocked(p) && unwin_blockade(p, WHITE) && unwin_blockade(p, BLACK);
}

bool dead_by_blockade(Ctx *c, const Position *p)
{
    if (!unwin_may_be_blocked(p))
        return false; /* (before the date: most positions end here) */
    (void)ctx_laws(c);
    return c->date_lo >= LAWS_1997_FROM && blocked_dead(p);
}

/* Neither colour can ever mate, by the searches: the cheap filter
 * (unwin_quick_alive) answers for most positions that one colour can
 * still mate; only the others are searched, the declared winner first
 * (else the side that has just moved), at each budget of `budgets` in
 * turn: a helpmate for either colour ends the question, a colour proven
 * unable to mate is not asked again, and a colour left undetermined is
 * asked at the next budget, in the table of that budget.  An answer still
 * undetermined at the last is no proof; with one budget the other colour
 * is not asked then. */
static bool dead_searched(Ctx *c, const Position *p, const uint64_t *budgets, int steps)
{
    PgnResult declared = c->rep->declared;
    int first = declared == PGN_RES_WHITE ? WHITE : declared == PGN_RES_BLACK ? BLACK : p->side ^ 1;
    if (unwin_quick_alive(p, first))
        return false;
    unsigned open = 3; /* (bit 1 << colour: not yet proven unable to mate) */
    for (int i = 0; i < steps; i++) {
        UnwinTable *t = ctx_unwin_table(budgets[i]);
        if (!t) {
            c->rep->out_of_memory = true;
            return false;
        }
        for (int k = 0; k < 2; k++) {
            int color = first ^ k;
            if (!(open >> color & 1))
                continue;
            UnwinReason why;
            UnwinVerdict v = unwin_decide_verdict(p, color, t, budgets[i], &why);
            if (v == UNWIN_WINNABLE || (v == UNWIN_UNDETERMINED && i == steps - 1))
                return false;
            if (v == UNWIN_UNWINNABLE)
                open &= ~(1u << color);
        }
        if (!open)
            return true;
    }
    return false;
}

/* A cheap necessary condition, before the filter, for the final
 * position of a game declared drawn: the dead positions our proofs and
 * searches settle have no pawn, or pawns that may be locked
 * (unwin_may_be_blocked), or forced play (unwin_quick_forced: a side
 * with few moves by its men's reach); and a legal move (else the
 * position is a mate or a stalemate, the board's own ending: rules.c).
 * Most agreed draws have none of these, and cost a few bit operations
 * instead of the filter and a search: of CHA's dead positions asked, 707
 * of 711 pass (the 4 others: a check with one legal reply, where queens
 * give both sides room by reach); of the questions of big.pgn's draws, 3,928 of
 * 64,653 (694 by forced play: tests/BENCH.md).  A check is no sign:
 * most draws by perpetual check end in one.  Only the reason of the draw
 * depends on it.  A stalemate is not asked, so a position dead before it
 * is not looked for; --unwin-nodes asks every position. */
static bool draw_may_be_dead(const Ctx *c, const Position *p)
{
    if (!c->opt->unwin_auto)
        return true; /* (--unwin-nodes: every position, as it says) */
    return (!p->by_type[PAWN] || unwin_may_be_blocked(p) || unwin_quick_forced(p)) && gen_has_legal_move(p);
}

/* The precheck of any other position asked whether it is dead by
 * default (the final position of a decisive result or of '*', where a
 * dead one makes the result wrong; a set-up start; the plies of the second
 * replay): draw_may_be_dead's, or a check with one or two legal
 * replies.  Each of the 4 dead positions of CHA's 711 that
 * draw_may_be_dead lets by is a check with one reply; with this one,
 * the 711 as decisive games are all found (tests/unwin/games.py).  Of
 * big.pgn's 51,500 decisive final positions asked, 7,200 pass (3,900
 * by a check); the others cost a few bit operations instead of the
 * filter (1,400 instructions each) and, a few, a search. */
static bool result_may_be_dead(const Ctx *c, const Position *p)
{
    if (draw_may_be_dead(c, p))
        return true;
    if (!p->checkers)
        return false;
    MoveList list;
    gen_legal(p, &list);
    return list.count >= 1 && list.count <= 2;
}

/* The budgets of a question whether a position is dead, and how many:
 * by default rising ones (unwin.h: UNWIN_DRAW_NODES), a colour left
 * undetermined at one asked again at the next; with --unwin-nodes that
 * many nodes.  (A decisive result's final position had one budget of
 * 2,000 nodes: 655 of CHA's 711 dead positions as decisive games were
 * found, 711 with these.) */
static const uint64_t dead_steps[] = {UNWIN_DRAW_NODES, 2000, 20000, UNWIN_LAST_NODES};
#define DEAD_STEPS ((int)(sizeof dead_steps / sizeof dead_steps[0]))

static int dead_budgets(const Ctx *c, const uint64_t **budgets)
{
    if (!c->opt->unwin_auto) {
        *budgets = &c->opt->unwin_nodes;
        return c->opt->unwin_nodes ? 1 : 0;
    }
    *budgets = dead_steps;
    return DEAD_STEPS;
}

/* R22 (FIDE 5.2.2) by the searches of unwin.c (dead_searched): neither
 * colour can ever mate.  Dated as dead_by_blockade.  By default the
 * budgets from UNWIN_DRAW_NODES up, where the precheck passes
 * (draw_may_be_dead for a declared draw, else result_may_be_dead), with
 * --unwin-nodes that many, for every position.  Asked of a
 * game's final position (needs_dead_replay), of a set-up start position,
 * and, in the second replay of a game whose final position is dead, of
 * every ply, so that the first dead one is found. */
bool dead_by_search(Ctx *c, const Position *p)
{
    const uint64_t *budgets;
    int steps = dead_budgets(c, &budgets);
    if (!steps)
        return false;
    (void)ctx_laws(c);
    if (c->date_lo < LAWS_1997_FROM)
        return false; /* (the older laws; a draw's final position: dead_final_draw) */
    if (c->rep->declared == PGN_RES_DRAW ? !draw_may_be_dead(c, p) : !result_may_be_dead(c, p))
        return false;
    return dead_searched(c, p, budgets, steps);
}

/* The final position of a game declared drawn, which no ply ended, in
 * a game whose date does not show the Laws of 1997 (the others were
 * asked already: needs_dead_replay): dead, by the blockade proof or the
 * searches?  Only the reason of the draw depends on it (judge.c): the
 * board shows why the result is right, and nothing is an error, so
 * the date does not matter here; moves after the position became dead
 * are not looked for (under the older laws play went on). */
bool dead_final_draw(Ctx *c, const Position *p)
{
    (void)ctx_laws(c);
    if (c->date_lo >= LAWS_1997_FROM || !draw_may_be_dead(c, p))
        return false;
    if (blocked_dead(p))
        return true;
    const uint64_t *budgets;
    int steps = dead_budgets(c, &budgets);
    return steps && dead_searched(c, p, budgets, steps);
}
