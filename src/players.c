/* players.c - players' names compared as the same person spelled otherwise
 * (see players.h for the rule; the man page, --duplicates, for why). */
#include "players.h"

#include <string.h>

typedef struct Word {
    char raw[PLAYERS_MAX_WORD + 1];   /* lower case, diacritics off */
    char skel[PLAYERS_MAX_WORD + 1];  /* its spelling skeleton */
    size_t len, slen;
    bool digit;
} Word;

typedef struct Name {
    Word w[PLAYERS_MAX_WORDS];
    size_t n;
} Name;

/* The base letter of a Latin-1 letter with a diacritic (U+00C0..U+00FF),
 * or 0: a letter without one (AE, eth, O stroke, thorn, sharp s) is kept
 * as it is. */
static char latin1_base(unsigned c)
{
    static const char map[64] = "aaaaaa\0ceeeeiiii\0nooooo\0\0uuuuy\0\0"
                                "aaaaaa\0ceeeeiiii\0nooooo\0\0uuuuy\0y";
    return c >= 0xC0 && c <= 0xFF ? map[c - 0xC0] : 0;
}

static void word_end(Name *nm, Word *cur)
{
    if (cur->len && nm->n < PLAYERS_MAX_WORDS)
        nm->w[nm->n++] = *cur;
    memset(cur, 0, sizeof *cur);
}

static void word_put(Word *cur, char c)
{
    if (cur->len < PLAYERS_MAX_WORD)
        cur->raw[cur->len++] = c;
    cur->digit |= c >= '0' && c <= '9';
}

/* Replaces every from in s (left to right, not overlapping) by to. */
static size_t replace(char *s, size_t n, const char *from, const char *to)
{
    size_t fl = strlen(from), tl = strlen(to), o = 0;
    for (size_t i = 0; i < n;) {
        if (i + fl <= n && memcmp(s + i, from, fl) == 0) {
            memcpy(s + o, to, tl);      /* (tl <= fl: never passes i) */
            o += tl;
            i += fl;
        } else {
            s[o++] = s[i++];
        }
    }
    return o;
}

static void skeleton(Word *w)
{
    static const char *const rule[][2] = {
        {"tsch", "ch"}, {"tch", "ch"}, {"sch", "sh"}, {"kh", "h"}, {"ch", "h"}, {"ck", "k"},
        {"ph", "f"},    {"w", "v"},    {"j", "i"},    {"y", "i"},  {"c", "k"},  {"q", "k"},
        {"ou", "u"},    {"ae", "a"},   {"oe", "o"},   {"ue", "u"},
    };
    char s[PLAYERS_MAX_WORD + 1];
    memcpy(s, w->raw, w->len);
    size_t n = w->len;
    for (size_t r = 0; r < sizeof rule / sizeof rule[0]; r++)
        n = replace(s, n, rule[r][0], rule[r][1]);
    w->slen = 0;
    for (size_t i = 0; i < n; i++)
        if (!w->slen || w->skel[w->slen - 1] != s[i])
            w->skel[w->slen++] = s[i];
    w->skel[w->slen] = '\0';
}

/* The words of a name: runs of letters, digits and other non-ASCII bytes;
 * ASCII in lower case, a Latin-1 letter with a diacritic (as UTF-8 or as
 * a Latin-1 byte) its base letter. */
static void split(const char *s, size_t n, Name *nm)
{
    Word cur;
    memset(&cur, 0, sizeof cur);
    nm->n = 0;
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < n; i++) {
        unsigned c = u[i];
        if (c >= 'A' && c <= 'Z') {
            word_put(&cur, (char)(c + 32));
        } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            word_put(&cur, (char)c);
        } else if (c < 0x80) {
            word_end(nm, &cur);
        } else {
            /* a UTF-8 sequence, else one Latin-1 byte */
            size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
            unsigned cp = len == 4 ? c & 7 : len == 3 ? c & 15 : c & 31;
            for (size_t k = 1; k < len; k++) {
                if (i + k >= n || (u[i + k] & 0xC0) != 0x80) {
                    len = 1;
                    break;
                }
                cp = cp << 6 | (u[i + k] & 0x3F);
            }
            if (len == 1)
                cp = c;
            char base = cp <= 0xFF ? latin1_base(cp) : 0;
            if (base)
                word_put(&cur, base);
            else if (cp < 0xC0 || cp == 0xD7 || cp == 0xF7)
                word_end(nm, &cur);     /* Latin-1's signs and spaces */
            else
                for (size_t k = 0; k < len; k++)
                    word_put(&cur, (char)u[i + k]);
            i += len - 1;
        }
    }
    word_end(nm, &cur);
    for (size_t k = 0; k < nm->n; k++) {
        nm->w[k].raw[nm->w[k].len] = '\0';
        skeleton(&nm->w[k]);
    }
}

