/* dead.h - can a side still mate, and is a position dead (R22, R29): the material rules and unwin.c's proofs. */
#ifndef PGNCHECK_DEAD_H
#define PGNCHECK_DEAD_H

#include <stdbool.h>

#include "chess.h"
#include "ctx.h"
#include "unwin.h"

/* Can color mate from p (FIDE 6.9): false only for a proof, whose kind
 * goes to *why; with --unwin-nodes, unwin.c's searches too. */
bool dead_can_mate(Ctx *c, const Position *p, int color, bool on_time, UnwinReason *why);
/* The clause a message adds for proof why ("" for the material alone). */
const char *dead_why(UnwinReason why);
/* R22 beyond the material: by the blockade proof, or (--unwin-nodes) by
 * the searches; only where the game's date shows the Laws of 1997 on. */
bool dead_by_blockade(Ctx *c, const Position *p);
bool dead_by_search(Ctx *c, const Position *p);
/* A declared draw's final position that no ply ended, whatever the date:
 * dead?  (The reason of the draw only.) */
bool dead_final_draw(Ctx *c, const Position *p);

#endif
