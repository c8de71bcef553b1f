/* judge.h - the verdict on a replayed game: its result against the board, the clocks and the laws. */
#ifndef PGNCHECK_JUDGE_H
#define PGNCHECK_JUDGE_H

#include <stdbool.h>

#include "ctx.h"
#include "pgn.h"

/* R45: line L reached a fivefold repetition or 75-move position that ends
 * the game only under the Laws of 2014, which its date leaves open:
 * warned where it matters (play went on, or the main line's result is
 * not a draw). */
void judge_laws_2014(Ctx *c, const Line *L, bool main_line, PgnResult declared);
/* The clocks of the replayed main line (clock.c). */
void judge_clocks(Ctx *c, const Verdict *v);
/* The result of a main line replayed whole against its end (R20-R29,
 * R40-R44). */
void judge_adjudicate(Ctx *c, const Verdict *v);
/* Moves after the main line's ending not yet said (R41). */
void judge_after_end(Ctx *c);

#endif
