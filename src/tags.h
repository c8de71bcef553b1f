/* tags.h - what the PGN standard and usage fix about tags, in one place:
 * the Seven Tag Roster, the tag a name means, the Variant names of Chess960. */
#ifndef PGNCHECK_TAGS_H
#define PGNCHECK_TAGS_H

#include "pgn.h"

/* The Seven Tag Roster, in its order (PGN 8.1.1). */
enum { TAGS_EVENT, TAGS_SITE, TAGS_DATE, TAGS_ROUND, TAGS_WHITE, TAGS_BLACK, TAGS_RESULT, TAGS_ROSTER_N };
extern const char *const tags_roster[TAGS_ROSTER_N];

/* The roster index (TAGS_*) of a name spelt exactly as the standard
 * spells it, -1 for any other name. */
int tags_roster_index(const char *name);

/* The tag a name means: the first tag of that name in its case, else the
 * first in any case of ASCII letters (tag names are case-sensitive, PGN
 * 8.1.1, but real files write "[event ...]"; the checks honour such a
 * name where the right one is missing, with a warning: game_tags.c, which
 * finds the tags it needs by this rule in one pass).  NULL if none. */
const PgnTag *tags_find(const PgnGame *g, const char *name);
/* tags_find's tag's value, or NULL. */
const char *tags_value(const PgnGame *g, const char *name);

/* A Variant tag's value (NULL: none): 0 standard chess (or no value),
 * 1 Chess960 (by any of its names), -1 another variant. */
int tags_variant(const char *value);

#endif
