/* run.c - a run over the inputs (run.h): batches read on the main thread
 * or cut as pieces (pieces.c), checked on N-1 workers and on the main thread
 * whenever it is ahead, written out in input order. */
#include "run.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"
#include "mem.h"
#include "players.h"
#include "pgn_write.h"
#include "repair.h"
#include "repair_write.h"

#define COPY_KEEP (1u << 20)    /* of the buffer a copy is read into, bytes kept */
#define DUP_RESULT_PLIES 20             /* duplicate-result-differs from a line this long */

/* ---- batches ---- */

/* ---- checking, on the thread pool ---- */

/* Checks a batch's games, on any thread (a piece's are read here too). */
static void check_batch(const Run *run, Batch *b, PieceTools *work)
{
    switch (b->kind) {
    case BATCH_PIECE:
    case BATCH_SEGMENT:
        pieces_check(&run->cfg, b, work);
        return;
    case BATCH_READ:
        break;
    }
    b->exp.len = 0;
    for (size_t i = 0; i < b->ngames; i++) {
        Slot *s = &b->slot[i];
        game_check(s->game, &run->opt->check, &s->rep);
        if (run->cfg.ids)
            s->ident = baseline_game_id(s->game);
        if (s->rep.out_of_memory || !batch_export_slot(&run->cfg, work, b, s, s->game, &s->rep))
            b->oom = true; /* never a silent verdict on a game not wholly checked */
        if (run->cfg.defer)
            batch_defer_game(b, &s->pre, s->game, &s->rep);
        /* The text is held to be written only where it is copied from a
         * pipe; a file's is read again, the lines under errors are kept. */
        bool exported = run->opt->export_games && s->exp_status == PGN_EXPORT_DONE;
        if (s->game->raw && !(run->cfg.copying && !b->input->regular && !exported)) {
            if (!batch_keep_slices(&run->cfg, s->game, s->game, &s->rep))
                b->oom = true;
            pgn_game_forget_raw(s->game, SLOT_KEEP_RAW);
        }
    }
    if (run->cfg.defer)
        batch_defer_diags(b, &b->tail);
}

/* Takes the oldest queued batch and checks it; called and returning with
 * run->mu held (released while checking).  Workers and the reading thread
 * (batch_is_done) both use it; work is the calling thread's report. */
static void check_queued(Run *run, PieceTools *work)
{
    Batch *b = run->work[run->whead];
    run->whead = (run->whead + 1) % run->nbatches;
    run->wcount--;
    pthread_mutex_unlock(&run->mu);
    check_batch(run, b, work);
    pthread_mutex_lock(&run->mu);
    b->done = true;
    pthread_cond_signal(&run->done_cv);
}

static void *worker(void *arg)
{
    Run *run = arg;
    PieceTools work = {0};
    progress_block_signals();
    pthread_mutex_lock(&run->mu);
    for (;;) {
        while (!run->wcount && !run->quit)
            pthread_cond_wait(&run->work_cv, &run->mu);
        if (!run->wcount)
            break;
        check_queued(run, &work);
    }
    pthread_mutex_unlock(&run->mu);
    batch_tools_free(&work);
    game_thread_free();
    return NULL;
}

static void run_submit(Run *run, Batch *b)
{
    if (!run->nthreads) {
        check_batch(run, b, &run->own);
        b->done = true;
        return;
    }
    pthread_mutex_lock(&run->mu);
    b->done = false;
    run->work[(run->whead + run->wcount) % run->nbatches] = b;
    run->wcount++;
    pthread_cond_signal(&run->work_cv);
    pthread_mutex_unlock(&run->mu);
}

static bool batch_is_done(Run *run, Batch *b, bool wait)
{
    if (!run->nthreads)
        return true;
    pthread_mutex_lock(&run->mu);
    while (wait && !b->done) {
        /* Rather than sit idle, the reading thread checks the oldest
         * batch still queued itself. */
        if (run->wcount)
            check_queued(run, &run->own);
        else
            pthread_cond_wait(&run->done_cv, &run->mu);
    }
    bool done = b->done;
    pthread_mutex_unlock(&run->mu);
    return done;
}

/* The progress line (progress.h) where the input stands. */
static void run_show_progress(Run *run, const Input *in, bool force)
{
    if (!progress_due(&run->progress, force))
        return;
    uint64_t here = input_pos(in);
    ProgressAt at = {
        .name = in->shown, .here = here, .psize = in->psize, .bytes = run->bytes_done + here,
        .total = run->bytes_total, .total_known = run->total_known,
        .reading = run->reading, .ninputs = run->inputs.n, .games = run->games_read,
    };
    progress_draw(&run->progress, &at);
}

/* ---- output, in input order, on the main thread ---- */

/* (--werror has made warnings errors already: parse_args) */
static bool game_is_bad(GameStatus st)
{
    return st == STATUS_ERROR;
}

static void run_output_file_diags(Run *run, const Input *in, const DiagList *l)
{
    for (size_t i = 0; i < l->n; i++) {
        Severity sev = l->v[i].severity;
        if (run_ci_file_diag(&run->ci, in, &l->v[i]))
            continue;           /* in the baseline */
        if (sev == SEV_ERROR)
            run->found = true;
        if (run->stats)
            report_stats_diag(run->stats, &l->v[i]);
        if (run->opt->export_games && l->v[i].code == D_NON_GAME_TEXT)
            run->dropped_text++;
        /* (TSV's go to standard error as text, never to the records) */
        if (!run->opt->quiet && !run->stop && (!run->cfg.defer || run->opt->format == FMT_TSV)) {
            Diag d = batch_diag_with_why(in, &l->v[i]);
            report_file_diag(run->opt->format == FMT_TSV ? run->side : run->rp, in->name, &d);
        }
    }
}

/* --export leaves out the '%' and ';' lines between games: counted. */
static void run_output_gap_lines(Run *run, const Batch *b)
{
    if (run->opt->export_games)
        run->dropped_gap_lines += b->gap_lines;
}

