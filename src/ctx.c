/* ctx.c - the laws of the game being checked, and each thread's search table. */
#include "ctx.h"

#include <string.h>

#include "laws.h"
#include "mem.h"

/* The search tables of unwin.c: one per thread and size (not per
 * GameReport: a read batch holds hundreds of reports, and a table in each
 * made -j1 peak at 396 MB, issue 33), unwin_table_bytes of the budget,
 * allocated at the thread's first search of that size and kept until
 * game_thread_free.  A run asks at most four budgets by default (unwin.h:
 * 250 nodes, 128 KB; 2,000, 256 KB; 20,000, 2 MB; 1,000,000, 6 MB, only
 * where a question is left undetermined at the others) or one
 * (--unwin-nodes), so at most four sizes are held. */
#define TABLE_SIZES 8
static _Thread_local struct {
    void *mem;
    size_t bytes;
    UnwinTable t;
} tables[TABLE_SIZES];

UnwinTable *ctx_unwin_table(uint64_t budget)
{
    size_t bytes = unwin_table_bytes(budget);
    size_t i = 0;
    while (i < TABLE_SIZES && tables[i].mem && tables[i].bytes != bytes)
        i++;
    if (i == TABLE_SIZES)
        return NULL; /* (not reached: unwin_table_bytes has fewer sizes) */
    if (!tables[i].mem) {
        if (!(tables[i].mem = mem_alloc_big(bytes)))
            return NULL;
        tables[i].bytes = bytes;
        unwin_table_init(&tables[i].t, tables[i].mem, bytes);
    }
    return &tables[i].t;
}

void ctx_thread_free(void)
{
    unwin_quick_thread_free();
    for (size_t i = 0; i < TABLE_SIZES; i++) {
        mem_free(tables[i].mem);
        tables[i].mem = NULL;
    }
}

/* The laws of game g from its Date tag (date), else its UTCDate and
 * EventDate tags, which only an undecided date needs looked for. */
static Laws game_laws(const PgnGame *g, const char *date, uint32_t *lo, uint32_t *hi)
{
    /* (the usual game: a date that decides, no other tag looked for) */
    if (laws_date_bounds(date, lo, hi) && (*hi < LAWS_2014_FROM || *lo >= LAWS_2014_FROM))
        return *hi < LAWS_2014_FROM ? LAWS_1997 : LAWS_2014;
    const char *utc = NULL, *event = NULL;
    for (size_t i = 0; i < g->ntags; i++) {
        if (!strcmp(g->tags[i].name, "UTCDate") && !utc)
            utc = g->tags[i].value;
        else if (!strcmp(g->tags[i].name, "EventDate") && !event)
            event = g->tags[i].value;
    }
    return laws_date_range(date, utc, event, lo, hi);
}

/* The Laws that judge the game of c, found when first asked: few games
 * reach a position where they differ, and only JSON Lines and TSV show
 * them for every game. */
Laws ctx_laws(Ctx *c)
{
    if (c->laws >= 0)
        return (Laws)c->laws;
    Laws l;
    if (c->opt->rules == RULES_2014) {
        c->date_lo = LAWS_2014_FROM;
        l = LAWS_2014;
    } else if (c->opt->rules == RULES_1997) {
        c->date_lo = LAWS_1997_FROM;
        c->date_hi = LAWS_2014_FROM - 1;
        l = LAWS_1997;
    } else
        l = game_laws(c->g, c->date, &c->date_lo, &c->date_hi);
    c->laws = (int)l;
    return l;
}
