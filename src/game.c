/* game.c - replays a parsed game through the rules core and adjudicates its result. */
#include "game.h"
#include "laws.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "movegen.h"
#include "rules.h"
#include "dup.h"
#include "explain.h"
#include "game_tags.h"
#include "marker.h"
#include "mem.h"
#include "repair.h"
#include "strict.h"
#include "san.h"
#include "unwin.h"

/* One line of play: the main line or a variation being replayed. */
typedef struct Line {
    Position cur;          /* the position now (moves are made in place) */
    Position prev;         /* before the last move, kept only when a variation follows it */
    /* (from here on zeroed for each game: see set_up) */
    uint32_t ply;          /* ply number of the last move played */
    bool has_prev;         /* a move was played: a variation may replace it */
    bool stopped;          /* an error ended this line's replay */
    bool number_warned;    /* one move-number warning per line is enough */
    int ended;             /* automatic ending (Reason + 1), 0 if none */
    uint32_t ended_ply;
    /* The move after which it ended, for messages (formatted only when one
     * is written: ended_label): its number, side and text; side -1: the
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
} Scratch;

void check_options_default(CheckOptions *o)
{
    memset(o, 0, sizeof *o);
    o->repair_search = true;
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

/* The search table of unwin.c: one per thread (not per GameReport: a read
 * batch holds hundreds of reports, and a table in each made -j1 peak at
 * 396 MB, issue 33), UNWIN_TABLE_DEFAULT bytes allocated at the thread's
 * first search and kept until game_thread_free. */
static _Thread_local void *unwin_mem;
static _Thread_local UnwinTable unwin_table;

static UnwinTable *thread_unwin_table(void)
{
    if (!unwin_mem) {
        if (!(unwin_mem = mem_alloc(UNWIN_TABLE_DEFAULT)))
            return NULL;
        unwin_table_init(&unwin_table, unwin_mem, UNWIN_TABLE_DEFAULT);
    }
    return &unwin_table;
}

void game_thread_free(void)
{
    mem_free(unwin_mem);
    unwin_mem = NULL;
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
    }
    mem_free(s);
    mem_free(rep->diags);
    memset(rep, 0, sizeof *rep);
}

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
    /* what the clocks say of a decisive end (clock.c): 1 a flag fall by
     * the Termination tag, 2 by the clocks alone, 0 neither */
    int on_time;
    PgnPos result_pos;     /* (Verdict.result_pos, for clock findings about the end) */
    /* The main line's first move after the game ended on the board (R41):
     * said once the result is known (after_end_say), which decides how. */
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

/* Room for one more diagnostic: the array grows as a game needs it, so a
 * report costs little memory until a game has much to say. */