/* A game of a regular file to be copied: its text read again into
 * run->copy (g->raw points there until reset_copy); the errno of a failed
 * read, 0 otherwise (a game over GAME_TEXT is left without text). */
static int read_copy(Run *run, Input *in, PgnGame *g)
{
    uint64_t len = g->end_offset - g->start.offset;
    if (len > GAME_TEXT)
        return 0;
    if (len + 1 > run->copy_cap) {
        char *p = mem_realloc(run->copy, (size_t)len + 1, 1);
        if (!p)
            return ENOMEM;
        run->copy = p;
        run->copy_cap = (size_t)len + 1;
    }
    long k = input_pread(in, run->copy, (size_t)len, g->start.offset);
    if (k < 0 || (uint64_t)k != len)
        return k < 0 ? errno : EIO;
    g->raw = run->copy;
    g->raw_len = (size_t)len;
    g->raw_complete = true;
    return 0;
}

static void reset_copy(Run *run, PgnGame *g)
{
    if (g->raw != run->copy || !g->raw)
        return;
    g->raw = NULL;
    g->raw_len = 0;
    if (run->copy_cap > COPY_KEEP) {
        mem_free(run->copy);
        run->copy = NULL;
        run->copy_cap = 0;
    }
}

/* Do two known names differ beyond case, spacing, punctuation, initials
 * and word order (players.h)? */
static bool spelt_otherwise(const char *a, const char *b)
{
    PlayersVerdict v = players_compare(a ? a : "", a ? strlen(a) : 0, b ? b : "", b ? strlen(b) : 0);
    return v == PLAYERS_VARIANT || v == PLAYERS_OTHER;
}

/* "White "A" there, "B" here; Date ..." in out: the players' names the
 * two games spell otherwise, and their dates where both are complete and
 * differ. */
static void dup_differences(const DupFirst *f, const DupWho *who, char *out, size_t size)
{
    const char *name[3] = {"White", "Black", "Date"};
    const char *there[3] = {f->white, f->black, f->date}, *here[3] = {who->white, who->black, who->date};
    out[0] = '\0';
    for (int k = 0; k < 3; k++) {
        bool say = k < 2 ? spelt_otherwise(there[k], here[k]) : !f->dates;
        size_t at = strlen(out);
        if (say && at + 1 < size)
            snprintf(out + at, size - at, "%s%s \"%.255s\" there, \"%.255s\" here", at ? "; " : "", name[k], there[k],
                     here[k] ? here[k] : "");
    }
}

/* Formats --duplicates' message into run->dup_text, the whole of it (a
 * file name is never cut short); false when out of memory. */
