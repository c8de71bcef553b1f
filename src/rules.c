/* rules.c - a position and its history: mate, stalemate, mating material, repetition, claims (R20-R29). */
#include "rules.h"

#include "mem.h"
#include "movegen.h"

#include <stdlib.h>
#include <string.h>

#define DARK_SQUARES 0xAA55AA55AA55AA55ull

bool rules_is_checkmate(const Position *pos)
{
    return pos->checkers && !gen_has_legal_move(pos);
}

bool rules_is_stalemate(const Position *pos)
{
    return !pos->checkers && !gen_has_legal_move(pos);
}

/* FIDE 6.9 / R29: could `color` checkmate by any series of legal moves,
 * the opponent cooperating (a helpmate)?  Decided here by material alone:
 * false only where the material proves that no mate can ever arise,
 * true otherwise ("not excluded by material"; unwin.c looks deeper).
 *
 * Every "false" below is a class of material closed under play: without
 * pawns nothing is promoted, so each side's pieces only ever get fewer
 * (a subset of the class is in the class).  A mate the position does not
 * show yet is made by a move of `color` (W below; L the opponent), and it
 * is a single check by the moved or uncovered piece (W's material below
 * never gives a double check: a king or knight move uncovers no line of a
 * knight; a bishop leaving a diagonal D of L's king moves along the
 * other diagonal through its square, parallel to the second diagonal of
 * the king, so it cannot check as well).  In each class W has no rook or
 * queen, so no piece of L beside its king is pinned along a rank or file.
 *
 * (1) A lone king gives no check: never a mate.
 * (2) K+N, L with king and queens only (none: K+N v K): no mate.  Let the
 *     knight check L's king k from n, and take coordinates (file, rank
 *     offsets from k, mirrored as needed) with n = k + (1, 2).  Then
 *     p = k + (0, 1), q = k + (1, 1) and r = k + (1, 0) are on the board
 *     and are flight squares of k.  p and q are adjacent to n: a queen on
 *     either takes the knight (legally: nothing else checks k), and W's
 *     king cannot stand on them (next to k), nor does the knight attack
 *     them (a knight never attacks a square next to it).  So both are
 *     empty and attacked by W's king, which must then stand on a square
 *     next to both: k, r (next to k), n (the knight's) or k + (0, 2).  From
 *     k + (0, 2) the king does not attack r, nor does the knight on n; so r
 *     holds a queen of L, which takes the knight along the file through
 *     the empty q.  No mate.  (The K+N v K+Q flag fall: a draw.)
 * (3) W's bishops all on one square colour and no other piece; L with
 *     king, rooks, queens and bishops of W's bishops' colour only: no mate.
 *     The checking bishop's diagonal reaches k through d, a diagonal
 *     neighbour of k (d the bishop's square or an empty square).  The two
 *     squares a, b next to both k and d (k + (1, 0), k + (0, 1) with
 *     d = k + (1, 1)) are on the board, of the other colour than W's
 *     bishops, so no bishop of W attacks or occupies them; W's king
 *     attacks at most one of them (the only squares next to both are k
 *     and d, both next to k); so one is a flight square that must hold a
 *     piece of L: not a bishop (wrong colour), so a rook or queen, which
 *     steps onto d (taking the bishop or blocking) legally.  No mate.
 * A knight with a bishop, two knights, bishops on both colours, and K+N
 * or K+B against other material can mate (e.g. Kh8 Bh7 v Kf8 Nf7; Kh8
 * Rg8 v Kh6 Nf7; Kh8 Nh7 v Kf7 Bg7), so the table says true for them. */
