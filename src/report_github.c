/* report_github.c - GitHub workflow commands: properties and messages escaped as the runner reads them. */
#include "report_github.h"

#include <stdio.h>

#include "report_lines.h"

void report_github_diag(Report *rp, const char *file, const PgnGame *g, const Diag *d)
{
    OutBuf *b = &rp->b;
    ob_puts(b, d->severity == SEV_ERROR ? "::error" : d->severity == SEV_WARNING ? "::warning" : "::notice");
    ob_puts(b, " file=");
    ob_cstr(b, file, ESC_GH_PROP);
    if (d->pos.line) {
        ob_puts(b, ",line=");
        ob_u64(b, d->pos.line);
        ob_puts(b, ",col=");
        ob_u64(b, report_char_column(g, d));
    }
    ob_puts(b, ",title=");
    ob_cstr(b, report_slug(d), ESC_GH_PROP);
    ob_puts(b, "::");
    ob_cstr(b, report_message_of(rp, d), ESC_GH_DATA);
    if (g) {
        /* Which game, so the annotation reads well out of context too. */
        ob_puts(b, " (game ");
        ob_u64(b, g->index);
        ob_putc(b, ')');
    }
    ob_putc(b, '\n');
}

/* GitHub shows the first few annotations of a kind in a step: a notice
 * per code some of whose findings were not annotated gives its count. */
void report_github_summary(Report *rp)
{
    size_t n;
    const RollLine *line = rollup_run_lines(rp->roll, &n);
    for (size_t i = 0; i < n; i++) {
        const RollLine *l = &line[i];
        char m[PGN_MSG * 2], all[32], games[32], hidden[32];
        rollup_thousands(all, sizeof all, l->all_findings);
        rollup_thousands(games, sizeof games, l->all_games);
        rollup_thousands(hidden, sizeof hidden, l->findings);
        snprintf(m, sizeof m, "%s %s%s in %s game%s of %llu file%s; %s not annotated above (--max-repeats=0 annotates all)",
                 all, diag_severity_name(l->severity), l->all_findings == 1 ? "" : "s", games, l->all_games == 1 ? "" : "s",
                 (unsigned long long)l->files, l->files == 1 ? "" : "s", hidden);
        ob_puts(&rp->b, "::notice title=");
        ob_cstr(&rp->b, diag_info[l->code].slug, ESC_GH_PROP);
        ob_puts(&rp->b, "::");
        ob_cstr(&rp->b, m, ESC_GH_DATA);
        ob_putc(&rp->b, '\n');
    }
}