static bool dup_message(Run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool dup_message(Run *run, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return false;
    if ((size_t)n + 1 > run->dup_text_cap) {
        char *p = mem_realloc(run->dup_text, (size_t)n + 1, 1);
        if (!p)
            return false;
        run->dup_text = p;
        run->dup_text_cap = (size_t)n + 1;
    }
    va_start(ap, fmt);
    vsnprintf(run->dup_text, run->dup_text_cap, fmt, ap);
    va_end(ap);
    return true;
}

/* The message of --duplicates' finding (code) in run->dup_text, naming
 * the earlier game f and what the tags of the two say otherwise; false
 * when out of memory. */
static bool dup_say(Run *run, const GameReport *rep, DiagCode code, const DupFirst *f, const DupWho *who,
                    bool differ)
{
    char tags[1700];          /* (three pairs of at most 255 bytes each) */
    dup_differences(f, who, tags, sizeof tags);
    const char *plies = rep->plies == 1 ? "ply" : "plies";
    if (code == D_SAME_MOVES)
        return dup_message(run, "the same %u %s as game %llu of %s (line %u), by other players or on another date "
                           "(%s): a line under %u plies is another game",
                           (unsigned)rep->plies, plies, (unsigned long long)f->index, f->file, (unsigned)f->line,
                           tags, (unsigned)DUP_LONG_PLIES);
    /* (the same game under names spelled otherwise: both, for the maintainer) */
    return dup_message(run, "%s game %llu of %s (line %u): the same %u %s%s%s%s%s%s%s%s",
                       code == D_DUPLICATE_GAME ? "a duplicate of" : "another result than",
                       (unsigned long long)f->index, f->file, (unsigned)f->line, (unsigned)rep->plies, plies,
                       differ ? ", result " : "", differ ? result_text((PgnResult)f->result) : "",
                       differ ? " there, " : "", differ ? result_text(rep->declared) : "", differ ? " here" : "",
                       tags[0] ? "; " : "", tags);
}

/* --duplicates, in input order (so -jN answers as -j1 does): is this game
 * one an earlier game of the run is (*dup: --select=unique drops it), or
 * has an earlier game by other players its short main line?  Either
 * finding is made in *d and counted in the game's report (its status
 * follows), and the answer is true.  A table at its limit stops the run. */
static bool dup_look(Run *run, const Input *in, Slot *s, Diag *d, bool *dup)
{
    GameReport *rep = &s->rep;
    const PgnGame *g = s->game;
    *dup = false;
    rep->dup_state = 1;
    rep->dup_text = NULL;
    if (!rep->line_len || run->stop)
        return false;
    DupFirst f;
    DupWho who = {report_tag(g, "White"), report_tag(g, "Black"), report_tag(g, "Date"), rep->plies};
    DupVerdict v = dup_add(run->dup, in->name, g->index, g->start.line, (int)rep->declared, &who, rep->line,
                           rep->line_len, &f);
    if (v == DUP_NOMEM) {
        run_out_of_memory(run);
        return false;
    }
    if (v == DUP_FULL) {
        progress_clear(&run->progress);
        fprintf(stderr,
                PROG ": --duplicates: the table of main lines reached its limit of %llu bytes (%llu distinct "
                "games) at game %llu of %s; raise --duplicates-memory\n",
                (unsigned long long)run->opt->dup_memory, (unsigned long long)dup_lines(run->dup),
                (unsigned long long)g->index, in->shown);
        run->trouble = true;
        run->stop = true;
        return false;
    }
    if (v == DUP_NEW)
        return false;
    /* Results differ only where both copies declare one (a missing or
     * unreadable one is the game's own finding), and are a warning only
     * on a line long enough to be one game: the short lines are played
     * again by others (a forfeit after one move, an aborted online game;
     * in the benchmark input every pair with the same moves and other
     * results has 1 to 3 plies and other players). */
    bool differ = f.result != (int)rep->declared && f.result != PGN_RES_NONE && rep->declared != PGN_RES_NONE;
    DiagCode code = v == DUP_SAME_MOVES                        ? D_SAME_MOVES
                    : differ && rep->plies >= DUP_RESULT_PLIES ? D_DUPLICATE_RESULT
                                                               : D_DUPLICATE_GAME;
    if (v == DUP_SEEN) {
        *dup = true;
        rep->dup_state = 2;
        rep->dup_file = f.file;
        rep->dup_index = f.index;
        rep->dup_line = f.line;
    }
    Severity sev = run->opt->check.severity[code];
    memset(d, 0, sizeof *d);
    d->code = code;
    d->severity = sev;
    d->pos = g->start;
    /* (-q writes no message: none is made) */
    if (!run->opt->quiet && !dup_say(run, rep, code, &f, &who, differ)) {
        run_out_of_memory(run);
        return false;
    }
    if (!run->opt->quiet) {
        rep->dup_text = run->dup_text;
        snprintf(d->msg, sizeof d->msg, "%s", run->dup_text);
    }
    if (sev != SEV_NONE) {
        rep->counts[sev]++;
        if (sev == SEV_ERROR)
            rep->status = STATUS_ERROR;
        else if (sev == SEV_WARNING && rep->status == STATUS_OK)
            rep->status = STATUS_WARNING;
    }
    return true;
}

/* A finding about a whole input, made on the output side when it ends:
 * one that could not be opened or read (line 0: no position), or one with
 * no game (line 1, column 1; a directory with no PGN file: none).  In every format, as the reader's file-level
 * findings are; written at once, also where the records are deferred (the
 * input's own are written by then). */
static void output_input_diag(Run *run, const Input *in, DiagCode code, uint32_t line, const char *msg)
{
    Diag d;
    memset(&d, 0, sizeof d);
    d.code = code;
    d.severity = run->opt->check.severity[code];
    d.pos.line = line;
    d.pos.col = line ? 1 : 0;
    snprintf(d.msg, sizeof d.msg, "%s", msg);
    if (d.severity == SEV_NONE || run_ci_file_diag(&run->ci, in, &d))
        return;
    if (d.severity == SEV_ERROR)
        run->found = true;
    if (run->stats)
        report_stats_diag(run->stats, &d);
    if (run->opt->quiet || run->stop)
        return;
    progress_clear(&run->progress);
    report_file_diag(run->opt->format == FMT_TSV ? run->side : run->rp, in->name, &d);
}

/* Writes a game that is copied: in export format with --export where the
 * game allows it (pgn_export.c), else as read (with --fix-results'
 * changes).  pgn_write_game's return. */
static int write_game(Run *run, const Batch *b, Slot *s, bool fix, Diag change[REPAIR_WRITE_NOTES],
                      size_t *nchange)
{
    *nchange = 0;
    if (run->opt->repair) {
        int w = repair_write(run->games_out, s->game, &s->rep, &run->opt->check, fix, run->opt->export_games,
                             change, nchange);
        if (w)
            return w;
    }
    if (run->opt->export_games && s->exp_status == PGN_EXPORT_DONE) {
        run->dropped_escapes += s->exp_escapes;
        fwrite(b->exp.p + s->exp_at, 1, s->exp_len, run->games_out);
        if (fix)
            *nchange = pgn_export_notes(s->game, &s->rep, change);
        return 1;
    }
    return pgn_write_game(run->games_out, s->game, fix ? &s->rep : NULL, change, nchange);
}

/* --export's finding on a game without error (or variant) it leaves as
 * read, the export's own reason (pgn_export_why); none where the code is
 * ignored.  Like --duplicates' finding, it counts in the game's status. */
static bool export_as_read_note(Run *run, Slot *s, Diag *d)
{
    GameReport *rep = &s->rep;
    Severity sev = run->opt->check.severity[D_EXPORT_AS_READ];
    if (s->exp_status != PGN_EXPORT_AS_READ || !s->exp_why || rep->status == STATUS_ERROR ||
        rep->status == STATUS_SKIPPED || sev == SEV_NONE)
        return false;
    memset(d, 0, sizeof *d);
    d->code = D_EXPORT_AS_READ;
    d->severity = sev;
    d->pos = s->game->start;
    snprintf(d->msg, sizeof d->msg, "--export leaves this game as read, not in export format: %s", s->exp_why);
    rep->counts[sev]++;
    if (sev == SEV_ERROR)
        rep->status = STATUS_ERROR;
    else if (sev == SEV_WARNING && rep->status == STATUS_OK)
        rep->status = STATUS_WARNING;
    run->exported_as_read++;
    return true;
}

/* A game copied right after one that ends without a termination marker
 * (or in a comment not closed), and that does not begin with a tag pair:
 * the copy re-reads as part of that game, and no byte can keep them apart
 * (pgn_write_apart).  Said as a note on the game. */
static void copy_joins_note(Diag *d, const PgnGame *g)
{
    memset(d, 0, sizeof *d);
    d->code = D_MISSING_TERMINATION;
    d->severity = SEV_NOTE;
    d->pos = g->start;
    snprintf(d->msg, sizeof d->msg, "copied after a game without a termination marker, this game does not begin "
                                    "with a tag pair: read again, it runs on from that game (their boundary is lost)");
}

static void output_game(Run *run, Input *in, const Batch *b, Slot *s)
{
    const Options *opt = run->opt;
    const GameReport *rep = &s->rep;
    ReportSummary *sum = &run->sum;
    Diag extra[REPAIR_WRITE_NOTES + 3]; /* --repair's and --fix-results' changes, --duplicates' finding,
                                         * --export's note, a copy that joins the one before */
    Diag dupd, asr;
    bool dup = false;
    bool dup_found = run->dup && dup_look(run, in, s, &dupd, &dup);
    bool as_read = opt->export_games && export_as_read_note(run, s, &asr);
    Diag pend[2];               /* (the two above, in the order they are reported) */
    size_t npend = 0;
    if (dup_found)
        pend[npend++] = dupd;
    if (as_read)
        pend[npend++] = asr;
    run_ci_game_filter(&run->ci, s, pend, &npend);
    sum->games++;
    in->ngames++;
    sum->plies += rep->plies;
    switch (rep->status) {
    case STATUS_OK: sum->ok++; break;
    case STATUS_WARNING: sum->warning++; break;
    case STATUS_ERROR: sum->error++; break;
    case STATUS_SKIPPED: sum->skipped++; break;
    }
    bool bad = game_is_bad(rep->status);
    size_t nextra = 0;
    int copied = 0;
    /* A regular file's game is read again where it is copied or an
     * error's source line is shown. */
    PgnGame *g = s->game;
    bool copy = !run->stop && (opt->select == SELECT_UNIQUE ? !dup
                               : opt->select  ? (opt->select == SELECT_VALID) != bad
                                              : opt->fix_results || opt->export_games || opt->repair);
    int again = 0;
    /* (an export made where the game was checked needs no text) */
    bool exported = opt->export_games && s->exp_status == PGN_EXPORT_DONE;
    if (in->regular && !g->raw && copy && (!exported || (opt->repair && repair_unique(rep->repair)))) {
        again = read_copy(run, in, g);
    } else if (in->regular && !g->raw && !g->nslices && run->cfg.text_lines && rep->ndiags && !run->stop) {
        if (!report_take_slices(g, rep, g->end_offset, run->cfg.github, input_pread, in))
            again = ENOMEM;
    }
    if (again == ENOMEM) {
        run_out_of_memory(run);
    } else if (again) {
        run_ci_say(&run->ci, "%s: game %llu could not be read again to be copied: %s", in->shown,
                (unsigned long long)g->index, strerror(again));
        run->trouble = true;
        run->ci.not_copied++;
    }
    if (run->stop || !run->games_out) {
        /* Standard output failed (or the duplicates' table is full): nothing more is written. */
    } else if (copy) {
        bool fix = !opt->select && opt->fix_results;
        bool joins = !exported && !pgn_write_apart(run->copy_end, g);
        copied = write_game(run, b, s, fix, extra, &nextra);
        if (copied >= 0) {
            run->copy_end = exported ? PGN_COPY_CLOSED : pgn_write_end(g, rep, fix ? rep : NULL);
            if (joins)
                copy_joins_note(&extra[nextra++], g);
        }
    }
    for (size_t i = 0; i < npend; i++)
        extra[nextra++] = pend[i];
    if (copied < 0 && !again) {
        run_ci_say(&run->ci, "%s: game %llu is larger than %u MiB and was not copied", in->shown,
                (unsigned long long)s->game->index, (unsigned)(GAME_TEXT >> 20));
        run->trouble = true;
        run->ci.not_copied++;
    }
    /* A rewriting mode's status is that of what it wrote: a game whose
     * every error the rewrite mended (--fix-results) has none left. */
    bool rewriting = (opt->fix_results || opt->export_games) && !opt->select;
    if (bad && !(rewriting && copied > 0 && run_ci_mended(rep, extra, nextra)))
        run->found = true;
    run_ci_game_done(&run->ci, in, rep, extra, nextra);
    if (run->stats)
        report_stats_game(run->stats, rep, extra, nextra);
    if (!opt->quiet && !run->stop && !run->cfg.defer)
        report_game(run->rp, in->name, s->game, rep, extra, nextra);
    reset_copy(run, g);
}

/* Anything this batch writes to the terminal the progress line is on? */
static bool run_batch_prints(const Run *run, const Batch *b)
{
    if (run->opt->quiet)
        return b->file_end && b->input->err;
    if (!run->rp_on_tty && !(b->file_end && b->input->err))
        return false;
    if (b->tail.n || (b->file_end && b->input->err))
        return true;
    if (run->opt->format == FMT_JSONL || run->opt->format == FMT_TSV)
        return b->ngames > 0;
    for (size_t i = 0; i < b->ngames; i++)
        if (b->slot[i].pre.n || b->slot[i].rep.ndiags)
            return true;
    return false;
}

/* Flushes stdout after a batch: a failed write stops the run. */
static void check_stdout(Run *run)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return;
    int e = errno;
    run->stop = true;
    /* The output could not be written: exit status 2 (what was not read
     * was not checked), quietly where the reader went away (a closed pipe
     * with SIGPIPE ignored, as under many CI runners; by default the
     * signal ends pgncheck). */
    run->trouble = true;
    if (e == EPIPE)
        return;
    progress_clear(&run->progress);
    fprintf(stderr, PROG ": write error: %s\n", strerror(e ? e : EIO));
    run->trouble = true;
}

