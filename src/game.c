/* game.c - replays a parsed game through the rules core and adjudicates its result. */
#include "game.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ctx.h"
#include "dead.h"
#include "dup.h"
#include "game_tags.h"
#include "judge.h"
#include "laws.h"
#include "marker.h"
#include "mem.h"
#include "movegen.h"
#include "note.h"
#include "repair.h"
#include "rules.h"
#include "san.h"
#include "say.h"
#include "strict.h"
#include "unwin.h"

void game_options_default(CheckOptions *o)
{
    memset(o, 0, sizeof *o);
    o->repair_search = true;
    o->unwin_auto = true;
    for (int i = 0; i < D_COUNT; i++)
        o->severity[i] = diag_info[i].severity;
    o->after_draw = SEV_WARNING;
}

void game_report_init(GameReport *rep)
{
    memset(rep, 0, sizeof *rep);
}

void game_report_trim(GameReport *rep)
{
    Scratch *s = rep->priv;
    if (s && (s->keys_cap > 256 || s->lines_cap > 2 || s->diags_cap > 8 || s->rep.cap || s->line_cap > 512)) {
        game_report_free(rep);      /* the next game_check starts small again */
        game_report_init(rep);
    }
}

void game_thread_free(void)
{
    ctx_thread_free();
}

void game_report_free(GameReport *rep)
{
    Scratch *s = rep->priv;
    if (s) {
        mem_free(s->keys);
        mem_free(s->lines);
        rules_rep_free(&s->rep);
        mem_free(s->line);
        repair_set_free(&s->repair);
        mem_free(s->moves);
    }
    mem_free(s);
    mem_free(rep->diags);
    memset(rep, 0, sizeof *rep);
}

/* Line storage for variation depth `depth` (0 = main line). */
static Line *line_at(Scratch *s, size_t depth)
{
    if (depth < s->lines_cap)
        return &s->lines[depth];
    size_t cap = s->lines_cap * 2;
    while (cap <= depth)
        cap *= 2;
    if (cap > PGN_MAX_DEPTH + 2)
        cap = PGN_MAX_DEPTH + 2;
    Line *l = mem_realloc(s->lines, cap, sizeof *l);
    if (!l)
        return NULL;
    s->lines = l;
    s->lines_cap = cap;
    return depth < cap ? &s->lines[depth] : NULL;
}

/* The first move number of the main line if it is ahead of where a game
 * from the start position would be (a fragment), else 0. */
static long first_number_ahead(const PgnGame *g)
{
    long ply = 0;
    int depth = 0;
    for (size_t i = 0; i < g->nelems; i++) {
        const PgnElem *e = &g->elems[i];
        if (e->kind == PGN_EL_VAR_START)
            depth++;
        else if (e->kind == PGN_EL_VAR_END)
            depth--;
        else if (depth == 0) {
            if (e->number >= 0)
                return e->number > ply / 2 + 1 ? e->number : 0;
            ply++;
        }
    }
    return 0;
}

typedef struct Claims {
    uint32_t threefold_ply;   /* first ply completing a threefold repetition, 0 none */
    uint32_t fifty_ply;       /* first ply reaching 50 moves each without capture or pawn move */
    /* 1 when the start position's halfmove clock is at 100 or more (the
     * first ply is then a claim), else 0: a ply number, so that the test
     * is one comparison */
    uint32_t start_fifty_ply;
} Claims;

/* A line's ending is kept as Reason + 1 (0: none), as rules.c gives it. */
_Static_assert(RULES_END_CHECKMATE == REASON_CHECKMATE + 1 && RULES_END_STALEMATE == REASON_STALEMATE + 1 &&
                   RULES_END_DEAD == REASON_DEAD_POSITION + 1 && RULES_END_FIVEFOLD == REASON_FIVEFOLD + 1 &&
                   RULES_END_SEVENTY_FIVE == REASON_SEVENTY_FIVE + 1,
               "rules.h's endings and game.h's reasons in one order");

enum { PLAY_ERROR = 0, PLAY_OK = 1, PLAY_AFTER_END = 2 };

/* san_play takes tokens of at most 6 bytes (Nbxd2+, O-O-O#): a truncated
 * one never passes it (see play). */
_Static_assert(PGN_TOKEN_TEXT - 1 > 6, "a truncated move token must be too long for san_play");

/* Resolves the move token e in pos by the general parser (the usual
 * shapes have been tried by san_play), whose result r then explains a
 * failure or carries the notation notes.  Returns the move and its mark
 * packed as san_fast does, 0 if the token names no single legal move. */
static uint32_t parse_move(const Position *pos, const PgnElem *e, SanResult *r, unsigned *notes)
{
    if (e->truncated) {
        r->status = SAN_SYNTAX;
        return 0;
    }
    if (san_parse(pos, e->text, e->len, r) != SAN_OK)
        return 0;
    *notes = r->notes;
    return r->move | (uint32_t)r->mark << 16;
}

/* Settles a pending position (see Line.pending): stalemate or not, and
 * for a check marked '+' (see ply_end), checkmate or not: then the mark
 * was wrong, as ply_end_slow would have said at once. */
static void resolve_pending(Ctx *c, Line *L)
{
    const PgnElem *e = L->pending;
    L->pending = NULL;
    const Position *p = CUR(L);
    if (gen_has_legal_move(p))
        return;
    /* The label of the move that left the position, from the position. */
    int side = p->side ^ 1;
    if (p->checkers) {
        char label_buf[48];
        say_move_label(p->fullmove - (uint32_t)(side == BLACK), side, e->text, label_buf, sizeof label_buf);
        say_add(c, D_MATE_MARK_MISSING, e->pos, L->ply, e->text, "%s: the move gives checkmate but is marked %s",
                label_buf, "+ instead of #");
    }
    L->ended = (p->checkers ? REASON_CHECKMATE : REASON_STALEMATE) + 1;
    L->ended_ply = L->ply;
    L->ended_full = p->fullmove - (side == BLACK);
    L->ended_side = side;
    L->ended_text = e->text;
}

/* The rest of a ply once its move is made in line L (ply: its number;
 * mark: as san_fast packs it; keys: the main line's keys, NULL off the
 * main line): the endings, the check and mate marks, the claims, for a
 * ply the quick tests of ply_end do not settle.  Out of line: those are
 * few. */
