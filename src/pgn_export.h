/* pgn_export.h - --export: a checked game rewritten in the PGN standard's
 * export format (section 8), or left to be copied as read. */
#ifndef PGNCHECK_PGN_EXPORT_H
#define PGNCHECK_PGN_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "pgn.h"

typedef struct PgnExport PgnExport;

/* Where exports are written: the caller's, reused. */
typedef struct PgnExportText {
    char *p;
    size_t len, cap;
} PgnExportText;
void pgn_export_text_free(PgnExportText *t);

/* NULL when out of memory. */
PgnExport *pgn_export_new(void);
void pgn_export_free(PgnExport *x);

typedef enum PgnExportStatus {
    PGN_EXPORT_DONE = 0,    /* the export is in pgn_export_text() */
    PGN_EXPORT_AS_READ,     /* not rewritten: the caller copies the game as read */
    PGN_EXPORT_NO_MEMORY,
} PgnExportStatus;

/* Appends to *out g, checked into rep, in export format: the Seven Tag Roster in
 * its order (a missing one as "?", "????.??.??", the marker), the other
 * tags in ASCII order of name, SetUp "1" beside a FEN without it, one
 * empty line, then the movetext as the check played it (the main line
 * and every variation) in canonical SAN with its check and mate marks, move numbers
 * where 8.2.2.2 wants them, comments (a ';' one in braces), NAGs (a
 * suffix annotation as its NAG) and variations where they were, in lines
 * of at most 80 bytes, the termination marker, and one empty line.  '%'
 * escape lines are dropped (their count in *escapes).  With fix
 * (--fix-results) the result is rep->fixed and a missing marker
 * rep->marker.
 * g must be read with PgnOptions.notes and keep_raw, and checked with
 * CheckOptions.record_moves: nothing is read or replayed here.
 * A game that has an error (one --fix-results does not mend), that was
 * not read or replayed whole, or whose record cannot be written as it is,
 * is left: PGN_EXPORT_AS_READ. */
PgnExportStatus pgn_export_game(PgnExport *x, const PgnGame *g, const GameReport *rep, bool fix,
                                PgnExportText *out, uint32_t *escapes) __attribute__((warn_unused_result));

/* Why the last game pgn_export_game left as read was left, where the
 * reason is the export's, not an error or a variant the check found (a
 * static string), else NULL. */
const char *pgn_export_why(const PgnExport *x);

/* The notes on a game exported with fix (--fix-results), into change[],
 * as pgn_write_game (pgn_write.c) gives them: wrong-result for a result
 * rewritten, missing-termination for a marker written.  Returns how many
 * (0-2).
 * Needs of g only its tags, result and positions (a kept copy will do). */
size_t pgn_export_notes(const PgnGame *g, const GameReport *rep, Diag change[2]);

#endif
