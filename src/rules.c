/* rules.c - rules queries on one position: mate, stalemate, mating material (R20-R22, R29). */
#include "chess.h"

#define DARK_SQUARES 0xAA55AA55AA55AA55ull

bool pos_is_checkmate(const Position *pos)
{
    return pos->checkers && !pos_has_legal_move(pos);
}

bool pos_is_stalemate(const Position *pos)
{
    return !pos->checkers && !pos_has_legal_move(pos);
}

/* FIDE 6.9 / R29: could `color` checkmate by any series of legal moves,
 * the opponent cooperating (a helpmate)?  Decided by material:
 * - a pawn, rook or queen can always mate (a pawn promotes);
 * - a knight and a bishop, or two knights, can;
 * - one knight alone can when the opponent has anything to block with;
 * - bishops all on one square colour can only mate a king whose flight
 *   squares of the other colour are blocked, so the opponent needs a
 *   piece that can stand there: a knight, pawn, rook, queen or a bishop
 *   on the other colour. */
bool pos_can_mate(const Position *pos, int color)
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
    if (knights)
        return their_pieces != 0;
    if (!bishops)
        return false;
    if ((bishops & DARK_SQUARES) && (bishops & ~DARK_SQUARES))
        return true;
    Bitboard other_colour = (bishops & DARK_SQUARES) ? ~DARK_SQUARES : DARK_SQUARES;
    Bitboard blockers = their_pieces & (pos->by_type[KNIGHT] | pos->by_type[PAWN] | pos->by_type[ROOK] |
                                        pos->by_type[QUEEN] | (pos->by_type[BISHOP] & other_colour));
    return blockers != 0;
}

/* R22: dead by material when neither side could ever mate. */
bool pos_insufficient_material(const Position *pos)
{
    if (pos->by_type[PAWN] | pos->by_type[ROOK] | pos->by_type[QUEEN])
        return false;
    return !pos_can_mate(pos, WHITE) && !pos_can_mate(pos, BLACK);
}
