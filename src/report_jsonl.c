/* report_jsonl.c - the JSON Lines format: one object a line, strings valid UTF-8. */
#include "report_jsonl.h"

#include "laws.h"
#include "repair.h"

static void json_uint_or_null(OutBuf *b, uint64_t v)
{
    if (v)
        ob_u64(b, v);
    else
        ob_puts(b, "null");
}

/* "code", "severity", "line", "column": the fields every diagnostic object
 * has, in the contract's order (a game's and a file-level one alike). */
static void json_diag_where(Report *rp, const Diag *d)
{
    OutBuf *b = &rp->b;
    ob_puts(b, "\"code\":");
    ob_json(b, report_slug(d));
    ob_key(b, "severity");
    ob_json(b, diag_severity_name(d->severity));
    ob_key(b, "line");
    if (d->pos.line)
        report_place_num(rp, REPORT_NUM_LINE, d->pos.line);
    else
        ob_puts(b, "null");
    ob_key(b, "column");
    json_uint_or_null(b, d->pos.col);
}

/* A fraction 0..1 to three decimals, its zeros at the end left out
 * ("0.947", "0.5", "0", "1"): 1 only for 1 itself. */
static void json_fraction(OutBuf *b, double f)
{
    uint64_t v = f <= 0 ? 0 : f >= 1 ? 1000 : (uint64_t)(f * 1000 + 0.5);
    if (v == 1000 && f < 1)
        v = 999; /* (1 only for the one candidate proven) */
    if (v == 0 || v == 1000) {
        ob_putc(b, v ? '1' : '0');
        return;
    }
    char d[6] = {'0', '.', (char)('0' + v / 100), (char)('0' + v / 10 % 10), (char)('0' + v % 10), 0};
    size_t n = 5;
    while (d[n - 1] == '0')
        n--;
    ob_add(b, d, n);
}

/* "repairs": the ranked repairs (repair.c) of the move error where the
 * main line broke, on that error's object only. */
static void json_repairs(Report *rp, const Diag *d, const RepairSet *rs)
{
    if (!rs || !rs->n || d->pos.offset != rs->pos.offset || (uint32_t)d->ply != rs->ply ||
        (d->code != D_ILLEGAL_MOVE && d->code != D_AMBIGUOUS_MOVE && d->code != D_BAD_MOVE && d->code != D_NULL_MOVE))
        return;
    OutBuf *b = &rp->b;
    ob_key(b, "repairs");
    ob_putc(b, '[');
    for (size_t i = 0; i < rs->n; i++) {
        const Repair *r = &rs->r[i];
        ob_puts(b, i ? ",{\"ply\":" : "{\"ply\":");
        ob_u64(b, r->ply);
        ob_key(b, "edit");
        ob_json(b, repair_edit_slug(r->edit));
        ob_key(b, "old");
        ob_json(b, r->old_text);
        ob_key(b, "new");
        ob_json(b, r->new_text);
        ob_key(b, "line");
        report_place_num(rp, REPORT_NUM_LINE, r->pos.line);
        ob_key(b, "col");
        ob_u64(b, r->pos.col);
        ob_key(b, "unique");
        ob_puts(b, repair_unique(rs) ? "true" : "false");
        ob_key(b, "share");
        json_fraction(b, r->share);
        ob_putc(b, '}');
    }
    ob_putc(b, ']');
}

static void json_diag(Report *rp, const Diag *d, const RepairSet *rs)
{
    OutBuf *b = &rp->b;
    ob_putc(b, '{');
    json_diag_where(rp, d);
    ob_key(b, "ply");
    json_uint_or_null(b, d->ply > 0 ? (uint64_t)d->ply : 0);
    ob_key(b, "move");
    ob_json(b, d->move[0] ? d->move : NULL);
    ob_key(b, "message");
    ob_json(b, report_message_of(rp, d));
    json_repairs(rp, d, rs);
    ob_putc(b, '}');
}

/* "clocks" (issue 36): each side's last clock and time used, in ms, null
 * where not known. */
