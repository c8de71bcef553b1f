/* pgn_tags.h - the PGN reader's tag section: tag pairs read fast and slow,
 * stored, checked for duplicates (knows no chess). */
#ifndef PGNCHECK_PGN_TAGS_H
#define PGNCHECK_PGN_TAGS_H

#include <stdbool.h>

#include "pgn_internal.h"

/* Reads a game's tag section, from its first tag: tag pairs, blanks,
 * '%' escape lines and ';' comments.  True when the game ended in it (a
 * new game's tags, or the end of input); false with pos at the first
 * byte of its movetext. */
bool pgn_tags_read(PgnReader *r);

#endif
