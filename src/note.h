/* note.h - the notation of a move read (SAN notes, R42), and why a move is refused. */
#ifndef PGNCHECK_NOTE_H
#define PGNCHECK_NOTE_H

#include <stdbool.h>
#include <stdint.h>

#include "chess.h"
#include "ctx.h"
#include "pgn.h"
#include "san.h"

/* The notation notes of move e, parsed into r in pos (label: "12. Nf3"). */
void note_notation(Ctx *c, const Position *pos, const SanResult *r, const PgnElem *e, uint32_t ply,
                   const char *label);
/* Why move e cannot be played in pos, as r found; extra: said at the
 * end of the message (the move number's disagreement), "" if nothing. */
void note_bad_move(Ctx *c, const Position *pos, const SanResult *r, const PgnElem *e, uint32_t ply,
                   const char *label, bool in_variation, const char *extra);

#endif
