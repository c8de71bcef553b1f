/* unwin_blockade.h - the static proof that a colour can never mate
 * (unwin_blockade.c): pawns locked for ever, no mating square. */
#ifndef PGNCHECK_UNWIN_BLOCKADE_H
#define PGNCHECK_UNWIN_BLOCKADE_H

#include <stdbool.h>

#include "chess.h"

/* The static proof alone (cheap, no table): true when no pawn can ever
 * move, capture or be captured beyond the paths it has, and no square the
 * defending king can reach allows a mate by `color`. */
bool unwin_blockade(const Position *pos, int color);

/* A cheap filter: false means unwin_blockade is false for both colours.
 * True when every pawn has a man ahead on its file (where its path ends
 * before the last rank), no pawn attacks an enemy pawn or piece from the
 * empty squares in front of it, no en passant capture is open, and
 * every castling right is standard chess's; pawnless positions are left to the material rules
 * (false: the proof then has no walls, and W's king reaches every
 * square). */
bool unwin_may_be_blocked(const Position *pos);

/* The cheaper and narrower filter of the replay: no castling right or
 * en passant capture open, and every pawn stands right behind a pawn
 * (none can move now) and attacks no enemy pawn. */
bool unwin_pawns_locked(const Position *pos);

#endif
