/* marker.h - the termination marker --fix-results writes where a game has none, or one written wrongly. */
#ifndef PGNCHECK_MARKER_H
#define PGNCHECK_MARKER_H

#include "game_types.h"
#include "pgn.h"

/* What --fix-results writes where the game has no termination marker (the
 * standard requires one): the result the board proves, else the Result
 * tag's, else "*" (unknown).  Only in a game read to its end and replayed:
 * after a syntax error, in an open variation or after an illegal move the
 * marker's place is not known, and nothing is written.  A marker written
 * wrongly ("1/2") is replaced: by the proven result, else by the one it
 * names where the Result tag is missing, not a result, or the same (the
 * record's own word, in the standard's form), else by the Result tag's for
 * a forfeit mark ("+--", which names none); otherwise it is left.
 * Sets rep's marker fields from its verdict (fixed, outcome, reason,
 * result_tag): the last stage of game_check. */
void marker_fix(const PgnGame *g, GameReport *rep);

#endif
