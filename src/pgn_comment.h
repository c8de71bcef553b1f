/* pgn_comment.h - the PGN reader's comments and their commands ([%clk],
 * [%emt]) (knows no chess). */
#ifndef PGNCHECK_PGN_COMMENT_H
#define PGNCHECK_PGN_COMMENT_H

#include "pgn_buf.h"

/* Reads a comment, at buf[pos] == '{'.  Returns 0 when closed (pos after
 * '}'), 1 at end of input, 2 when a line starting a new game was reached
 * (pos at its '[').  The content is streamed, never kept; [%clk] goes to
 * the last move. */
int pgn_read_comment(PgnReader *r);

#endif
