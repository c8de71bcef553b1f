/* rollup.c - --max-repeats: the first findings of a code in an input are
 * shown, the rest counted per input and per run (see rollup.h).  Counting
 * happens on the thread that writes the output, in input order, so the
 * lines are the same at any -j. */
#include "rollup.h"

#include <stdio.h>
#include <string.h>

#include "mem.h"

#define NSEV (SEV_ERROR + 1)

typedef struct Count {
    uint64_t shown;             /* games (or findings) shown, this input */
    uint64_t games, findings;   /* not shown, this input */
    uint64_t last_game;         /* the serial of the last game with the code */
    uint64_t hidden_game;       /* of the last game with one not shown */
    bool game_shown;            /* whether that game's findings are shown */
    bool same;                  /* every finding not shown had message msg */
    bool seen;                  /* the input has one */
    char msg[PGN_MSG];
    /* the run's */
    uint64_t run_games, run_findings, run_hidden_games, run_hidden, run_files;
} Count;

struct RollUp {
    uint64_t max;
    bool per_finding;
    uint64_t game;              /* serial of the current game */
    Count c[D_COUNT][NSEV];
    RollLine out[D_COUNT * SEV_ERROR];
};

RollUp *rollup_new(uint64_t max, bool per_finding)
{
    RollUp *r = mem_calloc(1, sizeof *r);
    if (r) {
        r->max = max;
        r->per_finding = per_finding;
    }
    return r;
}

void rollup_free(RollUp *r) { mem_free(r); }

void rollup_game(RollUp *r) { r->game++; }

bool rollup_show(RollUp *r, const Diag *d, const char *m)
{
    if (d->code >= D_COUNT || d->severity <= SEV_NONE || d->severity > SEV_ERROR)
        return true;
    Count *c = &r->c[d->code][d->severity];
    bool first = c->last_game != r->game;
    if (first) {
        c->last_game = r->game;
        c->run_games++;
    }
    c->run_findings++;
    c->seen = true;
    bool show;
    if (!r->max)
        show = true;
    else if (r->per_finding)
        show = c->shown < r->max;
    else if (first)
        show = c->game_shown = c->shown < r->max;
    else
        show = c->game_shown;
    if (show) {
        if (r->per_finding || first)
            c->shown++;
        return true;
    }
    if (!c->games && !c->findings) {
        snprintf(c->msg, sizeof c->msg, "%s", m);
        c->same = true;
    } else if (c->same && strcmp(c->msg, m) != 0) {
        c->same = false;
    }
    if (c->hidden_game != r->game) {
        c->hidden_game = r->game;
        c->games++;
        c->run_hidden_games++;
    }
    c->findings++;
    c->run_hidden++;
    return false;
}

void rollup_thousands(char *out, size_t size, uint64_t n)
{
    char digits[24];
    int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n);
    size_t o = 0;
    for (int i = 0; i < len && o + 1 < size; i++) {
        if (i && (len - i) % 3 == 0 && o + 2 < size)
            out[o++] = ',';
        out[o++] = digits[i];
    }
    out[o] = '\0';
}

/* The line's words after "... and N more games of this file". */
static void phrase(const Count *c, DiagCode code, char *out, size_t size, const char *count, const char *unit)
{
    static const char lacks[] = "the Seven Tag Roster lacks ";
    if (code == D_MISSING_TAG && c->same && strncmp(c->msg, lacks, sizeof lacks - 1) == 0)
        snprintf(out, size, "... and %s more %s of this file lack %s", count, unit, c->msg + sizeof lacks - 1);
    else if (code == D_MISSING_TAG)
        snprintf(out, size, "... and %s more %s of this file lack tags of the Seven Tag Roster", count, unit);
    else if (c->same)
        snprintf(out, size, "... and %s more %s of this file: %s", count, unit, c->msg);
    else
        snprintf(out, size, "... and %s more %s of this file: %s", count, unit, diag_info[code].meaning);
}

const RollLine *rollup_file_end(RollUp *r, size_t *nlines)
{
    RollLine *out = r->out;
    size_t n = 0;
    for (int k = 0; k < D_COUNT; k++)
        for (int s = SEV_NOTE; s < NSEV; s++) {
            Count *c = &r->c[k][s];
            if (c->findings) {
                char count[32];
                bool games = !r->per_finding || c->games == c->findings;
                rollup_thousands(count, sizeof count, games ? c->games : c->findings);
                out[n] = (RollLine){(DiagCode)k, (Severity)s, c->games, c->findings, 0, 0, 0, ""};
                phrase(c, (DiagCode)k, out[n].msg, PGN_MSG, count,
                       games ? (c->games == 1 ? "game" : "games") : (c->findings == 1 ? "finding" : "findings"));
                n++;
            }
            c->run_files += c->seen;
            c->seen = false;
            c->shown = c->games = c->findings = 0;
            c->last_game = c->hidden_game = 0;
            c->same = false;
        }
    *nlines = n;
    return out;
}

const RollLine *rollup_run_lines(RollUp *r, size_t *nlines)
{
    RollLine *out = r->out;
    size_t n = 0;
    for (int k = 0; k < D_COUNT; k++)
        for (int s = SEV_NOTE; s < NSEV; s++) {
            const Count *c = &r->c[k][s];
            if (c->run_hidden)
                out[n++] = (RollLine){(DiagCode)k, (Severity)s, c->run_hidden_games, c->run_hidden,
                                      c->run_games, c->run_findings, c->run_files, ""};
        }
    *nlines = n;
    return out;
}
