/* report.c - formats games and diagnostics: text, JSON Lines, TSV, GitHub annotations. */
#include "report.h"
#include "laws.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "names.h"
#include "repair.h"
#include "rollup.h"
#include "tags.h"

/* A growable line buffer: one fwrite per record.  On allocation failure it
 * keeps what fits and sets failed; the record is then not written, and the
 * report says so (report_out_of_memory). */
typedef struct Buf {
    char *p;
    size_t len, cap;
    bool failed;
} Buf;

/* In a deferred report (report_new_deferred), a number that depends on
 * where the game stands in the input, left out of the text at `at` and
 * written by report_deferred_write with its base added. */
enum { NUM_INDEX, NUM_LINE };
typedef struct Splice {
    size_t at;
    uint64_t value;
    int kind;
} Splice;

struct Report {
    FILE *out;
    ReportFormat fmt;
    bool color;
    Severity min;               /* --min-severity */
    uint64_t hidden[SEV_ERROR + 1]; /* diagnostics not printed for it */
    bool dups;                  /* --duplicates: the duplicate_of field or column */
    RollUp *roll;               /* --max-repeats (text, github) */
    const char *dup_text;       /* the game being written's GameReport.dup_text */
    Buf b;
    /* deferred: records kept in b, their place-dependent numbers here */
    bool defer;
    Splice *sp;
    size_t nsp, spcap;
    bool oom;                   /* a record was lost for want of memory: nothing more is written */
};

/* Room for extra more bytes: the growing and the failure, out of line. */
static bool buf_grow(Buf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (b->len + extra <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + extra)
        cap *= 2;
    char *p = mem_realloc(b->p, cap, 1);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->p = p;
    b->cap = cap;
    return true;
}

static inline bool buf_reserve(Buf *b, size_t extra)
{
    return (b->len + extra <= b->cap && !b->failed) || buf_grow(b, extra);
}

static inline void buf_add(Buf *b, const char *s, size_t n)
{
    if (n && buf_reserve(b, n)) {
        memcpy(b->p + b->len, s, n);
        b->len += n;
    }
}

static void buf_puts(Buf *b, const char *s) { buf_add(b, s, strlen(s)); }

/* A string literal, its length known at compile time. */
#define BUF_LIT(b, lit) buf_add((b), "" lit, sizeof(lit) - 1)

static inline void buf_putc(Buf *b, char c)
{
    if (buf_reserve(b, 1))
        b->p[b->len++] = c;
}

static void buf_u64(Buf *b, uint64_t v)
{
    char tmp[24];
    size_t n = 0;
    do {
        tmp[sizeof tmp - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    buf_add(b, tmp + sizeof tmp - n, n);
}

static void buf_flush(Report *rp)
{
    if (rp->defer)
        return;             /* kept for report_deferred_write */
    if (rp->b.failed)
        rp->oom = true;     /* (a record cut short is not written, nor any after it) */
    if (rp->b.len && !rp->oom)
        fwrite(rp->b.p, 1, rp->b.len, rp->out);
    rp->b.len = 0;
    rp->b.failed = false;
}

/* Decodes one character of s[0..n): valid UTF-8 (no overlongs, surrogates
 * or code points above U+10FFFF) gives its code point; any other byte is
 * taken as Latin-1 (CP437 and broken UTF-8 alike: the result is always
 * valid UTF-8, never a lost byte).  Returns the bytes consumed (>= 1). */
static size_t utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    unsigned c = s[0];
    size_t len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2; v = c & 0x1F; min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3; v = c & 0x0F; min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4; v = c & 0x07; min = 0x10000;
    } else {
        *cp = c;
        return 1;
    }
    if (len > n) {
        *cp = c;
        return 1;
    }
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) {
            *cp = c;
            return 1;
        }
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        *cp = c;
        return 1;
    }
    *cp = v;
    return len;
}

static void buf_utf8(Buf *b, uint32_t cp)
{
    char t[4];
    size_t n;
    if (cp < 0x80) {
        t[0] = (char)cp; n = 1;
    } else if (cp < 0x800) {
        t[0] = (char)(0xC0 | (cp >> 6)); t[1] = (char)(0x80 | (cp & 0x3F)); n = 2;
    } else if (cp < 0x10000) {
        t[0] = (char)(0xE0 | (cp >> 12)); t[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        t[2] = (char)(0x80 | (cp & 0x3F)); n = 3;
    } else {
        t[0] = (char)(0xF0 | (cp >> 18)); t[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        t[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); t[3] = (char)(0x80 | (cp & 0x3F)); n = 4;
    }
    buf_add(b, t, n);
}

/* How a string is made safe for its destination. */
typedef enum Escape {
    ESC_JSON,       /* JSON string body: \" \\ and \u00XX for controls */
    ESC_TSV,        /* tabs, newlines and other controls become spaces */
    ESC_TEXT,       /* terminal text: controls become spaces */
    ESC_GH_DATA,    /* workflow command message: % \r \n as %XX */
    ESC_GH_PROP,    /* workflow command property: also : and , */
} Escape;

/* Bit e of esc_plain[c] is set if byte c is copied as it is under Escape
 * e: printable ASCII, but for the bytes that escape's rules change. */
#define ESC_P(c)                                                                                       \
    (unsigned char)(((c) >= 0x20 && (c) < 0x7F)                                                      \
                        ? (1u << ESC_TSV | 1u << ESC_TEXT | ((c) != '"' && (c) != '\\') << ESC_JSON |    \
                           ((c) != '%') << ESC_GH_DATA | ((c) != '%' && (c) != ':' && (c) != ',') << ESC_GH_PROP) \
                        : 0u)
#define ESC_P4(c) ESC_P(c), ESC_P((c) + 1), ESC_P((c) + 2), ESC_P((c) + 3)
#define ESC_P16(c) ESC_P4(c), ESC_P4((c) + 4), ESC_P4((c) + 8), ESC_P4((c) + 12)
#define ESC_P64(c) ESC_P16(c), ESC_P16((c) + 16), ESC_P16((c) + 32), ESC_P16((c) + 48)
static const unsigned char esc_plain[256] = {ESC_P64(0), ESC_P64(64), ESC_P64(128), ESC_P64(192)};
#undef ESC_P64
#undef ESC_P16
#undef ESC_P4
#undef ESC_P

/* Might one of the 8 bytes at s need more than a copy (a control byte,
 * DEL, a byte above 0x7F, and in a JSON string '"' or '\\')?  Word
 * operations; a false yes only sends the word to the byte loop. */
static inline bool word_special(const unsigned char *s, bool json)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), high = ones << 7;
    uint64_t x;
    memcpy(&x, s, 8);
#define HAS_ZERO(v) (((v) - ones) & ~(v) & high)
    uint64_t bad = ((x - ones * 0x20) & ~x) | x | HAS_ZERO(x ^ (ones * 0x7F));
    if (json)
        bad |= HAS_ZERO(x ^ (ones * '"')) | HAS_ZERO(x ^ (ones * '\\'));
#undef HAS_ZERO
    return (bad & high) != 0;
}

