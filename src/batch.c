/* batch.c - a batch's slots, its file-level findings, and what a checking thread keeps of a game (batch.h). */
#include "batch.h"

#include <stdio.h>
#include <string.h>

#include "mem.h"

void batch_tools_free(PieceTools *t)
{
    if (t->game)
        pgn_game_free(t->game);
    game_report_free(&t->rep);
    pgn_export_free(t->exp);
}

/* Slot i exists, with its game allocated. */
bool batch_slot_ready(Batch *b, size_t i)
{
    if (i >= b->cap) {
        size_t cap = b->cap ? b->cap * 2 : BATCH_GAMES;
        while (cap <= i)
            cap *= 2;
        Slot *v = mem_realloc(b->slot, cap, sizeof *v);
        if (!v)
            return false;
        memset(v + b->cap, 0, (cap - b->cap) * sizeof *v);
        for (size_t k = b->cap; k < cap; k++)
            game_report_init(&v[k].rep);
        b->slot = v;
        b->cap = cap;
    }
    return b->slot[i].game || (b->slot[i].game = pgn_game_new()) != NULL;
}

/* Keeps a copy of file-level findings; the reader's array is short-lived. */
bool batch_diags_take(DiagList *l, PgnReader *r, const Options *opt)
{
    size_t n;
    const Diag *d = pgn_file_diags(r, &n);
    for (size_t i = 0; i < n; i++) {
        Severity sev = d[i].code < D_COUNT ? opt->check.severity[d[i].code] : d[i].severity;
        if (sev == SEV_NONE)
            continue;
        if (l->n == l->cap) {
            size_t cap = l->cap ? l->cap * 2 : 4;
            Diag *v = mem_realloc(l->v, cap, sizeof *v);
            if (!v)
                return false;
            l->v = v;
            l->cap = cap;
        }
        l->v[l->n] = d[i];
        l->v[l->n].severity = sev;
        l->n++;
    }
    return true;
}

/* A reader of an input's games: it keeps their text where the checks read
 * it (--strict, --fix-results), and through a pipe where the output will
 * use it (a copy, errors' source lines), which cannot be read again. */
PgnOptions batch_read_options(const BatchConfig *cfg, bool stream)
{
    /* (GAME_TEXT: a game's text held, to be copied or checked, is
     * bounded as a copy read again from a file is) */
    PgnOptions po = {0};
    po.keep_raw = cfg->raw_check || cfg->opt->export_games || (stream && (cfg->copying || cfg->text_lines));
    po.raw_max = GAME_TEXT;
    po.notes = cfg->opt->export_games;  /* (the export writes the comments and NAGs as read) */
    return po;
}

/* Keeps in dst, for text output, the slices of src's raw text its
 * errors' source lines are cut from, once the game is checked (rep): the
 * raw text itself need not be held until the game is written. */
bool batch_keep_slices(const BatchConfig *cfg, PgnGame *dst, PgnGame *src, const GameReport *rep)
{
    if (!cfg->text_lines || !src->raw || !rep->ndiags)
        return true;
    return report_take_slices(dst, rep, src->start.offset + src->raw_len, cfg->github, report_read_raw, src);
}

/* A file-level finding as reported: the reader knows only that a read
 * failed, the input may know why (a decompressor's exit, input_wait; set
 * before the batch that meets the failure is handed on). */
Diag batch_diag_with_why(const Input *in, const Diag *d)
{
    Diag x = *d;
    if (x.code == D_READ_ERROR && in->why[0])
        snprintf(x.msg, sizeof x.msg, "read failed: %.*s", (int)(sizeof x.msg - 16), in->why);
    return x;
}

/* BatchConfig.defer: formats file-level findings, or a checked game, into the
 * batch's records (on the thread that checks the batch). */

void batch_defer_diags(const Batch *b, const DiagList *l)
{
    for (size_t i = 0; i < l->n; i++) {
        Diag d = batch_diag_with_why(b->input, &l->v[i]);
        report_file_diag(b->rec, b->input->name, &d);
    }
}

void batch_defer_game(const Batch *b, const DiagList *pre, const PgnGame *g, const GameReport *rep)
{
    batch_defer_diags(b, pre);
    report_game(b->rec, b->input->name, g, rep, NULL, 0);
}

bool batch_export_slot(const BatchConfig *cfg, PieceTools *t, Batch *b, Slot *s, const PgnGame *g, const GameReport *rep)
{
    if (!cfg->opt->export_games)
        return true;
    if (!t->exp && !(t->exp = pgn_export_new()))
        return false;
    s->exp_at = b->exp.len;
    s->exp_status = pgn_export_game(t->exp, g, rep, cfg->opt->fix_results, &b->exp, &s->exp_escapes);
    s->exp_why = pgn_export_why(t->exp);
    s->exp_len = b->exp.len - s->exp_at;
    return s->exp_status != PGN_EXPORT_NO_MEMORY;
}
