/* rules.h - the outcome of a position: mate, stalemate, material (rules.c). */
#ifndef PGNCHECK_RULES_H
#define PGNCHECK_RULES_H

#include "chess.h"

bool pos_is_checkmate(const Position *pos);
bool pos_is_stalemate(const Position *pos);
/* R29 / FIDE 6.9: can this colour checkmate by any series of legal moves
 * (material helpmate rule: the opponent may cooperate). */
bool pos_can_mate(const Position *pos, int color);
/* R22: dead position by material (neither side can ever mate). */
bool pos_insufficient_material(const Position *pos);

#endif
