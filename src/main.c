/* main.c - the pgncheck program: cli.c runs it (options, then run.c, then
 * the exit status), but for the allocation test hook, which must be set
 * before cli's first allocation and read after its last free. */
#include "cli.h"
#include "mem.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    /* Test hook (tests/suites/oom.sh): PGNCHECK_FAIL_ALLOC=N makes
     * allocation N fail; =count makes none fail and says on standard
     * error how many the run made. */
    const char *fail_at = getenv("PGNCHECK_FAIL_ALLOC");
    bool count = fail_at && strcmp(fail_at, "count") == 0;
    if (fail_at && *fail_at)
        mem_fail_at(count ? ULONG_MAX : strtoul(fail_at, NULL, 10));
    int rc = cli_main(argc, argv);
    if (count)
        fprintf(stderr, "pgncheck: allocations: %lu\n", mem_counted());
    return rc;
}
