/* pgn_write.c - copies a game's text byte for byte (--select), or with its
 * Result tags and termination marker rewritten (--fix-results, R40). */
#include "pgn_write.h"

#include <string.h>

#include "pgn_bytes.h"

/* Where a game's text ends: content, the end of its last line that is not
 * blank; body, the end of that line with its line end if it has one
 * (has_eol); eol, the game's own line end. */
typedef struct Extent {
    size_t content, body;
    bool has_eol;
    const char *eol;
    const char *sep;    /* the blank line after the text: a line end as the
                         * last line's, so that a lone CR there and a LF
                         * after it are never read as one CR LF */
} Extent;

/* A rewrite: replace raw[from, to) with text. */
typedef struct Edit {
    size_t from, to;
    const char *text;
} Edit;

/* What --fix-results changes in a game: the result written (to, NONE to
 * leave it), the edits in the order of the text, the marker added (add;
 * in place of a marker written wrongly at wrong_at when wrong_len), and
 * the first value rewritten (from) and where, for the note. */
typedef struct Plan {
    PgnResult to, add;
    Edit edits[8];
    size_t nedits;
    size_t wrong_at, wrong_len;
    const char *from;
    PgnPos where;
} Plan;

static bool blank_byte(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* Offset, within the raw text, of the closing quote of the string whose
 * opening quote is at q; 0 if there is none on that line. */
static size_t string_end(const char *raw, size_t n, size_t q)
{
    for (size_t i = q + 1; i < n && raw[i] != '\n' && raw[i] != '\r'; i++) {
        if (raw[i] == '\\' && i + 1 < n)
            i++;
        else if (raw[i] == '"')
            return i;
    }
    return 0;
}

/* The game's own line end: the last one in its text ("\n" if none). */
static const char *line_end_of(const char *raw, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        if (raw[i] == '\n')
            return i && raw[i - 1] == '\r' ? "\r\n" : "\n";
        if (raw[i] == '\r')
            return "\r";
    }
    return "\n";
}

/* A Result tag's value as a result (the four of the standard), else NONE. */
static PgnResult result_of(const char *v)
{
    if (!v)
        return PGN_RES_NONE;
    for (PgnResult r = PGN_RES_WHITE; r <= PGN_RES_UNKNOWN; r++)
        if (strcmp(v, result_text(r)) == 0)
            return r;
    return PGN_RES_NONE;
}

static void note(Diag *d, DiagCode code, PgnPos pos)
{
    memset(d, 0, sizeof *d);
    d->code = code;
    d->severity = SEV_NOTE;
    d->pos = pos;
}

/* The game's text ends with its last line that is not blank: blank lines
 * the reader counted to the game (before the next game's tags, when it has
 * no marker) are the gap between games, written as one. */
static Extent text_extent(const char *raw, size_t n)
{
    Extent x;
    x.content = n;
    while (x.content > 0 && blank_byte(raw[x.content - 1]))
        x.content--;
    x.body = x.content;
    while (x.body < n && (raw[x.body] == ' ' || raw[x.body] == '\t'))
        x.body++;
    x.has_eol = x.body < n && (raw[x.body] == '\r' || raw[x.body] == '\n');
    x.eol = line_end_of(raw, n);
    x.sep = x.eol;
    if (x.has_eol) {
        bool crlf = raw[x.body] == '\r' && x.body + 1 < n && raw[x.body + 1] == '\n';
        x.sep = crlf ? "\r\n" : raw[x.body] == '\r' ? "\r" : "\n";
        x.body += crlf ? 2 : 1;
    }
    return x;
}

/* The edits of the Result tags (every one, a miscased one too: the game
 * layer honours it where no Result tag is written right) and of the
 * marker, where they are not already p->to. */
