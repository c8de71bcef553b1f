/* game.h - replay a parsed game through the rules core and adjudicate its result. */
#ifndef PGNCHECK_GAME_H
#define PGNCHECK_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"
#include "pgn.h"

/* Why the verified outcome is what it is (DESIGN.md "reason"). */
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

typedef enum GameStatus { STATUS_OK = 0, STATUS_WARNING, STATUS_ERROR, STATUS_SKIPPED } GameStatus;

typedef struct CheckOptions {
    bool no_variations;          /* check the main line only */
    bool strict;                 /* export-format conformance; warnings count as errors (cli) */
    bool no_fen;                 /* leave GameReport.fen empty (no output format shows it) */
    Severity severity[D_COUNT];  /* effective severity per code; SEV_NONE = ignored */
} CheckOptions;

#define GAME_MAX_DIAGS 1000      /* diagnostics kept per game; the rest are counted */

typedef struct GameReport {
    const PgnGame *game;         /* the game this reports on (not owned) */
    PgnResult declared;          /* termination marker, or the Result tag without one */
    const char *result_tag;      /* Result tag value, NULL if absent */
    bool outcome_known;          /* false: outcome is null (invalid game) */
    PgnResult outcome;           /* verified outcome */
    Reason reason;
    uint32_t plies;              /* plies of the main line that were replayed */
    char fen[100];               /* FEN after the last replayed main-line move ("" with no_fen) */
    GameStatus status;
    PgnResult fixed;             /* what --fix-results writes; PGN_RES_NONE = no change */
    Diag *diags;                 /* sorted by position */
    size_t ndiags;
    size_t dropped;              /* diagnostics beyond GAME_MAX_DIAGS */
    unsigned counts[4];          /* diagnostics per Severity */
    void *priv;                  /* reusable scratch */
} GameReport;

void check_options_default(CheckOptions *o);
void game_report_init(GameReport *rep);
void game_report_free(GameReport *rep);
/* Gives back a report's memory (and contents) if a long or much-annotated
 * game made its scratch space grow: memory stays flat over many games. */
void game_report_trim(GameReport *rep);

/* Checks one game.  Thread-safe: several reports can be produced at once
 * (chess_init() must have run).  Never fails: an allocation failure is
 * reported as a diagnostic. */
void game_check(const PgnGame *g, const CheckOptions *opt, GameReport *rep);

const char *reason_slug(Reason r);
const char *result_text(PgnResult r);   /* "1-0", "0-1", "1/2-1/2", "*", "" */

#endif
