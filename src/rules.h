/* rules.h - a position and its key history: endings, repetition, 50/75 moves, claims (rules.c). */
#ifndef PGNCHECK_RULES_H
#define PGNCHECK_RULES_H

#include "chess.h"

#include <stddef.h>
#include <stdint.h>

bool rules_is_checkmate(const Position *pos);
bool rules_is_stalemate(const Position *pos);
/* R29 / FIDE 6.9: can this colour checkmate by any series of legal moves
 * (material helpmate rule: the opponent may cooperate). */
bool rules_can_mate(const Position *pos, int color);
/* R22: dead position by material (neither side can ever mate). */
bool rules_insufficient_material(const Position *pos);

/* A line's ending (R20-R24), 0 if none; in game.h's Reason order, one up
 * (game.c keeps Reason + 1 and asserts the two agree). */
enum {
    RULES_END_NONE = 0,
    RULES_END_CHECKMATE,    /* R20, FIDE 5.1.1 */
    RULES_END_STALEMATE,    /* R21, FIDE 5.2.1 */
    RULES_END_DEAD,         /* R22, FIDE 5.2.2 */
    RULES_END_FIVEFOLD,     /* R23, FIDE 9.6.1 (Laws of 2014 on) */
    RULES_END_SEVENTY_FIVE, /* R24, FIDE 9.6.2 (Laws of 2014 on) */
};

/* The endings the board alone decides (R20-R22): RULES_END_* or 0;
 * any: the side to move has a legal move. */
int rules_board_ending(const Position *p, bool any);

/* The halfmove clock at which a draw may be claimed (R27, FIDE 9.3: 50
 * moves by each side) and at which the 2014 Laws end the game (R24). */
#define RULES_FIFTY_PLIES 100
#define RULES_SEVENTY_FIVE_PLIES 150

/* How often the position after ply `ply` has stood, counting it: keys is
 * the line's key history (keys[0] the start, keys[i] after ply i; a key
 * holds the side to move, the castling rights and a legal en passant
 * capture, so equal keys are the same position in the sense of FIDE 9.2),
 * halfmove the clock after the ply (no position before the last
 * irreversible move can repeat).  Two plies back is never the same
 * position (the second move cannot undo the first), so the look starts
 * four back.  Inline: the replay asks on most plies. */
static inline int rules_repetitions(const uint64_t *keys, uint32_t ply, uint32_t halfmove)
{
    uint64_t key = keys[ply];
    int n = 1;
    uint32_t lim = halfmove < ply ? halfmove : ply;
    for (uint32_t back = 4; back <= lim; back += 2)
        if (keys[ply - back] == key)
            n++;
    return n;
}

/* rules_repetitions for a long stretch without an irreversible move: the
 * look-back is as long as the clock, so past 100 plies the counts are kept
 * in a table that each ply adds one key to (else a quiet game of n plies,
 * which the older laws let go on, would cost n * n / 4 comparisons).
 * Open addressing, each used slot the ply + 1 of a key's first occurrence
 * and its count; base: the first ply counted (UINT32_MAX: empty), upto:
 * the last.  Zeroed is empty too once reset (rules_rep_reset). */
typedef struct RulesRepTable {
    uint32_t *slot, *n;
    size_t cap, used;
    uint32_t base, upto;
} RulesRepTable;

/* The count of rules_repetitions for ply, by the table: the plies since
 * the last look are added.  Returns 0 when the table cannot grow (the
 * caller then looks back). */
int rules_rep_count(RulesRepTable *t, const uint64_t *keys, uint32_t ply, uint32_t halfmove);
/* The table holds no history (another line's or game's keys come next). */
static inline void rules_rep_reset(RulesRepTable *t) { t->base = UINT32_MAX; }
void rules_rep_free(RulesRepTable *t);

/* What proves a draw claimable at the end of a line (R27): the final
 * position's third occurrence (R26), else the 50-move clock. */
enum { RULES_CLAIM_NONE = 0, RULES_CLAIM_THREEFOLD, RULES_CLAIM_FIFTY };
int rules_draw_claim(const Position *fin, const uint64_t *keys, uint32_t ply);

#endif
