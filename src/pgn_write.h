/* pgn_write.h - a game's text written out as read (--select) or with its
 * result put right (--fix-results): a byte-exact copy but for the edits. */
#ifndef PGNCHECK_PGN_WRITE_H
#define PGNCHECK_PGN_WRITE_H

#include <stdbool.h>
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

/* The result --fix-results writes to game g's Result tags (fix: its
 * report; add: the marker it writes where the game has none, else
 * PGN_RES_NONE): the one the report puts right (fix->fixed), else, where
 * a Result tag holds none of the four results ("1/2"), the marker the
 * game ends with, so that tag and marker agree; PGN_RES_NONE: the tags
 * are left as they are.  pgn_export.c writes the same. */
PgnResult pgn_write_tag_result(const PgnGame *g, const GameReport *fix, PgnResult add);


/* ---- games copied one after another (--select, --fix-results, --export):
 * a game's copy ends with its termination marker, and where it has none the
 * game read again runs on until a line that starts a tag section (PGN has
 * nothing else that ends a game); so the next copy must begin with one. */
typedef enum PgnCopyEnd {
    PGN_COPY_CLOSED,            /* by its termination marker (or one written) */
    PGN_COPY_OPEN,              /* without one: a line that starts with '[' ends it */
    PGN_COPY_SKIPPING,          /* in a comment not closed, or skipping text after a
                                 * syntax error: a tag pair's line ends it */
    PGN_COPY_BARE,              /* without one, begun with a malformed tag line, with
                                 * no tag pair or move read: only the input's end ends it */
} PgnCopyEnd;

/* How the copy of game g (checked into rep; fix: --fix-results' report,
 * else NULL) ends.  An export (pgn_export.c) ends closed. */
PgnCopyEnd pgn_write_end(const PgnGame *g, const GameReport *rep, const GameReport *fix);

/* Does the copy of game g, written right after a copy that ends as prev,
 * re-read as a game of its own?  Needs g's text (g->raw). */
bool pgn_write_apart(PgnCopyEnd prev, const PgnGame *g);

#endif