/* One game with the file-level findings before it; then a long game's
 * slot gives back what it took, so memory stays flat, and of the game's
 * text room keeps at most keep_raw bytes: every slot of every batch (and a
 * piece has up to PIECE_GAMES of them) keeping up to PGN_KEEP_BYTES made
 * 24 MB at -j2 through a pipe and 93 MB in pieces. */
static void run_output_slot(Run *run, Input *in, const Batch *b, Slot *s, size_t keep_raw)
{
    run_output_file_diags(run, in, &s->pre);
    output_game(run, in, b, s);
    pgn_game_trim(s->game);
    pgn_game_drop_raw(s->game, keep_raw);
    game_report_trim(&s->rep);     /* a piece's copy holds no scratch: nothing */
}

/* A checked batch written out: its games (each slot's text room kept to
 * keep_raw bytes), its file-level findings and gap lines, the records
 * formatted ahead (Run.defer) numbered from index_base with their lines
 * moved by dl (a piece's: pieces.c). */
static void emit_batch(Run *run, Batch *b, size_t keep_raw, uint64_t index_base, uint64_t dl)
{
    Input *in = b->input;
    if (b->oom)
        run_out_of_memory(run);
    if (run_batch_prints(run, b))
        progress_clear(&run->progress);
    for (size_t i = 0; i < b->ngames; i++)
        run_output_slot(run, in, b, &b->slot[i], keep_raw);
    run_output_file_diags(run, in, &b->tail);
    run_output_gap_lines(run, b);
    if (run->cfg.defer && !run->stop && !report_deferred_write(b->rec, run->rp, index_base, dl))
        run_out_of_memory(run);
}

