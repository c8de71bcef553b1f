/* say.c - the findings of one game's check: made, amended, taken back and sorted, and the words they share. */
#include "say.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "unwin.h"

/* Room for one more diagnostic: the array grows as a game needs it, so a
 * report costs little memory until a game has much to say. */
bool say_reserve(Scratch *s, GameReport *rep)
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

void say_add(Ctx *c, DiagCode code, PgnPos pos, uint32_t ply, const char *move, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_add_v(c, code, pos, ply, move, fmt, ap);
    va_end(ap);
}

/* game_tags.c's findings (GameTagsSink): ply 0, no move. */
void say_tags(void *arg, DiagCode code, PgnPos pos, const char *fmt, va_list ap)
{
    say_add_v(arg, code, pos, 0, NULL, fmt, ap);
}

void say_add_v(Ctx *c, DiagCode code, PgnPos pos, uint32_t ply, const char *move, const char *fmt,
               va_list ap)
{
    Severity sev = c->opt->severity[code];
    /* --strict: the export format has no suffix annotations (PGN 8.2.3.8). */
    if (c->opt->strict && code == D_SUFFIX_ANNOTATION && sev != SEV_NONE && sev < SEV_WARNING)
        sev = SEV_WARNING;
    say_put_v(c, code, sev, pos, ply, move, fmt, ap);
}

/* say_add with the severity given (SEV_NONE: not said). */
void say_put_v(Ctx *c, DiagCode code, Severity sev, PgnPos pos, uint32_t ply, const char *move,
               const char *fmt, va_list ap)
{
    if (sev == SEV_NONE)
        return;
    GameReport *rep = c->rep;
    rep->counts[sev]++;
    if (rep->ndiags >= GAME_MAX_DIAGS || !say_reserve(c->s, rep)) {
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

/* Adds to the message of the game's first diagnostic of code (one that
 * is the root of another finding, which it now tells); false if there is
 * none.  (Cut at the message's cap, as every message is.) */
bool say_append(Ctx *c, DiagCode code, const char *fmt, ...)
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
bool say_drop_at(Ctx *c, DiagCode code, uint64_t at)
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
bool say_drop(Ctx *c, DiagCode code)
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

const char *say_color(int c) { return c == WHITE ? "White" : "Black"; }

/* "12. Nf3" or "12... Nf3" for messages. */
void say_move_label(uint32_t fullmove, int side, const char *text, char *buf, size_t cap)
{
    snprintf(buf, cap, "%u%s %s", (unsigned)fullmove, side == WHITE ? "." : "...", text);
}

/* "after 38. Kg1" (or "in the FEN start position"): where line L ended. */
const char *say_ended_label(const Line *L, char *buf, size_t cap)
{
    if (L->ended_side < 0)
        return "in the FEN start position";
    char lab[48];
    say_move_label(L->ended_full, L->ended_side, L->ended_text, lab, sizeof lab);
    snprintf(buf, cap, "after %s", lab);
    return buf;
}

void say_put(Ctx *c, DiagCode code, Severity sev, PgnPos pos, uint32_t ply, const char *move,
             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    say_put_v(c, code, sev, pos, ply, move, fmt, ap);
    va_end(ap);
}

const char *say_ending_text(int reason)
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
const char *say_line_ending(const Line *L)
{
    if (L->ended_proof == UNWIN_BY_BLOCKADE)
        return "a dead position (pawns locked for ever, no mating square)";
    if (L->ended_proof == UNWIN_BY_EXHAUSTION)
        return "a dead position (neither side can ever mate: searched)";
    return say_ending_text(L->ended - 1);
}

static int diag_cmp(const void *a, const void *b)
{
    const Diag *x = a, *y = b;
    if (x->pos.offset != y->pos.offset)
        return x->pos.offset < y->pos.offset ? -1 : 1;
    return 0;
}

void say_sort(GameReport *rep)
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