static void plan_result_edits(const PgnGame *g, size_t content, Plan *p)
{
    const char *raw = g->raw, *to_text = result_text(p->to);
    for (size_t i = 0; i < g->ntags && p->nedits < 7; i++) {
        if (!g->tags[i].name || pgn_name_casecmp(g->tags[i].name, "Result") != 0)
            continue;
        if (g->tags[i].value_pos.offset < g->start.offset)
            continue;
        size_t q = (size_t)(g->tags[i].value_pos.offset - g->start.offset);
        if (q >= content || raw[q] != '"')
            continue;
        size_t e = string_end(raw, g->raw_len, q);
        if (!e)
            continue;
        if (strlen(to_text) == e - q - 1 && memcmp(raw + q + 1, to_text, e - q - 1) == 0)
            continue;
        if (!p->from) {
            p->from = g->tags[i].value;
            p->where = g->tags[i].pos;
        }
        p->edits[p->nedits++] = (Edit){q + 1, e, to_text};
    }
    if (g->result != PGN_RES_NONE && g->result != p->to && g->result_pos.offset >= g->start.offset) {
        const char *old = result_text(g->result);
        size_t len = strlen(old);
        size_t at = (size_t)(g->result_pos.offset - g->start.offset);
        /* Only rewrite what is really there. */
        if (at + len <= content && memcmp(raw + at, old, len) == 0) {
            if (!p->from) {
                p->from = old;
                p->where = g->result_pos;
            }
            p->edits[p->nedits++] = (Edit){at, at + len, to_text};
        }
    }
}

PgnResult pgn_write_tag_result(const PgnGame *g, const GameReport *fix, PgnResult add)
{
    if (fix->fixed != PGN_RES_NONE)
        return fix->fixed;
    PgnResult end = g->result != PGN_RES_NONE ? g->result : add;
    if (end == PGN_RES_NONE)
        return PGN_RES_NONE;
    for (size_t i = 0; i < g->ntags; i++)
        if (g->tags[i].name && pgn_name_casecmp(g->tags[i].name, "Result") == 0 &&
            result_of(g->tags[i].value) == PGN_RES_NONE)
            return end;
    return PGN_RES_NONE;
}

/* What fix (NULL: none) changes in game g. */
static void plan(const PgnGame *g, const GameReport *fix, size_t content, Plan *p)
{
    memset(p, 0, sizeof *p);
    p->where = g->start;
    p->add = fix && g->result == PGN_RES_NONE && content > 0 ? fix->marker : PGN_RES_NONE;
    /* (a marker written wrongly is replaced in place: an edit below) */
    if (p->add != PGN_RES_NONE && fix->marker_len && fix->marker_pos.offset >= g->start.offset) {
        p->wrong_at = (size_t)(fix->marker_pos.offset - g->start.offset);
        p->wrong_len = fix->marker_len;
        if (p->wrong_at + p->wrong_len > content)
            p->add = PGN_RES_NONE;
    }
    p->to = fix ? pgn_write_tag_result(g, fix, p->add) : PGN_RES_NONE;
    /* A result rewritten where the marker cannot be written would leave a
     * game still without one: it is copied as it is. */
    if (g->result == PGN_RES_NONE && p->add == PGN_RES_NONE)
        p->to = PGN_RES_NONE;
    if (p->to != PGN_RES_NONE)
        plan_result_edits(g, content, p);
    if (p->wrong_len)
        p->edits[p->nedits++] = (Edit){p->wrong_at, p->wrong_at + p->wrong_len, result_text(p->add)};
}

/* The marker added after raw[0, x->content): on the last line of the
 * movetext after a space, as a writer of PGN puts it; on a line of its own
 * after a ; comment or a % line (which run to the end of the line) or
 * where the line would grow past 79 characters, and after a blank line
 * where the game has only tags. */
static void write_marker(FILE *out, const char *raw, const Extent *x, PgnResult add, bool tags_only)
{
    size_t ls = x->content;
    while (ls > 0 && raw[ls - 1] != '\n' && raw[ls - 1] != '\r')
        ls--;
    size_t len = x->content - ls, add_len = strlen(result_text(add));
    bool own_line = raw[ls] == '%' || memchr(raw + ls, ';', len) != NULL || (len <= 79 && len + 1 + add_len > 79);
    if (tags_only && raw[ls] == '[') {
        fputs(x->eol, out);
        fputs(x->eol, out);
    } else if (own_line)
        fputs(x->eol, out);
    else
        fputc(' ', out);
    fputs(result_text(add), out);
    fputs(x->eol, out);
}

/* The text with the plan's edits (tags come before the movetext, so the
 * edits are in order), the marker added, and the blank line that
 * separates games, in the game's line-end style. */