/* The bytes at the start of u[0..n) that esc copies as they are. */
static inline size_t plain_prefix(const unsigned char *u, size_t n, Escape esc)
{
    size_t j = 0;
    if (esc <= ESC_TEXT)
        while (n - j >= 8 && !word_special(u + j, esc == ESC_JSON))
            j += 8;
    while (j < n && (esc_plain[u[j]] >> esc & 1))
        j++;
    return j;
}

static void buf_str(Buf *b, const char *s, size_t n, Escape esc)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        /* Copy a run of plain ASCII in one go: the common case. */
        size_t j = i + plain_prefix(u + i, n - i, esc);
        buf_add(b, s + i, j - i);
        i = j;
        if (i >= n)
            break;
        uint32_t cp;
        size_t k = utf8_next(u + i, n - i, &cp);
        i += k;
        if (cp >= 0xA0) {
            buf_utf8(b, cp);
            continue;
        }
        /* C1 controls (U+0080-U+009F: CSI, OSC, ST...), from UTF-8 or a
         * Latin-1 byte, are controls as those below 0x20 are */
        switch (esc) {
        case ESC_JSON:
            if (cp == '"') {
                buf_puts(b, "\\\"");
            } else if (cp == '\\') {
                buf_puts(b, "\\\\");
            } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
                char e[6] = {'\\', 'u', '0', '0', hex[cp >> 4], hex[cp & 15]};
                buf_add(b, e, 6);
            } else {
                buf_putc(b, (char)cp);
            }
            break;
        case ESC_TSV:
        case ESC_TEXT:
            buf_putc(b, cp < 0x20 || cp >= 0x7F ? ' ' : (char)cp);
            break;
        case ESC_GH_DATA:
        case ESC_GH_PROP:
            if (cp == '%' || cp == '\r' || cp == '\n' ||
                (esc == ESC_GH_PROP && (cp == ':' || cp == ','))) {
                char e[3] = {'%', hex[cp >> 4], hex[cp & 15]};
                buf_add(b, e, 3);
            } else {
                buf_putc(b, cp < 0x20 || cp >= 0x7F ? ' ' : (char)cp);
            }
            break;
        }
    }
}

static void buf_cstr(Buf *b, const char *s, Escape esc) { buf_str(b, s, strlen(s), esc); }

/* A file name in text and TSV (names.h): controls, C1 controls, bytes
 * that are not UTF-8 and the backslash as escapes, so that no two names
 * look alike and none acts on the terminal. */
static void buf_name(Buf *b, const char *name)
{
    const unsigned char *s = (const unsigned char *)name;
    size_t n = strlen(name);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && s[j] >= 0x20 && s[j] < 0x7F && s[j] != '\\')
            j++;
        buf_add(b, name + i, j - i);
        if (j >= n)
            break;
        char t[NAME_CHAR_MAX];
        size_t used;
        buf_add(b, t, name_char(s + j, n - j, &used, t));
        i = j + used;
    }
}

/* A JSON string value, or null. */
static void json_str(Buf *b, const char *s)
{
    if (!s) {
        BUF_LIT(b, "null");
        return;
    }
    size_t n = strlen(s);
    if (plain_prefix((const unsigned char *)s, n, ESC_JSON) == n && buf_reserve(b, n + 2)) {
        /* nothing to escape, the usual case: quoted in one copy */
        char *o = b->p + b->len;
        o[0] = '"';
        memcpy(o + 1, s, n);
        o[n + 1] = '"';
        b->len += n + 2;
        return;
    }
    buf_putc(b, '"');
    buf_str(b, s, n, ESC_JSON);
    buf_putc(b, '"');
}

static void json_key(Buf *b, const char *key)
{
    buf_putc(b, ',');
    buf_putc(b, '"');
    buf_puts(b, key);
    BUF_LIT(b, "\":");
}

/* json_key for a literal key */
#define JSON_KEY(b, key) BUF_LIT((b), ",\"" key "\":")

/* ---- public helpers ---- */

Report *report_new(FILE *out, ReportFormat fmt, bool color)
{
    Report *rp = mem_calloc(1, sizeof *rp);
    if (!rp)
        return NULL;
    rp->out = out;
    rp->fmt = fmt;
    rp->color = color && fmt == FMT_TEXT;
    rp->min = SEV_NOTE;
    return rp;
}

void report_set_min_severity(Report *rp, Severity min)
{
    rp->min = min;
}

void report_hidden(const Report *rp, uint64_t hidden[SEV_ERROR + 1])
{
    for (int i = 0; i <= SEV_ERROR; i++)
        hidden[i] += rp->hidden[i];
}

/* Is d printed?  Not an ignored one; not one below the threshold, which
 * is counted, unless it is one the caller added (always). */
static inline bool shown(Report *rp, const Diag *d, bool added)
{
    if (d->severity == SEV_NONE)
        return false;
    /* (a repair found goes with the error it repairs) */
    if (added || d->severity >= rp->min || d->severity > SEV_ERROR || d->code == D_REPAIR_FOUND)
        return true;
    rp->hidden[d->severity]++;
    return false;
}

Report *report_new_deferred(ReportFormat fmt)
{
    if (fmt != FMT_JSONL && fmt != FMT_TSV)
        return NULL;
    Report *rp = report_new(NULL, fmt, false);
    if (rp)
        rp->defer = true;
    return rp;
}

bool report_deferred_write(Report *src, Report *dst, uint64_t index_base, uint64_t line_delta)
{
    if (src->b.failed) {
        dst->oom = true;    /* (a record cut short is not written, nor any after it) */
        report_deferred_reset(src);
        return false;
    }
    Buf *o = &dst->b;
    size_t at = 0;
    for (size_t i = 0; i < src->nsp; i++) {
        const Splice *sp = &src->sp[i];
        buf_add(o, src->b.p + at, sp->at - at);
        /* lines as the reader's 32-bit counts shifted (pieces.c lines_shift) */
        buf_u64(o, sp->kind == NUM_INDEX ? sp->value + index_base : (uint32_t)(sp->value + line_delta));
        at = sp->at;
        if (o->len >= (64u << 10))
            buf_flush(dst);
    }
    buf_add(o, src->b.p + at, src->b.len - at);
    buf_flush(dst);
    for (int i = 0; i <= SEV_ERROR; i++)
        dst->hidden[i] += src->hidden[i];
    report_deferred_reset(src);
    return !dst->oom;
}

bool report_out_of_memory(const Report *rp)
{
    return rp && rp->oom;
}

