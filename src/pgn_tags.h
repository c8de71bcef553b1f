/* pgn_tags.h - the PGN reader's tag section: tag pairs read fast and slow,
 * stored, checked for duplicates (knows no chess). */
#ifndef PGNCHECK_PGN_TAGS_H
#define PGNCHECK_PGN_TAGS_H

#include <stdbool.h>

#include "pgn_buf.h"

/* Reads a game's tag section, from its first tag: tag pairs, blanks,
 * '%' escape lines and ';' comments.  How the game ended in it
 * (PGN_END_AT: a new game's tags, or the end of input), or PGN_END_NONE
 * with pos at the first byte of its movetext. */
PgnEnd pgn_tags_read(PgnReader *r);

#endif