static CHESS_NOINLINE void ply_end_slow(Ctx *c, Line *L, const PgnElem *e, uint32_t ply, int mark, uint64_t *keys,
                                        Claims *cl)
{
    Position *p = CUR(L);
    char label_buf[48];
#define label                                                                                                     \
    (say_move_label(p->fullmove - (uint32_t)(p->side == WHITE), p->side ^ 1, e->text, label_buf,                  \
                    sizeof label_buf),                                                                            \
     label_buf)
    /* R20/R21: is the side now to move mated or stalemated?  In check
     * the answer decides the marks, so it is found now; out of check only
     * stalemate is open, and that waits (see Line.pending) unless another
     * ending or a claim needs to know now. */
    bool any = true, any_known = false;
#define ANY() (any_known ? any : (any_known = true, any = gen_has_legal_move(p)))
    if (p->checkers)
        (void)ANY();
    bool mate = p->checkers && !any;
    /* R42: the check and mate marks. */
    if (mate && mark != 2 && !(mark == 0 && c->mark_in_note))
        say_add(c, D_MATE_MARK_MISSING, e->pos, ply, e->text, "%s: the move gives checkmate but is marked %s", label,
                mark == 1 ? "+ instead of #" : "with no #");
    else if (!mate && p->checkers && mark == 0 && !c->mark_in_note)
        say_add(c, D_CHECK_MARK_MISSING, e->pos, ply, e->text, "%s: the move gives check but has no +", label);
    else if (!mate && p->checkers && mark == 2)
        say_add(c, D_MATE_MARK_WRONG, e->pos, ply, e->text, "%s: marked # but it is only check", label);
    else if (!p->checkers && mark)
        say_add(c, D_CHECK_MARK_WRONG, e->pos, ply, e->text, "%s: marked %s but the move gives no check", label,
                mark == 2 ? "#" : "+");

    /* Material changes only by a capture or a promotion (R22), and both
     * reset the halfmove clock; so does a pawn move, but a pawn left on
     * the board is mating material, which the inline test sees first. */
    int ended = 0;
    int ended2014 = 0; /* an ending of the 2014 Laws only (R45) */
    if (any_known)
        ended = rules_board_ending(p, any);
    else if (p->halfmove == 0 && !(p->by_type[PAWN] | p->by_type[ROOK] | p->by_type[QUEEN]) &&
             rules_insufficient_material(p))
        ended = rules_board_ending(p, ANY());
    /* R22 beyond the material list: the blockade proof for both colours
     * (dead_by_blockade): in the second replay of a game whose final
     * position it proves dead (Ctx.dead_check), at every ply its filter
     * passes (ply_quick), for a quiet move can make a position dead too
     * (one that gives up an en passant capture or a castling right, a
     * king walking into a corner it never leaves); else where the clock
     * is reset.  The first such ply ends the game. */
    int proof = 0;
    if (!ended && (c->dead_check || p->halfmove == 0) && dead_by_blockade(c, p)) {
        ended = ANY() ? REASON_DEAD_POSITION + 1 : rules_board_ending(p, false);
        proof = ended == REASON_DEAD_POSITION + 1 ? UNWIN_BY_BLOCKADE : 0;
    } else if (!ended && c->dead_check && dead_by_search(c, p)) {
        /* (the second replay only: see needs_dead_replay) */
        ended = ANY() ? REASON_DEAD_POSITION + 1 : rules_board_ending(p, false);
        proof = ended == REASON_DEAD_POSITION + 1 ? UNWIN_BY_EXHAUSTION : 0;
    }
    if (keys) {
        keys[ply] = p->key; /* room for every ply reserved before the replay */
        if (!ended && p->halfmove >= 8) {
            int reps = 0;
            if (p->halfmove >= 100)
                reps = rules_rep_count(&c->s->rep, keys, ply, p->halfmove);
            if (!reps)
                reps = rules_repetitions(keys, ply, p->halfmove);
            if (reps >= 3 && !ANY())
                ended = REASON_STALEMATE + 1;
            else {
                if (reps >= 5)
                    ended2014 = REASON_FIVEFOLD + 1; /* FIDE 9.6.1 (2014) */
                if (reps >= 3 && !cl->threefold_ply) {
                    cl->threefold_ply = ply;
                    say_add(c, D_THREEFOLD, e->pos, ply, e->text,
                            "%s: the position occurs for the third time; a draw could be claimed (FIDE 9.2)", label);
                }
            }
        }
        /* The position before the move counts too (a capture may reset
         * the clock at 100): for any ply but the first, the ply before
         * tested that position and has set fifty_ply; the start
         * position's clock is kept in Claims. */
        if ((p->halfmove >= 100 || (ply == cl->start_fifty_ply)) && !cl->fifty_ply) {
            cl->fifty_ply = ply;
            say_add(c, D_FIFTY_MOVES, e->pos, ply, e->text,
                    "%s: 50 moves by each side without capture or pawn move; a draw could be claimed (FIDE 9.3)", label);
        }
    }
    /* FIDE 9.6.2 (2014): a mate on the last move beats the 75-move rule
     * (and a stalemate is an ending of its own, under any laws). */
    if (!ended && !ended2014 && p->halfmove >= 150) {
        if (ANY())
            ended2014 = REASON_SEVENTY_FIVE + 1;
        else
            ended = REASON_STALEMATE + 1;
    }
#undef ANY
    if (ended2014) {
        /* R45: only the Laws from 1 July 2014 end the game here; before,
         * the position is a claimable draw (said above) and play goes on. */
        Laws laws = ctx_laws(c);
        if (laws == LAWS_2014)
            ended = ended2014;
        else if (laws == LAWS_UNPROVEN && !L->would_end) {
            L->would_end = ended2014;
            L->would_ply = ply;
            L->would_full = p->fullmove - (uint32_t)(p->side == WHITE);
            L->would_side = p->side ^ 1;
            L->would_elem = e;
        }
    }
    if (ended) {
        L->ended = ended;
        L->ended_proof = (uint8_t)proof;
        L->ended_ply = ply;
        L->ended_full = p->fullmove - (uint32_t)(p->side == WHITE);
        L->ended_side = p->side ^ 1;
        L->ended_text = e->text;
    } else if (!any_known)
        L->pending = e;
#undef label
}

