/* pgn_bytes.h - byte classes and block classification for the PGN reader
 * (SIMD where the CPU has it, word or byte loops elsewhere; knows no PGN). */
#ifndef PGNCHECK_PGN_BYTES_H
#define PGNCHECK_PGN_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) && !defined(PGN_NO_SIMD)
#include <emmintrin.h>
/* AVX2 block classification, chosen at run time (gcc and clang on x86) */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define PGN_AVX2 1
#include <immintrin.h>
#endif
#endif

/* ---------------------------------------------------------------------
 * Byte classes: a locale-free table instead of <ctype.h>.
 * ------------------------------------------------------------------- */
enum {
    K_WS = 1 << 0,     /* space, tab, newline, CR, FF, VT */
    K_NL = 1 << 1,     /* newline or CR */
    K_SYM = 1 << 2,    /* symbol continuation: letters digits _ + # = : - (PGN 7) */
    K_ANNO = 1 << 3,   /* ! ?  (suffix annotations, import format) */
    K_DIGIT = 1 << 4,
    K_ALPHA = 1 << 5,
    K_DOT = 1 << 6,
    K_SLASH = 1 << 7,
};

/* The tables, built by pgn_bytes_init. */
extern unsigned char pgn_cls[256];

/* Movetext fast-path actions. */
enum { A_OTHER = 0, A_SP, A_NL, A_ALPHA, A_DIGIT, A_DOT, A_LBRACE, A_LPAREN, A_RPAREN, A_DOLLAR };
extern unsigned char pgn_act[256];
/* 1 for bytes of a move token (K_SYM | K_ANNO | K_DOT), 1 for digits. */
extern unsigned char pgn_tokc[256], pgn_digc[256];
/* Bytes that end the plain part of a tag value. */
extern unsigned char pgn_tv_stop[256];
#ifdef PGN_AVX2
/* 1: movetext blocks are classified with AVX2: the CPU has AVX2 (and BMI1
 * and BMI2, which every AVX2 CPU has but which are separate CPUID bits: the
 * walk compiled for AVX2 also uses them), unless the caller's limit says
 * SSE2 (the tests run the SSE2 path on the same machine that way). */
extern int pgn_walk_avx2;
/* 1: and with AVX-512 (F and BW: one 64-byte vector a block, the masks
 * straight from mask registers), where the CPU (and OS) has them and
 * pgn_walk_avx2 is set, unless the limit says AVX2. */
extern int pgn_walk_avx512;
#endif

/* The widest vector code the reader may use: the best the CPU has, or at
 * most AVX2, or SSE2 only. */
typedef enum PgnSimd { PGN_SIMD_BEST = 0, PGN_SIMD_AVX2, PGN_SIMD_SSE2 } PgnSimd;

/* Builds the tables and makes the CPU choice, the first time only (later
 * calls do nothing): called before any reader thread starts. */
void pgn_bytes_init(PgnSimd limit);

/* Is s[0..n) the start of a tag pair: '[' blanks Name blanks '"', Name
 * of at most max bytes (PGN 8.1.1)?  Then *name and *nlen give where Name
 * is.  The one test of the reader (pgn_tag_like) and of the writer of
 * copies (pgn_write.c), so that both see the same game boundaries. */
static inline bool pgn_tag_shape(const unsigned char *s, size_t n, size_t max, size_t *name, size_t *nlen)
{
    size_t k = 1;
    if (n < 3 || s[0] != '[')
        return false;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    *name = k;
    if (k >= n || (!(pgn_cls[s[k]] & (K_ALPHA | K_DIGIT)) && s[k] != '_'))
        return false;
    while (k < n && (pgn_cls[s[k]] & K_SYM))
        k++;
    *nlen = k - *name;
    if (*nlen > max)
        return false;
    while (k < n && (s[k] == ' ' || s[k] == '\t'))
        k++;
    return k < n && s[k] == '"';
}

/* Length of a valid UTF-8 sequence at p (n bytes available), 0 if invalid or
 * incomplete. */
static inline size_t pgn_utf8_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) len = 2;
    else if (c == 0xE0) { len = 3; lo = 0xA0; }
    else if (c >= 0xE1 && c <= 0xEF) { len = 3; if (c == 0xED) hi = 0x9F; }
    else if (c == 0xF0) { len = 4; lo = 0x90; }
    else if (c >= 0xF1 && c <= 0xF3) len = 4;
    else if (c == 0xF4) { len = 4; hi = 0x8F; }
    else return 0;
    if (n < len)
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (size_t k = 2; k < len; k++)
        if (p[k] < 0x80 || p[k] > 0xBF)
            return 0;
    return len;
}

