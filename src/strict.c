/* strict.c - --strict: the export format of the PGN standard (section 8),
 * checked on what the reader kept of a game: its tags in order, its
 * movetext elements, its raw text and the text before it.  Runs only under
 * --strict (game.c), so the normal path pays nothing for it.
 *
 * The rules, from the standard (1994-03-12):
 *  8.1.1   the Seven Tag Roster comes first, in the order Event, Site, Date,
 *          Round, White, Black, Result; any other tags follow in ASCII order
 *          of their names;
 *  8.1     a single empty line follows the last tag pair;
 *  8.2.1   movetext lines of "less than 80 printing characters" (the
 *          exporters in wide use, ChessBase's as in TWIC and python-chess's,
 *          write lines of up to 80, which pgncheck accepts: it reports lines
 *          of more than 80), and "as
 *          with the tag pair section, a single empty line follows the last
 *          line of data to conclude the movetext section": one empty line
 *          between games (the last game of a file may end the file);
 *  8.2.2.2 a move number indication ("N." with one period) before every
 *          White move; before a Black move ("N..." with three) only when a
 *          comment, NAG or variation comes between it and White's move, or
 *          when no White move precedes it (a game or variation that starts
 *          with Black to move); nowhere else;
 *  3.2.2, 6 (in the export format there are no '%' escape lines and no ';'
 *          rest-of-line comments: the standard's export writer emits
 *          neither; 8.2.1's "tokens ... placed on successive text lines"
 *          leaves no room for them).
 * Each rule has its own code and gives at most one finding per game, at
 * its first fault, with the number of faults in the message. */
#include "strict.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tags.h"

#define EXPORT_LINE_CHARS 80    /* characters of a movetext line at most (8.2.1; see above) */

/* One finding per code: the first fault, and how many there were. */
typedef struct Rule {
    unsigned count;
    PgnPos pos;
    char move[PGN_TOKEN_TEXT];
    char msg[PGN_MSG];
} Rule;

static void say(Rule *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The finding's message (cut at PGN_MSG bytes). */
static void say(Rule *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->msg, sizeof r->msg, fmt, ap);
    va_end(ap);
}

static bool rule_first(Rule *r, PgnPos pos)
{
    if (r->count++)
        return false;
    r->pos = pos;
    return true;
}

static void emit(Diag *out, size_t *n, DiagCode code, const Rule *r, const char *many)
{
    if (!r->count)
        return;
    Diag *d = &out[(*n)++];
    memset(d, 0, sizeof *d);
    d->code = code;
    d->pos = r->pos;
    memcpy(d->move, r->move, sizeof d->move);
    Rule m = *r;
    if (r->count > 1)
        say(&m, "%s (%u %s in this game)", r->msg, r->count, many);
    memcpy(d->msg, m.msg, sizeof d->msg);
}

/* ---- 8.1.1: tag order */

static void check_tags(const PgnGame *g, Rule *order, Rule *sorted)
{
    int last = -1;                  /* roster index of the last roster tag */
    const char *last_name = NULL;   /* the tag before, roster or not */
    const char *prev_other = NULL;  /* the last tag outside the roster */
    for (size_t i = 0; i < g->ntags; i++) {
        const PgnTag *t = &g->tags[i];
        int ri = tags_roster_index(t->name);
        if (ri >= 0) {
            if (ri == last)
                continue;           /* a second one is duplicate-tag's */
            if (prev_other || ri < last) {
                if (rule_first(order, t->pos))
                    say(order, "tag %s after %.24s: the Seven Tag Roster comes first, in its order (PGN 8.1.1)",
                        t->name, last_name);
            } else {
                last = ri;
            }
        } else {
            if (prev_other && strcmp(t->name, prev_other) < 0 && rule_first(sorted, t->pos))
                say(sorted, "tag %.24s after %.24s: the tags after the roster go in ASCII order of name (PGN 8.1.1)",
                    t->name, prev_other);
            prev_other = t->name;
        }
        last_name = t->name;
    }
}

