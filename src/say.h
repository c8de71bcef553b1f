/* say.h - the findings of one game's check: made, amended, taken back and sorted, and the words they share. */
#ifndef PGNCHECK_SAY_H
#define PGNCHECK_SAY_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ctx.h"
#include "diag.h"
#include "game_types.h"
#include "pgn.h"

/* Room for one more diagnostic in rep (grown as a game needs it). */
bool say_reserve(Scratch *s, GameReport *rep);
/* A finding of game c, with the user's severity for code (--strict
 * raises suffix annotations to warnings); say_put with the severity
 * given (SEV_NONE: not said). */
void say_add(Ctx *c, DiagCode code, PgnPos pos, uint32_t ply, const char *move, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
void say_add_v(Ctx *c, DiagCode code, PgnPos pos, uint32_t ply, const char *move, const char *fmt, va_list ap)
    __attribute__((format(printf, 6, 0)));
void say_put(Ctx *c, DiagCode code, Severity sev, PgnPos pos, uint32_t ply, const char *move, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
void say_put_v(Ctx *c, DiagCode code, Severity sev, PgnPos pos, uint32_t ply, const char *move, const char *fmt,
               va_list ap) __attribute__((format(printf, 7, 0)));
/* game_tags.c's findings (GameTagsSink, arg the Ctx): ply 0, no move. */
void say_tags(void *arg, DiagCode code, PgnPos pos, const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));
/* Adds to the message of the game's first finding of code; false if none. */
bool say_append(Ctx *c, DiagCode code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Takes back the finding of code at byte offset at, or the last one of
 * code; false if there is none. */
bool say_drop_at(Ctx *c, DiagCode code, uint64_t at);
bool say_drop(Ctx *c, DiagCode code);
/* The findings in the order of the text (stable). */
void say_sort(GameReport *rep);

const char *say_color(int c);   /* "White", "Black" */
/* "12. Nf3" or "12... Nf3". */
void say_move_label(uint32_t fullmove, int side, const char *text, char *buf, size_t cap);
/* "after 38. Kg1" or "in the FEN start position": where line L ended. */
const char *say_ended_label(const Line *L, char *buf, size_t cap);
/* An ending (Reason) in words; the ending of line L, with its proof. */
const char *say_ending_text(int reason);
const char *say_line_ending(const Line *L);

#endif
