/* fuzz_common.h - small helpers shared by the libFuzzer targets (invariant checks abort with a message). */
#ifndef PGNCHECK_FUZZ_COMMON_H
#define PGNCHECK_FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An invariant failure is a finding: print what broke and abort so that
 * libFuzzer saves the input as crash-<sha1>. */
#define FZ_CHECK(cond, ...)                                                    \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "INVARIANT FAILED %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                      \
            fputc('\n', stderr);                                               \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* Deterministic generator seeded from the input: splits and choices are a
 * function of the bytes, so every finding reproduces from its file. */
static inline uint64_t fz_seed(const uint8_t *d, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ d[i]) * 1099511628211ull;
    return h ? h : 1;
}

static inline uint64_t fz_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

#endif