static bool reserve_diag(Scratch *s, GameReport *rep)
{
    if (rep->ndiags < s->diags_cap)
        return true;
    size_t cap = s->diags_cap ? s->diags_cap * 2 : 8;
    if (cap > GAME_MAX_DIAGS)
        cap = GAME_MAX_DIAGS;
    Diag *d = mem_realloc(rep->diags, cap, sizeof *d);
    if (!d)
        return false;
    rep->diags = d;
    s->diags_cap = cap;
    return true;
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

static void add_diag(Ctx *c, DiagCode code, PgnPos pos, uint32_t ply, const char *move, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

static void add_diag_v(Ctx *c, DiagCode code, PgnPos pos, uint32_t ply, const char *move, const char *fmt,
                       va_list ap) __attribute__((format(printf, 6, 0)));

static void add_diag(Ctx *c, DiagCode code, PgnPos pos, uint32_t ply, const char *move, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_diag_v(c, code, pos, ply, move, fmt, ap);
    va_end(ap);
}

/* game_tags.c's findings (GameTagsSink): ply 0, no move. */
static void tags_say(void *arg, DiagCode code, PgnPos pos, const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));

static void tags_say(void *arg, DiagCode code, PgnPos pos, const char *fmt, va_list ap)
{
    add_diag_v(arg, code, pos, 0, NULL, fmt, ap);
}

static void put_diag_v(Ctx *c, DiagCode code, Severity sev, PgnPos pos, uint32_t ply, const char *move,
                       const char *fmt, va_list ap) __attribute__((format(printf, 7, 0)));

static void add_diag_v(Ctx *c, DiagCode code, PgnPos pos, uint32_t ply, const char *move, const char *fmt,
                       va_list ap)
{
    Severity sev = c->opt->severity[code];
    /* --strict: the export format has no suffix annotations (PGN 8.2.3.8). */
    if (c->opt->strict && code == D_SUFFIX_ANNOTATION && sev != SEV_NONE && sev < SEV_WARNING)
        sev = SEV_WARNING;
    put_diag_v(c, code, sev, pos, ply, move, fmt, ap);
}

/* add_diag with the severity given (SEV_NONE: not said). */
static void put_diag_v(Ctx *c, DiagCode code, Severity sev, PgnPos pos, uint32_t ply, const char *move,
                       const char *fmt, va_list ap)
{
    if (sev == SEV_NONE)
        return;
    GameReport *rep = c->rep;
    rep->counts[sev]++;
    if (rep->ndiags >= GAME_MAX_DIAGS || !reserve_diag(c->s, rep)) {
        if (rep->ndiags < GAME_MAX_DIAGS)
            rep->out_of_memory = true;
        rep->dropped++;
        return;
    }
    Diag *d = &rep->diags[rep->ndiags++];
    d->code = code;
    d->severity = sev;
    d->pos = pos;
    d->ply = (int32_t)ply;
    snprintf(d->move, sizeof d->move, "%s", move ? move : "");
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
}

static bool diag_append(Ctx *c, DiagCode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Adds to the message of the game's first diagnostic of code (one that
 * is the root of another finding, which it now tells); false if there is
 * none.  (Cut at the message's cap, as every message is.) */
static bool diag_append(Ctx *c, DiagCode code, const char *fmt, ...)
{
    GameReport *rep = c->rep;
    for (size_t i = 0; i < rep->ndiags; i++)
        if (rep->diags[i].code == code) {
            Diag *d = &rep->diags[i];
            size_t len = strlen(d->msg);
            va_list ap;
            va_start(ap, fmt);
            vsnprintf(d->msg + len, sizeof d->msg - len, fmt, ap);
            va_end(ap);
            return true;
        }
    return false;
}

/* Takes back the diagnostic of code at byte offset `at`, if one was
 * made; returns whether it did. */
static bool drop_diag_at(Ctx *c, DiagCode code, uint64_t at)
{
    GameReport *rep = c->rep;
    for (size_t i = rep->ndiags; i-- > 0;)
        if (rep->diags[i].code == code && rep->diags[i].pos.offset == at) {
            rep->counts[rep->diags[i].severity]--;
            memmove(&rep->diags[i], &rep->diags[i + 1], (rep->ndiags - i - 1) * sizeof rep->diags[i]);
            rep->ndiags--;
            return true;
        }
    return false;
}

/* Takes back the last diagnostic of code, if one was made; returns
 * whether it did. */
static bool drop_diag(Ctx *c, DiagCode code)
{
    GameReport *rep = c->rep;
    for (size_t i = rep->ndiags; i-- > 0;)
        if (rep->diags[i].code == code) {
            rep->counts[rep->diags[i].severity]--;
            memmove(&rep->diags[i], &rep->diags[i + 1], (rep->ndiags - i - 1) * sizeof rep->diags[i]);
            rep->ndiags--;
            return true;
        }
    return false;
}

static const char *color_name(int c) { return c == WHITE ? "White" : "Black"; }

/* "12. Nf3" or "12... Nf3" for messages. */
static void move_label(uint32_t fullmove, int side, const char *text, char *buf, size_t cap)
{
    snprintf(buf, cap, "%u%s %s", (unsigned)fullmove, side == WHITE ? "." : "...", text);
}

/* "after 38. Kg1" (or "in the FEN start position"): where line L ended. */
static const char *ended_label(const Line *L, char *buf, size_t cap)
{
    if (L->ended_side < 0)
        return "in the FEN start position";
    char lab[48];
    move_label(L->ended_full, L->ended_side, L->ended_text, lab, sizeof lab);
    snprintf(buf, cap, "after %s", lab);
    return buf;
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

/* FIDE 6.9 / R29: can `color` checkmate from p by any series of legal
 * moves?  False only when proven: by the material rules (rules.c), or
 * for a position whose pawns may be locked (unwin_may_be_blocked: a man
 * ahead of every pawn on its file, no castling right) by the
 * blockade proof of unwin.c, a static test of a few microseconds.  The
 * searches of unwin_decide are not run here: they cost milliseconds on
 * a locked position that is winnable, and those are far more common in
 * real games than unwinnable ones.  *why: the proof when false. */
static bool can_mate(const Position *p, int color, UnwinReason *why)
{
    *why = UNWIN_BY_MATERIAL;
    if (!pos_can_mate(p, color))
        return false;
    *why = UNWIN_BY_BLOCKADE;
    return !(unwin_may_be_blocked(p) && unwin_blockade(p, color));
}

/* can_mate, and then with --unwin-nodes the cheap filter
 * (unwin_quick_winnable) and, where it does not answer, the searches of
 * unwin_decide (a helpmate; every position that can follow) within that
 * many nodes, on the final position of a decisive result: false only
 * for a proof (UNWIN_UNWINNABLE); a helpmate, or the budget spent
 * (undetermined), leave the result standing. */
static bool can_mate_deep(Ctx *c, const Position *p, int color, UnwinReason *why)
{
    if (!can_mate(p, color, why))
        return false;
    if (!c->opt->unwin_nodes || unwin_quick_winnable(p, color))
        return true;
    UnwinTable *t = thread_unwin_table();
    if (!t) {
        c->rep->out_of_memory = true;
        return true;
    }
    UnwinResult r;
    if (unwin_decide(p, color, t, c->opt->unwin_nodes, &r) != UNWIN_UNWINNABLE)
        return true;
    *why = r.reason;
    return false;
}

/* Why a colour cannot mate, after can_mate said so: "" for the material
 * alone (the message says enough), else a short clause (a message has
 * PGN_MSG bytes): the blockade proof of unwin.c, the pawns locked for
 * ever and no square the king can reach where a mate could be given. */
static const char *cannot_mate_why(UnwinReason why)
{
    switch (why) {
    case UNWIN_BY_BLOCKADE: return " (pawns locked for ever, no mating square)";
    case UNWIN_BY_EXHAUSTION: return " (no position that can follow is a mate)";
    default: return "";
    }
}

/* Over-disambiguation: name the canonical move, and the pinned piece that
 * made the writer think it was needed (PGN standard 8.2.3.4: only legal
 * moves are told apart). */
static void note_overdisambiguated(Ctx *c, const Position *pos, const SanResult *r, const PgnElem *e, uint32_t ply,
                                   const char *label)
{
    char msg[128];
    explain_overdisambiguated(pos, r, msg, sizeof msg);
    add_diag(c, D_OVERDISAMBIGUATED, e->pos, ply, e->text, "%s%s", label, msg);
}

static void note_notation(Ctx *c, const Position *pos, const SanResult *r, const PgnElem *e, uint32_t ply,
                          const char *label)
{
    static const struct {
        unsigned bit;
        DiagCode code;
        const char *text;
    } notes[] = {
        {SAN_NOTE_CASTLE_ZEROS, D_CASTLE_ZEROS, "castling is written with the letter O, not zeros"},
        {SAN_NOTE_PROMO_NO_EQUALS, D_PROMO_NO_EQUALS, "a promotion is written with = before the piece"},
        {SAN_NOTE_PROMO_LOWERCASE, D_PROMO_LOWERCASE, "the promotion piece letter should be upper case"},
        {SAN_NOTE_CAPTURE_MISSING, D_CAPTURE_MARK_MISSING, "the move captures but has no x"},
        {SAN_NOTE_CAPTURE_SURPLUS, D_CAPTURE_MARK_SURPLUS, "x written but the move captures nothing"},
        {SAN_NOTE_OVERDISAMBIGUATED, D_OVERDISAMBIGUATED, "more of the origin square is given than needed"},
        {SAN_NOTE_UNDERDISAMBIGUATED_FILE, D_OVERDISAMBIGUATED, "the origin rank is given where the file is the standard choice"},
        {SAN_NOTE_LONG_ALGEBRAIC, D_LONG_ALGEBRAIC, "long algebraic notation"},
        {SAN_NOTE_UCI, D_UCI_MOVE, "UCI coordinate notation"},
        {SAN_NOTE_SUFFIX, D_SUFFIX_ANNOTATION, "a suffix annotation is attached to the move"},
        {SAN_NOTE_EP_SUFFIX, D_EP_SUFFIX, "\"e.p.\" is not part of SAN"},
        {SAN_NOTE_PAWN_LETTER, D_PAWN_LETTER, "pawn moves are written without P"},
    };
    unsigned bits = r->notes;
    char san[24] = "";
    if (bits & (SAN_NOTE_LONG_ALGEBRAIC | SAN_NOTE_UCI)) {
        /* One mistake, one warning: a move not in SAN is said once, with
         * its SAN, mark included.  What writing it in SAN puts right (an
         * x, an =, a capital promotion letter, no P, the + or # that the
         * notation left out) is part of that warning, not a warning of
         * its own; a mark that says something false (x on a non-capture,
         * + on a non-check) still is one. */
        bits &= ~(unsigned)(SAN_NOTE_CAPTURE_MISSING | SAN_NOTE_PROMO_NO_EQUALS | SAN_NOTE_PROMO_LOWERCASE |
                            SAN_NOTE_PAWN_LETTER);
        size_t n = san_format_nomark(pos, r->move, san);
        Position after = *pos;
        pos_do(&after, r->move);
        if (after.checkers && n + 1 < sizeof san) {
            san[n] = pos_has_legal_move(&after) ? '+' : '#';
            san[n + 1] = '\0';
        }
        c->mark_in_note = r->mark == 0;
    }
    for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++)
        if (bits & notes[i].bit) {
            if (notes[i].bit == SAN_NOTE_OVERDISAMBIGUATED)
                note_overdisambiguated(c, pos, r, e, ply, label);
            else if (notes[i].bit & (SAN_NOTE_LONG_ALGEBRAIC | SAN_NOTE_UCI))
                add_diag(c, notes[i].code, e->pos, ply, e->text, "%s: %s; in SAN: %s", label, notes[i].text, san);
            else
                add_diag(c, notes[i].code, e->pos, ply, e->text, "%s: %s", label, notes[i].text);
        }
}

/* extra: said at the end of the message (the move number's disagreement,
 * see play), "" if nothing. */
static void report_bad_move(Ctx *c, const Position *pos, const SanResult *r, const PgnElem *e, uint32_t ply,
                            const char *label, bool in_variation, const char *extra)
{
    /* A token too long to be a move: the reader has said so
     * (token-too-long, at the token): once is enough, unless that check
     * is turned off. */
    if (r->status == SAN_SYNTAX && e->truncated && c->opt->severity[D_TOKEN_TOO_LONG] != SEV_NONE)
        return;
    char msg[256];
    DiagCode code = explain_bad_move(pos, r, e->text, e->truncated, in_variation, msg, sizeof msg);
    /* One mistake, one error: SetUp "1" without its FEN (an error of its
     * own) leaves the standard position, where the main line's moves fail
     * for that reason; the failing move is told in that error. */
    bool fold = !in_variation && !c->fen_start && (code == D_ILLEGAL_MOVE || code == D_AMBIGUOUS_MOVE) &&
                c->opt->severity[code] != SEV_NONE &&
                c->opt->severity[D_SETUP_WITHOUT_FEN] >= c->opt->severity[code];
    if (fold && diag_append(c, D_SETUP_WITHOUT_FEN, "; there %s (ply %u) cannot be played", label, (unsigned)ply))
        return;
    add_diag(c, code, e->pos, ply, e->text, "%s%s%s", label, msg, extra);
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

static const char *ending_text(int reason)
{
    switch (reason) {
    case REASON_CHECKMATE: return "checkmate";
    case REASON_STALEMATE: return "stalemate";
    case REASON_DEAD_POSITION: return "a dead position (no mating material)";
    case REASON_FIVEFOLD: return "fivefold repetition";
    case REASON_SEVENTY_FIVE: return "the 75-move rule";
    default: return "the end of the game";
    }
}

/* The ending of line L for a message: a dead position says which proof. */
static const char *line_ending_text(const Line *L)
{
    if (L->ended_proof == UNWIN_BY_BLOCKADE)
        return "a dead position (pawns locked for ever, no mating square)";
    if (L->ended_proof == UNWIN_BY_EXHAUSTION)
        return "a dead position (neither side can ever mate: searched)";
    return ending_text(L->ended - 1);
}

static Laws ctx_laws(Ctx *c);

/* R22 (FIDE 5.2.2): dead beyond the material list, where the pawns may
 * be locked (unwin_may_be_blocked, a necessary condition) and the
 * blockade proof of unwin.c shows that neither colour can ever mate.  The general rule is in the Laws of
 * 1997 and after (5.2 b; laws.h, Laws): applied only where the game's
 * date shows them (its earliest day from 1997-07-01; an undated game is
 * judged by the older laws, whose list the material rules cover). */
static bool dead_by_blockade(Ctx *c, const Position *p)
{
    if (!unwin_may_be_blocked(p))
        return false;
    (void)ctx_laws(c);
    return c->date_lo >= LAWS_1997_FROM && unwin_blockade(p, WHITE) && unwin_blockade(p, BLACK);
}

/* R22 (FIDE 5.2.2) by the searches of unwin.c (--unwin-nodes): neither
 * colour can ever mate.  Dated as dead_by_blockade.
 * The cheap filter (unwin_quick_winnable) answers for most positions
 * that one colour can still mate; only the others are searched, the side
 * that has just moved first; an undetermined answer is no proof.  Asked
 * of a game's final position (needs_dead_replay), of a set-up start
 * position, and, in the second replay of a game whose final position is
 * dead, of every ply, so that the first dead one is found. */
static bool dead_by_search(Ctx *c, const Position *p)
{
    if (!c->opt->unwin_nodes)
        return false;
    (void)ctx_laws(c);
    if (c->date_lo < LAWS_1997_FROM || unwin_quick_winnable(p, p->side ^ 1) || unwin_quick_winnable(p, p->side))
        return false;
    UnwinTable *t = thread_unwin_table();
    if (!t) {
        c->rep->out_of_memory = true;
        return false;
    }
    UnwinResult r;
    for (int k = 1; k >= 0; k--)
        if (unwin_decide(p, p->side ^ k, t, c->opt->unwin_nodes, &r) != UNWIN_UNWINNABLE)
            return false;
    return true;
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
    if (pos_has_legal_move(p))
        return;
    /* The label of the move that left the position, from the position. */
    int side = p->side ^ 1;
    if (p->checkers) {
        char label_buf[48];
        move_label(p->fullmove - (uint32_t)(side == BLACK), side, e->text, label_buf, sizeof label_buf);
        add_diag(c, D_MATE_MARK_MISSING, e->pos, L->ply, e->text, "%s: the move gives checkmate but is marked %s",
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
    (move_label(p->fullmove - (uint32_t)(p->side == WHITE), p->side ^ 1, e->text, label_buf, sizeof label_buf), \
     label_buf)
    /* R20/R21: is the side now to move mated or stalemated?  In check
     * the answer decides the marks, so it is found now; out of check only
     * stalemate is open, and that waits (see Line.pending) unless another
     * ending or a claim needs to know now. */
    bool any = true, any_known = false;
#define ANY() (any_known ? any : (any_known = true, any = pos_has_legal_move(p)))
    if (p->checkers)
        (void)ANY();
    bool mate = p->checkers && !any;
    /* R42: the check and mate marks. */
    if (mate && mark != 2 && !(mark == 0 && c->mark_in_note))
        add_diag(c, D_MATE_MARK_MISSING, e->pos, ply, e->text, "%s: the move gives checkmate but is marked %s", label,
                 mark == 1 ? "+ instead of #" : "with no #");
    else if (!mate && p->checkers && mark == 0 && !c->mark_in_note)
        add_diag(c, D_CHECK_MARK_MISSING, e->pos, ply, e->text, "%s: the move gives check but has no +", label);
    else if (!mate && p->checkers && mark == 2)
        add_diag(c, D_MATE_MARK_WRONG, e->pos, ply, e->text, "%s: marked # but it is only check", label);
    else if (!p->checkers && mark)
        add_diag(c, D_CHECK_MARK_WRONG, e->pos, ply, e->text, "%s: marked %s but the move gives no check", label,
                 mark == 2 ? "#" : "+");

    /* Material changes only by a capture or a promotion (R22), and both
     * reset the halfmove clock; so does a pawn move, but a pawn left on
     * the board is mating material, which the inline test sees first. */
    int ended = 0;
    int ended2014 = 0; /* an ending of the 2014 Laws only (R45) */
    if (any_known)
        ended = rules_board_ending(p, any);
    else if (p->halfmove == 0 && !(p->by_type[PAWN] | p->by_type[ROOK] | p->by_type[QUEEN]) &&
             pos_insufficient_material(p))
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
                    add_diag(c, D_THREEFOLD, e->pos, ply, e->text,
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
            add_diag(c, D_FIFTY_MOVES, e->pos, ply, e->text,
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
 * next move, which cannot be made.  (pos_has_legal_move for every such
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
static inline void check_number(Ctx *c, Line *L, const PgnElem *e, uint32_t ply, uint32_t number)
{
    const Position *p = CUR(L);
    /* One branch, almost never taken: with && the "is a number written"
     * test, true for White's moves and false for Black's, was a branch of
     * its own that the processor mispredicted often (tests/BENCH.md).
     * In 64 bits the written number (-1 when none,
     * any negative counted so) and the position's (below 2^32) differ in
     * the sign bit when none is written and else are equal or give a
     * positive xor, so that one test is left. */
    if ((((int64_t)e->number ^ (int64_t)number) > 0) & !L->number_warned) {
        L->number_warned = true;
        if (ply == 1 && L == c->s->lines && !c->fen_start && e->number > 1) {
            c->start_number = e->number;
            c->start_number_at = e->pos.offset;
        }
        add_diag(c, D_MOVE_NUMBER, e->pos, ply, e->text, "move number %d, but this is move %u of %s", (int)e->number,
                 (unsigned)number, color_name(p->side ^ 1));
    }
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
    (move_label(p->fullmove - (uint32_t)(moved && p->side == WHITE), p->side ^ moved, e->text, label_buf,         \
                sizeof label_buf),                                                                                \
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
        parsed = mv ? play_keep(p, e, &mv[ply - 1]) : san_play(p, e->text, e->len);
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
                /* said with the result (after_end_say) */
                c->after_end = e;
                c->after_ply = ply;
                snprintf(c->after_label, sizeof c->after_label, "%s", label);
                return PLAY_AFTER_END;
            }
            char at[64];
            add_diag(c, D_MOVES_AFTER_END, e->pos, ply, e->text, "%s: the game was already over by %s %s (ply %u)",
                     label, line_ending_text(L), ended_label(L, at, sizeof at), (unsigned)L->ended_ply);
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
                         (unsigned)before->fullmove, color_name(before->side));
            else if (main_line && c->start_number) {
                /* (the game's first move was numbered so: one mistake) */
                drop_diag_at(c, D_MOVE_NUMBER, c->start_number_at);
                snprintf(extra, sizeof extra, "; it starts at move %ld with no FEN: opening moves or a FEN tag missing",
                         c->start_number);
            }
            report_bad_move(c, before, &r, e, ply, label, !main_line, extra);
            return PLAY_ERROR;
        }
        if (number_off) {
            add_diag(c, D_MOVE_NUMBER, e->pos, ply, e->text, "move number %d, but this is move %u of %s",
                     (int)e->number, (unsigned)before->fullmove, color_name(before->side));
            if (main_line && ply == 1 && !c->fen_start && e->number > 1) {
                c->start_number = e->number;
                c->start_number_at = e->pos.offset;
            }
        }
        if (notes)
            note_notation(c, before, &r, e, ply, label);
        if (e + 1 < end && e[1].kind == PGN_EL_VAR_START)
            L->prev = *p;
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
                                            const bool dead_check, const bool keep)
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
        uint32_t parsed = keep ? play_keep(p, e, &c->mv[ply]) : san_play(p, e->text, e->len);
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
 * and once keeping the moves (--duplicates: Ctx.mv), either way. */
static CHESS_NOINLINE const PgnElem *main_run(Ctx *c, Line *L, const PgnElem *e, const PgnElem *end, Claims *cl)
{
    return main_run_as(c, L, e, end, cl, false, false);
}

static CHESS_NOINLINE const PgnElem *main_run_dead(Ctx *c, Line *L, const PgnElem *e, const PgnElem *end, Claims *cl)
{
    return main_run_as(c, L, e, end, cl, true, false);
}

static CHESS_NOINLINE const PgnElem *main_run_keep(Ctx *c, Line *L, const PgnElem *e, const PgnElem *end, Claims *cl)
{
    return c->dead_check ? main_run_as(c, L, e, end, cl, true, true) : main_run_as(c, L, e, end, cl, false, true);
}

static int diag_cmp(const void *a, const void *b)
{
    const Diag *x = a, *y = b;
    if (x->pos.offset != y->pos.offset)
        return x->pos.offset < y->pos.offset ? -1 : 1;
    return 0;
}

static void sort_diags(GameReport *rep)
{
    /* Stable insertion sort: diagnostics arrive almost in order. */
    for (size_t i = 1; i < rep->ndiags; i++) {
        Diag tmp = rep->diags[i];
        size_t j = i;
        while (j > 0 && diag_cmp(&rep->diags[j - 1], &tmp) > 0) {
            rep->diags[j] = rep->diags[j - 1];
            j--;
        }
        rep->diags[j] = tmp;
    }
}

static void set_outcome(GameReport *rep, PgnResult r, Reason why)
{
    rep->outcome_known = true;
    rep->outcome = r;
    rep->reason = why;
}

/* The laws of game g from its Date tag (date), else its UTCDate and
 * EventDate tags, which only an undecided date needs looked for. */
static Laws game_laws(const PgnGame *g, const char *date, uint32_t *lo, uint32_t *hi)
{
    /* (the usual game: a date that decides, no other tag looked for) */
    if (pgn_date_bounds(date, lo, hi) && (*hi < LAWS_2014_FROM || *lo >= LAWS_2014_FROM))
        return *hi < LAWS_2014_FROM ? LAWS_1997 : LAWS_2014;
    const char *utc = NULL, *event = NULL;
    for (size_t i = 0; i < g->ntags; i++) {
        if (!strcmp(g->tags[i].name, "UTCDate") && !utc)
            utc = g->tags[i].value;
        else if (!strcmp(g->tags[i].name, "EventDate") && !event)
            event = g->tags[i].value;
    }
    return laws_date_range(date, utc, event, lo, hi);
}

/* The Laws that judge the game of c, found when first asked: few games
 * reach a position where they differ, and only JSON Lines and TSV show
 * them for every game. */
static Laws ctx_laws(Ctx *c)
{
    if (c->laws >= 0)
        return (Laws)c->laws;
    Laws l;
    if (c->opt->rules == RULES_2014) {
        c->date_lo = LAWS_2014_FROM;
        l = LAWS_2014;
    } else if (c->opt->rules == RULES_1997) {
        c->date_lo = LAWS_1997_FROM;
        c->date_hi = LAWS_2014_FROM - 1;
        l = LAWS_1997;
    } else
        l = game_laws(c->g, c->date, &c->date_lo, &c->date_hi);
    c->laws = (int)l;
    return l;
}

/* R45: line L reached a fivefold repetition or a 75-move position that
 * would have ended the game under the Laws of 2014, and the game's date
 * does not show that they applied: warned when it matters, that is when
 * play went on in the line, or (main line) when the result is not the
 * draw those laws give. */
static void warn_2014_ending(Ctx *c, const Line *L, bool main_line, PgnResult declared)
{
    bool went_on = L->ply > L->would_ply;
    if (!went_on && !(main_line && declared != PGN_RES_DRAW))
        return;
    char at[64];
    if (L->would_side < 0)
        snprintf(at, sizeof at, "in the FEN start position");
    else {
        char lab[48];
        move_label(L->would_full, L->would_side, L->would_elem->text, lab, sizeof lab);
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
    add_diag(c, D_LAWS_2014_ENDING, pos, L->would_ply, L->would_elem ? L->would_elem->text : NULL,
             "%s %s: drawn by the Laws from 2014-07-01 (%s), but %s leaves the laws open, so %s",
             L->would_end - 1 == REASON_FIVEFOLD ? "fivefold repetition" : "the 75-move rule",
             at, L->would_end - 1 == REASON_FIVEFOLD ? LAW_R23 : LAW_R24, dbuf, tail);
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

/* What the stages of one game's check (check_game) hand on. */
typedef struct Verdict {
    GameTags tags;
    GameTagsSink sink;     /* game_tags.c's findings: to add_diag */
    PgnPos result_pos;     /* where a result's finding goes: the marker, else the Result tag's value */
    bool valid;            /* the main line replays (no syntax error, no illegal move, memory) */
    bool moves_after_end;  /* the main line goes on after the game ended: PlyCount is not compared */
} Verdict;

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
        if (rep->ndiags < GAME_MAX_DIAGS && reserve_diag(c->s, rep)) {
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
            add_diag(c, D_MISSING_TERMINATION, at, 0, NULL,
                     "input ends inside the game (in a comment or string): no termination marker");
    }

    /* --strict: the export format (strict.c); a game without tags is not
     * in it, which missing-tag says. */
    if (c->opt->strict && g->ntags) {
        Diag ex[STRICT_MAX_FINDINGS];
        size_t nex = strict_check(g, ex);
        for (size_t i = 0; i < nex; i++)
            add_diag(c, ex[i].code, ex[i].pos, 0, ex[i].move, "%s", ex[i].msg);
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
        add_diag(c, D_GAME_FRAGMENT, g->start, 0, NULL,
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
    add_diag(c, D_VARIANT_SKIPPED, vt->pos, 0, NULL, "variant \"%.40s\" is not checked", vt->value);
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
    sort_diags(rep);
}

/* R20-R24: a set-up position can already be over (FIDE 5.1, 5.2, 9.6.2);
 * the standard start position is not, so it is not searched. */
static void start_ending(Ctx *c, Line *main_line)
{
    const Position *p0 = CUR(main_line);
    int ended = rules_board_ending(p0, pos_has_legal_move(p0));
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
    if (no_variations || parent->stopped || !parent->has_prev) {
        child->stopped = true;
        if (!no_variations && !parent->stopped && !parent->has_prev)
            add_diag(c, D_SYNTAX, e->pos, 0, NULL, "a variation before any move it could replace");
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
            if (L->stopped)
                continue;
            if (depth == 0 && !L->ended) {
                const PgnElem *next = c->mv           ? main_run_keep(c, L, e, elems_end, &cl)
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
                warn_2014_ending(c, L, false, PGN_RES_NONE);
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
        warn_2014_ending(c, main_line, true, rep->declared);
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

static void put_diag(Ctx *c, DiagCode code, Severity sev, PgnPos pos, uint32_t ply, const char *move,
                     const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void put_diag(Ctx *c, DiagCode code, Severity sev, PgnPos pos, uint32_t ply, const char *move,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    put_diag_v(c, code, sev, pos, ply, move, fmt, ap);
    va_end(ap);
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
                                                              : ending_text(L->ended - 1);
    if (L->ended_side < 0) {
        snprintf(buf, cap, "in the FEN start position by %s", why);
        return buf;
    }
    char lab[48];
    move_label(L->ended_full, L->ended_side, L->ended_text, lab, sizeof lab);
    snprintf(buf, cap, "at ply %u (%s) by %s", (unsigned)L->ended_ply, lab, why);
    return buf;
}

/* Moves after the main line's ending whose result did not say them
 * (judge_ended folds them into a wrong result).  After an automatic draw
 * (R22, and R23/R24 where the Laws of 2014 judge the game, R45) in a
 * game declared 1/2-1/2 the record is faithful and its result right: a
 * warning (CheckOptions.after_draw).  After checkmate or stalemate, or
 * with another result, the moves are not part of any game: an error. */
static void after_end_say(Ctx *c)
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
        put_diag(c, D_MOVES_AFTER_END, c->opt->after_draw, e->pos, c->after_ply, e->text,
                 "%s: played after the game was drawn %s (%s)", moves, ended_at(L, at, sizeof at),
                 ending_law(why));
    } else
        add_diag(c, D_MOVES_AFTER_END, e->pos, c->after_ply, e->text, "%s: the game was already over by %s %s (ply %u)",
                 c->after_label, line_ending_text(L), ended_label(L, at, sizeof at), (unsigned)L->ended_ply);
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
            !diag_append(c, D_MISSING_TERMINATION, "; the game ended by %s %s: it must be %s",
                         line_ending_text(main_line), ended_label(main_line, at, sizeof at), result_text(must)))
            add_diag(c, D_UNFINISHED_DECIDED, v->result_pos, 0, NULL,
                     "the result is %s but the game ended by %s %s: it must be %s", res,
                     line_ending_text(main_line), ended_label(main_line, at, sizeof at), result_text(must));
    } else if (why != REASON_CHECKMATE && why != REASON_STALEMATE) {
        /* One mistake, one diagnostic: moves recorded after an automatic
         * draw are part of the unfinished result. */
        size_t more = after_moves(c, moves, sizeof moves);
        add_diag(c, D_UNFINISHED_DECIDED, v->result_pos, 0, NULL,
                 "the result is %s but the game ended %s; %s follow%s: it must be %s", res,
                 ended_at(main_line, at, sizeof at), moves, more ? "" : "s", result_text(must));
        c->after_end = NULL;
    } else {
        /* After checkmate or stalemate they are illegal: the error
         * moves-after-end says the result too. */
        const PgnElem *e = c->after_end;
        add_diag(c, D_MOVES_AFTER_END, e->pos, c->after_ply, e->text,
                 "%s: the game was already over by %s %s (ply %u); the result %s must be %s", c->after_label,
                 line_ending_text(main_line), ended_label(main_line, at, sizeof at),
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
                         c->opt->severity[D_WRONG_RESULT] != SEV_NONE && drop_diag(c, D_RESULT_MISMATCH);
        /* One mistake, one error: moves recorded after the ending, under
         * a result that ignores it, are the same mistake (R41). */
        if (c->after_end && c->opt->severity[D_WRONG_RESULT] != SEV_NONE) {
            char moves[96];
            size_t more = after_moves(c, moves, sizeof moves);
            add_diag(c, D_WRONG_RESULT, v->result_pos, 0, NULL,
                     "Result %s, but the game ended %s; %s follow%s: it must be %s%s (%s)", result_text(declared),
                     ended_at(main_line, at, sizeof at), moves, more ? "" : "s", result_text(must),
                     tag_right ? ", as its tag has it" : "", ending_law(why));
            c->after_end = NULL;
        } else
            add_diag(c, D_WRONG_RESULT, v->result_pos, 0, NULL,
                     "Result %s contradicts %s %s: the result must be %s%s (%s)", result_text(declared),
                     line_ending_text(main_line), ended_label(main_line, at, sizeof at), result_text(must),
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
    bool can = can_mate_deep(c, CUR(&c->s->lines[0]), winner, &why);
    if (c->on_time == 2 && can) {
        set_outcome(rep, declared, REASON_TIME_FORFEIT);   /* read from the clocks (clock.c) */
        return;
    }
    if (game_tags_time_forfeit(term) || clock_termination_on_time(term) == 1) {
        if (!can) {
            add_diag(c, D_WRONG_RESULT, v->result_pos, 0, NULL,
                     "Result %s on time, but %s cannot checkmate by any series of legal moves%s: "
                     "the game is drawn (" LAW_R29 ")", result_text(declared), color_name(winner),
                     cannot_mate_why(why));
            set_outcome(rep, PGN_RES_DRAW, REASON_NO_MATING_MATERIAL);
            rep->fixed = PGN_RES_DRAW;
        } else
            set_outcome(rep, declared, REASON_TIME_FORFEIT);
    } else {
        if (!can)
            add_diag(c, D_DECISIVE_NO_MATERIAL, v->result_pos, 0, NULL,
                     "Result %s although %s cannot checkmate by any series of legal moves%s: "
                     "possible only by resignation", result_text(declared), color_name(winner),
                     cannot_mate_why(why));
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
    add_diag_v(c, code, pos ? *pos : c->result_pos, ply, move, fmt, ap);
}

/* The clocks of a replayed main line (clock.c): nothing to do, and
 * nothing paid, for a game without clock comments. */
static void judge_clocks(Ctx *c, const Verdict *v)
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
static void adjudicate(Ctx *c, const Verdict *v)
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
                 (!pos_can_mate(fin, WHITE) || !pos_can_mate(fin, BLACK)))
            set_outcome(rep, PGN_RES_DRAW, REASON_NO_MATING_MATERIAL);
        else
            set_outcome(rep, PGN_RES_DRAW, REASON_UNVERIFIED);
    } else
        set_outcome(rep, PGN_RES_UNKNOWN, REASON_UNFINISHED);

    /* R44: PlyCount. */
    if (!v->moves_after_end)
        game_tags_plycount(&v->tags, rep->plies, &v->sink);
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
    sort_diags(rep);
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
    char msg[PGN_MSG];
    repair_message(rs, msg, sizeof msg);
    add_diag(c, D_REPAIR_FOUND, rs->pos, rs->ply, rs->r[0].old_text, "%s", msg);
}

/* dead_check: the second replay (Ctx.dead_check). */
static void check_game(const PgnGame *g, const CheckOptions *opt, GameReport *rep, bool dead_check)
{
    Scratch *s = check_begin(g, rep);
    if (!s)
        return;
    Ctx c = {.g = g, .opt = opt, .rep = rep, .s = s, .laws = -1, .date_hi = UINT32_MAX, .dead_check = dead_check};
    Verdict v = {.sink = {tags_say, &c}};
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
                adjudicate(&c, &v);
            } else
                propose_repair(&c, &v);
            after_end_say(&c);
        }
    }
    check_finish(&c);
}
