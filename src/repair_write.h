/* repair_write.h - --repair: a game copied with its one proven repair
 * (repair.c) applied, checked again, and written as --fix-results and
 * --export would write the repaired game. */
#ifndef PGNCHECK_REPAIR_WRITE_H
#define PGNCHECK_REPAIR_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "game.h"
#include "pgn.h"

#define REPAIR_WRITE_NOTES 3   /* repaired, and --fix-results' two */

/* Writes g (its raw text) with the unique repair of rep->repair applied,
 * the fewest bytes changed; the repaired text is read and checked again
 * (opt), and with fix its result put right as --fix-results does, with
 * export written in export format where the repaired game allows it.
 * change[0] is the repaired note (old and new text), then --fix-results'
 * notes.  Returns 1 when written, 0 when there is no unique repair (the
 * caller writes the game as usual), -1 without the raw text or memory. */
int repair_write(FILE *out, const PgnGame *g, const GameReport *rep, const CheckOptions *opt, bool fix,
                 bool export, Diag change[REPAIR_WRITE_NOTES], size_t *nchange);

#endif
