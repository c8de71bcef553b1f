/* judge.c - the verdict on a replayed game: its result against the board, the clocks and the laws. */
#include "judge.h"

#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "dead.h"
#include "game_tags.h"
#include "laws.h"
#include "result.h"
#include "rules.h"
#include "say.h"

static void set_outcome(GameReport *rep, PgnResult r, Reason why)
{
    rep->outcome_known = true;
    rep->outcome = r;
    rep->reason = why;
}

/* The article of the Laws that ends the game so (laws.h). */
static const char *ending_law(int reason)
{
    switch (reason) {
    case REASON_CHECKMATE: return LAW_R20;
    case REASON_STALEMATE: return LAW_R21;
    case REASON_DEAD_POSITION: return LAW_R22;
    case REASON_FIVEFOLD: return LAW_R23;
    case REASON_SEVENTY_FIVE: return LAW_R24;
    default: return LAW_R41;
    }
}

/* R45: line L reached a fivefold repetition or a 75-move position that
 * would have ended the game under the Laws of 2014, and the game's date
 * does not show that they applied: warned when it matters, that is when
 * play went on in the line, or (main line) when the result is not the
 * draw those laws give. */
void judge_laws_2014(Ctx *c, const Line *L, bool main_line, PgnResult declared)
{
    bool went_on = L->ply > L->would_ply;
    if (!went_on && !(main_line && declared != PGN_RES_DRAW))
        return;
    char at[64];
    if (L->would_side < 0)
        snprintf(at, sizeof at, "in the FEN start position");
    else {
        char lab[48];
        say_move_label(L->would_full, L->would_side, L->would_elem->text, lab, sizeof lab);
        snprintf(at, sizeof at, "after %s", lab);
    }
    const char *date = c->date;
    char dbuf[32];
    if (date)
        snprintf(dbuf, sizeof dbuf, "Date \"%.12s\"", date);
    else
        snprintf(dbuf, sizeof dbuf, "no Date tag");
    PgnPos pos = L->would_elem ? L->would_elem->pos : c->g->start;
    char tail[32];
    if (went_on)
        snprintf(tail, sizeof tail, "play goes on");
    else
        snprintf(tail, sizeof tail, "the result %s stands", declared == PGN_RES_NONE ? "given" : result_text(declared));
    say_add(c, D_LAWS_2014_ENDING, pos, L->would_ply, L->would_elem ? L->would_elem->text : NULL,
            "%s %s: drawn by the Laws from 2014-07-01 (%s), but %s leaves the laws open, so %s",
            L->would_end - 1 == REASON_FIVEFOLD ? "fivefold repetition" : "the 75-move rule",
            at, L->would_end - 1 == REASON_FIVEFOLD ? LAW_R23 : LAW_R24, dbuf, tail);
}

/* The main line's moves after its ending (Ctx.after_end): "58. Ke4", or
 * "58. Ke4 and 3 more moves"; returns how many more. */
static size_t after_moves(const Ctx *c, char *buf, size_t cap)
{
    size_t n = 0;
    long depth = 0;
    const PgnElem *end = c->g->elems + c->g->nelems;
    for (const PgnElem *e = c->after_end + 1; e < end; e++) {
        if (e->kind == PGN_EL_VAR_START)
            depth++;
        else if (e->kind == PGN_EL_VAR_END)
            depth--;
        else if (e->kind == PGN_EL_MOVE && depth <= 0)
            n++;
    }
    if (n)
        snprintf(buf, cap, "%s and %zu more move%s", c->after_label, n, n == 1 ? "" : "s");
    else
        snprintf(buf, cap, "%s", c->after_label);
    return n;
}

/* "at ply 114 (57... Kxb3) by a dead position (no mating material)":
 * where and why the main line ended, short enough for a message that
 * also names the moves after it. */
