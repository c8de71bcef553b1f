/* game_types.h - what a game's check is asked (CheckOptions) and what it says (GameReport). */
#ifndef PGNCHECK_GAME_TYPES_H
#define PGNCHECK_GAME_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess.h"
#include "clock.h"
#include "diag.h"
#include "laws.h"
#include "pgn.h"
#include "result.h"

typedef enum GameStatus { STATUS_OK = 0, STATUS_WARNING, STATUS_ERROR, STATUS_SKIPPED } GameStatus;

typedef struct CheckOptions {
    bool no_variations;          /* check the main line only */
    bool strict;                 /* export-format conformance; warnings count as errors (cli) */
    bool no_fen;                 /* leave GameReport.fen empty (no output format shows it) */
    RulesChoice rules;           /* --rules: which laws judge the games (R45) */
    bool report_laws;            /* set GameReport.laws for every game (else only where they mattered) */
    uint64_t unwin_nodes;        /* --unwin-nodes: the search's budget a question (unwin.c); 0 none */
    /* no --unwin-nodes given: search only where a verdict depends on it,
     * at the budgets of unwin.h (UNWIN_ON_TIME_NODES, UNWIN_DRAW_NODES up) */
    bool unwin_auto;
    bool collect_line;           /* --duplicates: keep the main line as replayed (GameReport.line) */
    bool repair_search;          /* a broken main line is searched for repairs (repair.c; default on) */
    bool record_moves;           /* keep every move as played, variations too (GameReport.moves) */
    Severity severity[D_COUNT];  /* effective severity per code; SEV_NONE = ignored */
    /* moves-after-end after an automatic draw in a game declared 1/2-1/2
     * (a faithful record, its result right): a warning by default */
    Severity after_draw;
} CheckOptions;

#define GAME_MAX_DIAGS 1000      /* diagnostics kept per game; the rest are counted */

/* A move element of the game as the check played it (record_moves). */
typedef struct GameMove {
    char san[12];                /* SAN as the position makes it, with its + or #; NUL-terminated */
    uint8_t played;              /* 0: not played (not a move, or its line stopped before it) */
    uint8_t nag;                 /* the suffix annotation written on it ("e4!"): NAG 1-6; 0 none */
    uint8_t black;               /* Black made it */
    Move move;
    uint32_t fullmove;           /* the move number of the position it was made in */
} GameMove;

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
    Laws laws;                   /* the laws the game was judged by (R45) */
    PgnResult fixed;             /* what --fix-results writes; PGN_RES_NONE = no change */
    PgnResult marker;            /* --fix-results: the marker written where there is none;
                                    PGN_RES_NONE = none missing, or none can be placed */
    PgnPos marker_pos;           /* where it is missing (the reader's finding) */
    bool tags_only;              /* no movetext: the marker goes after a blank line */
    bool marker_proven;          /* it is the result the board proves */
    bool moves_after_end;        /* the main line goes on after the game ended (R41) */
    uint8_t marker_len;          /* > 0: it replaces the marker written wrongly ("1/2", "+--")
                                    of this many bytes at marker_pos */
    Diag *diags;                 /* sorted by position */
    size_t ndiags;
    size_t dropped;              /* diagnostics beyond GAME_MAX_DIAGS */
    unsigned counts[4];          /* diagnostics per Severity */
    bool out_of_memory;          /* an allocation failed: the check is incomplete (the caller says so, exit 2) */
    /* CheckOptions.collect_line: the main line as replayed, line_len words:
     * word 0 the number k of words after it that identify a set-up start
     * position (0: the standard one), those k words, then the rep->plies
     * moves (chess.h's Move).  NULL when there is nothing to compare: no
     * move, or a main line not replayed to its last move (an error stopped
     * it, moves after the end, a skipped variant, a cut-off game). */
    const uint16_t *line;
    size_t line_len;
    /* --duplicates, set in input order by the caller for the report:
     * dup_state 0 not looked at, 1 no earlier game has this main line,
     * 2 game dup_index of dup_file (at line dup_line) had it first. */
    int dup_state;
    const char *dup_file;
    uint64_t dup_index;
    uint32_t dup_line;
    const char *dup_text;        /* the message of its finding (extra), whole: a file
                                  * name is never cut short; NULL: Diag.msg */
    ClockSummary clocks;         /* the clocks of a game with [%clk]/[%emt] (clock.c) */
    /* The repairs proven for a main line that broke (repair.c), NULL if
     * none was searched or found: in the report's scratch. */
    const struct RepairSet *repair;
    /* CheckOptions.record_moves: moves[i] for the game's elems[i], every
     * move played in the main line and its variations (with
     * no_variations too, played only to be recorded); NULL when not
     * recorded (not asked, a game not replayed, out of memory). */
    const GameMove *moves;
    void *priv;                  /* reusable scratch */
} GameReport;

#endif