/* Index of the first bad byte in s[0..n) (controls, DEL, C1 bytes outside a
 * valid UTF-8 sequence), or n if none. */
size_t pgn_first_bad(const unsigned char *s, size_t n);

/* ---------------------------------------------------------------------
 * Word-at-a-time scanning (little-endian GCC/Clang; a byte loop elsewhere).
 * Each mask below flags, in bit 7 of a byte, the bytes of a word that match;
 * borrows and carries only ever flag bytes above a true match, so the lowest
 * flagged byte is exact.
 * ------------------------------------------------------------------- */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PGN_SWAR 1
#define W_ONES UINT64_C(0x0101010101010101)
#define W_HIGH UINT64_C(0x8080808080808080)

static inline uint64_t load64(const unsigned char *p)
{
    uint64_t x;
    memcpy(&x, p, sizeof x);
    return x;
}

/* bytes equal to ch */
static inline uint64_t w_eq(uint64_t x, unsigned ch)
{
    uint64_t y = x ^ (W_ONES * ch);
    return (y - W_ONES) & ~y & W_HIGH;
}

/* bytes below lim (lim <= 0x80) */
static inline uint64_t w_lt(uint64_t x, unsigned lim)
{
    return (x - W_ONES * lim) & ~x & W_HIGH;
}

/* bytes above lim (lim < 0x80) */
static inline uint64_t w_gt(uint64_t x, unsigned lim)
{
    return ((x + W_ONES * (127u - lim)) | x) & W_HIGH;
}

static inline size_t w_first(uint64_t m) { return (size_t)__builtin_ctzll(m) >> 3; }
#endif

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#define ALWAYS_INLINE __attribute__((always_inline))
#else
#define NOINLINE
#define ALWAYS_INLINE
#endif

static inline unsigned ctz64(uint64_t x)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    while (!(x & 1)) {
        x >>= 1;
        n++;
    }
    return n;
#endif
}

/* index of the highest set bit (x != 0) */
static inline unsigned top64(uint64_t x)
{
#if defined(__GNUC__)
    return 63u - (unsigned)__builtin_clzll(x);
#else
    unsigned n = 0;
    while (x >>= 1)
        n++;
    return n;
#endif
}

/* Bytes of s[0..n) a comment can pass over without looking: printable ASCII
 * other than '%' and '}' (and '~', which only the slow step sees).  Returns
 * the index of the first other byte, or n. */
static inline size_t comment_plain(const unsigned char *s, size_t n)
{
    size_t k = 0;
#if defined(__SSE2__) && !defined(PGN_NO_SIMD)
    /* signed compares: bytes above 0x7F are below 0x20 */
    while (n - k >= 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + k));
        __m128i m = _mm_or_si128(_mm_cmplt_epi8(x, _mm_set1_epi8(0x20)), _mm_cmpgt_epi8(x, _mm_set1_epi8(0x7C)));
        unsigned mm = (unsigned)_mm_movemask_epi8(_mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('%'))));
        if (mm)
            return k + ctz64(mm);
        k += 16;
    }
#elif defined(PGN_SWAR)
    while (n - k >= 16) {
        uint64_t x = load64(s + k), y = load64(s + k + 8);
        uint64_t mx = w_gt(x, 0x7C) | w_lt(x, 0x20) | w_eq(x, '%');
        uint64_t my = w_gt(y, 0x7C) | w_lt(y, 0x20) | w_eq(y, '%');
        if (mx)
            return k + w_first(mx);
        if (my)
            return k + 8 + w_first(my);
        k += 16;
    }
#endif
    while (k < n && s[k] >= 0x20 && s[k] < 0x7D && s[k] != '%')
        k++;
    return k;
}

/* Movetext blocks: for the 64 bytes at s, bit k of tok is set if s[k] is a
 * move-token byte (tokc), of sp if it is a space, of nl if it is a line
 * feed or carriage return, of dg if it is a digit, of dt if it is a period,
 * of al if it is a letter. */
typedef struct Masks {
    uint64_t tok, sp, nl, dg, dt, al;
} Masks;

