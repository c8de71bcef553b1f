/* pgn_export.c - --export: a game rewritten in the export format of the PGN
 * standard (1994-03-12, section 8), exactly as --strict checks it
 * (strict.c):
 *  8.1.1   the Seven Tag Roster first, in its order; the other tags after
 *          it in ASCII order of name (--strict's reading of "ASCII order":
 *          the byte order of the names, so FEN comes before SetUp);
 *  8.1     one empty line after the tags;
 *  8.2.1   movetext lines of at most 80 bytes (--strict counts characters,
 *          so a line of UTF-8 text is shorter still), broken between
 *          tokens; one empty line after the movetext;
 *  8.2.2.2 "N." before every White move, "N..." before a Black move only
 *          at the start of a game or variation and after a comment, NAG
 *          or variation;
 *  8.2.3   SAN as the position makes it (canonical disambiguation, '+'
 *          and '#' from the move played, not as written);
 *  8.2.4   suffix annotations (!, ?, !!, ??, !?, ?!) as their NAGs $1-$6;
 *  8.2.5   the termination marker after the movetext;
 *  3.2.2, 6 no '%' escape lines (dropped, counted) and no ';' comments (a
 *          ';' comment is written in braces).
 * Comments keep their words (blanks between them become one space; a
 * comment's opening and closing blanks are kept as one space), so "[%clk
 * 0:03:00]" commands stay as they are.  The output is a fixed point: its
 * export is itself.
 *
 * A pure formatter: nothing is read or replayed again.  The movetext is
 * written from the record the reading and the check made, the reader's
 * elements and notes (PgnOptions.notes: comments, NAGs, escape lines, text
 * it passed over) and the moves as the check played them (GameReport.
 * moves, CheckOptions.record_moves), the words of comments taken from the
 * game's raw text.  Wherever the record cannot be written as it is (a
 * token the reader kept otherwise than the text has it, a null move, text
 * the reader passed over with a finding), the game is left to be copied
 * as read: a game is never half rewritten. */
#include "pgn_export.h"

#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "pgn_write.h"
#include "tags.h"

#define LINE_MAX_BYTES 80           /* of a movetext line (8.2.1; see strict.c) */
#define OUT_MAX ((size_t)1 << 30)   /* bytes of one game's export at most */

struct PgnExport {
    PgnExportText *out;             /* the export of the game at hand */
    bool failed;                    /* out of memory (or over OUT_MAX) */
    size_t line_at;                 /* where the current movetext line starts */
    size_t word_at;                 /* where the last word starts */
    bool glue;                      /* the next word joins the last ("(" before it) */
    /* Words a line must not be broken between: a group starts at a word
     * unless keep is set, which joins the next word to the group before.
     * The reader ends a game at a comment after its marker that starts on
     * a line of its own, and ends a comment at a line that starts with
     * "[Event \"" (a new game): after the marker each comment's "{" keeps to
     * the word before it, and in a comment a word that starts with '['
     * does. */
    size_t group_at;                /* where the last word's group starts */
    bool keep;                      /* the next word joins the last word's group */
    bool after_marker;              /* the termination marker is written */
    bool overflow;                  /* a group longer than a line */
    bool need_number;               /* Black's next move takes "N..." (8.2.2.2) */
    const char *why;                /* why a game without error is copied as read */
};

/* False, with the reason a game is left as read (pgn_export_why). */
static bool refuse(PgnExport *x, const char *why)
{
    if (!x->why)
        x->why = why;
    return false;
}

PgnExport *pgn_export_new(void)
{
    return mem_calloc(1, sizeof(PgnExport));
}

void pgn_export_free(PgnExport *x)
{
    mem_free(x);
}

void pgn_export_text_free(PgnExportText *t)
{
    mem_free(t->p);
    memset(t, 0, sizeof *t);
}

/* ---- the output: bytes, words and lines */

