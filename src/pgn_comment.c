/* pgn_comment.c - the PGN reader's comments: { } text streamed, never
 * kept, and the commands in it ([%clk] for the last move's clock, [%emt]
 * checked) read in a fixed window (knows no chess). */
#include "pgn_comment.h"

#include <limits.h>
#include <string.h>

#include "mem.h"

/* ---------------------------------------------------------------------
 * Comment commands: [%clk h:mm:ss(.f)], [%emt ...], [%eval ...].
 * s points just after "[%"; n bytes available.
 * ------------------------------------------------------------------- */
static bool parse_clock(const unsigned char *raw, size_t rn, int32_t *cs, bool *neg)
{
    /* Exporters wrap long comment lines anywhere, even inside a command
     * ("[%emt 0:00:" newline "00]"): white space inside the time is dropped. */
    unsigned char s[64];
    size_t n = 0;
    for (size_t i = 0; i < rn && n < sizeof s; i++)
        if (raw[i] != ' ' && raw[i] != '\t' && raw[i] != '\r' && raw[i] != '\n')
            s[n++] = raw[i];
    size_t k = 0;
    uint64_t h = 0;
    unsigned m = 0, sec = 0, frac = 0;
    while (k < n && s[k] == ' ')
        k++;
    /* a clock run out past zero, as some exporters write it ("-0:00:03"):
     * read, for clock.c to judge */
    *neg = k < n && s[k] == '-';
    k += *neg;
    size_t d0 = k;
    while (k < n && pgn_cls[s[k]] & K_DIGIT && k - d0 < 6)
        h = h * 10 + (s[k++] - '0');
    if (k == d0 || k >= n || s[k] != ':')
        return false;
    k++;
    d0 = k;
    while (k < n && pgn_cls[s[k]] & K_DIGIT && k - d0 < 2)
        m = m * 10 + (s[k++] - '0');
    if (k == d0 || m > 59 || k >= n || s[k] != ':')
        return false;
    k++;
    d0 = k;
    while (k < n && pgn_cls[s[k]] & K_DIGIT && k - d0 < 2)
        sec = sec * 10 + (s[k++] - '0');
    if (k == d0 || sec > 59)
        return false;
    if (k < n && s[k] == '.') {
        k++;
        d0 = k;
        unsigned scale = 10;
        while (k < n && pgn_cls[s[k]] & K_DIGIT) {
            if (k - d0 < 2) {
                frac += (s[k] - '0') * scale;
                scale /= 10;
            }
            k++;
        }
        if (k == d0)
            return false;
    }
    while (k < n && s[k] == ' ')
        k++;
    if (k >= n || s[k] != ']')
        return false;
    uint64_t v = ((h * 60 + m) * 60 + sec) * 100 + frac;
    *cs = v > INT32_MAX ? INT32_MAX : (int32_t)v;
    return true;
}

/* Keeps a [%emt] of cs centiseconds for the last move of the stored line
 * (none: dropped, as a [%clk] there is). */
static void keep_emt(PgnReader *r, int32_t cs)
{
    PgnGame *g = r->g;
    PgnElem *el = pgn_last_move(r);
    if (el == NULL)
        return;
    GameStore *st = g->priv;
    PgnEmt *p = mem_grow(st->emts, &st->mcap, g->nemts + 1, sizeof(PgnEmt), PGN_MAX_ELEMS);
    if (p == NULL) {
        if (g->nemts < PGN_MAX_ELEMS)
            g->out_of_memory = true;   /* the caller says so and exits 2 */
        return;                        /* (more [%emt] than moves: the rest dropped) */
    }
    st->emts = p;
    g->emts = p;
    p[g->nemts].elem = (uint32_t)(el - g->elems);
    p[g->nemts].cs = cs;
    g->nemts++;
}

/* [%emt 12.5]: seconds only, with tenths or hundredths. */
static bool parse_seconds(const unsigned char *s, size_t n, int32_t *cs)
{
    size_t k = 0;
    while (k < n && s[k] == ' ')
        k++;
    size_t d0 = k;
    uint64_t v = 0;
    while (k < n && pgn_cls[s[k]] & K_DIGIT && k - d0 < 7)
        v = v * 10 + (s[k++] - '0');
    if (k == d0)
        return false;
    v *= 100;
    if (k < n && s[k] == '.') {
        k++;
        unsigned scale = 10;
        size_t f0 = k;
        while (k < n && pgn_cls[s[k]] & K_DIGIT) {
            if (k - f0 < 2) {
                v += (uint64_t)(s[k] - '0') * scale;
                scale /= 10;
            }
            k++;
        }
    }
    while (k < n && s[k] == ' ')
        k++;
    if (k >= n || s[k] != ']')
        return false;
    *cs = v > INT32_MAX ? INT32_MAX : (int32_t)v;
    return true;
}