/* The quick part of settling the ply whose move e has just been made in
 * line L (see ply_end_slow; keys: the main line's, used when main_line;
 * move_next: a move follows e; start_claim: whether to test the start
 * position's fifty-move claim): returns whether it has settled the ply,
 * and then the line goes on.  The usual ply, out of check, with no mark
 * and nothing to repeat or claim, needs only its key kept and the
 * stalemate question left open (see Line.pending), and that is done
 * here.  The clock: below 8 nothing can repeat; between 8 and 99 the key
 * is looked for among the earlier ones; when the move reset it, a pawn,
 * rook or queen on the board is mating material; the first ply after a
 * start clock of 100 or more (which leaves 0 or 101) is a claim.  So is
 * a check marked '+' on the main line with a move after it: the mark is
 * right unless the check is mate, and the next move, when legal, proves
 * it none, as it proves a position no stalemate; a mate is found where
 * the line stops (resolve_pending) before anything else is said of the
 * next move, which cannot be made.  (gen_has_legal_move for every such
 * check cost too much: tests/BENCH.md.) */
/* Mating material on the board (a pawn, rook or queen): the position is
 * no dead one of the material list. */
static inline Bitboard live_material(const Position *p)
{
    return p->by_type[PAWN] | p->by_type[ROOK] | p->by_type[QUEEN];
}

/* With dead_check (the second replay, Ctx.dead_check, of a game whose
 * final position is dead), every ply goes to ply_end_slow, where the
 * blockade proof and the searches look for the first dead one; the usual
 * replay never asks. */
static inline bool may_be_dead(const Position *p, const bool dead_check)
{
    (void)p;
    return dead_check;
}

static inline bool ply_quick(Line *L, const PgnElem *e, bool move_next, uint32_t ply, int mark, bool main_line,
                             const bool start_claim, const bool dead_check, uint64_t *keys, const Claims *cl)
{
    const Position *p = CUR(L);
    POS_DEBUG_CONSISTENT(p); /* (every move the replay makes passes here) */
    uint32_t half = p->halfmove;
    if ((!(p->checkers | (Bitboard)mark) ||
         (main_line && mark == 1 && p->checkers && move_next)) &&
        half < 100) {
        if (main_line) {
            keys[ply] = p->key; /* room for every ply reserved before the replay */
            /* (the clock tests combined with | and &: one branch, not one
             * per data-dependent test) */
            if ((half >= 8 ? rules_repetitions(keys, ply, half) < 3
                           : (half != 0) | ((live_material(p) != 0) & (!start_claim || ply != cl->start_fifty_ply))) &&
                !may_be_dead(p, dead_check)) {
                L->pending = e;
                return true;
            }
        } else if ((half || live_material(p)) && !may_be_dead(p, dead_check)) {
            L->pending = e; /* (off the main line nothing repeats or is claimed) */
            return true;
        }
    }
    return false;
}

/* ply_quick, else ply_end_slow; returns whether the line has ended. */
static inline bool ply_end(Ctx *c, Line *L, const PgnElem *e, bool move_next, uint32_t ply, int mark,
                           bool main_line, uint64_t *keys, Claims *cl)
{
    if (ply_quick(L, e, move_next, ply, mark, main_line, true, c->dead_check, keys, cl))
        return false;
    L->pending = NULL;
    ply_end_slow(c, L, e, ply, mark, main_line ? keys : NULL, cl);
    return L->ended != 0;
}

/* The number written before the move e, made in line L, against the
 * move's (number: the position's fullmove number, less one when White is
 * to move; a warning, once per line). */
static CHESS_NOINLINE void number_wrong(Ctx *c, Line *L, const PgnElem *e, uint32_t ply, uint32_t number)
{
    const Position *p = CUR(L);
    L->number_warned = true;
    if (ply == 1 && L == c->s->lines && !c->fen_start && e->number > 1) {
        c->start_number = e->number;
        c->start_number_at = e->pos.offset;
    }
    say_add(c, D_MOVE_NUMBER, e->pos, ply, e->text, "move number %d, but this is move %u of %s", (int)e->number,
            (unsigned)number, say_color(p->side ^ 1));
}

static inline void check_number(Ctx *c, Line *L, const PgnElem *e, uint32_t ply, uint32_t number)
{
    /* One branch, almost never taken: with && the "is a number written"
     * test, true for White's moves and false for Black's, was a branch of
     * its own that the processor mispredicted often (tests/BENCH.md).
     * In 64 bits the written number (-1 when none,
     * any negative counted so) and the position's (below 2^32) differ in
     * the sign bit when none is written and else are equal or give a
     * positive xor, so that one test is left.  The warning is said out of
     * line (number_wrong): inline, its arguments kept the replay's loop
     * (main_run) a register short, and a value of the loop on the stack. */
    if ((((int64_t)e->number ^ (int64_t)number) > 0) & !L->number_warned)
        number_wrong(c, L, e, ply, number);
}

/* san_play for --duplicates, which keeps the move in *out (san_play does
 * not give it): the same moves resolved by san_parse (the fast shapes it
 * takes are canonical: no notes, and the same move), then made. */
static inline uint32_t play_keep(Position *p, const PgnElem *e, Move *out)
{
    SanResult r;
    if (e->truncated || san_parse(p, e->text, e->len, &r) != SAN_OK || r.notes || r.mark > 2)
        return 0;
    *out = r.move;
    pos_do(p, r.move);
    return san_played((uint32_t)r.mark);
}

/* CheckOptions.record_moves: the move m of element e made in p, kept
 * (its SAN from the position before it, its mark from the one after). */
static void record_move(Ctx *c, Position *p, const PgnElem *e, Move m, int nag)
{
    GameMove *gm = &c->rec[e - c->g->elems];
    size_t n = san_format_nomark(p, m, gm->san);
    gm->fullmove = p->fullmove;
    gm->black = p->side == BLACK;
    gm->nag = (uint8_t)nag;
    gm->move = m;
    pos_do(p, m);
    if (pos_in_check(p))
        gm->san[n++] = gen_has_legal_move(p) ? '+' : '#';
    gm->san[n] = '\0';
    gm->played = 1;
}

