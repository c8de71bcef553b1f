/* pgn_movetext.h - the PGN reader's movetext: moves, numbers, NAGs,
 * variations, fast and slow (knows no chess; comments: pgn_comment.h). */
#ifndef PGNCHECK_PGN_MOVETEXT_H
#define PGNCHECK_PGN_MOVETEXT_H

#include "pgn_buf.h"

/* Reads a game's movetext, from its first byte, to the game's end, and
 * says how it ended (PgnEnd, never PGN_END_NONE): the
 * fast paths over the usual text (the block walk, then a byte at a time
 * with the reader's state in locals), and the general steps for every
 * other token.  Both read any text to the same elements and diagnostics
 * (tests/test_reader.c reads each file whole and in small chunks, which
 * take the general steps, and compares). */
PgnEnd pgn_movetext_read(PgnReader *r);

#endif
