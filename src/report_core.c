/* report_core.c - the Report's flush and the parts of a record every format shows. */
#include "report_core.h"

#include <string.h>

#include "mem.h"
#include "tags.h"

void report_flush(Report *rp)
{
    if (rp->defer)
        return;             /* kept for report_deferred_write */
    if (rp->b.failed)
        rp->oom = true;     /* (a record cut short is not written, nor any after it) */
    if (rp->b.len && !rp->oom)
        fwrite(rp->b.p, 1, rp->b.len, rp->out);
    rp->b.len = 0;
    rp->b.failed = false;
}

_Static_assert(REPORT_SHOWN == TAGS_BLACK + 1, "the roster but for Result");

void report_tags6(const PgnGame *g, const char *v[REPORT_SHOWN])
{
    unsigned found = 0;
    for (int k = 0; k < REPORT_SHOWN; k++)
        v[k] = NULL;
    for (size_t i = 0; i < g->ntags && found != (1u << REPORT_SHOWN) - 1; i++) {
        const char *n = g->tags[i].name;
        int k;
        switch (n ? n[0] : 0) {
        case 'E': k = TAGS_EVENT; break;
        case 'S': k = TAGS_SITE; break;
        case 'D': k = TAGS_DATE; break;
        case 'R': k = TAGS_ROUND; break;
        case 'W': k = TAGS_WHITE; break;
        case 'B': k = TAGS_BLACK; break;
        default: continue;
        }
        if (!(found >> k & 1) && strcmp(n + 1, tags_roster[k] + 1) == 0) {
            v[k] = g->tags[i].value;
            found |= 1u << k;
        }
    }
    for (int k = 0; k < REPORT_SHOWN; k++)
        if (!(found >> k & 1))
            v[k] = tags_value(g, tags_roster[k]);
}

const char *report_status_slug(GameStatus s)
{
    switch (s) {
    case STATUS_OK: return "ok";
    case STATUS_WARNING: return "warning";
    case STATUS_ERROR: return "error";
    case STATUS_SKIPPED: return "skipped";
    }
    return "error";
}

const char *report_declared(const GameReport *rep)
{
    if (rep->declared != PGN_RES_NONE)
        return result_text(rep->declared);
    return rep->result_tag;
}

const char *report_message_of(const Report *rp, const Diag *d)
{
    const char *dup_text = rp->dup_text;
    if (dup_text && (d->code == D_DUPLICATE_GAME || d->code == D_DUPLICATE_RESULT || d->code == D_SAME_MOVES))
        return dup_text;
    if (d->msg[0])
        return d->msg;
    return d->code < D_COUNT ? diag_info[d->code].meaning : "";
}

void report_place_num(Report *rp, int kind, uint64_t v)
{
    if (!rp->defer) {
        ob_u64(&rp->b, v);
        return;
    }
    if (rp->nsp == rp->spcap) {
        size_t cap = rp->spcap ? rp->spcap * 2 : 256;
        ReportSplice *p = mem_realloc(rp->sp, cap, sizeof *p);
        if (!p) {
            rp->b.failed = true;
            return;
        }
        rp->sp = p;
        rp->spcap = cap;
    }
    rp->sp[rp->nsp++] = (ReportSplice){rp->b.len, v, kind};
}