/* play_keep, the move recorded (record_moves; out: --duplicates' too). */
static uint32_t play_record(Ctx *c, Position *p, const PgnElem *e, Move *out)
{
    SanResult r;
    if (e->truncated || san_parse(p, e->text, e->len, &r) != SAN_OK || r.notes || r.mark > 2)
        return 0;
    if (out)
        *out = r.move;
    record_move(c, p, e, r.move, r.nag);
    return san_played((uint32_t)r.mark);
}

/* A move of a variation played only to be recorded (Line.quiet): no
 * finding, no ending; false where it is no legal move. */
static bool play_quiet(Ctx *c, Line *L, const PgnElem *e, const PgnElem *end)
{
    Position *p = CUR(L);
    SanResult r;
    if (e->truncated || san_parse(p, e->text, e->len, &r) != SAN_OK)
        return false;
    if (e + 1 < end && e[1].kind == PGN_EL_VAR_START)
        L->prev = *p;
    record_move(c, p, e, r.move, r.nag);
    L->has_prev = true;
    L->ply++;
    return true;
}

/* Plays one move token e (end: past the game's last element) in line L:
 * PLAY_OK, or why the line stops.  When a variation follows the move, the
 * position before it is kept for the variation to start from. */
static int play(Ctx *c, Line *L, const PgnElem *e, const PgnElem *end, bool main_line, Claims *cl)
{
    /* The move is made in place.  Nothing of the position before it is
     * kept across the calls (each value kept is a stack slot the loop
     * pays for): the label's move number and side are taken from the
     * position, before or after the move (`moved`). */
    Position *p = CUR(L);
    const Position *before = p; /* until the move is made */
    int moved = 0;
    /* The "12... Nf3" label is built only when a diagnostic needs it. */
    char label_buf[48];
#define label                                                                                                     \
    (say_move_label(p->fullmove - (uint32_t)(moved && p->side == WHITE), p->side ^ moved, e->text, label_buf,     \
                    sizeof label_buf),                                                                            \
     label_buf)
    uint32_t ply = L->ply + 1;
    /* The usual move, in a line not over: resolved and made at once.
     * Being legal, it also proves a pending position no stalemate.  (A
     * truncated token, PGN_TOKEN_TEXT - 1 bytes long, is longer than any
     * san_play takes, so it goes the general way without a test here.) */
    uint32_t parsed = 0;
    Move *mv = main_line ? c->mv : NULL;
    if (!L->ended) {
        if (e + 1 < end && e[1].kind == PGN_EL_VAR_START)
            L->prev = *p;
        parsed = c->rec ? play_record(c, p, e, mv ? &mv[ply - 1] : NULL)
                 : mv   ? play_keep(p, e, &mv[ply - 1])
                        : san_play(p, e->text, e->len);
    }
    if (parsed) {
        L->pending = NULL;
        before = NULL;
        moved = 1;
        check_number(c, L, e, ply, p->fullmove - (p->side == WHITE));
    } else {
        SanResult r;
        unsigned notes = 0;
        if (L->pending) {
            /* A legal move here proves the last position was no stalemate. */
            parsed = parse_move(before, e, &r, &notes);
            if (parsed)
                L->pending = NULL;
            else
                resolve_pending(c, L);
        }
        if (L->ended) {
            if (main_line) {
                /* said with the result (judge_after_end) */
                c->after_end = e;
                c->after_ply = ply;
                snprintf(c->after_label, sizeof c->after_label, "%s", label);
                return PLAY_AFTER_END;
            }
            char at[64];
            say_add(c, D_MOVES_AFTER_END, e->pos, ply, e->text, "%s: the game was already over by %s %s (ply %u)",
                    label, say_line_ending(L), say_ended_label(L, at, sizeof at), (unsigned)L->ended_ply);
            return PLAY_AFTER_END;
        }
        bool number_off = e->number >= 0 && !L->number_warned && (uint32_t)e->number != before->fullmove;
        if (number_off)
            L->number_warned = true;
        if (!parsed && !(parsed = parse_move(before, e, &r, &notes))) {
            /* One mistake, one error: a move number that disagrees with
             * the position, on a move that cannot be played there, most
             * often says why (moves of another position: a FEN left out,
             * a game run into the next); it is part of the error. */
            char extra[72] = "";
            if (number_off && main_line && ply == 1 && !c->fen_start && e->number > 1)
                snprintf(extra, sizeof extra, "; numbered %d, with no FEN: opening moves or a FEN tag missing",
                         (int)e->number);
            else if (number_off)
                snprintf(extra, sizeof extra, "; it is numbered %d, but it would be move %u of %s", (int)e->number,
                         (unsigned)before->fullmove, say_color(before->side));
            else if (main_line && c->start_number) {
                /* (the game's first move was numbered so: one mistake) */
                say_drop_at(c, D_MOVE_NUMBER, c->start_number_at);
                snprintf(extra, sizeof extra, "; it starts at move %ld with no FEN: opening moves or a FEN tag missing",
                         c->start_number);
            }
            note_bad_move(c, before, &r, e, ply, label, !main_line, extra);
            return PLAY_ERROR;
        }
        if (number_off) {
            say_add(c, D_MOVE_NUMBER, e->pos, ply, e->text, "move number %d, but this is move %u of %s",
                    (int)e->number, (unsigned)before->fullmove, say_color(before->side));
            if (main_line && ply == 1 && !c->fen_start && e->number > 1) {
                c->start_number = e->number;
                c->start_number_at = e->pos.offset;
            }
        }
        if (notes)
            note_notation(c, before, &r, e, ply, label);
        if (e + 1 < end && e[1].kind == PGN_EL_VAR_START)
            L->prev = *p;
        if (c->rec)
            record_move(c, p, e, san_fast_move(parsed), r.nag);
        else
            pos_do(p, san_fast_move(parsed));
        if (mv)
            mv[ply - 1] = san_fast_move(parsed);
        parsed = san_played(san_fast_mark(parsed));
        before = NULL;
        moved = 1;
    }
    const int mark = san_played_mark(parsed);
    L->has_prev = true;
    L->ply = ply;
    ply_end(c, L, e, e + 1 < end && e[1].kind == PGN_EL_MOVE, ply, mark, main_line, c->s->keys, cl);
    c->mark_in_note = false;
    return PLAY_OK;
#undef label
}

