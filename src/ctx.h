/* ctx.h - the state of one game's check that its stages share: its lines of play, scratch and context. */
#ifndef PGNCHECK_CTX_H
#define PGNCHECK_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess.h"
#include "game_tags.h"
#include "game_types.h"
#include "pgn.h"
#include "repair.h"
#include "rules.h"
#include "unwin.h"

/* (The stages: game.c replays, note.c and say.c word the findings, dead.c
 * tests dead positions, judge.c gives the verdict; none includes game.h.) */

/* One line of play: the main line or a variation being replayed. */
typedef struct Line {
    Position cur;          /* the position now (moves are made in place) */
    Position prev;         /* before the last move, kept only when a variation follows it */
    /* (from here on zeroed for each game: see set_up) */
    uint32_t ply;          /* ply number of the last move played */
    bool has_prev;         /* a move was played: a variation may replace it */
    bool stopped;          /* an error ended this line's replay */
    bool quiet;            /* a stopped variation still played to record its moves (record_moves,
                              no_variations) */
    bool number_warned;    /* one move-number warning per line is enough */
    int ended;             /* automatic ending (Reason + 1), 0 if none */
    uint32_t ended_ply;
    /* The move after which it ended, for messages (formatted only when one
     * is written: say_ended_label): its number, side and text; side -1: the
     * game ended in its FEN start position. */
    uint32_t ended_full;
    int ended_side;
    const char *ended_text;
    uint8_t ended_proof;   /* a dead position (R22) beyond the material: UNWIN_BY_BLOCKADE or
                              UNWIN_BY_EXHAUSTION (the searches); 0 otherwise */
    /* Stalemate not yet ruled out after the last move (out of check, no
     * other ending), or checkmate after a check marked '+' (see ply_end):
     * the next legal move in this line rules it out for free, so the
     * legal-move search runs only where the line stops.  The move that
     * left the pending position, NULL if none. */
    const PgnElem *pending;
    /* Under LAWS_UNPROVEN: the first fivefold repetition or 75-move
     * position of this line (Reason + 1, 0 if none), which would have
     * ended the game under the Laws of 2014, and the move that reached it
     * (NULL: the FEN start position).  Warned at the line's end if play
     * went on, or the result differs (R45). */
    int would_end;
    uint32_t would_ply;
    uint32_t would_full;
    int would_side;
    const PgnElem *would_elem;
} Line;

#define CUR(L) (&(L)->cur)

typedef struct Scratch {
    Line *lines;           /* lines[0] is the main line; grows with variation depth */
    size_t lines_cap;
    size_t diags_cap;      /* capacity of GameReport.diags (grows to GAME_MAX_DIAGS) */
    uint64_t *keys;        /* main-line position keys since the start, index = ply */
    size_t keys_cap;
    /* Counts of the main line's keys since its last irreversible move,
     * for stretches of 100 plies and more without one (rules.h). */
    RulesRepTable rep;
    Line dead;             /* a stopped line: where moves go that no line replays */
    uint16_t *line;        /* GameReport.line (collect_line) */
    size_t line_cap;
    RepairSet repair;      /* GameReport.repair (repair.c) */
    GameMove *moves;       /* GameReport.moves (record_moves) */
    size_t moves_cap;
} Scratch;

typedef struct Ctx {
    const PgnGame *g;
    const CheckOptions *opt;
    GameReport *rep;
    Scratch *s;
    bool chess960;
    int laws;              /* the Laws that judge this game (R45), -1 until asked (ctx_laws) */
    const char *date;      /* the Date tag's value, NULL if none */
    /* The earliest and latest day (YYYYMMDD) the game can have been
     * played, from its tags or --rules (0 and UINT32_MAX: unknown), for
     * laws of other dates: a law from day D judges the game when
     * date_lo >= D, not when date_hi < D, and else the date is open. */
    uint32_t date_lo, date_hi;
    /* The move being settled is in long algebraic or UCI notation without
     * a mark: its notation warning gives the SAN with the mark (see
     * note_notation), so a missing + or # is not said again. */
    bool mark_in_note;
    /* Test every ply that resets the clock for a dead position by the
     * blockade (R22): the second replay of a game whose final position is
     * one (see needs_dead_replay), so that the first dead ply is found. */
    bool dead_check;
    /* CheckOptions.collect_line: where the main line's moves go, the
     * move of ply n at mv[n - 1] (room reserved for every element), else
     * NULL */
    Move *mv;
    /* CheckOptions.record_moves: where each move played is kept, by its
     * element's index (GameReport.moves), else NULL */
    GameMove *rec;
    bool keep_run;         /* Ctx.mv or Ctx.rec: the main line's runs keep their moves (main_run_keep) */
    /* what the clocks say of a decisive end (clock.c): 1 a flag fall by
     * the Termination tag, 2 by the clocks alone, 0 neither */
    int on_time;
    PgnPos result_pos;     /* (Verdict.result_pos, for clock findings about the end) */
    /* The main line's first move after the game ended on the board (R41):
     * said once the result is known (judge_after_end), which decides how. */
    const PgnElem *after_end;
    uint32_t after_ply;
    char after_label[48];
    /* The main line's first move, numbered ahead of the start position
     * with no FEN tag (a game that starts mid-way): its number, else 0,
     * and where its move-number warning is (an illegal move later takes
     * it into its message: play). */
    long start_number;
    uint64_t start_number_at;
    bool fen_start;        /* the game starts from a FEN tag */
} Ctx;

/* What the stages of one game's check (check_game) hand on. */
typedef struct Verdict {
    GameTags tags;
    GameTagsSink sink;     /* game_tags.c's findings: to say_add */
    PgnPos result_pos;     /* where a result's finding goes: the marker, else the Result tag's value */
    bool valid;            /* the main line replays (no syntax error, no illegal move, memory) */
    bool moves_after_end;  /* the main line goes on after the game ended: PlyCount is not compared */
} Verdict;

/* The Laws that judge the game of c (R45), found when first asked; sets
 * c->date_lo and c->date_hi. */
Laws ctx_laws(Ctx *c);
/* The calling thread's search table (unwin.c) for questions of `budget`
 * nodes, allocated at its first search of that size; NULL out of memory. */
UnwinTable *ctx_unwin_table(uint64_t budget);
/* Frees it (game_thread_free). */
void ctx_thread_free(void);

#endif