/* ---- 8.2.2.2: move number indications */

typedef struct LineState {
    int next_side;      /* 0 White, 1 Black: who plays the line's next move */
    long next_full;
    int last_side;      /* of the line's last move; -1 before its first */
    long last_full;
} LineState;

/* The side to move and the fullmove number of the FEN tag (any case of the
 * name, as the game layer honours it), else White and 1. */
static void start_of(const PgnGame *g, int *side, long *full)
{
    *side = 0;
    *full = 1;
    for (size_t i = 0; i < g->ntags; i++) {
        const char *n = g->tags[i].name;
        if ((n[0] | 32) != 'f' || (n[1] | 32) != 'e' || (n[2] | 32) != 'n' || n[3])
            continue;
        const char *v = g->tags[i].value;
        int field = 0;
        for (const char *p = v; *p; p++) {
            if (*p != ' ')
                continue;
            while (p[1] == ' ')
                p++;
            field++;
            if (field == 1 && p[1] == 'b')
                *side = 1;
            if (field == 5) {
                long f = 0;
                const char *q = p + 1;
                while (*q >= '0' && *q <= '9' && f < 100000)
                    f = f * 10 + (*q++ - '0');
                if (q > p + 1 && f > 0)
                    *full = f;
            }
        }
        return;
    }
}

/* A '{' or ';' comment between elements a and b (raw text needed). */
static bool comment_between(const PgnGame *g, const PgnElem *a, const PgnElem *b)
{
    if (!g->raw || !g->raw_complete)
        return false;
    uint64_t lo = a->pos.offset - g->start.offset, hi = b->pos.offset - g->start.offset;
    if (hi > g->raw_len || lo > hi)
        return false;
    const char *s = g->raw;
    for (uint64_t i = lo; i < hi; i++)
        if (s[i] == '{' || s[i] == ';')
            return true;
    return false;
}

static void check_numbers(const PgnGame *g, Rule *r)
{
    LineState st[PGN_MAX_DEPTH + 2];
    size_t depth = 0;
    start_of(g, &st[0].next_side, &st[0].next_full);
    st[0].last_side = -1;
    st[0].last_full = 0;
    for (size_t i = 0; i < g->nelems; i++) {
        const PgnElem *e = &g->elems[i];
        if (e->kind == PGN_EL_VAR_START) {
            if (depth + 1 >= sizeof st / sizeof st[0])
                return;
            /* the variation replaces the parent line's last move */
            LineState *p = &st[depth], *v = &st[++depth];
            v->next_side = p->last_side >= 0 ? p->last_side : p->next_side;
            v->next_full = p->last_side >= 0 ? p->last_full : p->next_full;
            v->last_side = -1;
            v->last_full = 0;
            continue;
        }
        if (e->kind == PGN_EL_VAR_END) {
            if (depth)
                depth--;
            continue;
        }
        LineState *L = &st[depth];
        int side = L->next_side;
        long full = L->next_full;
        const PgnElem *prev = i ? &g->elems[i - 1] : NULL;
        /* Black's number is written after a comment, NAG or variation, at
         * the start of a line, and nowhere else. */
        bool want = side == 0 || !prev || prev->kind != PGN_EL_MOVE || prev->nags || comment_between(g, prev, e);
        unsigned dots = side == 0 ? 1 : 3;
        int fault = 0;      /* 1 missing, 2 surplus, 3 periods */
        if (want && e->number < 0)
            fault = 1;
        else if (!want && e->number >= 0)
            fault = 2;
        else if (want && e->dots != dots)
            fault = 3;
        if (fault && rule_first(r, e->pos)) {
            snprintf(r->move, sizeof r->move, "%s", e->text);
            if (fault == 1 && side == 0)
                say(r, "White's move %ld. %s is written without its move number (PGN 8.2.2.2)", full, e->text);
            else if (fault == 1)
                say(r, "Black's move %ld... %s after a comment, NAG, variation or line start needs its number "
                    "(PGN 8.2.2.2)", full, e->text);
            else if (fault == 2)
                say(r, "Black's move %ld... %s directly after White's has a number, which export format omits "
                    "(PGN 8.2.2.2)", full, e->text);
            else
                say(r, "%s move %ld%s %s: its number is written with %s (PGN 8.2.2.2)", side ? "Black's" : "White's",
                    full, side ? "..." : ".", e->text, side ? "three periods" : "one period");
        }
        L->last_side = side;
        L->last_full = full;
        L->next_side = !side;
        L->next_full = side ? full + 1 : full;
    }
}