static void output_batch(Run *run, Batch *b)
{
    Input *in = b->input;
    if (run->opt->in_place)
        run_ci_input_begins(&run->ci, in);
    switch (b->kind) {
    case BATCH_PIECE:
    case BATCH_SEGMENT:
        pieces_output(&run->host, b);
        break;
    case BATCH_READ:
        /* the reader writes the next game's text into the same room */
        emit_batch(run, b, SLOT_KEEP_RAW, 0, 0);
        run->held -= b->held;
        b->held = 0;
        break;
    }
    if (b->file_end) {
        if (!run->opt->quiet && !run->stop && !run->cfg.defer)
            report_file_end(run->rp, in->name);     /* --max-repeats' roll-ups */
        run->sum.inputs++;
        /* A file cut or written while it was read: said, exit 2 (-j1 and
         * -jN read it in another order, so they would differ). */
        if (!in->err && input_changed(in, in->why, sizeof in->why)) {
            in->err = EIO;
            output_input_diag(run, in, D_READ_ERROR, 0, in->why);
        }
        if (in->err == ENOMEM) {
            run_out_of_memory(run);     /* (its bytes' buffer could not grow) */
            run->sum.failed++;
        } else if (in->err) {
            /* The reader's own read-error, where it was reading, is out
             * already; an input never read is one in every format too. */
            if (in->mode == INPUT_UNREAD)
                output_input_diag(run, in, in->open_failed ? D_OPEN_ERROR : D_READ_ERROR, 0,
                                  in->why[0] ? in->why : strerror(in->err));
            /* (in JSON Lines the record says it; once on a terminal: the
             * finding above is there already) */
            DiagCode said = in->mode != INPUT_UNREAD ? D_READ_ERROR : in->open_failed ? D_OPEN_ERROR : D_READ_ERROR;
            if (!run->ci.msg_records && (!run->rp_is_stderr || run->opt->check.severity[said] == SEV_NONE)) {
                progress_clear(&run->progress);
                fprintf(stderr, PROG ": %s: %s\n", in->shown, in->why[0] ? in->why : strerror(in->err));
            }
            run->trouble = true;
            run->sum.failed++;
        } else if (in->ngames == 0) {
            char msg[PGN_MSG];
            if (in->no_pgn)
                snprintf(msg, sizeof msg, "no PGN file (*.pgn, *.pgn.gz, .xz, .bz2, .zst) in this directory or below");
            else if (in->bytes == 0)
                snprintf(msg, sizeof msg, "the input is empty: no game to check");
            else
                snprintf(msg, sizeof msg,
                         "no game in the input's %llu bytes (only blank lines, comments, escape lines or text "
                         "that is not a game)",
                         (unsigned long long)in->bytes);
            output_input_diag(run, in, D_NO_GAMES, in->no_pgn ? 0 : 1, msg);   /* (a directory has no lines) */
        }
        if (run->stats && !report_stats_file_end(run->stats, in->name))
            run_out_of_memory(run);
        run_ci_input_ends(&run->ci, in);
        if (in->mode != INPUT_UNREAD)
            run->sum.files++;
        run->sum.bytes += in->bytes;
        if (in->mode == INPUT_PIECES || in->mode == INPUT_SEGMENTS)
            run->bytes_done += input_done_bytes(in);
        if (in->reader)
            pgn_reader_free(in->reader);
        input_close(in);
    }
    b->input = NULL;
    if (b->exp.cap > BATCH_HELD)
        pgn_export_text_free(&b->exp);  /* (long games' exports: not kept for the next batch) */
    if (!run->stop)
        check_stdout(run);
}

/* The next free batch; when all are in flight, the oldest is waited for,
 * written out and reused: memory stays bounded by the pool. */
static Batch *run_batch_acquire(Run *run)
{
    if (run->count == run->nbatches) {
        Batch *old = &run->batches[run->head];
        batch_is_done(run, old, true);
        output_batch(run, old);
        run->head = (run->head + 1) % run->nbatches;
        run->count--;
    }
    Batch *b = &run->batches[(run->head + run->count) % run->nbatches];
    run->count++;
    b->ngames = 0;
    b->file_end = false;
    b->done = false;
    b->kind = BATCH_READ;
    b->held = 0;
    b->oom = false;
    b->tail.n = 0;
    for (size_t i = 0; i < b->cap; i++)
        b->slot[i].pre.n = 0;
    return b;
}

/* Waits for the oldest batch in flight and writes it out. */
static void output_oldest(Run *run)
{
    batch_is_done(run, &run->batches[run->head], true);
    output_batch(run, &run->batches[run->head]);
    run->head = (run->head + 1) % run->nbatches;
    run->count--;
}

/* Writes out every finished batch at the head of the ring; with wait, all. */
static void run_output_ready(Run *run, bool wait)
{
    while (run->count && batch_is_done(run, &run->batches[run->head], wait)) {
        output_batch(run, &run->batches[run->head]);
        run->head = (run->head + 1) % run->nbatches;
        run->count--;
    }
}

/* ---- setting up, finishing ---- */

