/* game_tags.h - the tags a game's check reads (PGN 8.1, 9.7; R3, R40, R44):
 * found once, checked, and the start position a FEN tag sets up. */
#ifndef PGNCHECK_GAME_TAGS_H
#define PGNCHECK_GAME_TAGS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "pgn.h"
#include "position.h"

/* The tags the checks need. */
enum {
    GAME_TAG_EVENT, GAME_TAG_SITE, GAME_TAG_DATE, GAME_TAG_ROUND, GAME_TAG_WHITE, GAME_TAG_BLACK,
    GAME_TAG_RESULT, GAME_TAG_FEN, GAME_TAG_SETUP, GAME_TAG_VARIANT, GAME_TAG_TERMINATION,
    GAME_TAG_PLYCOUNT, GAME_TAG_N
};

typedef struct GameTags {
    const PgnTag *tag[GAME_TAG_N];  /* the one of each name that counts, NULL if none */
    PgnResult result;               /* the Result tag's value, PGN_RES_NONE if none or not a result */
} GameTags;

/* Where the findings go: say(arg, code, position, format, arguments), the
 * caller's printf-like sink (game.c's add_diag); ply 0, no move. */
typedef struct GameTagsSink {
    void (*say)(void *arg, DiagCode code, PgnPos pos, const char *fmt, va_list ap);
    void *arg;
} GameTagsSink;

/* Finds g's tags as the standard spells their names (a known name in
 * another case counts where the right one is missing, with a warning,
 * PGN 8.1.1) and says whether the Result tag's value is a result. */
void game_tags_find(const PgnGame *g, GameTags *t, const GameTagsSink *out);

/* The tag's value, NULL if the game has none. */
static inline const char *game_tags_value(const GameTags *t, int k)
{
    return t->tag[k] ? t->tag[k]->value : NULL;
}

/* The Seven Tag Roster (PGN 8.1.1) and the termination marker against the
 * Result tag (R40). */
void game_tags_roster(const PgnGame *g, const GameTags *t, const GameTagsSink *out);

/* The Variant tag: 0 standard (or none), 1 Chess960, -1 a variant not checked. */
int game_tags_variant(const GameTags *t);

/* The start position (R3): from the FEN tag, checked against the SetUp
 * tag (PGN 9.7.1), else the standard one (a Chess960 one if chess960).
 * False, with its finding said, when the FEN sets up no legal game. */
bool game_tags_start(const GameTags *t, bool chess960, Position *p, const GameTagsSink *out);

/* R44: the PlyCount tag against the main line's plies. */
void game_tags_plycount(const GameTags *t, uint32_t plies, const GameTagsSink *out);

/* A result's text ("1-0", "0-1", "1/2-1/2", "*") as a result; PGN_RES_NONE
 * for NULL or anything else. */
PgnResult game_tags_parse_result(const char *v);

/* Does a Termination tag's value (NULL: none) say the game was lost on time? */
bool game_tags_time_forfeit(const char *term);

#endif
