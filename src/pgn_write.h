/* pgn_write.h - a game's text written out as read (--select) or with its
 * result put right (--fix-results): a byte-exact copy but for the edits. */
#ifndef PGNCHECK_PGN_WRITE_H
#define PGNCHECK_PGN_WRITE_H

#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "game.h"
#include "pgn.h"

/* Writes the game's text to out, then one blank line (in the game's own
 * line-end style); the game's text ends with its last line that is not
 * blank.  With fix NULL the text is copied as read (--select).  With fix
 * (the game's report, --fix-results): where fix->fixed is not PGN_RES_NONE
 * the Result tag values and the termination marker are rewritten to it,
 * and a game without a marker that was read to its end and replayed gets
 * one (the proven result, else the Result tag's, else "*").  Fills
 * change[0..*nchange) with notes: wrong-result for a rewrite,
 * missing-termination for a marker written.  Returns 1 if the game was
 * changed, 0 if copied unchanged, -1 if the raw text is not available (game
 * larger than PGN_MAX_RAW or keep_raw off).  Write errors are left on out
 * for the caller (ferror). */
int pgn_write_game(FILE *out, const PgnGame *g, const GameReport *fix, Diag change[2], size_t *nchange);

#endif
