/* strict.h - --strict: the PGN standard's export format (section 8), checked
 * on a game's tags, movetext elements and raw text (knows no chess). */
#ifndef PGNCHECK_STRICT_H
#define PGNCHECK_STRICT_H

#include <stddef.h>

#include "diag.h"
#include "pgn.h"

/* At most one finding per export code per game: a rule broken many times
 * is one finding that says how many times, at the first place. */
#define STRICT_MAX_FINDINGS 8

/* Fills out[] with the export-format faults of g (code, position, move
 * text, message; severity and ply are left to the caller) and returns how
 * many.  The text checks (lines, blank lines, % and ; lines) need g->raw
 * whole; without it only the tag order and move numbers are checked. */
size_t strict_check(const PgnGame *g, Diag out[STRICT_MAX_FINDINGS]);

#endif
