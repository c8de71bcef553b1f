/* movegen.h - legal move generation and legality tests, perft (movegen.c). */
#ifndef PGNCHECK_MOVEGEN_H
#define PGNCHECK_MOVEGEN_H

#include "position.h"

void gen_legal(const Position *pos, MoveList *list);
bool gen_has_legal_move(const Position *pos);
bool gen_is_legal(const Position *pos, Move m);  /* m pseudo-legal by construction */
/* The castling of right idx (CASTLE_* index) for the side to move, which
 * has the right and is not in check: legal?  (gen_is_legal's own test,
 * for a caller that knows the right and the rook's square already.) */
bool gen_castle_ok(const Position *pos, int idx);
bool gen_move_is_legal(const Position *pos, Move m); /* any m: legal here? */
uint64_t perft(const Position *pos, int depth);
bool gen_gives_check(const Position *pos, Move m);

#endif