/* The main line's usual moves, one after another (e: a move of the main
 * line L, which is neither stopped nor over): each made by san_play and
 * settled by ply_end, with the loop's values in registers rather than in
 * the general loop's many.  Returns the first element it leaves to that
 * loop: one that is not a move, a move that san_play does not take (the
 * position is then as before it), a move a variation follows (play()
 * keeps the position before it), or the move after the line ended. */
CHESS_HOT_INLINE const PgnElem *main_run_as(Ctx *c, Line *L, const PgnElem *e, const PgnElem *end, Claims *cl,
                                            const bool dead_check, const bool keep, const bool record)
{
    Position *p = CUR(L);
    uint64_t *keys = c->s->keys;
    const uint32_t ply0 = L->ply;
    uint32_t ply = ply0;
    const PgnElem *last = end - 1;
    /* The first ply after a start clock of 100 or more is a claim: play()
     * settles it, so that here ply_end has no test for it. */
    if (ply0 + 1 == cl->start_fifty_ply)
        return e;
    /* The move's number (check_number) from the ply: the start's fullmove
     * number for its first ply, one more after each of Black's moves (in
     * 64 bits: twice the number may not fit in 32). */
    const uint64_t number_base = 2 * (uint64_t)p->fullmove + p->side - ply0 - 1;
    /* L->ply is set on the way out (nothing on the way reads it). */
    for (;;) {
        /* The next element's kind, read once: a variation there stops the
         * run before the move, anything but a move after it. */
        unsigned next = e != last ? e[1].kind : PGN_EL_VAR_END;
        if (next == PGN_EL_VAR_START)
            break;
        uint32_t parsed = record ? play_record(c, p, e, c->mv ? &c->mv[ply] : NULL)
                          : keep ? play_keep(p, e, &c->mv[ply])
                                 : san_play(p, e->text, e->len);
        if (!parsed)
            break;
        ply++;
        check_number(c, L, e, ply, (uint32_t)((ply + number_base) >> 1));
        /* (ply_end, with the quick path's way on to the next move
         * straight, not through a result tested again) */
        if (!ply_quick(L, e, next == PGN_EL_MOVE, ply, san_played_mark(parsed), true, false, dead_check, keys, cl)) {
            L->pending = NULL;
            ply_end_slow(c, L, e, ply, san_played_mark(parsed), keys, cl);
            if (L->ended) {
                e++;
                break;
            }
        }
        e++;
        if (next != PGN_EL_MOVE)
            break;
    }
    if (ply != ply0) {
        L->ply = ply;
        L->has_prev = true;
    }
    return e;
}

/* main_run_as, once as the usual replay and once with the dead-position
 * test of a second replay (Ctx.dead_check): the usual one pays nothing;
 * and once keeping the moves (--duplicates: Ctx.mv; record_moves:
 * Ctx.rec), either way. */
static CHESS_NOINLINE const PgnElem *main_run(Ctx *c, Line *L, const PgnElem *e, const PgnElem *end, Claims *cl)
{
    return main_run_as(c, L, e, end, cl, false, false, false);
}

static CHESS_NOINLINE const PgnElem *main_run_dead(Ctx *c, Line *L, const PgnElem *e, const PgnElem *end, Claims *cl)
{
    return main_run_as(c, L, e, end, cl, true, false, false);
}

static CHESS_NOINLINE const PgnElem *main_run_keep(Ctx *c, Line *L, const PgnElem *e, const PgnElem *end, Claims *cl)
{
    if (c->rec)
        return c->dead_check ? main_run_as(c, L, e, end, cl, true, true, true)
                             : main_run_as(c, L, e, end, cl, false, true, true);
    return c->dead_check ? main_run_as(c, L, e, end, cl, true, true, false)
                         : main_run_as(c, L, e, end, cl, false, true, false);
}

/* CheckOptions.collect_line: room in s->line for the start position's
 * words and a move per element, the words written; Ctx.mv is where the
 * replay puts the moves.  False when out of memory. */
static bool line_begin(Scratch *s, Ctx *c, const Position *start, size_t nelems)
{
    size_t need = 1 + DUP_START_WORDS + nelems;
    if (need > s->line_cap) {
        size_t cap = s->line_cap ? s->line_cap : 256;
        while (cap < need)
            cap *= 2;
        uint16_t *v = mem_realloc(s->line, cap, sizeof *v);
        if (!v)
            return false;
        s->line = v;
        s->line_cap = cap;
    }
    uint16_t *w = s->line;
    w[0] = (uint16_t)dup_start_words(start, w + 1);
    c->mv = w + 1 + w[0];
    c->keep_run = true;
    return true;
}

/* CheckOptions.record_moves: room for a move per element, none played
 * yet; Ctx.rec and GameReport.moves are where the replay keeps them.
 * False when out of memory. */
static bool record_begin(Scratch *s, Ctx *c, size_t nelems)
{
    if (nelems > s->moves_cap) {
        size_t cap = s->moves_cap ? s->moves_cap : 256;
        while (cap < nelems)
            cap *= 2;
        GameMove *m = mem_realloc(s->moves, cap, sizeof *m);
        if (!m)
            return false;
        s->moves = m;
        s->moves_cap = cap;
    }
    if (nelems)
        memset(s->moves, 0, nelems * sizeof *s->moves);
    c->rec = s->moves;
    c->rep->moves = s->moves;
    c->keep_run = true;
    return true;
}

static void check_game(const PgnGame *g, const CheckOptions *opt, GameReport *rep, bool dead_check);

void game_check(const PgnGame *g, const CheckOptions *opt, GameReport *rep)
{
    check_game(g, opt, rep, false);
}

/* A game's scratch at its smallest; NULL out of memory. */
static Scratch *scratch_new(void)
{
    Scratch *s = mem_calloc(1, sizeof *s);
    if (s) {
        s->keys_cap = 256;
        s->keys = mem_realloc(NULL, s->keys_cap, sizeof *s->keys);
        s->lines_cap = 2;
        s->lines = mem_realloc(NULL, s->lines_cap, sizeof *s->lines);
    }
    if (s && (!s->keys || !s->lines)) {
        mem_free(s->keys);
        mem_free(s->lines);
        mem_free(s);
        s = NULL;
    }
    return s;
}

