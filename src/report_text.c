/* report_text.c - the text format: FILE:LINE:COL: SEVERITY: MESSAGE [code]. */
#include "report_text.h"

#include <stdio.h>
#include <string.h>

#include "report_lines.h"
#include "tags.h"

#define C_BOLD "\033[1m"
#define C_RED "\033[1;31m"
#define C_MAGENTA "\033[1;35m"
#define C_CYAN "\033[1;36m"
#define C_GREEN "\033[1;32m"
#define C_OFF "\033[0m"

static void text_color(Report *rp, const char *c)
{
    if (rp->color)
        ob_puts(&rp->b, c);
}

static const char *sev_color(Severity s)
{
    return s == SEV_ERROR ? C_RED : s == SEV_WARNING ? C_MAGENTA : C_CYAN;
}

/* An error's source line with a caret under its column, in a window
 * around it (report_lines.h). */
static void text_excerpt(Report *rp, const PgnGame *g, const Diag *d)
{
    const unsigned char *raw;
    size_t n, rel;
    if (!report_excerpt_text(g, d, &raw, &n, &rel))
        return;
    size_t ls = rel, le = rel;
    while (ls > 0 && raw[ls - 1] != '\n' && raw[ls - 1] != '\r')
        ls--;
    while (le < n && raw[le] != '\n' && raw[le] != '\r')
        le++;
    size_t ws = ls, we = le;
    bool lcut = false, rcut = false;
    if (rel - ls > EXCERPT_BEFORE) {
        ws = rel - EXCERPT_BEFORE;
        while (ws < rel && (raw[ws] & 0xC0) == 0x80)
            ws++;
        lcut = true;
    }
    if (we - ws > EXCERPT_WIDTH) {
        we = ws + EXCERPT_WIDTH;
        if (we < rel)
            we = rel;
        rcut = true;
    }
    OutBuf *b = &rp->b;
    char num[16];
    int w = snprintf(num, sizeof num, "%5lu", (unsigned long)d->pos.line);
    ob_add(b, num, (size_t)w);
    ob_puts(b, " | ");
    if (lcut)
        ob_puts(b, "...");
    /* (other control characters become spaces, here and under them) */
    for (size_t i = ws; i < we;) {
        const unsigned char *tab = memchr(raw + i, '\t', we - i);
        size_t j = tab ? (size_t)(tab - raw) : we;
        ob_str(b, (const char *)raw + i, j - i, ESC_TEXT);
        if (tab)
            ob_putc(b, '\t');
        i = tab ? j + 1 : we;
    }
    if (rcut)
        ob_puts(b, "...");
    ob_putc(b, '\n');
    for (int i = 0; i < w; i++)
        ob_putc(b, ' ');
    ob_puts(b, " | ");
    if (lcut)
        ob_puts(b, "   ");
    for (size_t i = ws; i < rel && i < we;) {
        uint32_t cp;
        size_t k = ob_utf8_next(raw + i, we - i, &cp);
        ob_putc(b, cp == '\t' ? '\t' : ' ');
        i += k;
    }
    text_color(rp, C_GREEN);
    ob_putc(b, '^');
    text_color(rp, C_OFF);
    ob_putc(b, '\n');
}

void report_text_diag(Report *rp, const char *file, const PgnGame *g, const Diag *d)
{
    OutBuf *b = &rp->b;
    text_color(rp, C_BOLD);
    ob_name(b, file);
    if (d->pos.line) {
        ob_putc(b, ':');
        ob_u64(b, d->pos.line);
        ob_putc(b, ':');
        ob_u64(b, d->pos.col);
    }
    ob_puts(b, ": ");
    text_color(rp, C_OFF);
    text_color(rp, sev_color(d->severity));
    ob_puts(b, diag_severity_name(d->severity));
    text_color(rp, C_OFF);
    ob_puts(b, ": ");
    ob_cstr(b, report_message_of(rp, d), ESC_TEXT);
    ob_puts(b, " [");
    ob_puts(b, report_slug(d));
    ob_puts(b, "]\n");
    if (d->severity == SEV_ERROR)
        text_excerpt(rp, g, d);
}

void report_text_header(Report *rp, const char *file, const PgnGame *g)
{
    OutBuf *b = &rp->b;
    const char *white = tags_value(g, "White"), *black = tags_value(g, "Black");
    const char *event = tags_value(g, "Event");
    text_color(rp, C_BOLD);
    ob_name(b, file);
    ob_puts(b, ": game ");
    ob_u64(b, g->index);
    text_color(rp, C_OFF);
    if (white || black || event) {
        ob_puts(b, " (");
        ob_cstr(b, white ? white : "?", ESC_TEXT);
        ob_puts(b, " - ");
        ob_cstr(b, black ? black : "?", ESC_TEXT);
        if (event && event[0]) {
            ob_puts(b, ", ");
            ob_cstr(b, event, ESC_TEXT);
        }
        ob_putc(b, ')');
    }
    ob_putc(b, '\n');
}

