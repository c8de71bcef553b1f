/* pgn_movetext.h - the PGN reader's movetext: moves, numbers, NAGs,
 * variations, comments and their clocks, fast and slow (knows no chess). */
#ifndef PGNCHECK_PGN_MOVETEXT_H
#define PGNCHECK_PGN_MOVETEXT_H

#include "pgn_internal.h"

/* Reads a game's movetext, from its first byte, to the game's end: the
 * fast paths over the usual text (the block walk, then a byte at a time
 * with the reader's state in locals), and the general steps for every
 * other token.  Both read any text to the same elements and diagnostics
 * (tests/test_reader.c reads each file whole and in small chunks, which
 * take the general steps, and compares). */
void pgn_movetext_read(PgnReader *r);

/* Reads a comment, at buf[pos] == '{'.  Returns 0 when closed (pos after
 * '}'), 1 at end of input, 2 when a line starting a new game was reached
 * (pos at its '[').  The content is streamed, never kept; [%clk] goes to
 * the last move. */
int pgn_read_comment(PgnReader *r);

#endif
