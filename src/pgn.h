/* pgn.h - streaming PGN reader: bytes in, games out (knows no chess). */
#ifndef PGNCHECK_PGN_H
#define PGNCHECK_PGN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgn_types.h"

typedef struct PgnReader PgnReader;

/* Builds the reader's tables; pgn_reader_new does it too, but a program
 * that starts readers or calls pgn_sync_at on several threads calls it
 * first, once. */
void pgn_init(void);
/* pgn_init with the vector code limited, for running each path on one
 * machine: "sse2" (no AVX2), "avx2" (no AVX-512); NULL or anything else,
 * the best the CPU has.  The first call of the two decides. */
void pgn_init_simd(const char *limit);

/* Returns NULL only when out of memory. */
PgnReader *pgn_reader_new(PgnReadFn read, void *ctx, const PgnOptions *opt);
void pgn_reader_free(PgnReader *r);

PgnGame *pgn_game_new(void);
void pgn_game_free(PgnGame *g);

/* Gives back the memory of a game object that an unusually long game made
 * grow (more than PGN_KEEP_ELEMS elements, PGN_KEEP_TAGS tags, PGN_KEEP_BYTES
 * of tag text or raw text) and its reader diagnostics; its contents are
 * then gone.  Called when a
 * game has been dealt with, it keeps a program's memory the same however
 * many games it reads: otherwise every reused game object would grow to
 * the longest game it ever held. */
#define PGN_KEEP_ELEMS 256
#define PGN_KEEP_TAGS 64
#define PGN_KEEP_BYTES (64u << 10)
#define PGN_KEEP_SLICES 8
void pgn_game_trim(PgnGame *g);
/* Gives back a game object's raw text buffer if it holds more than keep
 * bytes: for the many objects (a batch's or a piece's) that each hold a
 * game's text until it is written, where texts under PGN_KEEP_BYTES would
 * still add up. */
void pgn_game_drop_raw(PgnGame *g, size_t keep);

/* Gives up the game's raw text (g->raw NULL), its buffer too if it holds
 * more than keep bytes: once it is checked, a game whose text is not
 * copied needs only slices of it. */
void pgn_game_forget_raw(PgnGame *g, size_t keep);

/* Adds a slice of the game's text, bytes [base, base + len) of the input
 * (len at most PGN_SLICE), for a finding at input offset `offset`.  False
 * when out of memory. */
bool pgn_game_add_slice(PgnGame *g, uint64_t offset, uint64_t base, const char *bytes, size_t len);

/* Bytes of memory the game's contents take (tags, elements, raw text,
 * diagnostics, slices): what a batch holding it until it is written holds. */
size_t pgn_game_bytes(const PgnGame *g);

/* Copies into dst what a report of src needs once it has been checked:
 * index, positions, result, with PGN_COPY_TAGS its tags and with
 * PGN_COPY_RAW its raw bytes; no movetext elements, no diagnostics, no
 * slices.  dst can be read into again later.  False when out of memory
 * (dst then holds fewer tags or no raw text). */
#define PGN_COPY_TAGS 1
#define PGN_COPY_RAW 2
bool pgn_game_keep(PgnGame *dst, const PgnGame *src, unsigned what);

/* Reads the next game into *g.  Returns 1 with a game, 0 at end of input,
 * -1 if the source failed (a READ_ERROR diagnostic is queued).  File-level
 * diagnostics (text between games, read errors) are queued on the reader. */
int pgn_next(PgnReader *r, PgnGame *g);

/* File-level diagnostics queued since the last call; *n receives the count.
 * The array stays valid until the next pgn_next() call. */
const Diag *pgn_file_diags(PgnReader *r, size_t *n);

uint64_t pgn_bytes_read(const PgnReader *r);
/* '%' escape lines and ';' comment lines read between games (and after the
 * last) since the last call: the reader skips them. */
uint64_t pgn_take_gap_lines(PgnReader *r);

/* Sync points, where a file can be cut for parallel reading: a '[' that
 * starts a line and begins a tag pair ('[' blanks Name blanks '"'), either
 * after an empty line ("\n\n[" or "\n\r\n[") or as '[Event "' (the name in
 * any case).  The reader almost always begins a new game there, whatever
 * it was reading (tags, movetext, a comment); where it does, a reader
 * started there (PgnOptions.offset) reads what a reader from the start of
 * the file would read from there on (its lines count from 1; the caller
 * shifts them).
 * Where it does not (a tag section whose first pair was malformed, or one
 * without Event, goes on after the line), a reader from an earlier point
 * must be used: pgncheck confirms each cut against the reading before it
 * (pieces.c).  True when buf[p] is one; buf must hold the three bytes before
 * p and the tag start after it (160 bytes or to the end of the input). */
bool pgn_sync_at(const unsigned char *buf, size_t len, size_t p);

/* Compares two tag names as strcmp does, but for the case of ASCII letters
 * (a tag name written in another case: PGN 8.1.1 names are case-sensitive,
 * the game layer still honours them). */
int pgn_name_casecmp(const char *a, const char *b);

#endif
