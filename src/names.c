/* names.c - see names.h. */
#include "names.h"

#include <string.h>

#include "mem.h"

/* The length of the valid UTF-8 character at s (no overlong forms, no
 * surrogates, nothing above U+10FFFF), its code point in *cp; 0 if none. */
static size_t utf8_at(const unsigned char *s, size_t n, unsigned long *cp)
{
    unsigned c = s[0];
    size_t len = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!len || len > n)
        return 0;
    unsigned long v = len == 1 ? c : c & (0x7Fu >> len);
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    static const unsigned long min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min[len] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
        return 0;
    *cp = v;
    return len;
}

static size_t hex_byte(unsigned char c, char *out)
{
    static const char hex[] = "0123456789abcdef";
    out[0] = '\\';
    out[1] = 'x';
    out[2] = hex[c >> 4];
    out[3] = hex[c & 15];
    return 4;
}

size_t name_char(const unsigned char *s, size_t n, size_t *used, char out[NAME_CHAR_MAX])
{
    unsigned long cp = 0;
    size_t len = utf8_at(s, n, &cp);
    *used = len ? len : 1;
    if (!len)
        return hex_byte(s[0], out);
    if (cp == '\\' || cp == '\t' || cp == '\n' || cp == '\r') {
        out[0] = '\\';
        out[1] = cp == '\\' ? '\\' : cp == '\t' ? 't' : cp == '\n' ? 'n' : 'r';
        return 2;
    }
    if (cp < 0x20 || cp == 0x7F)
        return hex_byte(s[0], out);
    if (cp >= 0x80 && cp <= 0x9F) {
        hex_byte(s[0], out);
        return 4 + hex_byte(s[1], out + 4);
    }
    memcpy(out, s, len);
    return len;
}

char *name_shown(const char *name)
{
    const unsigned char *s = (const unsigned char *)name;
    size_t n = strlen(name), need = 0;
    char t[NAME_CHAR_MAX];
    for (size_t i = 0; i < n;) {
        size_t used;
        need += name_char(s + i, n - i, &used, t);
        i += used;
    }
    char *out = mem_alloc(need + 1);
    if (!out)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        size_t used;
        k += name_char(s + i, n - i, &used, out + k);
        i += used;
    }
    out[k] = '\0';
    return out;
}