static void write_text(FILE *out, const char *raw, const Extent *x, const Plan *p, const GameReport *fix)
{
    size_t at = 0;
    for (size_t i = 0; i < p->nedits; i++) {
        fwrite(raw + at, 1, p->edits[i].from - at, out);
        fputs(p->edits[i].text, out);
        at = p->edits[i].to;
    }
    if (p->add != PGN_RES_NONE && !p->wrong_len) {
        fwrite(raw + at, 1, x->content - at, out);
        write_marker(out, raw, x, p->add, fix->tags_only);
    } else {
        fwrite(raw + at, 1, x->body - at, out);
        if (!x->has_eol)
            fputs(x->eol, out);
        fputs(x->sep, out);
        return;
    }
    fputs(x->eol, out);
}

/* The notes of the changes made: change[0..return). */
static size_t describe(const char *raw, const Plan *p, const GameReport *fix, Diag change[2])
{
    size_t k = 0;
    if (p->nedits - (p->wrong_len > 0)) {
        note(&change[k], D_WRONG_RESULT, p->where);
        snprintf(change[k++].msg, sizeof change->msg, "result rewritten from \"%.20s\" to \"%s\"",
                 p->from ? p->from : "", result_text(p->to));
    }
    if (p->add != PGN_RES_NONE) {
        PgnResult tag = result_of(fix->result_tag);
        note(&change[k], D_MISSING_TERMINATION, fix->marker_pos);
        char was[32] = "";
        if (p->wrong_len)
            snprintf(was, sizeof was, " for \"%.*s\"", (int)p->wrong_len, raw + p->wrong_at);
        snprintf(change[k++].msg, sizeof change->msg, "termination marker %s written%s (%s)", result_text(p->add),
                 was,
                 fix->marker_proven              ? "the result the board proves"
                 : p->wrong_len && tag != p->add ? "the result it names"
                 : tag != PGN_RES_NONE           ? "from the Result tag"
                                                 : "no result is known");
    }
    return k;
}

int pgn_write_game(FILE *out, const PgnGame *g, const GameReport *fix, Diag change[2], size_t *nchange)
{
    if (nchange)
        *nchange = 0;
    if (!g->raw || !g->raw_complete)
        return -1;
    Extent x = text_extent(g->raw, g->raw_len);
    Plan p;
    plan(g, fix, x.content, &p);
    write_text(out, g->raw, &x, &p, fix);
    if (!p.nedits && p.add == PGN_RES_NONE)
        return 0;
    size_t k = change ? describe(g->raw, &p, fix, change) : 0;
    if (nchange)
        *nchange = k;
    return 1;
}

/* ---- games copied one after another */

PgnCopyEnd pgn_write_end(const PgnGame *g, const GameReport *rep, const GameReport *fix)
{
    if (g->syntax_error)
        return PGN_COPY_SKIPPING;
    for (size_t i = 0; i < rep->ndiags; i++)
        if (rep->diags[i].code == D_UNTERMINATED_COMMENT)
            return PGN_COPY_SKIPPING;
    if (g->result != PGN_RES_NONE)
        return PGN_COPY_CLOSED;
    if (fix && g->raw) {
        Extent x = text_extent(g->raw, g->raw_len);
        Plan p;
        plan(g, fix, x.content, &p);
        if (p.add != PGN_RES_NONE)
            return PGN_COPY_CLOSED;
    }
    /* (a piece's copy of a game keeps no elements: the plies tell) */
    return g->ntags == 0 && rep->plies == 0 && g->raw && g->raw_len && g->raw[0] == '[' ? PGN_COPY_BARE
                                                                                        : PGN_COPY_OPEN;
}

bool pgn_write_apart(PgnCopyEnd prev, const PgnGame *g)
{
    switch (prev) {
    case PGN_COPY_CLOSED:
        return true;
    case PGN_COPY_OPEN:
        return g->raw && g->raw_len > 0 && g->raw[0] == '[';
    case PGN_COPY_SKIPPING: {
        size_t name, nlen;
        return g->raw && pgn_tag_shape((const unsigned char *)g->raw, g->raw_len, PGN_MAX_TAG_NAME - 1, &name, &nlen);
    }
    case PGN_COPY_BARE:
        break;
    }
    return false;
}