/* ---- the raw text: lines, empty lines, % and ; */

typedef struct Text {
    Rule blank, length, escape, semicolon;
} Text;

enum { ST_NORMAL, ST_STRING, ST_BRACE, ST_REST };   /* ST_REST: a ; comment or % line */

/* Bytes that matter between the tokens: blanks, and those that end a run
 * of ordinary text (a line end, a comment or string, a tag bracket). */
enum { C_BLANK = 1, C_STOP = 2 };
static const unsigned char byte_class[256] = {
    [' '] = C_BLANK, ['\t'] = C_BLANK, ['\r'] = C_BLANK, ['\v'] = C_BLANK, ['\f'] = C_BLANK,
    ['\n'] = C_STOP, ['{'] = C_STOP, [';'] = C_STOP, ['"'] = C_STOP, ['%'] = C_STOP,
    ['['] = C_STOP, [']'] = C_STOP,
};

/* A movetext line s[from, to) (from < 0: the game starts -from bytes into
 * its first line): more than EXPORT_LINE_CHARS characters, one per UTF-8
 * sequence, else one per byte?  Counted only for a line with more bytes. */
static void check_length(const PgnGame *g, Text *t, int64_t from, size_t to, uint32_t line)
{
    const unsigned char *s = (const unsigned char *)g->raw;
    if (to > 0 && s[to - 1] == '\r')
        to--;
    if ((int64_t)to - from <= EXPORT_LINE_CHARS)
        return;
    size_t i = from < 0 ? 0 : (size_t)from;
    unsigned chars = from < 0 ? (unsigned)-from : 0;
    size_t over = SIZE_MAX;
    /* (after the game's first long line, only whether another is one) */
    bool whole = t->length.count == 0;
    for (; i < to; i++) {
        if (s[i] >= 0x80 && s[i] < 0xC0 && i > 0 && s[i - 1] >= 0x80)
            continue;       /* a UTF-8 continuation byte */
        if (++chars == EXPORT_LINE_CHARS + 1) {
            over = i;
            if (!whole)
                break;
        }
    }
    if (over == SIZE_MAX)
        return;
    PgnPos p = {g->start.offset + over, line, (uint32_t)((int64_t)over - from + 1)};
    if (rule_first(&t->length, p))
        say(&t->length, "a movetext line of %u characters; the export format's lines have at most %d (PGN 8.2.1)",
            chars, EXPORT_LINE_CHARS);
}

/* check_text's place in the game's text and what it has seen. */
typedef struct Scan {
    const PgnGame *g;
    Text *t;
    const unsigned char *s;
    size_t n, i;
    uint32_t line;
    /* raw index of the current line's first byte (negative: the game
     * starts inside its first line) */
    int64_t line_at;
    int state;
    bool movetext;              /* past the tag section */
    bool in_tag;
    bool tag_seen;
    unsigned blank_run;         /* empty lines since the last tag line */
    PgnPos pending;             /* an empty line inside the movetext, line 0: none */
    /* this line */
    bool nonblank, transparent, tagline, move_line;
} Scan;