/* The batches and the threads. */
static bool pool_init(Run *run)
{
    /* -jN: N-1 workers; the reading thread checks queued batches while it
     * waits (batch_is_done), so N threads keep N cores busy without the
     * reader competing with N workers for them. */
    run->nthreads = run->opt->jobs > 1 ? run->opt->jobs - 1 : 0;
    /* One batch per worker, one being filled, two of slack for batches that
     * finish out of order.  Games are allocated on first use, so a small
     * input costs little whatever -j says. */
    run->nbatches = run->nthreads ? (size_t)run->nthreads + 3 : 1;
    run->batches = mem_calloc(run->nbatches, sizeof *run->batches);
    run->work = mem_calloc(run->nbatches, sizeof *run->work);
    if (!run->batches || !run->work)
        return false;
    for (size_t k = 0; k < run->nbatches; k++) {
        Batch *b = &run->batches[k];
        b->slot = mem_calloc(BATCH_GAMES, sizeof *b->slot);
        if (!b->slot)
            return false;
        b->cap = BATCH_GAMES;
        for (size_t i = 0; i < BATCH_GAMES; i++)
            game_report_init(&b->slot[i].rep);
    }

    run->host.piece_bytes = PIECE_BYTES;
    const char *pb = getenv("PGNCHECK_PIECE");
    if (pb && *pb) {
        /* For the tests: small pieces put many cuts in small files. */
        char *end;
        unsigned long long v = strtoull(pb, &end, 10);
        if (*end == '\0' && v >= 1 && v <= (1ull << 40))
            run->host.piece_bytes = v;
    }
    if (!run->nthreads)
        return true;
    if (pthread_mutex_init(&run->mu, NULL) || pthread_cond_init(&run->work_cv, NULL) ||
        pthread_cond_init(&run->done_cv, NULL))
        return false;
    run->threads = mem_calloc(run->nthreads, sizeof *run->threads);
    if (!run->threads)
        return false;
    for (unsigned t = 0; t < run->nthreads; t++)
        if (pthread_create(&run->threads[t], NULL, worker, run) != 0) {
            /* Fewer workers still work; none at all means inline. */
            run->nthreads = t;
            break;
        }
    return true;
}

/* The reports: diagnostics on standard output, or on standard error where
 * games are copied to standard output; text on standard error for what a
 * TSV row cannot hold. */
static bool reports_init(Run *run)
{
    const Options *opt = run->opt;
    FILE *diag_out = run_ci_report_stream(&run->ci);     /* (--report, -o, --in-place) */
    if (!diag_out)
        return false;
    run->games_out = run->cfg.copying && !opt->output && !opt->in_place ? stdout : NULL;
    run->stderr_tty = isatty(STDERR_FILENO);
    run->rp_on_tty = isatty(fileno(diag_out));
    struct stat so, se;
    run->rp_is_stderr = opt->format == FMT_TEXT && !opt->quiet &&
                        (diag_out == stderr || (run->rp_on_tty && run->stderr_tty && fstat(fileno(diag_out), &so) == 0 &&
                                                fstat(STDERR_FILENO, &se) == 0 && so.st_rdev == se.st_rdev));
    /* --color=auto: a terminal, TERM not "dumb", NO_COLOR unset or empty
     * (no-color.org); always and never are for both streams. */
    const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
    bool color_ok = !(nc && nc[0]) && !(term && strcmp(term, "dumb") == 0);
    run->rp = report_new(diag_out, opt->format, opt->color > 0 || (opt->color < 0 && color_ok && run->rp_on_tty));
    run->side = report_new(stderr, FMT_TEXT, opt->color > 0 || (opt->color < 0 && color_ok && run->stderr_tty));
    /* --min-severity: by default notes are printed only where every game
     * has a record (jsonl, tsv; TSV's findings outside games, on stderr,
     * follow the format's rule) */
    run->min_severity = opt->min_severity ? (Severity)opt->min_severity
                        : opt->format == FMT_TEXT || opt->format == FMT_GITHUB ? SEV_WARNING
                                                                                 : SEV_NOTE;
    if (run->rp)
        report_set_min_severity(run->rp, run->min_severity);
    if (run->rp && !report_set_max_repeats(run->rp, opt->max_repeats))
        return false;
    if (run->side)
        report_set_min_severity(run->side, run->min_severity);
    if (opt->stats)
        run->stats = report_stats_new(opt->format);
    return run->rp && run->side && (run->stats || !opt->stats);
}

/* ---- what pieces.c is given of the run (pieces.h, PiecesHost) ---- */

static void run_close_in_turn(Run *run, Input *in);

static Batch *host_acquire(void *run) { return run_batch_acquire(run); }
static void host_submit(void *run, Batch *b) { run_submit(run, b); }
static void host_output_ready(void *run, bool wait) { run_output_ready(run, wait); }
static void host_close_in_turn(void *run, Input *in) { run_close_in_turn(run, in); }
static void host_show_progress(void *run, const Input *in, bool force) { run_show_progress(run, in, force); }
static void host_out_of_memory(void *run) { run_out_of_memory(run); }

/* What run_ci.c is given of the run (RunCi). */
static void ci_init(Run *run)
{
    RunCi *ci = &run->ci;
    ci->opt = run->opt;
    ci->inputs = &run->inputs;
    ci->cfg = &run->cfg;
    ci->rp = &run->rp;
    ci->sum = &run->sum;
    ci->progress = &run->progress;
    ci->games_out = &run->games_out;
    ci->trouble = &run->trouble;
    ci->stop = &run->stop;
    ci->out_of_memory = host_out_of_memory;
    ci->run = run;
}

static void host_emit(void *run, Batch *b, size_t keep_raw, uint64_t index_base, uint64_t dl)
{
    emit_batch(run, b, keep_raw, index_base, dl);
}

static const Batch *host_in_flight(void *arg, size_t k)
{
    const Run *run = arg;
    return k < run->count ? &run->batches[(run->head + k) % run->nbatches] : NULL;
}

