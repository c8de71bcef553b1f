/* result.c - the words of a game's result: the markers and the reasons. */
#include "result.h"

static const char *const reason_slugs[REASON_COUNT] = {
    "checkmate", "stalemate", "dead-position", "fivefold-repetition", "seventy-five-moves",
    "threefold-repetition", "fifty-moves", "time-forfeit", "no-mating-material", "unverified",
    "unfinished", "invalid",
};

const char *result_reason(Reason r) { return r < REASON_COUNT ? reason_slugs[r] : "invalid"; }

const char *result_text(PgnResult r)
{
    switch (r) {
    case PGN_RES_WHITE: return "1-0";
    case PGN_RES_BLACK: return "0-1";
    case PGN_RES_DRAW: return "1/2-1/2";
    case PGN_RES_UNKNOWN: return "*";
    default: return "";
    }
}