/* the six masks of a block, as the portable classifiers build them */
static inline void masks_set(Masks *mk, uint64_t tok, uint64_t sp, uint64_t nl, uint64_t dg, uint64_t dt, uint64_t al)
{
    mk->tok = tok;
    mk->sp = sp;
    mk->nl = nl;
    mk->dg = dg;
    mk->dt = dt;
    mk->al = al;
}

#if defined(__SSE2__) && !defined(PGN_NO_SIMD)
static inline void classify16(const unsigned char *s, unsigned m[6])
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i y = _mm_or_si128(x, _mm_set1_epi8(0x20));
    /* letters: (x | 0x20) in 'a'..'z' */
    __m128i al = _mm_cmplt_epi8(_mm_add_epi8(y, _mm_set1_epi8((char)(0x80 - 'a'))),
                                _mm_set1_epi8((char)(-128 + 26)));
    /* digits: x in '0'..'9'; with ':' x in '0'..':' */
    __m128i xd = _mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - '0')));
    __m128i dg = _mm_cmplt_epi8(xd, _mm_set1_epi8((char)(-128 + 10)));
    __m128i t = _mm_or_si128(al, _mm_cmplt_epi8(xd, _mm_set1_epi8((char)(-128 + 11))));
    /* ! # (x | 2 == '#'), = ? (x | 2 == '?'), + - . _ */
    __m128i x2 = _mm_or_si128(x, _mm_set1_epi8(2));
    __m128i u = _mm_or_si128(_mm_cmpeq_epi8(x2, _mm_set1_epi8('#')), _mm_cmpeq_epi8(x2, _mm_set1_epi8('?')));
    __m128i v = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('+')), _mm_cmpeq_epi8(x, _mm_set1_epi8('-')));
    __m128i dot = _mm_cmpeq_epi8(x, _mm_set1_epi8('.'));
    __m128i z = _mm_or_si128(dot, _mm_cmpeq_epi8(x, _mm_set1_epi8('_')));
    t = _mm_or_si128(_mm_or_si128(t, u), _mm_or_si128(v, z));
    m[0] = (unsigned)_mm_movemask_epi8(t);
    m[1] = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')));
    m[2] = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n')),
                                                    _mm_cmpeq_epi8(x, _mm_set1_epi8('\r'))));
    m[3] = (unsigned)_mm_movemask_epi8(dg);
    m[4] = (unsigned)_mm_movemask_epi8(dot);
    m[5] = (unsigned)_mm_movemask_epi8(al);
}

static inline void classify64(const unsigned char *s, Masks *mk)
{
    uint64_t t = 0, p = 0, n = 0, g = 0, d = 0, l = 0;
    for (unsigned k = 0; k < 64; k += 16) {
        unsigned m[6];
        classify16(s + k, m);
        t |= (uint64_t)m[0] << k;
        p |= (uint64_t)m[1] << k;
        n |= (uint64_t)m[2] << k;
        g |= (uint64_t)m[3] << k;
        d |= (uint64_t)m[4] << k;
        l |= (uint64_t)m[5] << k;
    }
    masks_set(mk, t, p, n, g, d, l);
}

#ifdef PGN_AVX2
/* classify64 with 32-byte vectors, by nibble lookup: the class bits of a
 * byte are lo[its low nibble] & hi[its high nibble] (bytes above 0x7F get
 * none), one bit per set of bytes that is such a product:
 *   1 ' '   2 LF CR   4 '.'   8 digits   16 A-O a-o   32 P-Z p-z
 *   64 : = ?   128 ! # + - .
 * and '_', the one move-token byte left, is compared.  The masks are the
 * same as classify64's. */
#define NB_SP 1
#define NB_NL 2
#define NB_DT 4
#define NB_DG 8
#define NB_AL1 16
#define NB_AL2 32
#define NB_T3 64
#define NB_T2 128
#define NB_LO                                                                                                 \
    (char)(NB_SP | NB_DG | NB_AL2), (char)(NB_DG | NB_AL1 | NB_AL2 | NB_T2), (char)(NB_DG | NB_AL1 | NB_AL2), \
        (char)(NB_DG | NB_AL1 | NB_AL2 | NB_T2), (char)(NB_DG | NB_AL1 | NB_AL2),                           \
        (char)(NB_DG | NB_AL1 | NB_AL2), (char)(NB_DG | NB_AL1 | NB_AL2), (char)(NB_DG | NB_AL1 | NB_AL2),     \
        (char)(NB_DG | NB_AL1 | NB_AL2), (char)(NB_DG | NB_AL1 | NB_AL2), (char)(NB_NL | NB_AL1 | NB_AL2 | NB_T3), \
        (char)(NB_AL1 | NB_T2), (char)NB_AL1, (char)(NB_NL | NB_AL1 | NB_T3 | NB_T2),                        \
        (char)(NB_DT | NB_AL1 | NB_T2), (char)(NB_AL1 | NB_T3)