void report_deferred_reset(Report *src)
{
    src->b.len = 0;
    src->b.failed = false;
    src->nsp = 0;
    memset(src->hidden, 0, sizeof src->hidden);
    /* a batch with long records gives the memory back */
    if (src->b.cap > (1u << 20)) {
        mem_free(src->b.p);
        src->b.p = NULL;
        src->b.cap = 0;
    }
    if (src->spcap > (1u << 14)) {
        mem_free(src->sp);
        src->sp = NULL;
        src->spcap = 0;
    }
}

void report_free(Report *rp)
{
    if (rp) {
        rollup_free(rp->roll);
        mem_free(rp->sp);
        mem_free(rp->b.p);
        mem_free(rp);
    }
}

void report_show_duplicates(Report *rp)
{
    rp->dups = true;
}

bool report_set_max_repeats(Report *rp, uint64_t max)
{
    if (!max || (rp->fmt != FMT_TEXT && rp->fmt != FMT_GITHUB))
        return true;
    rp->roll = rollup_new(max, rp->fmt == FMT_GITHUB);
    return rp->roll != NULL;
}

static const char *diag_message(const Report *rp, const Diag *d);

/* Is d printed, as far as --max-repeats goes?  Text prints every error. */
static bool repeats_shown(Report *rp, const Diag *d)
{
    return !rp->roll || (rp->fmt == FMT_TEXT && d->severity == SEV_ERROR) || rollup_show(rp->roll, d, diag_message(rp, d));
}

bool report_format_parse(const char *name, ReportFormat *fmt)
{
    static const char *const names[] = {"text", "jsonl", "tsv", "github"};
    for (int i = 0; i < 4; i++)
        if (strcmp(name, names[i]) == 0) {
            *fmt = (ReportFormat)i;
            return true;
        }
    return false;
}

const char *report_tag(const PgnGame *g, const char *name)
{
    const PgnTag *t = tags_find(g, name);
    return t ? t->value : NULL;
}

/* report_tag of the six tags a game's record shows, in one pass over the
 * tags (their names begin with six different letters). */
enum { SHOW_N = TAGS_BLACK + 1 };    /* the roster but for Result */

static void report_tags6(const PgnGame *g, const char *v[SHOW_N])
{
    unsigned found = 0;
    for (int k = 0; k < SHOW_N; k++)
        v[k] = NULL;
    for (size_t i = 0; i < g->ntags && found != (1u << SHOW_N) - 1; i++) {
        const char *n = g->tags[i].name;
        int k;
        switch (n ? n[0] : 0) {
        case 'E': k = TAGS_EVENT; break;
        case 'S': k = TAGS_SITE; break;
        case 'D': k = TAGS_DATE; break;
        case 'R': k = TAGS_ROUND; break;
        case 'W': k = TAGS_WHITE; break;
        case 'B': k = TAGS_BLACK; break;
        default: continue;
        }
        if (!(found >> k & 1) && strcmp(n + 1, tags_roster[k] + 1) == 0) {
            v[k] = g->tags[i].value;
            found |= 1u << k;
        }
    }
    for (int k = 0; k < SHOW_N; k++)
        if (!(found >> k & 1))
            v[k] = report_tag(g, tags_roster[k]);
}

static const char *status_slug(GameStatus s)
{
    switch (s) {
    case STATUS_OK: return "ok";
    case STATUS_WARNING: return "warning";
    case STATUS_ERROR: return "error";
    case STATUS_SKIPPED: return "skipped";
    }
    return "error";
}

/* The result as declared: the termination marker (or the Result tag the game
 * layer fell back on), else the Result tag's text as written, else null. */
static const char *declared_text(const GameReport *rep)
{
    if (rep->declared != PGN_RES_NONE)
        return result_text(rep->declared);
    return rep->result_tag;
}

static const char *diag_message(const Report *rp, const Diag *d)
{
    const char *dup_text = rp->dup_text;
    if (dup_text && (d->code == D_DUPLICATE_GAME || d->code == D_DUPLICATE_RESULT || d->code == D_SAME_MOVES))
        return dup_text;
    if (d->msg[0])
        return d->msg;
    return d->code < D_COUNT ? diag_info[d->code].meaning : "";
}

static const char *diag_slug(const Diag *d)
{
    return d->code < D_COUNT ? diag_info[d->code].slug : "unknown";
}

/* ---- text ---- */

#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_MAGENTA "\033[1;35m"
#define C_CYAN "\033[1;36m"
#define C_GREEN "\033[1;32m"
#define C_OFF "\033[0m"

static void text_color(Report *rp, const char *c)
{
    if (rp->color)
        buf_puts(&rp->b, c);
}

static const char *sev_color(Severity s)
{
    return s == SEV_ERROR ? C_RED : s == SEV_WARNING ? C_MAGENTA : C_CYAN;
}

/* The source line of an error with a caret under it.  Long lines (engine
 * comments run to thousands of bytes) are cut to a window around the
 * column; each character, UTF-8 or Latin-1, counts as one column, and a
 * tab is shown as a tab in the line and under it, so the caret stays
 * under the column wherever the terminal's tab stops are.  The line comes
 * from the game's raw text, or from a slice of it (report_take_slices):
 * SLICE_BEFORE bytes before the column and SLICE_AFTER after it, what the
 * window can show, so that both give the same line. */
#define EXCERPT_BEFORE 60
#define EXCERPT_WIDTH 120
#define SLICE_BEFORE 64         /* > EXCERPT_BEFORE + 3 (a UTF-8 character) */
#define SLICE_AFTER (PGN_SLICE - SLICE_BEFORE)  /* > EXCERPT_WIDTH */

/* Does a finding show its source line? */
static bool shows_line(const PgnGame *g, const Diag *d)
{
    return d->severity == SEV_ERROR && d->pos.offset >= g->start.offset;
}

/* The text a finding's line is cut from: *s, *n bytes, its column at *rel. */
static bool excerpt_text(const PgnGame *g, const Diag *d, const unsigned char **s, size_t *n, size_t *rel)
{
    if (!g || d->pos.offset < g->start.offset)
        return false;
    if (g->raw) {
        uint64_t rel64 = d->pos.offset - g->start.offset;
        if (rel64 > g->raw_len)
            return false;
        *s = (const unsigned char *)g->raw;
        *n = g->raw_len;
        *rel = (size_t)rel64;
        return true;
    }
    for (size_t i = 0; i < g->nslices; i++) {
        const PgnSlice *sl = &g->slices[i];
        if (sl->offset == d->pos.offset) {
            *s = (const unsigned char *)sl->text;
            *n = sl->len;
            *rel = (size_t)(sl->offset - sl->base);
            return true;
        }
    }
    return false;
}

/* github: counts the characters of d's line before it (utf8_next's,
 * read in pieces, a character never split between two) and, where they
 * are fewer than its bytes, keeps the count as a slice without text whose
 * base is the offset the line would start at were each character one
 * byte (char_column); an ASCII line keeps nothing, so github output holds
 * no more than text output. */
