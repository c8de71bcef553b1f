/* baseline.h - findings recorded once (--write-baseline) and left out of
 * later runs (--baseline), so that a CI job fails only on new ones.
 *
 * A finding's identity: its game's (a hash of the tags, in any order,
 * and of the movetext as read: moves, variations, result; not the move
 * numbers, comments, spacing or line breaks), its code, its ply, and its
 * place among the game's findings of the same code and ply.  A finding
 * outside any game: the file's name, its code and its place among the
 * file's of that code.  The file: one finding a line,
 * "ID CODE PLY N" (ID 16 hex digits), sorted as sort(1) sorts in the C
 * locale, with no duplicate, after a "# pgncheck baseline 1" line. */
#ifndef PGNCHECK_BASELINE_H
#define PGNCHECK_BASELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "game.h"
#include "pgn.h"

typedef struct Baseline Baseline;

/* The identity of a game, and of a file for the findings outside games. */
uint64_t baseline_game_id(const PgnGame *g);
uint64_t baseline_file_id(const char *name);

Baseline *baseline_new(void);
void baseline_free(Baseline *b);

/* Reads a baseline file; false with why on a read error or a line that
 * is not one. */
bool baseline_load(Baseline *b, const char *path, char *why, size_t cap) __attribute__((warn_unused_result));

/* A game's findings (rep's, then extra[0..*nextra)) of severity warning
 * or error: each added to rec (--write-baseline; NULL: none), and those
 * in known (--baseline; NULL: none) dropped from rep or extra, rep's
 * counts and status following.  Returns how many were dropped; *oom set
 * when rec could not grow. */
size_t baseline_game(Baseline *known, Baseline *rec, uint64_t id, GameReport *rep, Diag *extra,
                     size_t *nextra, bool *oom);

/* A finding outside a game, the nth (from 1) of its code in file id: is
 * it in known (and added to rec)? */
bool baseline_file_diag(Baseline *known, Baseline *rec, uint64_t id, const Diag *d, uint32_t nth, bool *oom);

/* Entries of known no finding of the run matched (fixed since). */
size_t baseline_unmatched(const Baseline *known);

/* Writes rec's findings, sorted, once each, over path (rewrite.h: the
 * old file stays whole until the new one is). */
bool baseline_write(Baseline *rec, const char *path, char *why, size_t cap) __attribute__((warn_unused_result));

#endif