#define NB_HI                                                                                                 \
    (char)NB_NL, 0, (char)(NB_SP | NB_DT | NB_T2), (char)(NB_DG | NB_T3), (char)NB_AL1, (char)NB_AL2,         \
        (char)NB_AL1, (char)NB_AL2, 0, 0, 0, 0, 0, 0, 0, 0
__attribute__((target("avx2"), always_inline)) static inline void classify32_avx2(const unsigned char *s,
                                                                                  uint32_t m[6])
{
    const __m256i lo = _mm256_setr_epi8(NB_LO, NB_LO), hi = _mm256_setr_epi8(NB_HI, NB_HI);
    const __m256i nib = _mm256_set1_epi8(0x0F), zero = _mm256_setzero_si256();
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)s);
    __m256i c = _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(x, nib)),
                                 _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(x, 4), nib)));
    /* not a move-token byte: no class bit but ' ' and line end, and not '_' */
    __m256i nt = _mm256_cmpeq_epi8(_mm256_and_si256(c, _mm256_set1_epi8((char)~(NB_SP | NB_NL))), zero);
    nt = _mm256_andnot_si256(_mm256_cmpeq_epi8(x, _mm256_set1_epi8('_')), nt);
    __m256i nal = _mm256_cmpeq_epi8(_mm256_and_si256(c, _mm256_set1_epi8(NB_AL1 | NB_AL2)), zero);
    /* bit 7 of each byte after a 16-bit shift by k is bit 7 - k of the byte */
    m[0] = ~(uint32_t)_mm256_movemask_epi8(nt);
    m[1] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c, 7));
    m[2] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c, 6));
    m[3] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c, 4));
    m[4] = (uint32_t)_mm256_movemask_epi8(_mm256_slli_epi16(c, 5));
    m[5] = ~(uint32_t)_mm256_movemask_epi8(nal);
}

__attribute__((target("avx2"), always_inline)) static inline void classify64_avx2(const unsigned char *s,
                                                                                  Masks *mk)
{
    uint32_t a[6], b[6];
    classify32_avx2(s, a);
    classify32_avx2(s + 32, b);
    mk->tok = a[0] | (uint64_t)b[0] << 32;
    mk->sp = a[1] | (uint64_t)b[1] << 32;
    mk->nl = a[2] | (uint64_t)b[2] << 32;
    mk->dg = a[3] | (uint64_t)b[3] << 32;
    mk->dt = a[4] | (uint64_t)b[4] << 32;
    mk->al = a[5] | (uint64_t)b[5] << 32;
}
#endif

#ifdef PGN_AVX2
/* classify64 with one 64-byte vector: the nibble lookup of classify32_avx2
 * (the same class bits), each mask a byte test into a mask register */
__attribute__((target("avx512f,avx512bw"), always_inline)) static inline void classify64_avx512(const unsigned char *s,
                                                                                              Masks *mk)
{
    const __m512i lo = _mm512_broadcast_i32x4(_mm_setr_epi8(NB_LO));
    const __m512i hi = _mm512_broadcast_i32x4(_mm_setr_epi8(NB_HI));
    const __m512i nib = _mm512_set1_epi8(0x0F);
    __m512i x = _mm512_loadu_si512((const void *)s);
    __m512i c = _mm512_and_si512(_mm512_shuffle_epi8(lo, _mm512_and_si512(x, nib)),
                                 _mm512_shuffle_epi8(hi, _mm512_and_si512(_mm512_srli_epi16(x, 4), nib)));
    /* a move-token byte: a class bit but ' ' and line end, or '_' */
    mk->tok = (uint64_t)_mm512_test_epi8_mask(c, _mm512_set1_epi8((char)~(NB_SP | NB_NL)))
              | (uint64_t)_mm512_cmpeq_epi8_mask(x, _mm512_set1_epi8('_'));
    mk->sp = (uint64_t)_mm512_test_epi8_mask(c, _mm512_set1_epi8(NB_SP));
    mk->nl = (uint64_t)_mm512_test_epi8_mask(c, _mm512_set1_epi8(NB_NL));
    mk->dg = (uint64_t)_mm512_test_epi8_mask(c, _mm512_set1_epi8(NB_DG));
    mk->dt = (uint64_t)_mm512_test_epi8_mask(c, _mm512_set1_epi8(NB_DT));
    mk->al = (uint64_t)_mm512_test_epi8_mask(c, _mm512_set1_epi8(NB_AL1 | NB_AL2));
}

