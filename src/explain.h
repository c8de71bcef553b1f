/* explain.h - the English of diagnostics: a move's fault and a position's pieces in words. */
#ifndef PGNCHECK_EXPLAIN_H
#define PGNCHECK_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "chess.h"
#include "diag.h"
#include "san.h"

/* "knight" for KNIGHT ("piece" for anything not a piece type). */
const char *explain_piece_name(int pt);
/* "White" or "Black". */
const char *explain_color(int color);
/* "c3" ("??" off the board). */
void explain_square(int sq, char out[3]);
/* "the knight on c3", or the bare square when it is empty. */
void explain_piece_on(const Position *pos, int sq, char *buf, size_t cap);

/* Why the token `text` (san_parse's result r in pos, status not SAN_OK;
 * truncated: the reader cut the token) is not a move that can be played:
 * the message after the move's label (": illegal: ...", " is
 * ambiguous: ..."), with the law it breaks, into msg.  Returns the
 * diagnostic's code. */
DiagCode explain_bad_move(const Position *pos, const SanResult *r, const char *text, bool truncated,
                          bool in_variation, char *msg, size_t cap);

/* The message after the label for a move (SAN_NOTE_OVERDISAMBIGUATED in
 * r) that names more of its origin than needed: the SAN, and when a
 * piece of the kind that seems to compete is pinned, that one. */
void explain_overdisambiguated(const Position *pos, const SanResult *r, char *msg, size_t cap);

#endif