/* The report cleared for game g, its scratch kept or made; NULL (the report
 * says invalid, out of memory) when there is no scratch to be had. */
static Scratch *check_begin(const PgnGame *g, GameReport *rep)
{
    Scratch *s = rep->priv;
    Diag *diags = rep->diags;
    if (!s) {
        s = scratch_new();
        if (!s) {
            memset(rep, 0, sizeof *rep);
            rep->game = g;
            rep->status = STATUS_ERROR;
            rep->reason = REASON_INVALID;
            rep->out_of_memory = true;
            return NULL;
        }
    }
    memset(rep, 0, sizeof *rep);
    rep->priv = s;
    rules_rep_reset(&s->rep); /* (the table holds another game's keys) */
    rep->diags = diags;
    rep->game = g;
    rep->out_of_memory = g->out_of_memory;
    return s;
}

/* The reader's findings first (with the user's severities), a game cut
 * off inside a comment, and --strict's export-format findings. */
static void take_reader_findings(Ctx *c)
{
    const PgnGame *g = c->g;
    GameReport *rep = c->rep;
    for (size_t i = 0; i < g->ndiags; i++) {
        const Diag *d = &g->diags[i];
        Severity sev = c->opt->severity[d->code];
        if (sev == SEV_NONE)
            continue;
        rep->counts[sev]++;
        if (rep->ndiags < GAME_MAX_DIAGS && say_reserve(c->s, rep)) {
            rep->diags[rep->ndiags] = *d;
            rep->diags[rep->ndiags++].severity = sev;
        } else {
            if (rep->ndiags < GAME_MAX_DIAGS)
                rep->out_of_memory = true;   /* (a drop past the cap is counted, not a failure) */
            rep->dropped++;
        }
    }
    rep->dropped += g->ndiags_dropped;
    /* Input that ends inside a comment or string ends inside the game too:
     * say that the game is cut off, not only that the comment is open. */
    if (g->truncated) {
        bool said = false;
        PgnPos at = g->start;
        for (size_t i = 0; i < g->ndiags; i++) {
            if (g->diags[i].code == D_MISSING_TERMINATION)
                said = true;
            if (g->diags[i].pos.offset > at.offset)
                at = g->diags[i].pos;
        }
        if (g->nelems && g->elems[g->nelems - 1].pos.offset > at.offset)
            at = g->elems[g->nelems - 1].pos;
        if (!said)
            say_add(c, D_MISSING_TERMINATION, at, 0, NULL,
                    "input ends inside the game (in a comment or string): no termination marker");
    }

    /* --strict: the export format (strict.c); a game without tags is not
     * in it, which missing-tag says. */
    if (c->opt->strict && g->ntags) {
        Diag ex[STRICT_MAX_FINDINGS];
        size_t nex = strict_check(g, ex);
        for (size_t i = 0; i < nex; i++)
            say_add(c, ex[i].code, ex[i].pos, 0, ex[i].move, "%s", ex[i].msg);
    }
}

/* The tags (game_tags.c) and the result declared; false for a fragment
 * of a game, which is not replayed. */
static bool read_tags(Ctx *c, Verdict *v)
{
    const PgnGame *g = c->g;
    GameReport *rep = c->rep;
    game_tags_find(g, &v->tags, &v->sink);
    rep->result_tag = game_tags_value(&v->tags, GAME_TAG_RESULT);
    c->date = game_tags_value(&v->tags, GAME_TAG_DATE);
    /* A chunk of a split file (GNU parallel --pipe) can start inside a
     * game: tagless movetext numbered from move 23 is a fragment, not a
     * game from the start position, so it is said so, not replayed. */
    long fragment_at = g->ntags == 0 ? first_number_ahead(g) : 0;
    if (fragment_at > 0) {
        rep->declared = g->result;
        say_add(c, D_GAME_FRAGMENT, g->start, 0, NULL,
                "movetext without tags starting at move %d: a fragment of a game (the input starts or resumes "
                "inside a game); not replayed", (int)fragment_at);
        rep->reason = REASON_INVALID;
        return false;
    }
    game_tags_roster(g, &v->tags, &v->sink);
    const PgnTag *rt = v->tags.tag[GAME_TAG_RESULT];
    rep->declared = g->result != PGN_RES_NONE ? g->result : v->tags.result;
    v->result_pos = g->result != PGN_RES_NONE ? g->result_pos : (rt ? rt->value_pos : g->start);
    return true;
}

/* A game of a variant not checked (Variant tag): its report made whole
 * here, skipped unless the text itself is broken (reader errors). */
static void skip_variant(Ctx *c, const Verdict *v)
{
    GameReport *rep = c->rep;
    const PgnTag *vt = v->tags.tag[GAME_TAG_VARIANT];
    say_add(c, D_VARIANT_SKIPPED, vt->pos, 0, NULL, "variant \"%.40s\" is not checked", vt->value);
    /* Variant movetext has its own notation (P@e4 drops in crazyhouse,
     * e4/H gating in Seirawan): characters the PGN reader does not
     * know are notes here, not errors.  Broken PGN structure (an open
     * comment, no termination marker, a bad tag) stays an error. */
    for (size_t i = 0; i < rep->ndiags; i++) {
        Diag *d = &rep->diags[i];
        if ((d->code == D_UNEXPECTED_CHAR || d->code == D_SYNTAX) && d->severity > SEV_NOTE) {
            rep->counts[d->severity]--;
            rep->counts[SEV_NOTE]++;
            d->severity = SEV_NOTE;
            size_t len = strlen(d->msg);
            snprintf(d->msg + len, sizeof d->msg - len, " (variant notation, not checked)");
        }
    }
    rep->status = rep->counts[SEV_ERROR] ? STATUS_ERROR : STATUS_SKIPPED;
    rep->outcome_known = rep->declared != PGN_RES_NONE;
    rep->outcome = rep->declared;
    rep->reason = REASON_UNVERIFIED;
    if (c->opt->report_laws)
        rep->laws = ctx_laws(c);
    say_sort(rep);
}

