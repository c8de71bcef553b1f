/* outbuf.h - a growable output buffer (one fwrite a record) and the escaping
 * each destination needs: JSON strings, TSV fields, terminal text, GitHub
 * workflow commands, file names.  Knows nothing of games or reports. */
#ifndef PGNCHECK_OUTBUF_H
#define PGNCHECK_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* A growable line buffer: one fwrite per record.  On allocation failure it
 * keeps what fits and sets failed; the record is then not written, and
 * the writer says so (report.h: report_out_of_memory). */
typedef struct OutBuf {
    char *p;
    size_t len, cap;
    bool failed;
} OutBuf;

/* Room for extra more bytes (the growing and the failure, out of line). */
bool ob_grow(OutBuf *b, size_t extra);

static inline bool ob_reserve(OutBuf *b, size_t extra)
{
    return (b->len + extra <= b->cap && !b->failed) || ob_grow(b, extra);
}

static inline void ob_add(OutBuf *b, const char *s, size_t n)
{
    if (n && ob_reserve(b, n)) {
        memcpy(b->p + b->len, s, n);
        b->len += n;
    }
}

static inline void ob_puts(OutBuf *b, const char *s) { ob_add(b, s, strlen(s)); }

/* A string literal, its length known at compile time. */
#define OB_LIT(b, lit) ob_add((b), "" lit, sizeof(lit) - 1)

static inline void ob_putc(OutBuf *b, char c)
{
    if (ob_reserve(b, 1))
        b->p[b->len++] = c;
}

static inline void ob_u64(OutBuf *b, uint64_t v)
{
    char tmp[24];
    size_t n = 0;
    do {
        tmp[sizeof tmp - 1 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    ob_add(b, tmp + sizeof tmp - n, n);
}

/* The memory of b, given back; b is then empty. */
void ob_free(OutBuf *b);

/* Decodes one character of s[0..n): valid UTF-8 (no overlongs, surrogates
 * or code points above U+10FFFF) gives its code point; any other byte is
 * taken as Latin-1 (CP437 and broken UTF-8 alike: the result is always
 * valid UTF-8, never a lost byte).  Returns the bytes consumed (>= 1). */
size_t ob_utf8_next(const unsigned char *s, size_t n, uint32_t *cp);

/* How a string is made safe for its destination. */
typedef enum Escape {
    ESC_JSON,       /* JSON string body: \" \\ and \u00XX for controls */
    ESC_TSV,        /* tabs, newlines and other controls become spaces */
    ESC_TEXT,       /* terminal text: controls become spaces */
    ESC_GH_DATA,    /* workflow command message: % \r \n as %XX */
    ESC_GH_PROP,    /* workflow command property: also : and , */
} Escape;

/* s[0..n) made safe by esc (bytes that are not UTF-8 taken as Latin-1: the
 * result is valid UTF-8). */
void ob_str(OutBuf *b, const char *s, size_t n, Escape esc);
static inline void ob_cstr(OutBuf *b, const char *s, Escape esc) { ob_str(b, s, strlen(s), esc); }

/* A file name in text and TSV (names.h): controls, C1 controls, bytes
 * that are not UTF-8 and the backslash as escapes, so that no two names
 * look alike and none acts on the terminal. */
void ob_name(OutBuf *b, const char *name);

/* A JSON string value, or null. */
void ob_json(OutBuf *b, const char *s);

/* ,"key": (before every key but a record's first) */
static inline void ob_key(OutBuf *b, const char *key)
{
    ob_putc(b, ',');
    ob_putc(b, '"');
    ob_puts(b, key);
    OB_LIT(b, "\":");
}

/* ob_key for a literal key */
#define OB_KEY(b, key) OB_LIT((b), ",\"" key "\":")

#endif