static void json_ms(OutBuf *b, int64_t v)
{
    if (v == CLOCK_UNKNOWN) {
        OB_LIT(b, "null");
        return;
    }
    if (v < 0)
        ob_putc(b, '-');
    ob_u64(b, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
}

static void json_clocks(OutBuf *b, const ClockSummary *c)
{
    OB_LIT(b, ",\"clocks\":{\"white_ms\":");
    json_ms(b, c->final_ms[0]);
    OB_LIT(b, ",\"black_ms\":");
    json_ms(b, c->final_ms[1]);
    OB_LIT(b, ",\"white_used_ms\":");
    json_ms(b, c->used_ms[0]);
    OB_LIT(b, ",\"black_used_ms\":");
    json_ms(b, c->used_ms[1]);
    ob_putc(b, '}');
}

void report_jsonl_game(Report *rp, const char *file, const PgnGame *g, const GameReport *rep,
                       const Diag *extra, size_t nextra)
{
    OutBuf *b = &rp->b;
    const char *tv[REPORT_SHOWN];
    report_tags6(g, tv);
    OB_LIT(b, "{\"type\":\"game\",\"file\":");
    ob_json(b, file);
    OB_KEY(b, "index");
    report_place_num(rp, REPORT_NUM_INDEX, g->index);
    OB_KEY(b, "offset");
    ob_u64(b, g->start.offset);
    OB_KEY(b, "line");
    report_place_num(rp, REPORT_NUM_LINE, g->start.line);
#define KEY_LIT(key) {",\"" key "\":", sizeof(",\"" key "\":") - 1}
    static const struct {
        const char *s;
        size_t n;
    } show_keys[REPORT_SHOWN] = {KEY_LIT("event"), KEY_LIT("site"), KEY_LIT("date"),
                           KEY_LIT("round"), KEY_LIT("white"), KEY_LIT("black")};
#undef KEY_LIT
    for (int k = 0; k < REPORT_SHOWN; k++) {
        ob_add(b, show_keys[k].s, show_keys[k].n);
        ob_json(b, tv[k]);
    }
    OB_KEY(b, "result");
    ob_json(b, report_declared(rep));
    OB_KEY(b, "outcome");
    ob_json(b, rep->outcome_known ? result_text(rep->outcome) : NULL);
    OB_KEY(b, "reason");
    ob_json(b, result_reason(rep->reason));
    OB_KEY(b, "plies");
    ob_u64(b, rep->plies);
    OB_KEY(b, "fen");
    ob_json(b, rep->fen[0] ? rep->fen : NULL);
    OB_KEY(b, "status");
    ob_json(b, report_status_slug(rep->status));
    OB_KEY(b, "rules");
    ob_json(b, laws_name(rep->laws));
    if (rep->clocks.present)
        json_clocks(b, &rep->clocks);
    if (rp->dups) {
        OB_KEY(b, "duplicate_of");
        if (rep->dup_state == 2) {
            OB_LIT(b, "{\"file\":");
            ob_json(b, rep->dup_file);
            OB_KEY(b, "index");
            ob_u64(b, rep->dup_index);
            OB_KEY(b, "line");
            ob_u64(b, rep->dup_line);
            ob_putc(b, '}');
        } else
            OB_LIT(b, "null");
    }
    OB_LIT(b, ",\"diagnostics\":[");
    bool first = true;
    for (size_t i = 0; i < rep->ndiags + nextra; i++) {
        const Diag *d = i < rep->ndiags ? &rep->diags[i] : &extra[i - rep->ndiags];
        if (!report_shown(rp, d, i >= rep->ndiags))
            continue;
        if (!first)
            ob_putc(b, ',');
        first = false;
        json_diag(rp, d, i < rep->ndiags ? rep->repair : NULL);
    }
    OB_LIT(b, "]}\n");
}

void report_jsonl_file_diag(Report *rp, const char *file, const Diag *d)
{
    OutBuf *b = &rp->b;
    ob_puts(b, "{\"type\":\"diagnostic\"");
    ob_key(b, "file");
    ob_json(b, file);
    ob_putc(b, ',');
    json_diag_where(rp, d);
    ob_key(b, "message");
    ob_json(b, report_message_of(rp, d));
    ob_puts(b, "}\n");
}

void report_jsonl_summary(Report *rp, const ReportSummary *s)
{
    char sec[32];
    snprintf(sec, sizeof sec, "%.3f", s->seconds);
    OutBuf *b = &rp->b;
    ob_puts(b, "{\"type\":\"summary\"");
    const char *const keys[] = {"files", "games", "ok", "warning", "error", "skipped", "plies", "bytes"};
    const uint64_t vals[] = {s->files, s->games, s->ok, s->warning, s->error, s->skipped, s->plies, s->bytes};
    for (int i = 0; i < 8; i++) {
        ob_key(b, keys[i]);
        ob_u64(b, vals[i]);
    }
    ob_key(b, "seconds");
    ob_puts(b, sec);
    /* (added after the contract's fields: the inputs given, the failed) */
    ob_key(b, "inputs");
    ob_u64(b, s->inputs);
    ob_key(b, "failed");
    ob_u64(b, s->failed);
    ob_puts(b, "}\n");
}

void report_jsonl_message(Report *rp, const char *text)
{
    OutBuf *b = &rp->b;
    ob_puts(b, "{\"type\":\"message\"");
    ob_key(b, "message");
    ob_json(b, text);
    ob_puts(b, "}\n");
}