static void add(PgnExport *x, const char *s, size_t n)
{
    PgnExportText *t = x->out;
    if (t->len + n <= t->cap) {
        memcpy(t->p + t->len, s, n);
        t->len += n;
        return;
    }
    if (x->failed)
        return;
    {
        char *p = mem_grow(t->p, &t->cap, t->len + n, 1, OUT_MAX);
        if (!p) {
            x->failed = true;
            return;
        }
        t->p = p;
    }
    memcpy(t->p + t->len, s, n);
    t->len += n;
}

static void add_str(PgnExport *x, const char *s) { add(x, s, strlen(s)); }

/* A word past the line's 80 bytes goes to the next line with its group:
 * the blank before the group becomes a line end (a word of more than 80
 * bytes stands alone; a group of words that does not fit on a line is an
 * overflow, and the game is left as read). */
static void wrap(PgnExport *x)
{
    if (x->failed || x->out->len - x->line_at <= LINE_MAX_BYTES)
        return;
    if (x->group_at > x->line_at) {
        x->out->p[x->group_at - 1] = '\n';
        x->line_at = x->group_at;
    }
    if (x->out->len - x->line_at > LINE_MAX_BYTES && x->group_at < x->word_at)
        x->overflow = true;
}

static void word(PgnExport *x, const char *s, size_t n)
{
    if (x->glue) {
        x->glue = false;
    } else {
        if (x->out->len > x->line_at)
            add(x, " ", 1);
        x->word_at = x->out->len;
        if (!x->keep)
            x->group_at = x->word_at;
    }
    x->keep = false;
    add(x, s, n);
    wrap(x);
}

/* More bytes of the last word (")" and "}" close on it). */
static void word_more(PgnExport *x, const char *s, size_t n)
{
    add(x, s, n);
    wrap(x);
}

/* ---- tags */

static void tag_line(PgnExport *x, const char *name, const char *value)
{
    add(x, "[", 1);
    add_str(x, name);
    add(x, " \"", 2);
    /* 7: a quote and a backslash in a string are escaped with a backslash */
    for (const char *v = value, *run = value;; v++) {
        if (*v == '"' || *v == '\\' || !*v) {
            add(x, run, (size_t)(v - run));
            if (!*v)
                break;
            add(x, "\\", 1);
            run = v;
        }
    }
    add(x, "\"]\n", 3);
}

/* The roster's values for an unknown (PGN 8.1.1), Result aside. */
static const char *const roster_unknown[TAGS_RESULT] = {"?", "?", "????.??.??", "?", "?", "?"};

/* The tag section; result: the marker, the Result tag's value where there
 * is none, and every Result tag's with rewrite (--fix-results). */