static void host_init(Run *run)
{
    PiecesHost *h = &run->host;
    h->cfg = &run->cfg;
    h->stop = &run->stop;
    h->games_read = &run->games_read;
    h->spare = &run->spare;
    h->own = &run->own;
    h->run = run;
    h->acquire = host_acquire;
    h->submit = host_submit;
    h->output_ready = host_output_ready;
    h->close_in_turn = host_close_in_turn;
    h->show_progress = host_show_progress;
    h->emit = host_emit;
    h->out_of_memory = host_out_of_memory;
    h->in_flight = host_in_flight;
}

bool run_init(Run *run, const Options *opt)
{
    memset(run, 0, sizeof *run);
    run->opt = opt;
    run->cfg.opt = opt;
    host_init(run);
    ci_init(run);
    run->t0 = progress_now();
    run->cfg.copying = opt->select || opt->fix_results || opt->export_games || opt->repair;
    bool ready = reports_init(run);
    /* The source line under an error needs the game's text; so do copying
     * and the checks of --strict (the export format) and --fix-results (a
     * marker written wrongly): run_read_options. */
    run->cfg.github = opt->format == FMT_GITHUB;
    run->cfg.text_lines = (opt->format == FMT_TEXT || run->cfg.github) && !opt->quiet;
    run->cfg.raw_check = opt->check.strict || opt->fix_results;
    /* (--duplicates adds a finding in the output stage: text shows the tags
     * of a game the checking found nothing in) */
    run->cfg.keep_text = run->cfg.copying ? KEEP_ALL
                     : opt->quiet ? KEEP_NONE
                     : opt->format == FMT_TEXT && !opt->duplicates ? KEEP_WITH_FINDINGS
                                                                   : KEEP_ALL;
    ready = ready && (!opt->duplicates || (run->dup = dup_new(opt->dup_memory))) && pool_init(run);
    if (ready && opt->duplicates)
        report_show_duplicates(run->rp);
    return ready;
}

/* --duplicates decides in the output stage, which must then format the
 * records itself; -j1's records are made there too (the tests compare
 * -jN's with them). */
static bool defer_init(Run *run)
{
    const Options *opt = run->opt;
    if (!run->nthreads || !(opt->format == FMT_JSONL || opt->format == FMT_TSV) || run->cfg.copying || opt->quiet ||
        opt->duplicates || run->cfg.ids)
        return true;
    run->cfg.defer = true;
    run->cfg.keep_text = KEEP_NONE;  /* the records are made before the copy */
    for (size_t k = 0; k <= run->nbatches; k++) {
        Batch *b = k < run->nbatches ? &run->batches[k] : &run->spare;
        if (!(b->rec = report_new_deferred(opt->format)))
            return false;
        report_set_min_severity(b->rec, run->min_severity);
    }
    return true;
}

bool run_start(Run *run)
{
    const Options *opt = run->opt;
    if (!run_ci_start(&run->ci))
        return false;
    if (!defer_init(run))
        return false;
    if (!opt->quiet)
        report_begin(run->rp);
    if (opt->stdin_implied && isatty(STDIN_FILENO))
        fputs(PROG ": reading PGN from standard input (Ctrl-D to end; --help for usage)\n", stderr);
    run->total_known = true;
    for (size_t i = 0; i < run->inputs.n; i++) {
        run->bytes_total += run->inputs.v[i].size;
        run->total_known &= run->inputs.v[i].regular;
    }
    /* --progress, or by default a terminal and more than 8 MB of regular
     * files to read */
    run->progress.on = opt->progress >= 0 ? opt->progress == 1
                       : run->stderr_tty && run->bytes_total > PROGRESS_MIN_BYTES;
    run->progress.on &= !run->ci.report_shared;  /* (never into the records: run_ci_start) */
    run->progress.t0 = run->t0;
    if (opt->progress == 1 || (opt->progress < 0 && run->stderr_tty))
        progress_catch_signals();
    return true;
}

/* (PGN 8: an export holds games only, and no '%' lines) */
static void report_export_left_out(Run *run)
{
    const struct { uint64_t n; const char *one, *many; } part[] = {
        {run->dropped_text, "piece of text between games", "pieces of text between games"},
        {run->dropped_gap_lines, "% escape or ; comment line between games", "% escape or ; comment lines between games"},
        {run->dropped_escapes, "% escape line in games", "% escape lines in games"},
    };
    char text[400] = "--export left out";
    size_t k = strlen(text);
    const char *sep = " ";
    for (size_t i = 0; i < sizeof part / sizeof part[0] && k < sizeof text; i++) {
        if (!part[i].n)
            continue;
        int m = snprintf(text + k, sizeof text - k, "%s%llu %s", sep, (unsigned long long)part[i].n,
                         part[i].n == 1 ? part[i].one : part[i].many);
        k += m > 0 ? (size_t)m : 0;
        sep = ", ";
    }
    run_ci_say(&run->ci, "%s", text);
}

void run_finish(Run *run)
{
    const Options *opt = run->opt;
    run_output_ready(run, true);
    run->sum.seconds = progress_now() - run->t0;
    progress_clear(&run->progress);
    if (run->stats && (opt->format != FMT_JSONL || !run->stop))
        report_stats_write(run->stats, run->rp, stderr);
    if (!run->stop) {
        report_summary(run->rp, &run->sum);
        check_stdout(run);
    }
    if (!run->stop && (report_out_of_memory(run->rp) || report_out_of_memory(run->side)))
        run_out_of_memory(run); /* a record lost (report.c writes none after it) */
    report_hidden(run->rp, run->sum.hidden);
    report_hidden(run->side, run->sum.hidden);
    if (opt->summary && !run->ci.msg_records)  /* (in JSON Lines the summary record says it) */
        report_summary_text(stderr, &run->sum);
    if (run->dropped_text + run->dropped_gap_lines + run->dropped_escapes && !opt->quiet)
        report_export_left_out(run);
    if (run->exported_as_read && !opt->quiet)
        run_ci_say(&run->ci, "--export left %llu game%s without error as read (export-as-read)",
                (unsigned long long)run->exported_as_read, run->exported_as_read == 1 ? "" : "s");
    run_ci_finish(&run->ci);     /* (the last: it closes --report's file) */
}