/* At the '\n' at s[i]: the line's findings, then the next line. */
static void scan_line_end(Scan *sc)
{
    if (!sc->nonblank && sc->state != ST_BRACE && sc->state != ST_STRING) {
        if (!sc->movetext && sc->tag_seen)
            sc->blank_run++;
        else if (sc->movetext && !sc->pending.line)
            sc->pending = (PgnPos){sc->g->start.offset + sc->i, sc->line,
                                   (uint32_t)((int64_t)sc->i - sc->line_at + 1)};
    }
    if (sc->tagline)
        sc->blank_run = 0;
    if (sc->state == ST_REST || sc->state == ST_STRING)
        sc->state = ST_NORMAL;
    sc->line++;
    sc->line_at = (int64_t)++sc->i;
    sc->transparent = sc->tagline = false;
    sc->move_line = sc->movetext;
    /* a line inside a comment is movetext, never an empty line */
    sc->nonblank = sc->state == ST_BRACE;
}

/* Inside a '%' or ';' line, a comment or a string: up to its end or the
 * line's.  False in ordinary text. */
static bool scan_inside(Scan *sc)
{
    const unsigned char *s = sc->s;
    size_t n = sc->n, i = sc->i;
    switch (sc->state) {
    case ST_REST: {
        const unsigned char *e = memchr(s + i, '\n', n - i);
        sc->i = e ? (size_t)(e - s) : n;
        return true;
    }
    case ST_BRACE:
        sc->nonblank = true;
        while (i < n && s[i] != '}' && s[i] != '\n')
            i++;
        if (i < n && s[i] == '}') {
            sc->state = ST_NORMAL;
            i++;
        }
        sc->i = i;
        return true;
    case ST_STRING:
        sc->nonblank = true;
        while (i < n && s[i] != '"' && s[i] != '\n')
            i += s[i] == '\\' && i + 1 < n && s[i + 1] != '\n' ? 2 : 1;
        if (i < n && s[i] == '"') {
            sc->state = ST_NORMAL;
            i++;
        }
        sc->i = i;
        return true;
    default:
        return false;
    }
}

/* The first movetext token, at p: one empty line before it (PGN 8.1). */
static void scan_movetext_start(Scan *sc, PgnPos p)
{
    Text *t = sc->t;
    sc->movetext = sc->move_line = true;
    unsigned empty = sc->tagline ? 0 : sc->blank_run;
    if (sc->tag_seen && empty != 1 && rule_first(&t->blank, p)) {
        if (empty == 0)
            say(&t->blank, "no empty line between the tags and the movetext; the export format has one "
                "(PGN 8.1)");
        else
            say(&t->blank, "%u empty lines between the tags and the movetext; the export format has one "
                "(PGN 8.1)", empty);
    }
}

/* A token starting with c, at s[i - 1] (i past it), at p; first: the
 * first on its line. */
static void scan_token(Scan *sc, unsigned c, PgnPos p, bool first)
{
    Text *t = sc->t;
    if (c == '%' && p.col == 1) {
        if (rule_first(&t->escape, p))
            say(&t->escape, "a %% escape line; the export format has none (PGN 6, 8)");
        sc->state = ST_REST;
        sc->transparent = first;
        return;
    }
    if (c == ';') {
        if (rule_first(&t->semicolon, p))
            say(&t->semicolon, "a ; comment; the export format writes comments in braces (PGN 5, 8)");
        sc->state = ST_REST;
        sc->transparent = first;
        return;
    }
    if (c == '"') {
        sc->state = ST_STRING;
        return;
    }
    if (!sc->movetext) {
        if (c == '[') {
            sc->in_tag = sc->tag_seen = sc->tagline = true;
            return;
        }
        if (sc->in_tag) {
            if (c == ']')
                sc->in_tag = false;
            return;
        }
        scan_movetext_start(sc, p);
    } else if (sc->pending.line && !sc->transparent) {
        if (rule_first(&t->blank, sc->pending))
            say(&t->blank, "an empty line inside the movetext; the export format ends the movetext with it "
                "(PGN 8.2.1)");
        sc->pending.line = 0;
    }
    if (c == '{') {
        sc->state = ST_BRACE;
        return;
    }
    /* the rest of an ordinary token, and the blanks after it */
    while (sc->i < sc->n && !(byte_class[sc->s[sc->i]] & C_STOP))
        sc->i++;
}

