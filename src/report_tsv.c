/* report_tsv.c - the TSV format: tabs and newlines in a field become spaces. */
#include "report_tsv.h"

#include "laws.h"

void report_tsv_begin(Report *rp)
{
    ob_puts(&rp->b, "file\tindex\toffset\tline\tevent\tsite\tdate\tround\twhite\tblack\t"
                    "result\toutcome\treason\tplies\tfen\tstatus\terrors\twarnings\tnotes\t"
                    "code\tmessage\trules");
    ob_puts(&rp->b, rp->dups ? "\tduplicate_of\n" : "\n");
}

static void tsv_field(OutBuf *b, const char *s, bool last)
{
    if (s)
        ob_cstr(b, s, ESC_TSV);
    ob_putc(b, last ? '\n' : '\t');
}

static void tsv_num(OutBuf *b, uint64_t v)
{
    ob_u64(b, v);
    ob_putc(b, '\t');
}

void report_tsv_game(Report *rp, const char *file, const PgnGame *g, const GameReport *rep,
                     const Diag *extra, size_t nextra)
{
    OutBuf *b = &rp->b;
    unsigned count[4] = {0, 0, 0, 0};
    const Diag *worst = NULL;
    for (size_t i = 0; i < rep->ndiags + nextra; i++) {
        const Diag *d = i < rep->ndiags ? &rep->diags[i] : &extra[i - rep->ndiags];
        if (d->severity == SEV_NONE || d->severity > SEV_ERROR)
            continue;
        count[d->severity]++;
        if (!worst || d->severity > worst->severity)
            worst = d;
    }
    ob_name(b, file);
    ob_putc(b, '\t');
    report_place_num(rp, REPORT_NUM_INDEX, g->index);
    ob_putc(b, '\t');
    tsv_num(b, g->start.offset);
    report_place_num(rp, REPORT_NUM_LINE, g->start.line);
    ob_putc(b, '\t');
    const char *tv[REPORT_SHOWN];
    report_tags6(g, tv);
    for (int i = 0; i < REPORT_SHOWN; i++)
        tsv_field(b, tv[i], false);
    tsv_field(b, report_declared(rep), false);
    tsv_field(b, rep->outcome_known ? result_text(rep->outcome) : NULL, false);
    tsv_field(b, result_reason(rep->reason), false);
    tsv_num(b, rep->plies);
    tsv_field(b, rep->fen, false);
    tsv_field(b, report_status_slug(rep->status), false);
    tsv_num(b, count[SEV_ERROR]);
    tsv_num(b, count[SEV_WARNING]);
    tsv_num(b, count[SEV_NOTE]);
    tsv_field(b, worst ? report_slug(worst) : NULL, false);
    tsv_field(b, worst ? report_message_of(rp, worst) : NULL, false);
    /* (new columns go at the end: scripts count the fields) */
    tsv_field(b, laws_name(rep->laws), !rp->dups);
    if (rp->dups) {
        /* FILE:INDEX (the index after the last colon) */
        if (rep->dup_state == 2) {
            ob_name(b, rep->dup_file);
            ob_putc(b, ':');
            ob_u64(b, rep->dup_index);
        }
        ob_putc(b, '\n');
    }
}
