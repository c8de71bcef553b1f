/* pgn_bytes.c - the PGN reader's byte tables, CPU choice and UTF-8 test. */
#include "pgn_bytes.h"

unsigned char pgn_cls[256];
unsigned char pgn_act[256];
unsigned char pgn_tokc[256], pgn_digc[256];
unsigned char pgn_tv_stop[256];
#ifdef PGN_AVX2
int pgn_walk_avx2;
int pgn_walk_avx512;
#endif
static int cls_ready;

void pgn_bytes_init(PgnSimd limit)
{
    if (cls_ready)
        return;
    for (int c = 0; c < 256; c++) {
        unsigned char k = 0;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
            k |= K_WS;
        if (c == '\n' || c == '\r')
            k |= K_NL;
        if (c >= '0' && c <= '9')
            k |= K_DIGIT | K_SYM;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
            k |= K_ALPHA | K_SYM;
        if (c == '_' || c == '+' || c == '#' || c == '=' || c == ':' || c == '-')
            k |= K_SYM;
        if (c == '!' || c == '?')
            k |= K_ANNO;
        if (c == '.')
            k |= K_DOT;
        if (c == '/')
            k |= K_SLASH;
        pgn_cls[c] = k;
        unsigned char a = A_OTHER;
        if (c == ' ' || c == '\t' || c == '\f' || c == '\v')
            a = A_SP;
        else if (c == '\n' || c == '\r')
            a = A_NL;
        else if (k & K_ALPHA)
            a = A_ALPHA;
        else if (k & K_DIGIT)
            a = A_DIGIT;
        else if (c == '.')
            a = A_DOT;
        else if (c == '{')
            a = A_LBRACE;
        else if (c == '(')
            a = A_LPAREN;
        else if (c == ')')
            a = A_RPAREN;
        else if (c == '$')
            a = A_DOLLAR;
        pgn_act[c] = a;
        pgn_tokc[c] = (k & (K_SYM | K_ANNO | K_DOT)) != 0;
        pgn_digc[c] = (k & K_DIGIT) != 0;
        pgn_tv_stop[c] = (unsigned char)(c == '"' || c == '\\' || c < 0x20 || c == 0x7F);
    }
#ifdef PGN_AVX2
    __builtin_cpu_init();
    pgn_walk_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")
                    && limit != PGN_SIMD_SSE2;
    pgn_walk_avx512 = pgn_walk_avx2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
                      && limit != PGN_SIMD_AVX2;
#else
    (void)limit;
#endif
    cls_ready = 1;
}

size_t pgn_first_bad(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        if (c >= 0x20 && c < 0x7F) { i++; continue; }
        if (c < 0x20) {
            if (c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') { i++; continue; }
            return i;
        }
        if (c == 0x7F)
            return i;
        size_t l = pgn_utf8_len(s + i, n - i);
        if (l) { i += l; continue; }
        if (c < 0xA0)
            return i;
        i++;              /* printable Latin-1 */
    }
    return n;
}