bool rules_can_mate(const Position *pos, int color)
{
    Bitboard us = pos->by_color[color], them = pos->by_color[color ^ 1];
    if (us & (pos->by_type[PAWN] | pos->by_type[ROOK] | pos->by_type[QUEEN]))
        return true;
    Bitboard knights = us & pos->by_type[KNIGHT], bishops = us & pos->by_type[BISHOP];
    if (knights && bishops)
        return true;
    if (bb_count(knights) >= 2)
        return true;
    Bitboard their_pieces = them & ~pos->by_type[KING];
    if (knights) /* (2) */
        return (their_pieces & ~pos->by_type[QUEEN]) != 0;
    if (!bishops) /* (1) */
        return false;
    if ((bishops & DARK_SQUARES) && (bishops & ~DARK_SQUARES))
        return true;
    /* (3): blockers of the other colour's squares: a knight, a pawn or a
     * bishop of the other colour. */
    Bitboard other_colour = (bishops & DARK_SQUARES) ? ~DARK_SQUARES : DARK_SQUARES;
    Bitboard blockers = their_pieces & (pos->by_type[KNIGHT] | pos->by_type[PAWN] |
                                        (pos->by_type[BISHOP] & other_colour));
    return blockers != 0;
}

/* R22: dead by material when neither side could ever mate. */
bool rules_insufficient_material(const Position *pos)
{
    if (pos->by_type[PAWN] | pos->by_type[ROOK] | pos->by_type[QUEEN])
        return false;
    return !rules_can_mate(pos, WHITE) && !rules_can_mate(pos, BLACK);
}

int rules_board_ending(const Position *p, bool any)
{
    if (!any)
        return p->checkers ? RULES_END_CHECKMATE : RULES_END_STALEMATE;
    return rules_insufficient_material(p) ? RULES_END_DEAD : RULES_END_NONE;
}

/* The table at twice its size (512 slots at first), every key placed
 * again; false when out of memory (the table is then unchanged). */
static bool rep_grow(RulesRepTable *t, const uint64_t *keys)
{
    size_t cap = t->cap ? 2 * t->cap : 512;
    uint32_t *slot = mem_calloc(cap, sizeof *slot), *cnt = mem_realloc(NULL, cap, sizeof *cnt);
    if (!slot || !cnt) {
        mem_free(slot);
        mem_free(cnt);
        return false;
    }
    for (size_t i = 0; i < t->cap; i++)
        if (t->slot[i]) {
            size_t j = (size_t)keys[t->slot[i] - 1] & (cap - 1);
            while (slot[j])
                j = (j + 1) & (cap - 1);
            slot[j] = t->slot[i];
            cnt[j] = t->n[i];
        }
    mem_free(t->slot);
    mem_free(t->n);
    t->slot = slot;
    t->n = cnt;
    t->cap = cap;
    return true;
}

int rules_rep_count(RulesRepTable *t, const uint64_t *keys, uint32_t ply, uint32_t halfmove)
{
    uint32_t base = ply - (halfmove < ply ? halfmove : ply);
    if (t->base != base || t->upto >= ply) {
        if (t->cap)
            memset(t->slot, 0, t->cap * sizeof *t->slot);
        t->used = 0;
        t->base = base;
        t->upto = base - 1; /* (base 0: wraps, and the loop starts at 0) */
    }
    int n = 0;
    for (uint32_t q = t->upto + 1; q <= ply; q++) {
        if (2 * (t->used + 1) > t->cap && !rep_grow(t, keys)) {
            t->base = UINT32_MAX;
            return 0;
        }
        size_t j = (size_t)keys[q] & (t->cap - 1);
        while (t->slot[j] && keys[t->slot[j] - 1] != keys[q])
            j = (j + 1) & (t->cap - 1);
        if (!t->slot[j]) {
            t->slot[j] = q + 1;
            t->n[j] = 0;
            t->used++;
        }
        n = (int)++t->n[j];
        t->upto = q;
    }
    return n;
}

void rules_rep_free(RulesRepTable *t)
{
    mem_free(t->slot);
    mem_free(t->n);
    memset(t, 0, sizeof *t);
    rules_rep_reset(t);
}

int rules_draw_claim(const Position *fin, const uint64_t *keys, uint32_t ply)
{
    if (ply > 0 && fin->halfmove >= 8 && rules_repetitions(keys, ply, fin->halfmove) >= 3)
        return RULES_CLAIM_THREEFOLD;
    return fin->halfmove >= RULES_FIFTY_PLIES ? RULES_CLAIM_FIFTY : RULES_CLAIM_NONE;
}