/* Levenshtein distance of a and b, or more than cap. */
static size_t distance(const char *a, size_t an, const char *b, size_t bn, size_t cap)
{
    if ((an > bn ? an - bn : bn - an) > cap)
        return cap + 1;
    size_t row[PLAYERS_MAX_WORD + 1];
    for (size_t j = 0; j <= bn; j++)
        row[j] = j;
    for (size_t i = 1; i <= an; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= bn; j++) {
            size_t up = row[j];
            size_t v = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < v)
                v = up + 1;
            if (row[j - 1] + 1 < v)
                v = row[j - 1] + 1;
            row[j] = v;
            diag = up;
        }
    }
    return row[bn];
}

/* 3: the same word; 2: the same, spelled otherwise; 1: one abbreviates
 * the other; 0: other words. */
static int word_match(const Word *a, const Word *b)
{
    if (a->len == b->len && memcmp(a->raw, b->raw, a->len) == 0)
        return 3;
    const Word *s = a->len <= b->len ? a : b, *l = s == a ? b : a;
    if (a->digit || b->digit)
        return 0;               /* user names with numbers: exactly */
    if (s->len <= 3 && memcmp(s->raw, l->raw, s->len) == 0)
        return 1;
    size_t n = a->slen < b->slen ? a->slen : b->slen;
    size_t cap = n >= 8 ? 2 : n >= 4 ? 1 : 0;
    if (a->slen == b->slen && memcmp(a->skel, b->skel, a->slen) == 0)
        return 2;
    return cap && distance(a->skel, a->slen, b->skel, b->slen, cap) <= cap ? 2 : 0;
}

/* Can words i.. of a be paired with unused words of b, with a full pair
 * among them (or one before: full), spelling variants only if variants? */
static bool pair_from(const Name *a, const Name *b, size_t i, bool used[PLAYERS_MAX_WORDS], bool full, bool variants)
{
    if (i == a->n)
        return full;
    for (size_t j = 0; j < b->n; j++) {
        if (used[j])
            continue;
        int m = word_match(&a->w[i], &b->w[j]);
        if (!m || (m == 2 && !variants))
            continue;
        used[j] = true;
        bool ok = pair_from(a, b, i + 1, used, full || m >= 2, variants);
        used[j] = false;
        if (ok)
            return true;
    }
    return false;
}

PlayersVerdict players_compare(const char *a, size_t alen, const char *b, size_t blen)
{
    /* (most copies spell a name byte for byte alike: no need to split it) */
    if (alen == blen && memcmp(a, b, alen) == 0) {
        for (size_t i = 0; i < alen; i++) {
            unsigned char c = (unsigned char)a[i];
            if ((unsigned)((c | 32) - 'a') < 26u || (unsigned)(c - '0') < 10u || c >= 0x80)
                return PLAYERS_SAME;
        }
        return PLAYERS_UNKNOWN;
    }
    Name x, y;
    split(a, alen, &x);
    split(b, blen, &y);
    if (!x.n || !y.n)
        return PLAYERS_UNKNOWN;
    const Name *s = x.n <= y.n ? &x : &y, *l = s == &x ? &y : &x;
    bool used[PLAYERS_MAX_WORDS] = {false};
    return pair_from(s, l, 0, used, false, false)  ? PLAYERS_SAME
           : pair_from(s, l, 0, used, false, true) ? PLAYERS_VARIANT
                                                   : PLAYERS_OTHER;
}

bool players_compatible(const char *a, size_t alen, const char *b, size_t blen)
{
    return players_compare(a, alen, b, blen) != PLAYERS_OTHER;
}

static bool complete_date(const char *d)
{
    static const char form[] = "9999.99.99";
    for (size_t i = 0; i < sizeof form - 1; i++) {
        if (form[i] == '9' ? !(d[i] >= '0' && d[i] <= '9') : d[i] != '.')
            return false;
    }
    return d[sizeof form - 1] == '\0';
}

bool players_dates_agree(const char *a, const char *b)
{
    return !a || !b || !complete_date(a) || !complete_date(b) || strcmp(a, b) == 0;
}
