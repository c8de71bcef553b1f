/* players.h - --duplicates: are two players' names (or two dates) those of
 * one game, spelled otherwise?  Knows no chess and no PGN. */
#ifndef PGNCHECK_PLAYERS_H
#define PGNCHECK_PLAYERS_H

#include <stdbool.h>
#include <stddef.h>

#define PLAYERS_MAX_WORDS 8       /* words of a name compared (the rest ignored) */
#define PLAYERS_MAX_WORD 40       /* bytes of a word compared */

/* Two names are compatible when either is unknown (no letter or digit:
 * "", "?", "-") or their words can be paired, each word of the shorter
 * name with its own word of the other, where a pair is: the same word; an
 * initial or abbreviation of at most 3 letters and a word it begins
 * ("Em", "Emanuel"); or two words of letters whose spellings, brought to
 * one skeleton (tsch, tch -> ch; sch -> sh; kh, ch -> h; ck -> k;
 * ph -> f; w -> v; j, y -> i; c, q -> k; ou -> u; ae -> a; oe -> o;
 * ue -> u; doubled letters once), differ by at most one edit (two from 8
 * letters; none under 4); and at least one pair is not an abbreviation.
 * Case, spacing, punctuation, word order and diacritics (of Latin-1's
 * letters) do not count.  a and b need not end in NUL: alen, blen bytes. */
bool players_compatible(const char *a, size_t alen, const char *b, size_t blen);

typedef enum PlayersVerdict {
    PLAYERS_UNKNOWN,              /* either is unknown */
    PLAYERS_SAME,                 /* compatible with no spelling variant */
    PLAYERS_VARIANT,              /* compatible only through a spelling variant */
    PLAYERS_OTHER,                /* not compatible */
} PlayersVerdict;
PlayersVerdict players_compare(const char *a, size_t alen, const char *b, size_t blen);

/* Dates agree unless both are complete ("YYYY.MM.DD", digits only) and
 * differ. */
bool players_dates_agree(const char *a, const char *b);

#endif