static const char *ended_at(const Line *L, char *buf, size_t cap)
{
    const char *why = L->ended_proof == UNWIN_BY_BLOCKADE     ? "a dead position (pawns locked)"
                      : L->ended_proof == UNWIN_BY_EXHAUSTION ? "a dead position (searched)"
                                                              : say_ending_text(L->ended - 1);
    if (L->ended_side < 0) {
        snprintf(buf, cap, "in the FEN start position by %s", why);
        return buf;
    }
    char lab[48];
    say_move_label(L->ended_full, L->ended_side, L->ended_text, lab, sizeof lab);
    snprintf(buf, cap, "at ply %u (%s) by %s", (unsigned)L->ended_ply, lab, why);
    return buf;
}

/* Moves after the main line's ending whose result did not say them
 * (judge_ended folds them into a wrong result).  After an automatic draw
 * (R22, and R23/R24 where the Laws of 2014 judge the game, R45) in a
 * game declared 1/2-1/2 the record is faithful and its result right: a
 * warning (CheckOptions.after_draw).  After checkmate or stalemate, or
 * with another result, the moves are not part of any game: an error. */
void judge_after_end(Ctx *c)
{
    if (!c->after_end)
        return;
    const Line *L = &c->s->lines[0];
    const PgnElem *e = c->after_end;
    char at[112], moves[96];
    int why = L->ended - 1;
    bool draw = why == REASON_DEAD_POSITION || why == REASON_FIVEFOLD || why == REASON_SEVENTY_FIVE;
    if (draw && c->rep->declared == PGN_RES_DRAW) {
        after_moves(c, moves, sizeof moves);
        say_put(c, D_MOVES_AFTER_END, c->opt->after_draw, e->pos, c->after_ply, e->text,
                "%s: played after the game was drawn %s (%s)", moves, ended_at(L, at, sizeof at),
                ending_law(why));
    } else
        say_add(c, D_MOVES_AFTER_END, e->pos, c->after_ply, e->text, "%s: the game was already over by %s %s (ply %u)",
                c->after_label, say_line_ending(L), say_ended_label(L, at, sizeof at), (unsigned)L->ended_ply);
    c->after_end = NULL;
}

/* A game ended on the board (R20-R24) whose result is "*" or missing:
 * what it must be, in one finding with the moves after the end. */
static void judge_unfinished(Ctx *c, const Verdict *v, PgnResult must)
{
    const Line *main_line = &c->s->lines[0];
    PgnResult declared = c->rep->declared;
    const char *res = declared == PGN_RES_NONE ? "missing" : "*";
    int why = main_line->ended - 1;
    char at[112], moves[96];
    if (!c->after_end) {
        /* (no marker and no Result tag: the missing marker's error says
         * which result the board proves, once) */
        if (declared != PGN_RES_NONE || c->opt->severity[D_UNFINISHED_DECIDED] == SEV_NONE ||
            !say_append(c, D_MISSING_TERMINATION, "; the game ended by %s %s: it must be %s",
                        say_line_ending(main_line), say_ended_label(main_line, at, sizeof at), result_text(must)))
            say_add(c, D_UNFINISHED_DECIDED, v->result_pos, 0, NULL,
                    "the result is %s but the game ended by %s %s: it must be %s", res,
                    say_line_ending(main_line), say_ended_label(main_line, at, sizeof at), result_text(must));
    } else if (why != REASON_CHECKMATE && why != REASON_STALEMATE) {
        /* One mistake, one diagnostic: moves recorded after an automatic
         * draw are part of the unfinished result. */
        size_t more = after_moves(c, moves, sizeof moves);
        say_add(c, D_UNFINISHED_DECIDED, v->result_pos, 0, NULL,
                "the result is %s but the game ended %s; %s follow%s: it must be %s", res,
                ended_at(main_line, at, sizeof at), moves, more ? "" : "s", result_text(must));
        c->after_end = NULL;
    } else {
        /* After checkmate or stalemate they are illegal: the error
         * moves-after-end says the result too. */
        const PgnElem *e = c->after_end;
        say_add(c, D_MOVES_AFTER_END, e->pos, c->after_ply, e->text,
                "%s: the game was already over by %s %s (ply %u); the result %s must be %s", c->after_label,
                say_line_ending(main_line), say_ended_label(main_line, at, sizeof at),
                (unsigned)main_line->ended_ply, declared == PGN_RES_NONE ? "(missing)" : "*", result_text(must));
        c->after_end = NULL;
    }
}

