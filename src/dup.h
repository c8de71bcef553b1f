/* dup.h - --duplicates: the main lines of a run's games, found again exactly
 * (a hash finds the candidates, comparing the moves confirms them). */
#ifndef PGNCHECK_DUP_H
#define PGNCHECK_DUP_H

#include <stddef.h>
#include <stdint.h>

/* The games seen so far: a table of 12-byte entries and 4 to 8 bytes of
 * buckets per distinct main line, and an arena that holds each line once
 * (a 24-byte header and 2 bytes a word). */
typedef struct DupTable DupTable;

/* The game that had a main line first. */
typedef struct DupFirst {
    const char *file;           /* as given to dup_add (not copied) */
    uint64_t index;
    uint32_t line;
    int result;                 /* its declared result (PgnResult) */
} DupFirst;

typedef enum DupVerdict {
    DUP_NEW = 0,                /* the first game with this main line: kept */
    DUP_SEEN,                   /* an earlier game had it: *first says which */
    DUP_FULL,                   /* keeping it would pass the memory limit (or 32 GiB) */
    DUP_NOMEM,                  /* out of memory */
} DupVerdict;

/* A table that may hold max_bytes of memory; NULL when out of memory.
 * PGNCHECK_DUP_HASH_BITS=N (1 to 64) keeps only N bits of each hash, for
 * the tests: many lines then share a hash, and the answers must not
 * change. */
DupTable *dup_new(uint64_t max_bytes);
void dup_free(DupTable *t);

/* Looks a main line up (words[0..nwords): GameReport.line) and keeps it
 * if it is new, as game `index` (at line `line`) of `file`, a string that
 * must outlive the table; games are added in input order. */
DupVerdict dup_add(DupTable *t, const char *file, uint64_t index, uint32_t line, int result,
                   const uint16_t *words, size_t nwords, DupFirst *first);

uint64_t dup_bytes(const DupTable *t);  /* memory held */
uint64_t dup_lines(const DupTable *t);  /* distinct main lines kept */

#endif