static bool take_prefix(PgnGame *g, const Diag *d, ReportReadAt read, void *ctx)
{
    uint64_t off = d->pos.offset, back = d->pos.col ? d->pos.col - 1 : 0;
    uint64_t chars = 0;
    if (back > off - g->start.offset) {
        /* (the line began before the game: those bytes count one each) */
        chars = back - (off - g->start.offset);
        back = off - g->start.offset;
    }
    uint64_t at = off - back;
    unsigned char buf[PGN_SLICE];
    size_t have = 0;
    while (at < off || have) {
        size_t want = sizeof buf - have;
        if (want > off - at)
            want = (size_t)(off - at);
        if (want) {
            long k = read(ctx, (char *)buf + have, want, at);
            if (k <= 0)
                return true;    /* (a file that cannot be read again: bytes) */
            have += (size_t)k;
            at += (uint64_t)k;
        }
        size_t i = 0;
        /* a sequence cut at the buffer's end waits for the next read */
        while (i < have && (have - i >= 4 || at == off)) {
            uint32_t cp;
            i += utf8_next(buf + i, have - i, &cp);
            chars++;
        }
        memmove(buf, buf + i, have - i);
        have -= i;
    }
    if (chars == (d->pos.col ? d->pos.col - 1 : 0))
        return true;            /* one byte a character: the byte column is right */
    return pgn_game_add_slice(g, off, off - chars, (const char *)buf, 0);
}

bool report_take_slices(PgnGame *g, const GameReport *rep, uint64_t end, bool prefix, ReportReadAt read,
                        void *ctx)
{
    for (size_t i = 0; i < rep->ndiags; i++) {
        const Diag *d = &rep->diags[i];
        uint64_t off = d->pos.offset;
        if (!(prefix ? d->pos.line && off >= g->start.offset : shows_line(g, d)) || off > end)
            continue;
        bool have = false;
        for (size_t k = g->nslices; k-- > 0 && !have;)
            have = g->slices[k].offset == off;
        if (have)
            continue;
        if (prefix) {
            if (!take_prefix(g, d, read, ctx))
                return false;
            continue;
        }
        uint64_t lo = off - g->start.offset > SLICE_BEFORE ? off - SLICE_BEFORE : g->start.offset;
        uint64_t hi = end - off > SLICE_AFTER ? off + SLICE_AFTER : end;
        char buf[PGN_SLICE];
        long k = read(ctx, buf, (size_t)(hi - lo), lo);
        if (k < 0)
            continue;           /* (a file that cannot be read again: no line) */
        if (!pgn_game_add_slice(g, off, lo, buf, (size_t)k))
            return false;
    }
    return true;
}

long report_read_raw(void *ctx, char *buf, size_t n, uint64_t off)
{
    const PgnGame *src = ctx;
    if (!src->raw || off < src->start.offset || off - src->start.offset > src->raw_len)
        return -1;
    size_t at = (size_t)(off - src->start.offset);
    if (n > src->raw_len - at)
        n = src->raw_len - at;
    memcpy(buf, src->raw + at, n);
    return (long)n;
}

static void text_excerpt(Report *rp, const PgnGame *g, const Diag *d)
{
    const unsigned char *raw;
    size_t n, rel;
    if (!excerpt_text(g, d, &raw, &n, &rel))
        return;
    size_t ls = rel, le = rel;
    while (ls > 0 && raw[ls - 1] != '\n' && raw[ls - 1] != '\r')
        ls--;
    while (le < n && raw[le] != '\n' && raw[le] != '\r')
        le++;
    size_t ws = ls, we = le;
    bool lcut = false, rcut = false;
    if (rel - ls > EXCERPT_BEFORE) {
        ws = rel - EXCERPT_BEFORE;
        while (ws < rel && (raw[ws] & 0xC0) == 0x80)
            ws++;
        lcut = true;
    }
    if (we - ws > EXCERPT_WIDTH) {
        we = ws + EXCERPT_WIDTH;
        if (we < rel)
            we = rel;
        rcut = true;
    }
    Buf *b = &rp->b;
    char num[16];
    int w = snprintf(num, sizeof num, "%5lu", (unsigned long)d->pos.line);
    buf_add(b, num, (size_t)w);
    buf_puts(b, " | ");
    if (lcut)
        buf_puts(b, "...");
    /* (other control characters become spaces, here and under them) */
    for (size_t i = ws; i < we;) {
        const unsigned char *tab = memchr(raw + i, '\t', we - i);
        size_t j = tab ? (size_t)(tab - raw) : we;
        buf_str(b, (const char *)raw + i, j - i, ESC_TEXT);
        if (tab)
            buf_putc(b, '\t');
        i = tab ? j + 1 : we;
    }
    if (rcut)
        buf_puts(b, "...");
    buf_putc(b, '\n');
    for (int i = 0; i < w; i++)
        buf_putc(b, ' ');
    buf_puts(b, " | ");
    if (lcut)
        buf_puts(b, "   ");
    for (size_t i = ws; i < rel && i < we;) {
        uint32_t cp;
        size_t k = utf8_next(raw + i, we - i, &cp);
        buf_putc(b, cp == '\t' ? '\t' : ' ');
        i += k;
    }
    text_color(rp, C_GREEN);
    buf_putc(b, '^');
    text_color(rp, C_OFF);
    buf_putc(b, '\n');
}

static void text_diag(Report *rp, const char *file, const PgnGame *g, const Diag *d)
{
    Buf *b = &rp->b;
    text_color(rp, C_BOLD);
    buf_name(b, file);
    if (d->pos.line) {
        buf_putc(b, ':');
        buf_u64(b, d->pos.line);
        buf_putc(b, ':');
        buf_u64(b, d->pos.col);
    }
    buf_puts(b, ": ");
    text_color(rp, C_OFF);
    text_color(rp, sev_color(d->severity));
    buf_puts(b, diag_severity_name(d->severity));
    text_color(rp, C_OFF);
    buf_puts(b, ": ");
    buf_cstr(b, diag_message(rp, d), ESC_TEXT);
    buf_puts(b, " [");
    buf_puts(b, diag_slug(d));
    buf_puts(b, "]\n");
    if (d->severity == SEV_ERROR)
        text_excerpt(rp, g, d);
}

static void text_header(Report *rp, const char *file, const PgnGame *g)
{
    Buf *b = &rp->b;
    const char *white = report_tag(g, "White"), *black = report_tag(g, "Black");
    const char *event = report_tag(g, "Event");
    text_color(rp, C_BOLD);
    buf_name(b, file);
    buf_puts(b, ": game ");
    buf_u64(b, g->index);
    text_color(rp, C_OFF);
    if (white || black || event) {
        buf_puts(b, " (");
        buf_cstr(b, white ? white : "?", ESC_TEXT);
        buf_puts(b, " - ");
        buf_cstr(b, black ? black : "?", ESC_TEXT);
        if (event && event[0]) {
            buf_puts(b, ", ");
            buf_cstr(b, event, ESC_TEXT);
        }
        buf_putc(b, ')');
    }
    buf_putc(b, '\n');
}