/* The main line ended on the board (R20-R24): the result it must have. */
static void judge_ended(Ctx *c, const Verdict *v)
{
    const PgnGame *g = c->g;
    GameReport *rep = c->rep;
    const Line *main_line = &c->s->lines[0];
    PgnResult declared = rep->declared, tag_res = v->tags.result;
    int why = main_line->ended - 1;
    char at[112];
    PgnResult must = PGN_RES_DRAW;
    if (why == REASON_CHECKMATE)
        must = CUR(main_line)->side == WHITE ? PGN_RES_BLACK : PGN_RES_WHITE;
    set_outcome(rep, must, (Reason)why);
    if (declared == PGN_RES_UNKNOWN || declared == PGN_RES_NONE) {
        judge_unfinished(c, v, must);
        rep->fixed = must;
    } else if (declared != must) {
        /* One mistake, one error: a marker that the board refutes
         * and the Result tag puts right is one wrong result (the
         * marker), not also the tag's disagreement with it. */
        bool tag_right = g->result != PGN_RES_NONE && tag_res == must &&
                         c->opt->severity[D_WRONG_RESULT] != SEV_NONE && say_drop(c, D_RESULT_MISMATCH);
        /* One mistake, one error: moves recorded after the ending, under
         * a result that ignores it, are the same mistake (R41). */
        if (c->after_end && c->opt->severity[D_WRONG_RESULT] != SEV_NONE) {
            char moves[96];
            size_t more = after_moves(c, moves, sizeof moves);
            say_add(c, D_WRONG_RESULT, v->result_pos, 0, NULL,
                    "Result %s, but the game ended %s; %s follow%s: it must be %s%s (%s)", result_text(declared),
                    ended_at(main_line, at, sizeof at), moves, more ? "" : "s", result_text(must),
                    tag_right ? ", as its tag has it" : "", ending_law(why));
            c->after_end = NULL;
        } else
            say_add(c, D_WRONG_RESULT, v->result_pos, 0, NULL,
                    "Result %s contradicts %s %s: the result must be %s%s (%s)", result_text(declared),
                    say_line_ending(main_line), say_ended_label(main_line, at, sizeof at), result_text(must),
                    tag_right ? ", as the Result tag has it" : "", ending_law(why));
        rep->fixed = must;
    }
    /* A marker that is right does not make a Result tag the board
     * contradicts right (R40): --fix-results rewrites the tag. */
    if (v->tags.tag[GAME_TAG_RESULT] && tag_res != must)
        rep->fixed = must;
}

/* A win declared where the game did not end on the board: possible by
 * resignation or on time, not where the winner cannot mate (R29). */
static void judge_decisive(Ctx *c, const Verdict *v, const char *term)
{
    GameReport *rep = c->rep;
    PgnResult declared = rep->declared;
    int winner = declared == PGN_RES_WHITE ? WHITE : BLACK;
    UnwinReason why;
    bool on_time = c->on_time == 2 || game_tags_time_forfeit(term) || clock_termination_on_time(term) == 1;
    bool can = dead_can_mate(c, CUR(&c->s->lines[0]), winner, on_time, &why);
    if (c->on_time == 2 && can) {
        set_outcome(rep, declared, REASON_TIME_FORFEIT);   /* read from the clocks (clock.c) */
        return;
    }
    if (game_tags_time_forfeit(term) || clock_termination_on_time(term) == 1) {
        if (!can) {
            say_add(c, D_WRONG_RESULT, v->result_pos, 0, NULL,
                    "Result %s on time, but %s cannot checkmate by any series of legal moves%s: "
                    "the game is drawn (" LAW_R29 ")", result_text(declared), say_color(winner),
                    dead_why(why));
            set_outcome(rep, PGN_RES_DRAW, REASON_NO_MATING_MATERIAL);
            rep->fixed = PGN_RES_DRAW;
        } else
            set_outcome(rep, declared, REASON_TIME_FORFEIT);
    } else {
        if (!can)
            say_add(c, D_DECISIVE_NO_MATERIAL, v->result_pos, 0, NULL,
                    "Result %s although %s cannot checkmate by any series of legal moves%s: "
                    "possible only by resignation", result_text(declared), say_color(winner),
                    dead_why(why));
        set_outcome(rep, declared, REASON_UNVERIFIED);
    }
}

