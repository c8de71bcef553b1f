/* game.h - replay a parsed game through the rules core and adjudicate its result. */
#ifndef PGNCHECK_GAME_H
#define PGNCHECK_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game_types.h"
#include "pgn.h"

void game_options_default(CheckOptions *o);
void game_report_init(GameReport *rep);
void game_report_free(GameReport *rep);
/* Gives back a report's memory (and contents) if a long or much-annotated
 * game made its scratch space grow: memory stays flat over many games. */
void game_report_trim(GameReport *rep);
/* Frees the calling thread's search table (unwin.c; one per thread,
 * allocated at its first search): each thread that checks calls it when
 * it is done. */
void game_thread_free(void);

/* Checks one game.  Thread-safe: several reports can be produced at once
 * (chess_init() must have run).  Never fails: an allocation failure is
 * reported as a diagnostic. */
void game_check(const PgnGame *g, const CheckOptions *opt, GameReport *rep);

#endif
