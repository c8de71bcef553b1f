/* outbuf.c - the output buffer's growing and the escapes of its destinations. */
#include "outbuf.h"

#include "mem.h"
#include "names.h"

/* Room for extra more bytes: the growing and the failure, out of line. */
bool ob_grow(OutBuf *b, size_t extra)
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

void ob_free(OutBuf *b)
{
    mem_free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
    b->failed = false;
}

size_t ob_utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
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

static void put_utf8(OutBuf *b, uint32_t cp)
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
    ob_add(b, t, n);
}

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

void ob_str(OutBuf *b, const char *s, size_t n, Escape esc)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        /* Copy a run of plain ASCII in one go: the common case. */
        size_t j = i + plain_prefix(u + i, n - i, esc);
        ob_add(b, s + i, j - i);
        i = j;
        if (i >= n)
            break;
        uint32_t cp;
        size_t k = ob_utf8_next(u + i, n - i, &cp);
        i += k;
        if (cp >= 0xA0) {
            put_utf8(b, cp);
            continue;
        }
        /* C1 controls (U+0080-U+009F: CSI, OSC, ST...), from UTF-8 or a
         * Latin-1 byte, are controls as those below 0x20 are */
        switch (esc) {
        case ESC_JSON:
            if (cp == '"') {
                ob_puts(b, "\\\"");
            } else if (cp == '\\') {
                ob_puts(b, "\\\\");
            } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
                char e[6] = {'\\', 'u', '0', '0', hex[cp >> 4], hex[cp & 15]};
                ob_add(b, e, 6);
            } else {
                ob_putc(b, (char)cp);
            }
            break;
        case ESC_TSV:
        case ESC_TEXT:
            ob_putc(b, cp < 0x20 || cp >= 0x7F ? ' ' : (char)cp);
            break;
        case ESC_GH_DATA:
        case ESC_GH_PROP:
            if (cp == '%' || cp == '\r' || cp == '\n' ||
                (esc == ESC_GH_PROP && (cp == ':' || cp == ','))) {
                char e[3] = {'%', hex[cp >> 4], hex[cp & 15]};
                ob_add(b, e, 3);
            } else {
                ob_putc(b, cp < 0x20 || cp >= 0x7F ? ' ' : (char)cp);
            }
            break;
        }
    }
}

void ob_name(OutBuf *b, const char *name)
{
    const unsigned char *s = (const unsigned char *)name;
    size_t n = strlen(name);
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && s[j] >= 0x20 && s[j] < 0x7F && s[j] != '\\')
            j++;
        ob_add(b, name + i, j - i);
        if (j >= n)
            break;
        char t[NAME_CHAR_MAX];
        size_t used;
        ob_add(b, t, name_char(s + j, n - j, &used, t));
        i = j + used;
    }
}

void ob_json(OutBuf *b, const char *s)
{
    if (!s) {
        OB_LIT(b, "null");
        return;
    }
    size_t n = strlen(s);
    if (plain_prefix((const unsigned char *)s, n, ESC_JSON) == n && ob_reserve(b, n + 2)) {
        /* nothing to escape, the usual case: quoted in one copy */
        char *o = b->p + b->len;
        o[0] = '"';
        memcpy(o + 1, s, n);
        o[n + 1] = '"';
        b->len += n + 2;
        return;
    }
    ob_putc(b, '"');
    ob_str(b, s, n, ESC_JSON);
    ob_putc(b, '"');
}