/* A clock finding (clock.c) as a diagnostic of the game. */
static void clock_say(void *arg, DiagCode code, const PgnPos *pos, uint32_t ply, const char *move, const char *fmt,
                      va_list ap) __attribute__((format(printf, 6, 0)));
static void clock_say(void *arg, DiagCode code, const PgnPos *pos, uint32_t ply, const char *move, const char *fmt,
                      va_list ap)
{
    Ctx *c = arg;
    say_add_v(c, code, pos ? *pos : c->result_pos, ply, move, fmt, ap);
}

/* The clocks of a replayed main line (clock.c): nothing to do, and
 * nothing paid, for a game without clock comments. */
void judge_clocks(Ctx *c, const Verdict *v)
{
    if (!c->g->clocks)
        return;
    const Line *main_line = &c->s->lines[0];
    const Position *fin = CUR(main_line);
    int first_side = fin->side ^ (int)(main_line->ply & 1);
    ClockGame cg = {
        .g = c->g,
        .plies = main_line->ply,
        .side_at_end = fin->side,
        .first_number = fin->fullmove - (uint32_t)(first_side + (int)main_line->ply) / 2,
        .declared = c->rep->declared,
        .ended_on_board = main_line->ended != 0,
        .termination = game_tags_value(&v->tags, GAME_TAG_TERMINATION),
        .site = game_tags_value(&v->tags, GAME_TAG_SITE),
        .event = game_tags_value(&v->tags, GAME_TAG_EVENT),
    };
    ClockVerdict cv;
    c->result_pos = v->result_pos;
    clock_check(&cg, clock_say, c, &c->rep->clocks, &cv);
    c->on_time = cv.on_time;
}

/* Adjudication of a main line replayed whole (R20-R29, R40-R44). */
void judge_adjudicate(Ctx *c, const Verdict *v)
{
    GameReport *rep = c->rep;
    const Line *main_line = &c->s->lines[0];
    const Position *fin = CUR(main_line);
    PgnResult declared = rep->declared;
    const char *term = game_tags_value(&v->tags, GAME_TAG_TERMINATION);
    if (main_line->ended)
        judge_ended(c, v);
    else if (declared == PGN_RES_WHITE || declared == PGN_RES_BLACK)
        judge_decisive(c, v, term);
    else if (declared == PGN_RES_DRAW) {
        int claim = rules_draw_claim(fin, c->s->keys, main_line->ply);
        if (claim == RULES_CLAIM_THREEFOLD)
            set_outcome(rep, PGN_RES_DRAW, REASON_THREEFOLD);
        else if (claim == RULES_CLAIM_FIFTY)
            set_outcome(rep, PGN_RES_DRAW, REASON_FIFTY);
        else if ((game_tags_time_forfeit(term) || clock_termination_on_time(term)) &&
                 (!rules_can_mate(fin, WHITE) || !rules_can_mate(fin, BLACK)))
            set_outcome(rep, PGN_RES_DRAW, REASON_NO_MATING_MATERIAL);
        else if (dead_final_draw(c, fin))
            set_outcome(rep, PGN_RES_DRAW, REASON_DEAD_POSITION);
        else
            set_outcome(rep, PGN_RES_DRAW, REASON_UNVERIFIED);
    } else
        set_outcome(rep, PGN_RES_UNKNOWN, REASON_UNFINISHED);

    /* R44: PlyCount. */
    if (!v->moves_after_end)
        game_tags_plycount(&v->tags, rep->plies, &v->sink);
}