/* buf[i] is '%' inside a comment and buf[i-1] == '['. */
static void comment_command(PgnReader *r, size_t i, size_t avail)
{
    const unsigned char *s = r->buf + i + 1;
    size_t n = avail > 0 ? avail - 1 : 0;
    /* (exporters wrap lines anywhere, also right after the command's name) */
    bool blank = n >= 4 && (s[3] == ' ' || s[3] == '\t' || s[3] == '\n' || s[3] == '\r');
    if (blank && memcmp(s, "clk", 3) == 0) {
        int32_t cs;
        bool neg;
        if (parse_clock(s + 4, n - 4, &cs, &neg)) {
            PgnElem *el = pgn_last_move(r);
            r->g->clocks = true;
            if (el)
                el->clock = neg && cs > 0 ? -1 - cs : cs;   /* (pgn.h) */
        } else {
            pgn_game_diag(r, D_BAD_CLOCK, pos_of(r, i - 1), "[%clk] without a readable h:mm:ss time");
        }
    } else if (blank && memcmp(s, "emt", 3) == 0) {
        int32_t cs;
        bool neg;
        /* h:mm:ss, or seconds only ([%emt 12.5]) */
        if ((parse_clock(s + 4, n - 4, &cs, &neg) && !neg) || parse_seconds(s + 4, n - 4, &cs)) {
            r->g->clocks = true;
            keep_emt(r, cs);
        } else
            pgn_game_diag(r, D_BAD_CLOCK, pos_of(r, i - 1), "[%emt] without a readable time");
    }
    /* [%eval ...] and other commands: recognised, values not needed here. */
}

/* ---------------------------------------------------------------------
 * Comments.  Called with buf[pos] == '{'.  Returns 0 when closed (pos after
 * '}'), 1 at end of input, 2 when a line starting a new game was reached
 * (pos at its '[').  Content is streamed: never accumulated.
 * ------------------------------------------------------------------- */
int pgn_read_comment(PgnReader *r)
{
    r->pos++;
    r->cm_nl = 0;
    r->cm_lws = false;
    for (;;) {
        if (r->pos >= r->end && pgn_refill(r) == 0)
            return 1;
        const unsigned char *b = r->buf;
        size_t i = r->pos, e = r->end;
        while (i < e) {
            /* Plain text leaves cm_nl/cm_lws as they are only while they are
             * 0/false; after a line end every byte takes the careful step. */
            if (!r->cm_lws) {
                i += comment_plain(b + i, e - i);
                if (i >= e)
                    break;
            }
            unsigned c = b[i];
            if (c >= 0x20 && c < 0x7F) {
                if (c == '}') {
                    /* the brace is a token of its line: a '[' after it is
                     * not first on the line, wherever the comment began */
                    r->line_tok = true;
                    r->pos = i + 1;
                    return 0;
                }
                if (c == '[' && r->cm_lws) {
                    bool ev = false;
                    r->pos = i;
                    if (r->end - i < LOOKAHEAD && !r->eof) {
                        pgn_need(r, LOOKAHEAD);
                        goto again;
                    }
                    if (pgn_tag_like(r, &ev) && (ev || r->cm_nl >= 2))
                        return 2;
                } else if (c == '%' && b[i - 1] == '[') {
                    if (e - i < CMD_WINDOW && !r->eof) {
                        r->pos = i;
                        pgn_need(r, CMD_WINDOW);
                        goto again;
                    }
                    /* the command is read in a fixed window, never in
                     * whatever happens to be buffered beyond it: the same
                     * bytes give the same verdict however they arrive */
                    comment_command(r, i, e - i < CMD_WINDOW ? e - i : CMD_WINDOW);
                }
                if (c != ' ') {
                    r->cm_nl = 0;
                    r->cm_lws = false;
                }
                i++;
            } else if (c == '\n' || c == '\r') {
                newline_at(r, i);
                if (!(c == '\n' && b[i - 1] == '\r'))
                    r->cm_nl++;
                r->cm_lws = true;
                i++;
            } else if (c == '\t' || c == '\f' || c == '\v') {
                i++;
            } else if (c < 0x80) {
                pgn_bad_byte(r, i, c);
                r->cm_nl = 0;
                r->cm_lws = false;
                i++;
            } else {
                size_t l = pgn_utf8_len(b + i, e - i);
                if (l == 0 && e - i < 4 && !r->eof) {
                    r->pos = i;
                    pgn_need(r, 4);
                    goto again;
                }
                if (l == 0) {
                    if (c < 0xA0)
                        pgn_bad_byte(r, i, c);
                    l = 1;
                }
                r->cm_nl = 0;
                r->cm_lws = false;
                i += l;
            }
        }
        /* a UTF-8 sequence never ends past e: utf8_len needs all its bytes */
        r->pos = i;
        continue;
again:
        ;
    }
}