/* comment_plain with 32-byte vectors */
__attribute__((target("avx2"), always_inline)) static inline size_t comment_plain_avx2(const unsigned char *s,
                                                                                     size_t n)
{
    size_t k = 0;
    while (n - k >= 32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)(s + k));
        __m256i m = _mm256_or_si256(_mm256_cmpgt_epi8(_mm256_set1_epi8(0x20), x),
                                    _mm256_cmpgt_epi8(x, _mm256_set1_epi8(0x7C)));
        unsigned mm = (unsigned)_mm256_movemask_epi8(_mm256_or_si256(m, _mm256_cmpeq_epi8(x, _mm256_set1_epi8('%'))));
        if (mm)
            return k + ctz64(mm);
        k += 32;
    }
    return k + comment_plain(s + k, n - k);
}
#endif

/* Tag names: bit k set if s[k] is a symbol byte (K_SYM), for 16 bytes. */
#define PGN_SYM16 1
static inline unsigned sym16(const unsigned char *s)
{
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i y = _mm_or_si128(x, _mm_set1_epi8(0x20));
    __m128i t = _mm_cmplt_epi8(_mm_add_epi8(y, _mm_set1_epi8((char)(0x80 - 'a'))),
                               _mm_set1_epi8((char)(-128 + 26)));
    t = _mm_or_si128(t, _mm_cmplt_epi8(_mm_add_epi8(x, _mm_set1_epi8((char)(0x80 - '0'))),
                                       _mm_set1_epi8((char)(-128 + 11))));
    __m128i u = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('#')), _mm_cmpeq_epi8(x, _mm_set1_epi8('=')));
    __m128i v = _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('+')), _mm_cmpeq_epi8(x, _mm_set1_epi8('-')));
    t = _mm_or_si128(_mm_or_si128(t, u), _mm_or_si128(v, _mm_cmpeq_epi8(x, _mm_set1_epi8('_'))));
    return (unsigned)_mm_movemask_epi8(t);
}

/* Plain tag value bytes: bit k set if s[k] is a control byte, DEL, a byte
 * above 0x7F, '"' or '\\', for 16 bytes. */
static inline unsigned tv_stop16(const unsigned char *s)
{
    /* x + 0x60 maps 0x20..0x7E to -128..-34 (signed) and every other byte
     * above -34 */
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
    __m128i m = _mm_cmpgt_epi8(_mm_add_epi8(x, _mm_set1_epi8(0x60)), _mm_set1_epi8(-34));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('"')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')));
    return (unsigned)_mm_movemask_epi8(m);
}

/* tv_stop16 for 32 bytes */
static inline unsigned tv_stop32(const unsigned char *s)
{
    return tv_stop16(s) | tv_stop16(s + 16) << 16;
}

#ifdef PGN_AVX2
/* tv_stop32 with one 32-byte vector */
__attribute__((target("avx2"), always_inline)) static inline unsigned tv_stop32_avx2(const unsigned char *s)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)(const void *)s);
    __m256i m = _mm256_cmpgt_epi8(_mm256_add_epi8(x, _mm256_set1_epi8(0x60)), _mm256_set1_epi8(-34));
    m = _mm256_or_si256(m, _mm256_cmpeq_epi8(x, _mm256_set1_epi8('"')));
    m = _mm256_or_si256(m, _mm256_cmpeq_epi8(x, _mm256_set1_epi8('\\')));
    return (unsigned)_mm256_movemask_epi8(m);
}
#endif

/* Line feeds: bit k set if s[k] is '\n', for 64 bytes. */
static inline uint64_t lf64(const unsigned char *s)
{
    uint64_t m = 0;
    for (unsigned k = 0; k < 64; k += 16) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(s + k));
        m |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))) << k;
    }
    return m;
}

