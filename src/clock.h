/* clock.h - clock forensics: the TimeControl tag in every form people
 * write, each side's clock rebuilt ply by ply from [%clk] and [%emt], and
 * who ran out of time (knows plies and sides, not the board). */
#ifndef PGNCHECK_CLOCK_H
#define PGNCHECK_CLOCK_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "pgn.h"

#define TC_MAX_PERIODS 4

/* One period of a time control: moves to make in it (0: the rest of the
 * game), its time and the increment after each move, in centiseconds. */
typedef struct TcPeriod {
    uint32_t moves;
    int64_t base;
    int64_t inc;
} TcPeriod;

typedef enum TcKind {
    TC_ABSENT = 0,     /* no TimeControl tag */
    TC_UNKNOWN,        /* "?" (PGN 9.6.1) */
    TC_UNTIMED,        /* "-" (PGN 9.6.1) */
    TC_PERIODS,        /* "300", "300+3", "40/9000", "40/7200:3600", "40/5400+30:1800+30" */
    TC_SANDCLOCK,      /* "*60" (PGN 9.6.1): periods[0].base */
    TC_DAILY,          /* "1/86400": a day a move, not saved up (correspondence, chess.com) */
    TC_UNREAD,         /* a form not read */
} TcKind;

typedef struct TimeControl {
    TcKind kind;
    unsigned nperiods;
    TcPeriod period[TC_MAX_PERIODS];
    /* How the value was read: NULL for a form of PGN 9.6.1 (or FIDE's
     * "+inc" per period, chess.com's daily); else the guess, said in
     * every finding that rests on it ("free text", "minutes"). */
    const char *guess;
} TimeControl;

/* Reads a TimeControl value (NULL: no tag).  Never fails: a form it cannot
 * read is TC_UNREAD. */
void clock_parse_tc(const char *s, TimeControl *tc);

/* Does a Termination value say the game was decided on time?  1 a loss
 * on time ("Time forfeit", "time-forfeit", "lost on time", chess.com's
 * "X won on time"), 2 a draw on time (chess.com's "Game drawn by timeout
 * vs insufficient material"), 0 neither (NULL, "Normal", ...). */
int clock_termination_on_time(const char *term);

/* The clocks of a game with clock comments (JSON Lines "clocks"):
 * per side (0 White, 1 Black) the last clock shown (or rebuilt from
 * [%emt]) and the time used, in milliseconds, CLOCK_UNKNOWN where not
 * known. */
#define CLOCK_UNKNOWN INT64_MIN
typedef struct ClockSummary {
    bool present;           /* the game had [%clk] or [%emt] on its main line */
    int64_t final_ms[2];
    int64_t used_ms[2];
} ClockSummary;

/* What the game layer knows of a replayed game, for the clocks. */
typedef struct ClockGame {
    const PgnGame *g;
    uint32_t plies;          /* main-line plies replayed */
    int side_at_end;         /* the side to move after them: 0 White, 1 Black */
    uint32_t first_number;   /* the move number of the first ply */
    PgnResult declared;
    bool ended_on_board;     /* mate, stalemate, dead position ...: no flag can fall after */
    const char *termination; /* Termination tag value, or NULL */
    const char *site;        /* Site and Event tag values, or NULL */
    const char *event;
} ClockGame;

/* Where a finding goes: code, place (NULL: the game's result), ply (0:
 * none), the move's text (NULL: none), printf message. */
typedef void (*ClockSay)(void *arg, DiagCode code, const PgnPos *pos, uint32_t ply, const char *move,
                         const char *fmt, va_list ap);

/* What the clocks say about the end. */
typedef struct ClockVerdict {
    /* the decisive result was a flag fall: by the Termination tag (1), or
     * by the clocks alone (2: the loser on move with his clock at zero) */
    int on_time;
} ClockVerdict;

/* Checks the clocks of a replayed game: findings to say, summary to *sum,
 * what they say of the end to *v.  Does nothing (sum->present false) for a
 * game without clock comments: PgnGame.clocks is the reader's flag. */
void clock_check(const ClockGame *cg, ClockSay say, void *arg, ClockSummary *sum, ClockVerdict *v);

#endif
