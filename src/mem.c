/* mem.c - the allocation funnel (mem.h). */
#define _DEFAULT_SOURCE /* (madvise, MADV_HUGEPAGE: Linux; elsewhere plain pages) */
#include "mem.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Allocations left before the one that fails; 0 when the hook is off.
 * Checked with one relaxed load when off, so it costs nothing measurable. */
static atomic_ulong fail_countdown;
static unsigned long fail_start;    /* its value when set */

void mem_fail_at(unsigned long n)
{
    fail_start = n;
    atomic_store(&fail_countdown, n);
}

unsigned long mem_counted(void)
{
    return fail_start - atomic_load(&fail_countdown);
}

/* True when the test hook makes this allocation fail. */
static int injected(void)
{
    unsigned long c = atomic_load_explicit(&fail_countdown, memory_order_relaxed);
    while (c != 0) {
        if (atomic_compare_exchange_weak(&fail_countdown, &c, c - 1))
            return c == 1;
    }
    return 0;
}

void *mem_alloc(size_t n)
{
    if (injected())
        return NULL;
    return malloc(n ? n : 1);
}

/* A huge page: 2 MB on x86-64 and most arm64 kernels.  Where the kernel
 * has no transparent huge pages for this process, or a page of another
 * size, the advice is ignored and the block is plain memory. */
#define HUGE_PAGE ((size_t)2 << 20)

void *mem_alloc_big(size_t n)
{
    if (n < HUGE_PAGE)
        return mem_alloc(n);
    if (injected())
        return NULL;
    if (n > SIZE_MAX - HUGE_PAGE)
        return NULL;
    size_t whole = (n + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    void *p = aligned_alloc(HUGE_PAGE, whole);
#ifdef MADV_HUGEPAGE
    if (p)
        (void)madvise(p, whole, MADV_HUGEPAGE);
#endif
    return p;
}

void *mem_calloc(size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    if (injected())
        return NULL;
    return calloc(count ? count : 1, size ? size : 1);
}

void *mem_realloc(void *p, size_t count, size_t size)
{
    if (size != 0 && count > SIZE_MAX / size)
        return NULL;
    if (injected())
        return NULL;
    size_t n = count * size;
    return realloc(p, n ? n : 1);
}

char *mem_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = mem_alloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void mem_free(void *p)
{
    free(p);
}

void *mem_grow(void *p, size_t *cap, size_t need, size_t elem, size_t maxcap)
{
    if (need == 0)
        need = 1;
    if (need <= *cap)
        return p;
    if (need > maxcap)
        return NULL;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c = c > maxcap / 2 ? maxcap : c * 2;
    void *q = mem_realloc(p, c, elem);
    if (q)
        *cap = c;
    return q;
}