static bool write_tags(PgnExport *x, const PgnGame *g, const char *result, bool rewrite)
{
    for (int r = 0; r < TAGS_ROSTER_N; r++) {
        bool any = false;
        for (size_t i = 0; i < g->ntags; i++) {
            const PgnTag *t = &g->tags[i];
            if (t->name && strcmp(t->name, tags_roster[r]) == 0) {
                tag_line(x, t->name, r == TAGS_RESULT && rewrite ? result : t->value);
                any = true;
            }
        }
        /* (a tag in another case stands for it: tags_find) */
        if (!any && !tags_find(g, tags_roster[r]))
            tag_line(x, tags_roster[r], r == TAGS_RESULT ? result : roster_unknown[r]);
    }
    /* The others by name, a stable insertion sort (a game has at most
     * PGN_MAX_TAGS of them). */
    uint16_t order[PGN_MAX_TAGS];
    size_t n = 0;
    for (size_t i = 0; i < g->ntags && n < PGN_MAX_TAGS; i++) {
        const char *name = g->tags[i].name;
        if (!name || tags_roster_index(name) >= 0)
            continue;
        size_t j = n++;
        while (j > 0 && strcmp(g->tags[order[j - 1]].name, name) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = (uint16_t)i;
    }
    /* Of two names alike but for case, the game layer takes the first
     * where neither is in the right case: a sort that swaps them would
     * change the game (tag_case_twin: such a pair is there). */
    for (size_t j = 0; g->tag_case_twin && j < n; j++)
        for (size_t k = j + 1; k < n; k++)
            if (order[j] > order[k] && pgn_name_casecmp(g->tags[order[j]].name, g->tags[order[k]].name) == 0)
                return refuse(x, "two tags alike but for case, which the export's order would swap");
    bool setup = tags_find(g, "SetUp") != NULL, fen = tags_find(g, "FEN") != NULL;
    for (size_t j = 0; j < n; j++) {
        const PgnTag *t = &g->tags[order[j]];
        /* 9.7.1: SetUp "1" goes with a FEN tag (after FEN by name) */
        if (fen && !setup && strcmp(t->name, "SetUp") > 0) {
            tag_line(x, "SetUp", "1");
            setup = true;
        }
        bool res = rewrite && pgn_name_casecmp(t->name, "Result") == 0;
        tag_line(x, t->name, res ? result : t->value);
    }
    if (fen && !setup)
        tag_line(x, "SetUp", "1");
    add(x, "\n", 1);
    return true;
}

/* ---- the movetext, from the record */

/* Writes v in decimal at w; returns the bytes written (at most 10). */
static size_t decimal(char *w, uint32_t v)
{
    char tmp[10];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        w[i] = tmp[n - 1 - i];
    return n;
}

/* The move m as the check played it: its number where 8.2.2.2 wants one,
 * its SAN, its suffix as a NAG. */
static void write_move(PgnExport *x, const GameMove *m)
{
    char w[32];
    size_t n = 0;
    if (!m->black || x->need_number) {
        n = decimal(w, m->fullmove);
        memcpy(w + n, "... ", 4);
        n += m->black ? 4 : 2;
        if (!m->black)
            w[n - 1] = ' ';
    }
    size_t k = strlen(m->san);
    memcpy(w + n, m->san, k);
    word(x, w, n + k);
    x->need_number = false;
    if (m->nag) {
        w[0] = '$';
        w[1] = (char)('0' + m->nag);
        word(x, w, 2);
        x->need_number = true;
    }
}

static bool blank(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* Bytes of a symbol token (PGN 7), with suffix annotations and periods. */
static bool token_byte(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '+' ||
           c == '#' || c == '=' || c == ':' || c == '-' || c == '!' || c == '?' || c == '.';
}

/* A word of a comment: one longer than WORD_CUT bytes is cut in pieces
 * of at most WORD_PIECE (at a UTF-8 character's start), which leaves room
 * on their line for "({" before and "})" after. */
#define WORD_CUT 78
#define WORD_PIECE 72
static void comment_word(PgnExport *x, const char *s, size_t n)
{
    while (n > WORD_CUT) {
        size_t k = WORD_PIECE;
        while (k > WORD_PIECE - 4 && (((unsigned char)s[k] & 0xC0) == 0x80 || s[k] == '['))
            k--;
        x->keep |= s[0] == '[';
        word(x, s, k);
        s += k;
        n -= k;
    }
    x->keep |= s[0] == '[';
    word(x, s, n);
}

/* A comment's words, one space between them, a blank at either end kept
 * as one space.  False for a ';' comment holding a '}'. */
static bool write_comment(PgnExport *x, const char *s, size_t n, bool semicolon)
{
    if (semicolon && memchr(s, '}', n))
        return refuse(x, "a ';' comment holds a '}', which a {} comment cannot");
    bool lead = n > 0 && blank((unsigned char)s[0]);
    bool trail = semicolon ? lead : n > 0 && blank((unsigned char)s[n - 1]);
    size_t i = 0, words = 0;
    x->keep = x->after_marker;
    if (lead)
        word(x, "{", 1);
    for (;;) {
        while (i < n && blank((unsigned char)s[i]))
            i++;
        if (i == n)
            break;
        size_t j = i;
        while (j < n && !blank((unsigned char)s[j]))
            j++;
        if (!words++ && !lead) {
            word(x, "{", 1);
            x->glue = true;
        }
        comment_word(x, s + i, j - i);
        i = j;
    }
    if (!words && !lead)
        word(x, "{}", 2);
    else if (trail || !words)
        word(x, "}", 1);
    else
        word_more(x, "}", 1);
    x->need_number = true;
    return true;
}

static void write_nag(PgnExport *x, unsigned v)
{
    char w[12] = "$";
    word(x, w, 1 + decimal(w + 1, v));
    x->need_number = true;
}

/* The movetext is formatted from what the reading and the check
 * recorded: the game's elements with the moves as played (GameReport.
 * moves), and between them the reader's notes (PgnGame.notes: comments,
 * NAGs, escape lines), both in the order of the text, merged by offset;
 * the comments' words come from the game's raw text. */
typedef struct Walk {
    const PgnGame *g;
    const GameMove *mv;
    const char *s;          /* the raw text, */
    size_t n;               /* its bytes, */
    uint64_t base;          /* the input offset of its first */
    size_t k;               /* the next element */
    size_t t;               /* the next note */
    uint64_t skip_to;       /* a ';' comment or escape line runs to here (offset) */
    size_t depth;
    bool moved[PGN_MAX_DEPTH + 1];  /* a move was written in the line at that depth */
    uint32_t plies;         /* of the main line */
    const char *marker;     /* the termination marker to write */
    bool marker_done;
    uint64_t wrong_at;      /* --fix-results: a marker written wrongly there, */
    size_t wrong_len;       /* of this many bytes (0: none) */
    uint64_t escapes;
} Walk;

/* The move element e, as the text has it: the token at its offset is
 * the reader's (whole, or with a separate "e.p." folded in). */
static bool token_is_elem(const Walk *w, const PgnElem *e)
{
    if (e->pos.offset < w->base || e->pos.offset - w->base >= w->n)
        return false;
    size_t i = (size_t)(e->pos.offset - w->base), j = i;
    while (j < w->n && token_byte((unsigned char)w->s[j]))
        j++;
    size_t len = j - i;
    if (e->truncated || len == 0 || len > e->len || memcmp(e->text, w->s + i, len) != 0)
        return false;
    return len == e->len || (e->len == len + 4 && memcmp(e->text + len, "e.p.", 4) == 0);
}

/* The element k: false where it cannot be written as it is. */
static bool walk_elem(PgnExport *x, Walk *w)
{
    size_t k = w->k++;
    const PgnElem *e = &w->g->elems[k];
    if (e->kind == PGN_EL_VAR_START) {
        if (w->depth + 1 > PGN_MAX_DEPTH)
            return false;
        if (!w->moved[w->depth])
            return refuse(x, "a variation before any move");
        w->moved[++w->depth] = false;
        word(x, "(", 1);
        x->glue = true;
        x->need_number = true;
        return true;
    }
    if (e->kind == PGN_EL_VAR_END) {
        if (w->depth == 0)
            return false;
        w->depth--;
        word_more(x, ")", 1);
        x->need_number = true;
        return true;
    }
    if (!token_is_elem(w, e))
        return false;
    if (!w->mv || !w->mv[k].played)
        return refuse(x, "a null move in a variation, which SAN has no notation for");
    write_move(x, &w->mv[k]);
    w->moved[w->depth] = true;
    if (w->depth == 0)
        w->plies++;
    return true;
}

/* The note t: false where it cannot be written. */
static bool walk_note(PgnExport *x, Walk *w)
{
    const PgnNote *nt = &w->g->notes[w->t++];
    if (nt->offset < w->base || nt->offset - w->base >= w->n)
        return false;
    size_t i = (size_t)(nt->offset - w->base);
    const char *s = w->s;
    switch (nt->kind) {
    case PGN_NOTE_COMMENT:
        if (nt->len < 2 || i + nt->len > w->n)
            return false;
        return write_comment(x, s + i + 1, nt->len - 2, false);
    case PGN_NOTE_SEMICOLON:
    case PGN_NOTE_ESCAPE: {
        /* to the line's '\n', whatever else the reader took for a line end */
        const char *nl = memchr(s + i, '\n', w->n - i);
        size_t j = nl ? (size_t)(nl - s) : w->n;
        w->skip_to = w->base + j;
        if (nt->kind == PGN_NOTE_ESCAPE) {
            /* an escape line only at a line's start (PGN 6) */
            if (i > 0 ? s[i - 1] != '\n' : w->g->start.col > 1)
                return false;
            w->escapes++;
            return true;
        }
        size_t m = j;
        if (m > i + 1 && s[m - 1] == '\r')
            m--;
        return write_comment(x, s + i + 1, m - i - 1, true);
    }
    case PGN_NOTE_NAG:
        write_nag(x, nt->value);
        return true;
    case PGN_NOTE_SUFFIX:
        if (!nt->value)
            return false;
        write_nag(x, nt->value);
        return true;
    default:
        return false;
    }
}

/* The termination marker in its place. */
static void walk_marker(PgnExport *x, Walk *w)
{
    word(x, w->marker, strlen(w->marker));
    w->marker_done = true;
    x->after_marker = true;
}

/* The movetext: false where it is not written as the check read it. */
static bool walk(PgnExport *x, Walk *w)
{
    const PgnGame *g = w->g;
    const uint64_t none = UINT64_MAX;
    uint64_t res_at = g->result != PGN_RES_NONE ? g->result_pos.offset : none;
    for (;;) {
        uint64_t e_at = w->k < g->nelems ? g->elems[w->k].pos.offset : none;
        uint64_t t_at = w->t < g->nnotes ? g->notes[w->t].offset : none;
        uint64_t at = e_at < t_at ? e_at : t_at;
        if (w->wrong_len && !w->marker_done && w->depth == 0 && w->wrong_at <= at &&
            w->wrong_at - w->base + w->wrong_len <= w->n && w->wrong_at >= w->skip_to) {
            walk_marker(x, w);
            if (e_at == w->wrong_at)
                w->k++;
            continue;
        }
        if (res_at != none && !w->marker_done && res_at <= at) {
            if (res_at < w->skip_to) {
                res_at = none;  /* (in a ';' comment's text: not where it is read) */
                continue;
            }
            if (w->depth != 0)
                return false;
            walk_marker(x, w);
            continue;
        }
        if (at == none)
            break;
        if (at < w->skip_to) {
            /* inside a ';' comment or escape line: a note is part of
             * its text, an element is not read as the reader did */
            if (e_at == at)
                return false;
            w->t++;
            continue;
        }
        if (e_at == at) {
            if (w->marker_done || !walk_elem(x, w))
                return false;
        } else if (!walk_note(x, w))
            return false;
    }
    return w->depth == 0;
}

/* Does the tag section hold nothing but the tags and blanks between
 * them (each tag as its pair's text has it: '[', the name, the string
 * closed on its line, ']')?  Else the export would drop text. */
static bool tags_plain(const PgnGame *g)
{
    const char *s = g->raw;
    size_t n = g->raw_len, at = 0;
    for (size_t t = 0; t < g->ntags; t++) {
        const PgnTag *tag = &g->tags[t];
        if (tag->pos.offset < g->start.offset + at || tag->value_pos.offset <= tag->pos.offset)
            return false;
        size_t open = (size_t)(tag->pos.offset - g->start.offset), q = (size_t)(tag->value_pos.offset - g->start.offset);
        if (q >= n || s[open] != '[' || s[q] != '"')
            return false;
        for (size_t i = at; i < open; i++)
            if (!blank((unsigned char)s[i]))
                return false;
        /* the string's end, then the ']' */
        size_t i = q + 1;
        while (i < n && s[i] != '"' && s[i] != '\n')
            i += s[i] == '\\' && i + 1 < n ? 2 : 1;
        if (i >= n || s[i] != '"')
            return false;
        i++;
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        if (i >= n || s[i] != ']')
            return false;
        at = i + 1;
    }
    return true;
}

/* ---- --fix-results */

/* An error --fix-results mends: the result (a Result tag that holds none
 * of the four results gets the marker's: pgn_write_tag_result). */
static bool result_error(DiagCode c)
{
    return c == D_WRONG_RESULT || c == D_RESULT_MISMATCH || c == D_MISSING_TERMINATION || c == D_BAD_RESULT_TAG;
}

static void note(Diag *d, DiagCode code, PgnPos pos)
{
    memset(d, 0, sizeof *d);
    d->code = code;
    d->severity = SEV_NOTE;
    d->pos = pos;
}

static PgnResult result_of(const char *v)
{
    for (PgnResult r = PGN_RES_WHITE; v && r <= PGN_RES_UNKNOWN; r++)
        if (strcmp(v, result_text(r)) == 0)
            return r;
    return PGN_RES_NONE;
}

size_t pgn_export_notes(const PgnGame *g, const GameReport *rep, Diag change[2])
{
    bool added = g->result == PGN_RES_NONE;
    PgnResult to = pgn_write_tag_result(g, rep, added ? rep->marker : PGN_RES_NONE);
    size_t k = 0;
    if (to != PGN_RES_NONE) {
        const char *from = NULL;
        PgnPos where = g->start;
        for (size_t i = 0; i < g->ntags && !from; i++)
            if (g->tags[i].name && pgn_name_casecmp(g->tags[i].name, "Result") == 0 &&
                strcmp(g->tags[i].value, result_text(to)) != 0)
                from = g->tags[i].value, where = g->tags[i].pos;
        if (!from && g->result != PGN_RES_NONE && g->result != to)
            from = result_text(g->result), where = g->result_pos;
        if (from) {
            note(&change[k], D_WRONG_RESULT, where);
            snprintf(change[k++].msg, sizeof change->msg, "result rewritten from \"%.20s\" to \"%s\"", from,
                     result_text(to));
        }
    }
    if (added) {
        PgnResult tag = result_of(rep->result_tag);
        note(&change[k], D_MISSING_TERMINATION, rep->marker_pos);
        snprintf(change[k++].msg, sizeof change->msg, "termination marker %s written (%s)", result_text(rep->marker),
                 rep->marker_proven      ? "the result the board proves"
                 : tag != PGN_RES_NONE   ? "from the Result tag"
                                         : "no result is known");
    }
    return k;
}

/* ---- the game */

/* A game without error left as read: why (see pgn_export_why). */
static PgnExportStatus as_read(PgnExport *x, const char *why)
{
    refuse(x, why);
    return PGN_EXPORT_AS_READ;
}

static PgnExportStatus export_game(PgnExport *x, const PgnGame *g, const GameReport *rep, bool fix,
                                   PgnExportText *out, uint32_t *escapes)
{
    x->out = out;
    x->failed = false;
    if (!g->raw || g->syntax_error || g->out_of_memory || rep->out_of_memory || rep->status == STATUS_SKIPPED ||
        rep->reason == REASON_INVALID)
        return PGN_EXPORT_AS_READ;
    for (size_t i = 0; i < rep->ndiags; i++)
        if (rep->diags[i].severity == SEV_ERROR && !(fix && result_error(rep->diags[i].code)))
            return PGN_EXPORT_AS_READ;
    if (rep->dropped)
        return PGN_EXPORT_AS_READ;  /* (errors past the cap are not known) */
    /* Moves after an automatic draw are a warning (game.c): the replay
     * stops at the end, and an export would drop them. */
    if (rep->moves_after_end)
        return as_read(x, "moves are recorded after the end of the game");
    if (!g->raw_complete)
        return PGN_EXPORT_AS_READ;  /* (over GAME_TEXT: not copied at all, and said so) */

    /* The result: as read, or as --fix-results puts it right. */
    PgnResult to = fix ? pgn_write_tag_result(g, rep, g->result == PGN_RES_NONE ? rep->marker : PGN_RES_NONE)
                       : PGN_RES_NONE;
    PgnResult marker = to != PGN_RES_NONE ? to : g->result;
    bool added = false;
    if (g->result == PGN_RES_NONE) {
        if (!fix || rep->marker == PGN_RES_NONE)
            return as_read(x, "no termination marker (--fix-results writes one where it is known)");
        marker = rep->marker;
        added = true;
    }
    /* Every Result tag as the marker (else the game is not mended). */
    const char *mtext = result_text(marker);
    for (size_t i = 0; i < g->ntags; i++)
        if (g->tags[i].name && pgn_name_casecmp(g->tags[i].name, "Result") == 0 && to == PGN_RES_NONE &&
            strcmp(g->tags[i].value, mtext) != 0)
            return as_read(x, "a Result tag differs from the termination marker");

    /* (an export is about as long as the game's text: room for it at once) */
    if (out->cap - out->len < g->raw_len + 512) {
        char *p = mem_grow(out->p, &out->cap, out->len + g->raw_len + 512, 1, OUT_MAX);
        if (!p)
            return PGN_EXPORT_NO_MEMORY;
        out->p = p;
    }
    if ((g->nelems && !rep->moves) || g->notes_dropped)
        return as_read(x, "its moves or comments were not all recorded");
    if (!tags_plain(g))
        return as_read(x, "its tag section holds text besides the tags");
    if (!write_tags(x, g, mtext, to != PGN_RES_NONE))
        return PGN_EXPORT_AS_READ;
    x->line_at = x->word_at = x->group_at = out->len;
    x->glue = x->keep = x->after_marker = x->overflow = false;
    x->need_number = true;
    Walk w = {.g = g, .mv = rep->moves, .s = g->raw, .n = g->raw_len, .base = g->start.offset, .marker = mtext};
    if (added && rep->marker_len) {
        /* a marker written wrongly ("1/2"): the marker in its place */
        w.wrong_at = rep->marker_pos.offset;
        w.wrong_len = rep->marker_len;
    }
    if (!walk(x, &w))
        return x->failed ? PGN_EXPORT_NO_MEMORY : as_read(x, "its movetext is not read here as the check read it");
    if (!w.marker_done) {
        if (!added)
            return as_read(x, "its termination marker is not where the export reads it");
        word(x, mtext, strlen(mtext));
    }
    if (x->overflow)
        return as_read(x, "comments after its termination marker, or a comment's words from a '[' on, "
                          "that do not fit on a line of 80 bytes");
    /* (the main line written is the one the check replayed) */
    if (w.plies != rep->plies)
        return as_read(x, "the export's replay ends elsewhere than the check's");
    add(x, "\n\n", 2);
    if (x->failed)
        return PGN_EXPORT_NO_MEMORY;
    *escapes = w.escapes > UINT32_MAX ? UINT32_MAX : (uint32_t)w.escapes;
    return PGN_EXPORT_DONE;
}

PgnExportStatus pgn_export_game(PgnExport *x, const PgnGame *g, const GameReport *rep, bool fix,
                                PgnExportText *out, uint32_t *escapes)
{
    size_t at = out->len;
    *escapes = 0;
    x->why = NULL;
    PgnExportStatus st = export_game(x, g, rep, fix, out, escapes);
    if (st != PGN_EXPORT_DONE)
        out->len = at;  /* (never half a game) */
    if (st != PGN_EXPORT_AS_READ)
        x->why = NULL;
    return st;
}

const char *pgn_export_why(const PgnExport *x) { return x->why; }
