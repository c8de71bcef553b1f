/* result.h - the words of a game's result: the markers and the reasons. */
#ifndef PGNCHECK_RESULT_H
#define PGNCHECK_RESULT_H

#include "pgn.h"

/* Why the verified outcome is what it is (man page, OUTPUT FORMATS, jsonl: "reason"). */
typedef enum Reason {
    REASON_CHECKMATE = 0,
    REASON_STALEMATE,
    REASON_DEAD_POSITION,
    REASON_FIVEFOLD,
    REASON_SEVENTY_FIVE,
    REASON_THREEFOLD,
    REASON_FIFTY,
    REASON_TIME_FORFEIT,
    REASON_NO_MATING_MATERIAL,
    REASON_UNVERIFIED,
    REASON_UNFINISHED,
    REASON_INVALID,
    REASON_COUNT
} Reason;

const char *result_reason(Reason r);    /* "checkmate", ..., "invalid" */
const char *result_text(PgnResult r);   /* "1-0", "0-1", "1/2-1/2", "*", "" */

#endif