/* R20-R24: a set-up position can already be over (FIDE 5.1, 5.2, 9.6.2);
 * the standard start position is not, so it is not searched. */
static void start_ending(Ctx *c, Line *main_line)
{
    const Position *p0 = CUR(main_line);
    int ended = rules_board_ending(p0, gen_has_legal_move(p0));
    if (!ended && dead_by_blockade(c, p0)) {
        ended = REASON_DEAD_POSITION + 1;
        main_line->ended_proof = UNWIN_BY_BLOCKADE;
    } else if (!ended && dead_by_search(c, p0)) {
        ended = REASON_DEAD_POSITION + 1;
        main_line->ended_proof = UNWIN_BY_EXHAUSTION;
    }
    if (!ended && p0->halfmove >= 150) {
        /* R45: the 75-move rule ends a game from 1 July 2014 only. */
        Laws laws = ctx_laws(c);
        if (laws == LAWS_2014)
            ended = REASON_SEVENTY_FIVE + 1;
        else if (laws == LAWS_UNPROVEN) {
            main_line->would_end = REASON_SEVENTY_FIVE + 1;
            main_line->would_side = -1;
        }
    }
    if (ended) {
        main_line->ended = ended;
        main_line->ended_ply = 0;
        main_line->ended_side = -1;
    }
}

/* The main line at its start position (R3), the room its replay needs;
 * false for a FEN that sets up no legal game. */
static bool set_up(Ctx *c, Verdict *v)
{
    Scratch *s = c->s;
    GameReport *rep = c->rep;
    Line *main_line = &s->lines[0]; /* lines_cap >= 2 from the first call */
    /* All but the positions zeroed: cur is set below (pos_from_fen or
     * pos_startpos, each whole), prev is written before it is read. */
    memset((char *)main_line + offsetof(Line, ply), 0, sizeof *main_line - offsetof(Line, ply));
    v->valid = !c->g->syntax_error;
    if (!game_tags_start(&v->tags, c->chess960, CUR(main_line), &v->sink)) {
        rep->status = STATUS_ERROR;
        rep->reason = REASON_INVALID;
        rep->plies = 0;
        snprintf(rep->fen, sizeof rep->fen, "%s", "");
        return false;
    }
    s->keys[0] = CUR(main_line)->key;
    if (c->opt->collect_line && !line_begin(s, c, CUR(main_line), c->g->nelems)) {
        main_line->stopped = true; /* out of memory: the main line is not replayed */
        v->valid = false;
        rep->out_of_memory = true;
    }
    if (c->opt->record_moves && !record_begin(s, c, c->g->nelems)) {
        main_line->stopped = true; /* out of memory: the main line is not replayed */
        v->valid = false;
        rep->out_of_memory = true;
    }
    c->fen_start = v->tags.tag[GAME_TAG_FEN] != NULL;
    if (c->fen_start)
        start_ending(c, main_line);

    /* Room for a key per main-line ply, reserved once: a game has no more
     * plies than elements, and the replay loop then tests no capacity. */
    size_t nelems = c->g->nelems;
    if (nelems >= s->keys_cap) {
        size_t cap = s->keys_cap * 2;
        while (cap <= nelems)
            cap *= 2;
        uint64_t *k = mem_realloc(s->keys, cap, sizeof *k);
        if (k) {
            s->keys = k;
            s->keys_cap = cap;
        } else {
            main_line->stopped = true; /* out of memory: the main line is not replayed */
            v->valid = false;
            rep->out_of_memory = true;
        }
    }
    return true;
}

/* A variation starts at depth (1 = off the main line): its line, the
 * position before its parent's last move, or the stopped s->dead. */
static Line *variation_begin(Ctx *c, const PgnElem *e, int depth)
{
    Scratch *s = c->s;
    if (depth > PGN_MAX_DEPTH)
        return &s->dead;
    Line *child = line_at(s, (size_t)depth);
    Line *parent = &s->lines[depth - 1]; /* line_at may have moved the lines */
    if (!child) {
        c->rep->out_of_memory = true;
        return &s->dead; /* out of memory: moves at this depth are skipped */
    }
    memset(child, 0, sizeof *child);
    bool no_variations = c->opt->no_variations;
    if (no_variations && c->rec && (depth == 1 ? !parent->stopped : parent->quiet) && parent->has_prev) {
        child->cur = parent->prev; /* (played only to be recorded) */
        child->ply = parent->ply - 1;
        child->stopped = child->quiet = true;
        return child;
    }
    if (no_variations || parent->stopped || !parent->has_prev) {
        child->stopped = true;
        if (!no_variations && !parent->stopped && !parent->has_prev)
            say_add(c, D_SYNTAX, e->pos, 0, NULL, "a variation before any move it could replace");
        return child;
    }
    child->cur = parent->prev; /* kept by play() */
    child->ply = parent->ply - 1;
    return child;
}

/* The replay of the main line and its variations, element by element. */
static void replay(Ctx *c, Verdict *v)
{
    Scratch *s = c->s;
    const PgnGame *g = c->g;
    Claims cl = {0, 0, CUR(&s->lines[0])->halfmove >= 100 ? 1u : 0u};
    /* (no arithmetic on a null array: UBSan flags it even for + 0) */
    const PgnElem *elems_end = g->nelems ? g->elems + g->nelems : g->elems;
    int depth = 0;
    /* The line the moves go to, found again only where the depth
     * changes; the stopped s->dead beyond the depth kept (or out of
     * memory), so that a move needs one test. */
    Line *L = &s->lines[0];
    s->dead.stopped = true;
    /* A pointer walk to a local end: g->nelems would be read again
     * after every move (the stores of a move might alias it). */
    for (const PgnElem *e = g->elems; e != elems_end; e++) {
        if (e->kind == PGN_EL_MOVE) {
            if (L->stopped) {
                if (L->quiet)
                    L->quiet = play_quiet(c, L, e, elems_end);
                continue;
            }
            if (depth == 0 && !L->ended) {
                const PgnElem *next = c->keep_run     ? main_run_keep(c, L, e, elems_end, &cl)
                                      : c->dead_check ? main_run_dead(c, L, e, elems_end, &cl)
                                                      : main_run(c, L, e, elems_end, &cl);
                if (next != e) {
                    e = next - 1; /* (the loop steps on to next) */
                    continue;
                }
            }
            int played = play(c, L, e, elems_end, depth == 0, &cl);
            if (played != PLAY_OK) {
                L->stopped = true;
                if (depth == 0 && played == PLAY_ERROR)
                    v->valid = false;
                if (depth == 0 && played == PLAY_AFTER_END)
                    v->moves_after_end = c->rep->moves_after_end = true;
            }
        } else if (e->kind == PGN_EL_VAR_START) {
            depth++;
            L = variation_begin(c, e, depth);
        } else if (e->kind == PGN_EL_VAR_END) {
            if (L->would_end)
                judge_laws_2014(c, L, false, PGN_RES_NONE);
            if (depth > 0)
                depth--;
            L = depth <= PGN_MAX_DEPTH && (size_t)depth < s->lines_cap ? &s->lines[depth] : &s->dead;
        }
    }
}