/* ---- JSON Lines ---- */

static void json_uint_or_null(Buf *b, uint64_t v)
{
    if (v)
        buf_u64(b, v);
    else
        buf_puts(b, "null");
}

/* A game's index or a line (kind NUM_*): written now, or in a deferred
 * report left for report_deferred_write. */
static void place_num(Report *rp, int kind, uint64_t v)
{
    if (!rp->defer) {
        buf_u64(&rp->b, v);
        return;
    }
    if (rp->nsp == rp->spcap) {
        size_t cap = rp->spcap ? rp->spcap * 2 : 256;
        Splice *p = mem_realloc(rp->sp, cap, sizeof *p);
        if (!p) {
            rp->b.failed = true;
            return;
        }
        rp->sp = p;
        rp->spcap = cap;
    }
    rp->sp[rp->nsp++] = (Splice){rp->b.len, v, kind};
}

/* "code", "severity", "line", "column": the fields every diagnostic object
 * has, in the contract's order (a game's and a file-level one alike). */
static void json_diag_where(Report *rp, const Diag *d)
{
    Buf *b = &rp->b;
    buf_puts(b, "\"code\":");
    json_str(b, diag_slug(d));
    json_key(b, "severity");
    json_str(b, diag_severity_name(d->severity));
    json_key(b, "line");
    if (d->pos.line)
        place_num(rp, NUM_LINE, d->pos.line);
    else
        buf_puts(b, "null");
    json_key(b, "column");
    json_uint_or_null(b, d->pos.col);
}

/* "repairs": the ranked repairs (repair.c) of the move error where the
 * main line broke, on that error's object only. */
static void json_repairs(Report *rp, const Diag *d, const RepairSet *rs)
{
    if (!rs || !rs->n || d->pos.offset != rs->pos.offset || (uint32_t)d->ply != rs->ply ||
        (d->code != D_ILLEGAL_MOVE && d->code != D_AMBIGUOUS_MOVE && d->code != D_BAD_MOVE && d->code != D_NULL_MOVE))
        return;
    Buf *b = &rp->b;
    json_key(b, "repairs");
    buf_putc(b, '[');
    for (size_t i = 0; i < rs->n; i++) {
        const Repair *r = &rs->r[i];
        buf_puts(b, i ? ",{\"ply\":" : "{\"ply\":");
        buf_u64(b, r->ply);
        json_key(b, "edit");
        json_str(b, repair_edit_slug(r->edit));
        json_key(b, "old");
        json_str(b, r->old_text);
        json_key(b, "new");
        json_str(b, r->new_text);
        json_key(b, "line");
        place_num(rp, NUM_LINE, r->pos.line);
        json_key(b, "col");
        buf_u64(b, r->pos.col);
        json_key(b, "unique");
        buf_puts(b, repair_unique(rs) ? "true" : "false");
        buf_putc(b, '}');
    }
    buf_putc(b, ']');
}

static void json_diag(Report *rp, const Diag *d, const RepairSet *rs)
{
    Buf *b = &rp->b;
    buf_putc(b, '{');
    json_diag_where(rp, d);
    json_key(b, "ply");
    json_uint_or_null(b, d->ply > 0 ? (uint64_t)d->ply : 0);
    json_key(b, "move");
    json_str(b, d->move[0] ? d->move : NULL);
    json_key(b, "message");
    json_str(b, diag_message(rp, d));
    json_repairs(rp, d, rs);
    buf_putc(b, '}');
}

/* "clocks" (issue 36): each side's last clock and time used, in ms, null
 * where not known. */
