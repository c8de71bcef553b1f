/* mem.h - the one allocation funnel: every allocation of the program goes
 * through these, so a cap holds everywhere and a test can make the Nth
 * allocation fail (mem_fail_at) to drive each failure path. */
#ifndef PGNCHECK_MEM_H
#define PGNCHECK_MEM_H

#include <stddef.h>

/* Each returns NULL when the system has no memory, when the product of
 * its sizes overflows, or when the test hook says this one fails.  A NULL
 * from mem_realloc leaves the old block as it was. */
void *mem_alloc(size_t n) __attribute__((warn_unused_result, malloc));
void *mem_calloc(size_t count, size_t size) __attribute__((warn_unused_result, malloc));
/* mem_alloc for a block of megabytes that is used whole (a search
 * table): where it is 2 MB or more, it is aligned to 2 MB and the kernel
 * is asked to back it with huge pages (madvise MADV_HUGEPAGE), one page
 * fault each 2 MB instead of 512.  On a virtual machine a fault can cost
 * 10 us: a 2 MB table touched whole cost 6 ms in plain pages, 0.4 ms in
 * one huge page (tests/BENCH.md).  Freed with mem_free. */
void *mem_alloc_big(size_t n) __attribute__((warn_unused_result, malloc));
void *mem_realloc(void *p, size_t count, size_t size) __attribute__((warn_unused_result));
char *mem_strdup(const char *s) __attribute__((warn_unused_result, malloc));
void mem_free(void *p);

/* Grows the array P (of *CAP elements of ELEM bytes) to hold at least NEED
 * elements, doubling from 16, never past MAXCAP elements.  Returns the
 * array (P when it was big enough) and updates *CAP; NULL when NEED is
 * over MAXCAP or memory is short, with P and *CAP unchanged. */
void *mem_grow(void *p, size_t *cap, size_t need, size_t elem, size_t maxcap)
    __attribute__((warn_unused_result));

/* Test hook: allocation number N from now on (1 = the next one) fails,
 * once; 0 turns it off.  The count is shared by every thread. */
void mem_fail_at(unsigned long n);

/* Allocations counted since mem_fail_at (all of them while the hook has
 * not fired: mem_fail_at(ULONG_MAX) counts a whole run). */
unsigned long mem_counted(void);

#endif
