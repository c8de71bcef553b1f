/* dup.h - --duplicates: the main lines of a run's games, found again exactly
 * (a hash finds the candidates, comparing the moves confirms them). */
#ifndef PGNCHECK_DUP_H
#define PGNCHECK_DUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "position.h"

/* The games seen so far: a table of 12-byte entries and 4 to 8 bytes of
 * buckets per distinct main line, and an arena that holds each line once
 * (a 32-byte header, 2 bytes a word, the players' names and the date). */
typedef struct DupTable DupTable;

/* A line this long (plies) is one game whoever is named as its players:
 * chance does not explain it (the longest line two games of other
 * players share in the shared corpus has 34 plies; the man page). */
#define DUP_LONG_PLIES 40
/* A short line is kept for at most this many pairs of players. */
#define DUP_MAX_PLAYERS 256

/* Who played a game: the White, Black and Date tags' values (NULL: none)
 * and its main line's plies. */
typedef struct DupWho {
    const char *white, *black, *date;
    uint32_t plies;
} DupWho;

/* The earlier game with the line. */
typedef struct DupFirst {
    const char *file;           /* as given to dup_add (not copied) */
    uint64_t index;
    uint32_t line;
    int result;                 /* its declared result (PgnResult) */
    const char *white, *black, *date;   /* its tags (at most 255 bytes; "" none), kept by the table */
    bool players;               /* its players and this game's are compatible */
    bool dates;                 /* and the dates agree */
} DupFirst;

typedef enum DupVerdict {
    DUP_NEW = 0,                /* the first game with this main line: kept */
    DUP_SEEN,                   /* the same game as an earlier one: *first says which
                                 * (compatible players and dates, or a long line) */
    DUP_SAME_MOVES,             /* a short line an earlier game by other players (or of
                                 * another date) has: another game; *first the earliest */
    DUP_FULL,                   /* keeping it would pass the memory limit (or 32 GiB) */
    DUP_NOMEM,                  /* out of memory */
} DupVerdict;

/* A table that may hold max_bytes of memory; NULL when out of memory.
 * PGNCHECK_DUP_HASH_BITS=N (1 to 64) keeps only N bits of each hash, for
 * the tests: many lines then share a hash, and the answers must not
 * change. */
DupTable *dup_new(uint64_t max_bytes);
void dup_free(DupTable *t);

/* Looks a main line up (words[0..nwords): GameReport.line) played by who
 * and keeps it if it is new (or new for these players), as game `index`
 * (at line `line`) of `file`, a string that must outlive the table; games
 * are added in input order. */
DupVerdict dup_add(DupTable *t, const char *file, uint64_t index, uint32_t line, int result, const DupWho *who,
                   const uint16_t *words, size_t nwords, DupFirst *first);

uint64_t dup_bytes(const DupTable *t);  /* memory held */
uint64_t dup_lines(const DupTable *t);  /* distinct main lines kept */

/* The identity of a start position, as FIDE 9.2.3 counts a position the
 * same (the same pieces on the same squares, the same side to move, the
 * same castling rights, and an en passant capture possible or not): the
 * board's piece codes two a byte, then side, rights, each right's rook
 * square and the en passant square where a capture is legal.  The clocks
 * are not part of it (see the man page, --duplicates).  Writes the words
 * of p to out and returns how many of them name it in a main line: 0 for
 * the standard start position, else DUP_START_WORDS. */
#define DUP_START_WORDS 20
size_t dup_start_words(const Position *p, uint16_t out[DUP_START_WORDS]);

#endif
