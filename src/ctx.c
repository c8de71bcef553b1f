/* ctx.c - the laws of the game being checked, and each thread's search table. */
#include "ctx.h"

#include <string.h>

#include "laws.h"
#include "mem.h"

/* The search table of unwin.c: one per thread (not per GameReport: a read
 * batch holds hundreds of reports, and a table in each made -j1 peak at
 * 396 MB, issue 33), UNWIN_TABLE_DEFAULT bytes allocated at the thread's
 * first search and kept until game_thread_free. */
static _Thread_local void *unwin_mem;
static _Thread_local UnwinTable unwin_table;

UnwinTable *ctx_unwin_table(void)
{
    if (!unwin_mem) {
        if (!(unwin_mem = mem_alloc(UNWIN_TABLE_DEFAULT)))
            return NULL;
        unwin_table_init(&unwin_table, unwin_mem, UNWIN_TABLE_DEFAULT);
    }
    return &unwin_table;
}

void ctx_thread_free(void)
{
    mem_free(unwin_mem);
    unwin_mem = NULL;
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
