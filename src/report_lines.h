/* report_lines.h - the source lines findings point into: the slices of a
 * game's text kept for the text format's excerpts and GitHub's columns. */
#ifndef PGNCHECK_REPORT_LINES_H
#define PGNCHECK_REPORT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "game.h"
#include "pgn.h"

/* The source line of an error with a caret under it.  Long lines (engine
 * comments run to thousands of bytes) are cut to a window around the
 * column; each character, UTF-8 or Latin-1, counts as one column, and a
 * tab is shown as a tab in the line and under it, so the caret stays
 * under the column wherever the terminal's tab stops are.  The line comes
 * from the game's raw text, or from a slice of it (report_take_slices):
 * SLICE_BEFORE bytes before the column and SLICE_AFTER after it, what the
 * window can show, so that both give the same line. */
#define EXCERPT_BEFORE 60
#define EXCERPT_WIDTH 120
#define SLICE_BEFORE 64         /* > EXCERPT_BEFORE + 3 (a UTF-8 character) */
#define SLICE_AFTER (PGN_SLICE - SLICE_BEFORE)  /* > EXCERPT_WIDTH */

/* Text output shows an error's source line: for a game whose raw text is
 * not kept until it is written, report_take_slices keeps in g the slices
 * of its text those lines are cut from, for the findings of rep (with
 * prefix, for github output: for every finding with a line, the bytes of
 * its line before it, to count characters), read with
 * read(ctx, buf, n, offset) (bytes of the input at offset, up to n; fewer
 * only at the end; -1 on an error) from the game's text up to input
 * offset end (exclusive).  report_read_raw reads them from the raw text
 * of the game ctx points to.  False when out of memory. */
typedef long (*ReportReadAt)(void *ctx, char *buf, size_t n, uint64_t offset);
bool report_take_slices(PgnGame *g, const GameReport *rep, uint64_t end, bool prefix, ReportReadAt read,
                        void *ctx);
long report_read_raw(void *ctx, char *buf, size_t n, uint64_t offset);

/* The text a finding's line is cut from: *s, *n bytes, its column at *rel
 * (the game's raw text, or the slice kept for it).  False if none. */
bool report_excerpt_text(const PgnGame *g, const Diag *d, const unsigned char **s, size_t *n, size_t *rel);

/* A finding's column in characters, as GitHub counts them, not in bytes:
 * each UTF-8 sequence of the line before it counts one, and so does every
 * byte that is not UTF-8 (Latin-1); counted by take_prefix.  A finding
 * outside a game, or whose line could not be read again, keeps its byte
 * column. */
uint64_t report_char_column(const PgnGame *g, const Diag *d);

#endif