void run_free(Run *run)
{
    if (run->threads) {
        pthread_mutex_lock(&run->mu);
        run->quit = true;
        pthread_cond_broadcast(&run->work_cv);
        pthread_mutex_unlock(&run->mu);
        for (unsigned t = 0; t < run->nthreads; t++)
            pthread_join(run->threads[t], NULL);
        mem_free(run->threads);
        pthread_mutex_destroy(&run->mu);
        pthread_cond_destroy(&run->work_cv);
        pthread_cond_destroy(&run->done_cv);
    }
    for (size_t k = 0; k <= run->nbatches; k++) {
        Batch *b = k < run->nbatches ? (run->batches ? &run->batches[k] : NULL) : &run->spare;
        if (!b)
            continue;
        for (size_t i = 0; i < b->cap; i++) {
            if (b->slot[i].game)
                pgn_game_free(b->slot[i].game);
            game_report_free(&b->slot[i].rep);
            mem_free(b->slot[i].pre.v);
            mem_free(b->slot[i].repair);
        }
        mem_free(b->slot);
        mem_free(b->tail.v);
        mem_free(b->pool);
        mem_free(b->lpool);
        mem_free(b->seg);
        pgn_export_text_free(&b->exp);
        report_free(b->rec);
    }
    batch_tools_free(&run->own);
    game_thread_free();
    mem_free(run->copy);
    input_list_free(&run->inputs);
    mem_free(run->batches);
    mem_free(run->work);
    dup_free(run->dup);
    run_ci_free(&run->ci);
    mem_free(run->dup_text);
    report_free(run->rp);
    report_free(run->side);
    report_stats_free(run->stats);
}

void run_out_of_memory(Run *run)
{
    if (run->oom)
        return;                 /* said once */
    run->oom = true;
    progress_clear(&run->progress);
    fputs(PROG ": out of memory\n", stderr);
    run->trouble = true;
    run->stop = true;
}

/* An input stopped early: an empty last batch still closes it in turn. */
static void run_close_in_turn(Run *run, Input *in)
{
    Batch *b = run_batch_acquire(run);
    b->input = in;
    b->file_end = true;
    run_submit(run, b);
}

/* ---- reading ---- */

/* An input read whole on this thread, BATCH_GAMES games (or BATCH_HELD
 * bytes of them) to a batch; the workers check them meanwhile. */
static void read_whole(Run *run, Input *in)
{
    if (!in->err) {
        PgnOptions po = batch_read_options(&run->cfg, !in->regular);
        in->reader = pgn_reader_new(input_read, in, &po);
        if (!in->reader) {
            input_close(in);
            run_out_of_memory(run);
            return;
        }
        in->mode = INPUT_WHOLE;
    }
    int got = in->err ? 0 : 1;
    bool ended = false;
    do {
        Batch *b = run_batch_acquire(run);
        b->input = in;
        while (got == 1 && b->ngames < BATCH_GAMES && b->held < BATCH_HELD) {
            Slot *s = &b->slot[b->ngames];
            if (!s->game && !(s->game = pgn_game_new())) {
                run_out_of_memory(run);
                break;
            }
            got = pgn_next(in->reader, s->game);
            if (!batch_diags_take(got == 1 ? &s->pre : &b->tail, in->reader, run->opt))
                run_out_of_memory(run);
            if (got == 1) {
                size_t w = pgn_game_bytes(s->game);
                b->held += w;
                run->held += w;
                b->ngames++;
                run->games_read++;
            }
        }
        if (got < 0 && !in->err)
            in->err = EIO;
        b->gap_lines = in->reader ? pgn_take_gap_lines(in->reader) : 0;
        ended = got != 1;
        b->file_end = ended;
        if (ended)
            run->bytes_done += input_done_bytes(in);    /* in may be closed once submitted */
        run_submit(run, b);
        run_output_ready(run, false);
        /* Long games: the oldest batches are written before more is read. */
        while (run->held > RUN_HELD && run->count)
            output_oldest(run);
        if (!ended)
            run_show_progress(run, in, false);
    } while (!ended && !run->stop);
    if (!ended)
        run_close_in_turn(run, in);
}

/* Reads one input into batches; the workers check them meanwhile. */
void run_input(Run *run, const InputItem *it)
{
    const char *path = it->path;
    Input *in = it->kind == ITEM_INPUT ? input_open(path, run->opt->label) : input_failed(path, it->err);
    /* Inputs in flight keep their files open until their output is
     * written: out of file descriptors, write what is queued (closing the
     * inputs it ends) and try again, so that -jN checks every file -j1
     * does under a low limit (ulimit -n). */
    while (in && (in->err == EMFILE || in->err == ENFILE) && run->count > 0) {
        input_close(in);
        run_output_ready(run, true);
        in = input_open(path, run->opt->label);
    }
    if (!in) {
        run_out_of_memory(run);
        return;
    }
    if (it->kind == ITEM_NO_PGN) {
        in->open_failed = false;
        in->no_pgn = true;
        run_close_in_turn(run, in);     /* nothing to read: a no-games finding */
        return;
    }
    /* --strict reads each input on one reader, which sees the text between
     * every two games (the export format's empty line); the checking is
     * still shared by the threads. */
    bool whole = run->opt->check.strict;
    if (!in->err && run->nthreads && !whole && in->regular && in->size >= 2 * run->host.piece_bytes &&
        lseek(in->fd, 0, SEEK_CUR) == 0) {
        pieces_file(&run->host, in);
        return;
    }
    if (!in->err && run->nthreads && !whole && !in->regular && pieces_pipe(&run->host, in))
        return;
    read_whole(run, in);
}