static void check_text(const PgnGame *g, Text *t)
{
    Scan sc = {.g = g, .t = t, .s = (const unsigned char *)g->raw, .n = g->raw_len, .line = g->start.line,
               .line_at = -(int64_t)(g->start.col - 1), .state = ST_NORMAL};
    for (;;) {
        if (sc.i == sc.n || sc.s[sc.i] == '\n') {
            if (sc.move_line)
                check_length(g, t, sc.line_at, sc.i, sc.line);
            if (sc.i == sc.n)
                break;
            scan_line_end(&sc);
            continue;
        }
        if (scan_inside(&sc))
            continue;
        unsigned c = sc.s[sc.i];
        if (byte_class[c] & C_BLANK) {
            sc.i++;
            continue;
        }
        PgnPos p = {g->start.offset + sc.i, sc.line, (uint32_t)((int64_t)sc.i - sc.line_at + 1)};
        bool first = !sc.nonblank;
        sc.nonblank = true;
        sc.i++;
        scan_token(&sc, c, p, first);
    }
}

/* The text before the game: one empty line after the previous game. */
static void check_gap(const PgnGame *g, Text *t)
{
    if (g->gap_escapes && rule_first(&t->escape, g->gap_escape_pos))
        say(&t->escape, "a %% escape line; the export format has none (PGN 6, 8)");
    if (g->gap_semicolons && rule_first(&t->semicolon, g->gap_semicolon_pos))
        say(&t->semicolon, "a ; comment; the export format writes comments in braces (PGN 5, 8)");
    t->escape.count += g->gap_escapes ? g->gap_escapes - 1 : 0;
    t->semicolon.count += g->gap_semicolons ? g->gap_semicolons - 1 : 0;
    /* Not for a reader's first game: the first of the input, or of a
     * piece read on its own (what came before it is not known here). */
    if (g->index <= 1 || g->gap_lines == UINT32_MAX)
        return;
    uint32_t other = g->gap_escapes + g->gap_semicolons;
    uint32_t empty = g->gap_lines >= other ? g->gap_lines - other : 0;
    bool plain = empty == 1 && (other || g->gap_bytes <= 2);
    if (!plain && rule_first(&t->blank, g->start)) {
        if (empty == 0)
            say(&t->blank, "no empty line between this game and the one before; the export format has one (PGN 8.2.1)");
        else if (empty == 1)
            say(&t->blank, "the line between this game and the one before is not empty (PGN 8.2.1)");
        else
            say(&t->blank, "%u lines between this game and the one before; the export format has one empty line "
                     "(PGN 8.2.1)", empty);
    }
}

size_t strict_check(const PgnGame *g, Diag out[STRICT_MAX_FINDINGS])
{
    Rule order = {0}, sorted = {0}, numbers = {0};
    Text t = {0};
    check_tags(g, &order, &sorted);
    check_gap(g, &t);
    if (g->raw && g->raw_complete)
        check_text(g, &t);
    check_numbers(g, &numbers);
    size_t n = 0;
    emit(out, &n, D_EXPORT_TAG_ORDER, &order, "tags out of order");
    emit(out, &n, D_EXPORT_TAG_SORT, &sorted, "tags out of ASCII order");
    emit(out, &n, D_EXPORT_BLANK_LINE, &t.blank, "empty-line faults");
    emit(out, &n, D_EXPORT_MOVE_NUMBER, &numbers, "move number faults");
    emit(out, &n, D_EXPORT_LINE_LENGTH, &t.length, "lines over 80 characters");
    emit(out, &n, D_EXPORT_ESCAPE_LINE, &t.escape, "% escape lines");
    emit(out, &n, D_EXPORT_SEMICOLON, &t.semicolon, "; comments");
    return n;
}