#ifdef PGN_AVX2
/* lf64 with 32-byte vectors */
__attribute__((target("avx2"), always_inline)) static inline uint64_t lf64_avx2(const unsigned char *s)
{
    __m256i lf = _mm256_set1_epi8('\n');
    uint32_t a = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)s), lf));
    uint32_t b = (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(s + 32)), lf));
    return a | (uint64_t)b << 32;
}
#endif

/* Letters: bit k set if s[k] is an ASCII letter, for 16 bytes (the usual
 * tag names are letters only, a cheaper test than sym16). */
static inline unsigned alpha16(const unsigned char *s)
{
    __m128i y = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)s), _mm_set1_epi8(0x20));
    return (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(_mm_add_epi8(y, _mm_set1_epi8((char)(0x80 - 'a'))),
                                                      _mm_set1_epi8((char)(-128 + 26))));
}
#else
static inline void classify64(const unsigned char *s, Masks *mk)
{
    uint64_t t = 0, p = 0, n = 0, g = 0, d = 0, l = 0;
    for (unsigned k = 0; k < 64; k++) {
        t |= (uint64_t)pgn_tokc[s[k]] << k;
        p |= (uint64_t)(s[k] == ' ') << k;
        n |= (uint64_t)(s[k] == '\n' || s[k] == '\r') << k;
        g |= (uint64_t)pgn_digc[s[k]] << k;
        d |= (uint64_t)(s[k] == '.') << k;
        l |= (uint64_t)((pgn_cls[s[k]] & K_ALPHA) != 0) << k;
    }
    masks_set(mk, t, p, n, g, d, l);
}
#endif

/* ---- tokens at a place (the movetext fast path) ---- */
/* Length of the symbol run at t (t[0] one of its bytes): branch-free for
 * runs under 8 bytes (moves vary in length too much for a predicted loop);
 * longer runs, which the sentinel at buf[end] ends, take the loop. */
ALWAYS_INLINE static inline unsigned token_len(const unsigned char *t)
{
    unsigned in = pgn_tokc[t[1]], len = 1 + in;
    in &= pgn_tokc[t[2]]; len += in;
    in &= pgn_tokc[t[3]]; len += in;
    in &= pgn_tokc[t[4]]; len += in;
    in &= pgn_tokc[t[5]]; len += in;
    in &= pgn_tokc[t[6]]; len += in;
    in &= pgn_tokc[t[7]]; len += in;
    if (len == 8)
        while (pgn_tokc[t[len]])
            len++;
    return len;
}

/* The digits at t (t[0] one): their value (up to 3 branch-free, more in a
 * loop that the sentinel ends), their count in *lenp. */
ALWAYS_INLINE static inline uint32_t digits_at(const unsigned char *t, unsigned *lenp)
{
    unsigned in = pgn_digc[t[1]], len = 1 + in;
    in &= pgn_digc[t[2]]; len += in;
    in &= pgn_digc[t[3]]; len += in;
    uint32_t v = (uint32_t)(t[0] - '0');
    if (len < 4) {
        uint32_t d1 = (uint32_t)(t[1] - '0'), d2 = (uint32_t)(t[2] - '0');
        v = len == 1 ? v : len == 2 ? v * 10 + d1 : v * 100 + d1 * 10 + d2;
    } else {
        v = 0;
        len = 0;
        while (pgn_cls[t[len]] & K_DIGIT)
            v = v * 10 + (t[len++] - '0');
    }
    *lenp = len;
    return v;
}

/* The periods at t, branch-free up to three (the sentinel ends longer runs). */
ALWAYS_INLINE static inline unsigned periods_at(const unsigned char *t)
{
    unsigned d = t[0] == '.', dd = d;
    d &= t[1] == '.'; dd += d;
    d &= t[2] == '.'; dd += d;
    if (dd == 3)
        while (t[dd] == '.')
            dd++;
    return dd;
}

/* A NAG at b[s0] == '$' as the fast path takes it, $0 to $255 with at most
 * three digits: its value, *end past it; -1 for anything else. */
ALWAYS_INLINE static inline int nag_at(const unsigned char *b, size_t s0, size_t *end)
{
    size_t i = s0 + 1;
    unsigned v = 0;
    while (i - s0 <= 3 && (pgn_cls[b[i]] & K_DIGIT))
        v = v * 10 + (b[i++] - '0');
    if (i == s0 + 1 || (pgn_cls[b[i]] & K_DIGIT) || v > 255)
        return -1;
    *end = i;
    return (int)v;
}

#endif