static void json_ms(Buf *b, int64_t v)
{
    if (v == CLOCK_UNKNOWN) {
        BUF_LIT(b, "null");
        return;
    }
    if (v < 0)
        buf_putc(b, '-');
    buf_u64(b, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

static void json_clocks(Buf *b, const ClockSummary *c)
{
    BUF_LIT(b, ",\"clocks\":{\"white_ms\":");
    json_ms(b, c->final_ms[0]);
    BUF_LIT(b, ",\"black_ms\":");
    json_ms(b, c->final_ms[1]);
    BUF_LIT(b, ",\"white_used_ms\":");
    json_ms(b, c->used_ms[0]);
    BUF_LIT(b, ",\"black_used_ms\":");
    json_ms(b, c->used_ms[1]);
    buf_putc(b, '}');
}

static void jsonl_game(Report *rp, const char *file, const PgnGame *g, const GameReport *rep,
                       const Diag *extra, size_t nextra)
{
    Buf *b = &rp->b;
    const char *tv[SHOW_N];
    report_tags6(g, tv);
    BUF_LIT(b, "{\"type\":\"game\",\"file\":");
    json_str(b, file);
    JSON_KEY(b, "index");
    place_num(rp, NUM_INDEX, g->index);
    JSON_KEY(b, "offset");
    buf_u64(b, g->start.offset);
    JSON_KEY(b, "line");
    place_num(rp, NUM_LINE, g->start.line);
#define KEY_LIT(key) {",\"" key "\":", sizeof(",\"" key "\":") - 1}
    static const struct {
        const char *s;
        size_t n;
    } show_keys[SHOW_N] = {KEY_LIT("event"), KEY_LIT("site"), KEY_LIT("date"),
                           KEY_LIT("round"), KEY_LIT("white"), KEY_LIT("black")};
#undef KEY_LIT
    for (int k = 0; k < SHOW_N; k++) {
        buf_add(b, show_keys[k].s, show_keys[k].n);
        json_str(b, tv[k]);
    }
    JSON_KEY(b, "result");
    json_str(b, declared_text(rep));
    JSON_KEY(b, "outcome");
    json_str(b, rep->outcome_known ? result_text(rep->outcome) : NULL);
    JSON_KEY(b, "reason");
    json_str(b, result_reason(rep->reason));
    JSON_KEY(b, "plies");
    buf_u64(b, rep->plies);
    JSON_KEY(b, "fen");
    json_str(b, rep->fen[0] ? rep->fen : NULL);
    JSON_KEY(b, "status");
    json_str(b, status_slug(rep->status));
    JSON_KEY(b, "rules");
    json_str(b, laws_name(rep->laws));
    if (rep->clocks.present)
        json_clocks(b, &rep->clocks);
    if (rp->dups) {
        JSON_KEY(b, "duplicate_of");
        if (rep->dup_state == 2) {
            BUF_LIT(b, "{\"file\":");
            json_str(b, rep->dup_file);
            JSON_KEY(b, "index");
            buf_u64(b, rep->dup_index);
            JSON_KEY(b, "line");
            buf_u64(b, rep->dup_line);
            buf_putc(b, '}');
        } else
            BUF_LIT(b, "null");
    }
    BUF_LIT(b, ",\"diagnostics\":[");
    bool first = true;
    for (size_t i = 0; i < rep->ndiags + nextra; i++) {
        const Diag *d = i < rep->ndiags ? &rep->diags[i] : &extra[i - rep->ndiags];
        if (!shown(rp, d, i >= rep->ndiags))
            continue;
        if (!first)
            buf_putc(b, ',');
        first = false;
        json_diag(rp, d, i < rep->ndiags ? rep->repair : NULL);
    }
    BUF_LIT(b, "]}\n");
}

/* ---- TSV ---- */

static void tsv_field(Buf *b, const char *s, bool last)
{
    if (s)
        buf_cstr(b, s, ESC_TSV);
    buf_putc(b, last ? '\n' : '\t');
}

static void tsv_num(Buf *b, uint64_t v)
{
    buf_u64(b, v);
    buf_putc(b, '\t');
}

static void tsv_game(Report *rp, const char *file, const PgnGame *g, const GameReport *rep,
                     const Diag *extra, size_t nextra)
{
    Buf *b = &rp->b;
    unsigned count[4] = {0, 0, 0, 0};
    const Diag *worst = NULL;
    for (size_t i = 0; i < rep->ndiags + nextra; i++) {
        const Diag *d = i < rep->ndiags ? &rep->diags[i] : &extra[i - rep->ndiags];
        if (d->severity == SEV_NONE || d->severity > SEV_ERROR)
            continue;
        count[d->severity]++;
        if (!worst || d->severity > worst->severity)
            worst = d;
    }
    buf_name(b, file);
    buf_putc(b, '\t');
    place_num(rp, NUM_INDEX, g->index);
    buf_putc(b, '\t');
    tsv_num(b, g->start.offset);
    place_num(rp, NUM_LINE, g->start.line);
    buf_putc(b, '\t');
    const char *tv[SHOW_N];
    report_tags6(g, tv);
    for (int i = 0; i < SHOW_N; i++)
        tsv_field(b, tv[i], false);
    tsv_field(b, declared_text(rep), false);
    tsv_field(b, rep->outcome_known ? result_text(rep->outcome) : NULL, false);
    tsv_field(b, result_reason(rep->reason), false);
    tsv_num(b, rep->plies);
    tsv_field(b, rep->fen, false);
    tsv_field(b, status_slug(rep->status), false);
    tsv_num(b, count[SEV_ERROR]);
    tsv_num(b, count[SEV_WARNING]);
    tsv_num(b, count[SEV_NOTE]);
    tsv_field(b, worst ? diag_slug(worst) : NULL, false);
    tsv_field(b, worst ? diag_message(rp, worst) : NULL, false);
    /* (new columns go at the end: scripts count the fields) */
    tsv_field(b, laws_name(rep->laws), !rp->dups);
    if (rp->dups) {
        /* FILE:INDEX (the index after the last colon) */
        if (rep->dup_state == 2) {
            buf_name(b, rep->dup_file);
            buf_putc(b, ':');
            buf_u64(b, rep->dup_index);
        }
        buf_putc(b, '\n');
    }
}

/* ---- GitHub workflow commands ---- */

/* A finding's column in characters, as GitHub counts them, not in bytes:
 * each UTF-8 sequence of the line before it counts one, and so does every
 * byte that is not UTF-8 (Latin-1); counted by take_prefix.  A finding
 * outside a game, or whose line could not be read again, keeps its byte
 * column. */
static uint64_t char_column(const PgnGame *g, const Diag *d)
{
    uint64_t col = d->pos.col;
    if (col < 2 || !g)
        return col;
    for (size_t i = 0; i < g->nslices; i++) {
        const PgnSlice *sl = &g->slices[i];
        if (sl->offset == d->pos.offset && sl->len == 0)
            return sl->offset - sl->base + 1;
    }
    /* the game's text itself (a game copied with --select, --fix-results) */
    uint64_t rel = d->pos.offset - g->start.offset;
    if (!g->raw || d->pos.offset < g->start.offset || rel > g->raw_len)
        return col;
    const unsigned char *s = (const unsigned char *)g->raw;
    uint64_t chars = col - 1 > rel ? col - 1 - rel : 0;  /* (bytes before the game) */
    for (size_t i = col - 1 > rel ? 0 : (size_t)(rel - (col - 1)); i < rel;) {
        uint32_t cp;
        i += utf8_next(s + i, (size_t)rel - i, &cp);
        chars++;
    }
    return chars + 1;
}

static void github_diag(Report *rp, const char *file, const PgnGame *g, const Diag *d)
{
    Buf *b = &rp->b;
    buf_puts(b, d->severity == SEV_ERROR ? "::error" : d->severity == SEV_WARNING ? "::warning"
                                                                                : "::notice");
    buf_puts(b, " file=");
    buf_cstr(b, file, ESC_GH_PROP);
    if (d->pos.line) {
        buf_puts(b, ",line=");
        buf_u64(b, d->pos.line);
        buf_puts(b, ",col=");
        buf_u64(b, char_column(g, d));
    }
    buf_puts(b, ",title=");
    buf_cstr(b, diag_slug(d), ESC_GH_PROP);
    buf_puts(b, "::");
    buf_cstr(b, diag_message(rp, d), ESC_GH_DATA);
    if (g) {
        /* Which game, so the annotation reads well out of context too. */
        buf_puts(b, " (game ");
        buf_u64(b, g->index);
        buf_putc(b, ')');
    }
    buf_putc(b, '\n');
}

/* ---- entry points ---- */

void report_begin(Report *rp)
{
    if (rp->fmt != FMT_TSV)
        return;
    buf_puts(&rp->b, "file\tindex\toffset\tline\tevent\tsite\tdate\tround\twhite\tblack\t"
                     "result\toutcome\treason\tplies\tfen\tstatus\terrors\twarnings\tnotes\t"
                     "code\tmessage\trules");
    buf_puts(&rp->b, rp->dups ? "\tduplicate_of\n" : "\n");
    buf_flush(rp);
}

void report_game(Report *rp, const char *file, const PgnGame *g, const GameReport *rep,
                 const Diag *extra, size_t nextra)
{
    rp->dup_text = rep->dup_text;
    switch (rp->fmt) {
    case FMT_JSONL:
        jsonl_game(rp, file, g, rep, extra, nextra);
        break;
    case FMT_TSV:
        tsv_game(rp, file, g, rep, extra, nextra);
        break;
    case FMT_TEXT:
    case FMT_GITHUB: {
        bool header = false;
        if (rp->roll)
            rollup_game(rp->roll);
        for (size_t i = 0; i < rep->ndiags + nextra; i++) {
            const Diag *d = i < rep->ndiags ? &rep->diags[i] : &extra[i - rep->ndiags];
            if (!shown(rp, d, i >= rep->ndiags) || !repeats_shown(rp, d))
                continue;
            if (rp->fmt == FMT_GITHUB) {
                github_diag(rp, file, g, d);
                continue;
            }
            if (!header)
                text_header(rp, file, g);
            header = true;
            text_diag(rp, file, g, d);
        }
        break;
    }
    }
    rp->dup_text = NULL;
    buf_flush(rp);
}

void report_file_diag(Report *rp, const char *file, const Diag *d)
{
    Buf *b = &rp->b;
    if (!shown(rp, d, false))
        return;
    switch (rp->fmt) {
    case FMT_TEXT:
        text_diag(rp, file, NULL, d);
        break;
    case FMT_GITHUB:
        github_diag(rp, file, NULL, d);
        break;
    case FMT_JSONL:
        buf_puts(b, "{\"type\":\"diagnostic\"");
        json_key(b, "file");
        json_str(b, file);
        buf_putc(b, ',');
        json_diag_where(rp, d);
        json_key(b, "message");
        json_str(b, diag_message(rp, d));
        buf_puts(b, "}\n");
        break;
    case FMT_TSV:
        /* One row per game: a finding outside any game has no row.  The
         * caller repeats it on standard error in text form. */
        break;
    }
    buf_flush(rp);
}

void report_file_end(Report *rp, const char *file)
{
    if (!rp->roll)
        return;
    size_t n;
    const RollLine *line = rollup_file_end(rp->roll, &n);
    if (rp->fmt != FMT_TEXT)
        return;                 /* github: one summary of the run per code (report_summary) */
    for (size_t i = 0; i < n; i++) {
        Diag d;
        memset(&d, 0, sizeof d);
        d.code = line[i].code;
        d.severity = line[i].severity;
        snprintf(d.msg, sizeof d.msg, "%s", line[i].msg);
        text_diag(rp, file, NULL, &d);
    }
    buf_flush(rp);
}

/* GitHub shows the first few annotations of a kind in a step: a notice
 * per code some of whose findings were not annotated gives its count. */
static void github_summary(Report *rp)
{
    size_t n;
    const RollLine *line = rollup_run_lines(rp->roll, &n);
    for (size_t i = 0; i < n; i++) {
        const RollLine *l = &line[i];
        char m[PGN_MSG * 2], all[32], games[32], hidden[32];
        rollup_thousands(all, sizeof all, l->all_findings);
        rollup_thousands(games, sizeof games, l->all_games);
        rollup_thousands(hidden, sizeof hidden, l->findings);
        snprintf(m, sizeof m, "%s %s%s in %s game%s of %llu file%s; %s not annotated above (--max-repeats=0 annotates all)",
                 all, diag_severity_name(l->severity), l->all_findings == 1 ? "" : "s", games, l->all_games == 1 ? "" : "s",
                 (unsigned long long)l->files, l->files == 1 ? "" : "s", hidden);
        buf_puts(&rp->b, "::notice title=");
        buf_cstr(&rp->b, diag_info[l->code].slug, ESC_GH_PROP);
        buf_puts(&rp->b, "::");
        buf_cstr(&rp->b, m, ESC_GH_DATA);
        buf_putc(&rp->b, '\n');
    }
    buf_flush(rp);
}

static double per_second(uint64_t n, double seconds)
{
    return seconds > 0 ? (double)n / seconds : 0.0;
}

void report_summary(Report *rp, const ReportSummary *s)
{
    if (rp->fmt == FMT_GITHUB && rp->roll)
        github_summary(rp);
    if (rp->fmt != FMT_JSONL)
        return;
    char sec[32];
    snprintf(sec, sizeof sec, "%.3f", s->seconds);
    Buf *b = &rp->b;
    buf_puts(b, "{\"type\":\"summary\"");
    const char *const keys[] = {"files", "games", "ok", "warning", "error", "skipped", "plies", "bytes"};
    const uint64_t vals[] = {s->files, s->games, s->ok, s->warning, s->error, s->skipped, s->plies, s->bytes};
    for (int i = 0; i < 8; i++) {
        json_key(b, keys[i]);
        buf_u64(b, vals[i]);
    }
    json_key(b, "seconds");
    buf_puts(b, sec);
    /* (added after the contract's fields: the inputs given, the failed) */
    json_key(b, "inputs");
    buf_u64(b, s->inputs);
    json_key(b, "failed");
    buf_u64(b, s->failed);
    buf_puts(b, "}\n");
    buf_flush(rp);
}

void report_summary_text(FILE *out, const ReportSummary *s)
{
    fprintf(out,
            "pgncheck: %llu %s, %llu plies: %llu ok, %llu with errors, %llu with warnings, "
            "%llu skipped; %.2f s, %.0f games/s\n",
            (unsigned long long)s->games, s->games == 1 ? "game" : "games",
            (unsigned long long)s->plies, (unsigned long long)s->ok,
            (unsigned long long)s->error, (unsigned long long)s->warning,
            (unsigned long long)s->skipped, s->seconds, per_second(s->games, s->seconds));
    if (s->failed)
        fprintf(out, "pgncheck: %llu of %llu %s failed (not opened, not read to the end or not PGN text)\n",
                (unsigned long long)s->failed, (unsigned long long)s->inputs, s->inputs == 1 ? "input" : "inputs");
    /* What the threshold kept back, and how to see it: the lowest
     * severity hidden is the threshold that shows everything. */
    const char *sees = NULL;
    char what[96] = "";
    size_t at = 0;
    for (int v = SEV_WARNING; v >= SEV_NOTE; v--) {
        uint64_t n = s->hidden[v];
        if (!n)
            continue;
        int k = snprintf(what + at, sizeof what - at, "%s%llu %s%s", at ? " and " : "", (unsigned long long)n,
                         diag_severity_name((Severity)v), n == 1 ? "" : "s");
        if (k > 0 && (size_t)k < sizeof what - at)
            at += (size_t)k;
        sees = diag_severity_name((Severity)v);
    }
    if (sees)
        fprintf(out, "pgncheck: %s not shown (--min-severity=%s shows them)\n", what, sees);
}

/* ---- --stats ---- */

typedef struct StatCount {
    uint64_t diags, games;
} StatCount;

struct ReportStats {
    ReportFormat fmt;
    StatCount file[D_COUNT][SEV_ERROR + 1];     /* this file's, so far */
    StatCount total[D_COUNT][SEV_ERROR + 1];
    uint64_t seen[D_COUNT][SEV_ERROR + 1];      /* the last game counted */
    uint64_t game;                              /* games counted, this one's serial */
    uint64_t clocked[2], games[2];              /* games with clocks, and games: this file's, the total */
    Buf lines;                                  /* the files' lines, to be written */
};

ReportStats *report_stats_new(ReportFormat fmt)
{
    ReportStats *st = mem_calloc(1, sizeof *st);
    if (st)
        st->fmt = fmt;
    return st;
}

void report_stats_free(ReportStats *st)
{
    if (!st)
        return;
    mem_free(st->lines.p);
    mem_free(st);
}

static void stats_count(ReportStats *st, const Diag *d, bool in_game)
{
    if (d->severity == SEV_NONE || d->severity > SEV_ERROR || d->code >= D_COUNT)
        return;
    StatCount *c = &st->file[d->code][d->severity];
    c->diags++;
    if (in_game && st->seen[d->code][d->severity] != st->game) {
        st->seen[d->code][d->severity] = st->game;
        c->games++;
    }
}

void report_stats_game(ReportStats *st, const GameReport *rep, const Diag *extra, size_t nextra)
{
    st->game++;
    st->games[0]++;
    st->clocked[0] += rep->clocks.present;
    for (size_t i = 0; i < rep->ndiags; i++)
        stats_count(st, &rep->diags[i], true);
    for (size_t i = 0; i < nextra; i++)
        stats_count(st, &extra[i], true);
}

void report_stats_diag(ReportStats *st, const Diag *d)
{
    stats_count(st, d, false);
}

typedef struct StatRow {
    uint64_t diags;
    int code, sev;
} StatRow;

/* Most diagnostics first; then in the order of --list-checks, errors
 * before warnings before notes: a total order, so the lines never
 * depend on qsort. */
static int stat_row_cmp(const void *a, const void *b)
{
    const StatRow *x = a, *y = b;
    if (x->diags != y->diags)
        return x->diags > y->diags ? -1 : 1;
    if (x->code != y->code)
        return x->code < y->code ? -1 : 1;
    if (x->sev != y->sev)
        return x->sev > y->sev ? -1 : 1;
    return 0;
}

/* The lines of one set of counts; file NULL for the total. */
static void stats_format(Buf *b, ReportFormat fmt, const char *file, StatCount c[D_COUNT][SEV_ERROR + 1])
{
    StatRow rows[D_COUNT * SEV_ERROR];
    size_t n = 0;
    for (int code = 0; code < D_COUNT; code++)
        for (int sev = SEV_NOTE; sev <= SEV_ERROR; sev++)
            if (c[code][sev].diags)
                rows[n++] = (StatRow){c[code][sev].diags, code, sev};
    qsort(rows, n, sizeof *rows, stat_row_cmp);
    for (size_t i = 0; i < n; i++) {
        const StatCount *k = &c[rows[i].code][rows[i].sev];
        const char *slug = diag_info[rows[i].code].slug, *sev = diag_severity_name((Severity)rows[i].sev);
        if (fmt == FMT_JSONL) {
            BUF_LIT(b, "{\"type\":\"stats\",\"file\":");
            json_str(b, file);
            JSON_KEY(b, "code");
            json_str(b, slug);
            JSON_KEY(b, "severity");
            json_str(b, sev);
            JSON_KEY(b, "diagnostics");
            buf_u64(b, k->diags);
            JSON_KEY(b, "games");
            buf_u64(b, k->games);
            BUF_LIT(b, "}\n");
        } else {
            BUF_LIT(b, "pgncheck: stats: ");
            if (file)
                buf_name(b, file);
            else
                BUF_LIT(b, "total");
            BUF_LIT(b, ": ");
            buf_puts(b, slug);
            BUF_LIT(b, " (");
            buf_puts(b, sev);
            BUF_LIT(b, "): ");
            buf_u64(b, k->diags);
            buf_puts(b, k->diags == 1 ? " diagnostic in " : " diagnostics in ");
            buf_u64(b, k->games);
            buf_puts(b, k->games == 1 ? " game\n" : " games\n");
        }
    }
}

/* The games with clock comments (clock.c), where there are any. */
static void stats_clocks(Buf *b, ReportFormat fmt, const char *file, uint64_t clocked, uint64_t games)
{
    if (!clocked)
        return;
    if (fmt == FMT_JSONL) {
        BUF_LIT(b, "{\"type\":\"stats\",\"file\":");
        json_str(b, file);
        JSON_KEY(b, "games_with_clocks");
        buf_u64(b, clocked);
        JSON_KEY(b, "games");
        buf_u64(b, games);
        BUF_LIT(b, "}\n");
    } else {
        BUF_LIT(b, "pgncheck: stats: ");
        if (file)
            buf_cstr(b, file, ESC_TEXT);
        else
            BUF_LIT(b, "total");
        BUF_LIT(b, ": games with clocks: ");
        buf_u64(b, clocked);
        BUF_LIT(b, " of ");
        buf_u64(b, games);
        buf_putc(b, '\n');
    }
}

bool report_stats_file_end(ReportStats *st, const char *file)
{
    stats_format(&st->lines, st->fmt, file, st->file);
    stats_clocks(&st->lines, st->fmt, file, st->clocked[0], st->games[0]);
    st->clocked[1] += st->clocked[0];
    st->games[1] += st->games[0];
    st->clocked[0] = st->games[0] = 0;
    for (int code = 0; code < D_COUNT; code++)
        for (int sev = 0; sev <= SEV_ERROR; sev++) {
            st->total[code][sev].diags += st->file[code][sev].diags;
            st->total[code][sev].games += st->file[code][sev].games;
        }
    memset(st->file, 0, sizeof st->file);
    return !st->lines.failed;
}

void report_stats_write(ReportStats *st, Report *rp, FILE *err)
{
    stats_format(&st->lines, st->fmt, NULL, st->total);
    stats_clocks(&st->lines, st->fmt, NULL, st->clocked[1], st->games[1]);
    FILE *out = st->fmt == FMT_JSONL ? rp->out : err;
    if (st->lines.failed)
        rp->oom = true;     /* (lines lost: none is written) */
    else if (st->lines.len)
        fwrite(st->lines.p, 1, st->lines.len, out);
    st->lines.len = 0;
}

void report_list_checks(FILE *out, const Severity severity[D_COUNT])
{
    int width = 0, cwidth = 1;
    for (int i = 0; i < D_COUNT; i++) {
        int n = (int)strlen(diag_info[i].slug);
        if (n > width)
            width = n;
        const char *c = laws_cite((DiagCode)i);
        n = c ? (int)strlen(c) : 1;
        if (n > cwidth)
            cwidth = n;
    }
    /* Columns are parted by two spaces or more; none has two inside. */
    for (int i = 0; i < D_COUNT; i++) {
        const char *c = laws_cite((DiagCode)i);
        fprintf(out, "%-*s  %-7s  %-*s  %s\n", width, diag_info[i].slug, diag_severity_name(severity[i]), cwidth,
                c ? c : "-", diag_info[i].meaning);
    }
}

/* A message for a person (a file not rewritten, the counts --export left
 * out) as a {"type":"message"} record, where the JSON Lines report shares
 * standard error's stream (issue 37). */
void report_message(Report *rp, const char *text)
{
    if (rp->fmt != FMT_JSONL)
        return;
    Buf *b = &rp->b;
    buf_puts(b, "{\"type\":\"message\"");
    json_key(b, "message");
    json_str(b, text);
    buf_puts(b, "}\n");
    buf_flush(rp);
}