/* R22: a final position dead by the blockade, which no ply of the usual
 * replay tests (it would cost every ply): then the game is replayed
 * testing every ply the proof's filter passes, to find the first dead
 * one.  (A dead position stays dead: every position after one is dead
 * too; so only a game whose final position is dead has a dead ply.) */
static bool needs_dead_replay(Ctx *c, const Verdict *v)
{
    const Line *main_line = &c->s->lines[0];
    return !c->dead_check && v->valid && !main_line->ended && !main_line->stopped &&
           (dead_by_blockade(c, CUR(main_line)) || dead_by_search(c, CUR(main_line)));
}

/* Where the main line stopped: its pending ending, its plies, its moves
 * (collect_line) and final FEN; false when it did not replay (invalid). */
static bool main_line_end(Ctx *c, const Verdict *v)
{
    Scratch *s = c->s;
    GameReport *rep = c->rep;
    Line *main_line = &s->lines[0];
    if (main_line->pending)
        resolve_pending(c, main_line);
    if (main_line->would_end && v->valid)
        judge_laws_2014(c, main_line, true, rep->declared);
    rep->plies = main_line->ply;
    /* (a game cut short is not the game: nothing to compare) */
    if (c->mv && v->valid && !main_line->stopped && !c->g->truncated && !rep->out_of_memory && rep->plies > 0) {
        rep->line = s->line;
        rep->line_len = (size_t)(c->mv - s->line) + rep->plies;
    }
    if (!c->opt->no_fen)
        pos_to_fen(CUR(main_line), rep->fen);
    if (!v->valid)
        rep->reason = REASON_INVALID;
    return v->valid;
}

/* The status from the findings, the marker --fix-results writes, the
 * findings in the order of the text. */
static void check_finish(Ctx *c)
{
    GameReport *rep = c->rep;
    if (c->opt->report_laws || c->laws >= 0)
        rep->laws = ctx_laws(c);
    /* A check that ran out of memory is incomplete (a line not replayed,
     * a finding dropped, a proof not searched): no verdict, as when the
     * scratch itself could not be had; the caller says "out of memory". */
    if (rep->out_of_memory)
        rep->reason = REASON_INVALID;
    if (!rep->outcome_known && rep->reason != REASON_INVALID)
        rep->reason = REASON_INVALID;
    if (rep->counts[SEV_ERROR])
        rep->status = STATUS_ERROR;
    else if (rep->counts[SEV_WARNING])
        rep->status = STATUS_WARNING;
    else
        rep->status = STATUS_OK;
    if (rep->out_of_memory)
        rep->status = STATUS_ERROR;
    if (rep->reason == REASON_INVALID) {
        rep->outcome_known = false;
        rep->fixed = PGN_RES_NONE;
    }
    marker_fix(c->g, rep);
    say_sort(rep);
}

static void say_nothing(void *arg, DiagCode code, PgnPos pos, const char *fmt, va_list ap)
{
    (void)arg, (void)code, (void)pos, (void)fmt, (void)ap;
}

/* A main line that broke (an illegal, ambiguous or unreadable move):
 * the repairs the rest of the game proves (repair.c), said in a note
 * after the error; the search runs only here, after an error. */
static void propose_repair(Ctx *c, const Verdict *v)
{
    GameReport *rep = c->rep;
    if (!c->opt->repair_search || rep->out_of_memory || c->g->syntax_error || c->g->truncated ||
        c->opt->severity[D_REPAIR_FOUND] == SEV_NONE)
        return;
    Position start;
    GameTagsSink quiet = {say_nothing, NULL};
    if (!game_tags_start(&v->tags, c->chess960, &start, &quiet))
        return;
    RepairSet *rs = &c->s->repair;
    if (!repair_search(c->g, &start, rep->declared, rs)) {
        rep->out_of_memory = true;
        return;
    }
    if (!rs->searched || !rs->n)
        return;
    rep->repair = rs;
    if (!repair_noted(rs))
        return;
    char msg[PGN_MSG];
    repair_message(rs, msg, sizeof msg);
    say_add(c, D_REPAIR_FOUND, rs->pos, rs->ply, rs->r[0].old_text, "%s", msg);
}

/* dead_check: the second replay (Ctx.dead_check). */
static void check_game(const PgnGame *g, const CheckOptions *opt, GameReport *rep, bool dead_check)
{
    Scratch *s = check_begin(g, rep);
    if (!s)
        return;
    Ctx c = {.g = g, .opt = opt, .rep = rep, .s = s, .laws = -1, .date_hi = UINT32_MAX, .dead_check = dead_check};
    Verdict v = {.sink = {say_tags, &c}};
    take_reader_findings(&c);
    if (read_tags(&c, &v)) {
        int variant = game_tags_variant(&v.tags);
        if (variant < 0) {
            skip_variant(&c, &v);
            return;
        }
        c.chess960 = variant == 1;
        if (set_up(&c, &v)) {
            replay(&c, &v);
            if (needs_dead_replay(&c, &v)) {
                check_game(g, opt, rep, true);
                return;
            }
            if (main_line_end(&c, &v)) {
                judge_clocks(&c, &v);
                judge_adjudicate(&c, &v);
            } else
                propose_repair(&c, &v);
            judge_after_end(&c);
        }
    }
    check_finish(&c);
}
