/* pieces.c - -jN on one input: pieces of a regular file and segments of a
 * pipe, cut at sync points, read and checked whole by the threads, their
 * cuts confirmed in input order on the output side (pieces.h). */
#include "pieces.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "baseline.h"
#include "mem.h"
#include "repair.h"

/* Where a piece's bytes come from: a regular file (pread); a segment of a
 * pipe, held in memory, [mem_lo, mem_lo + mem_len); or, for the thread
 * that writes the output and reads a stretch of a pipe again in order, the
 * segments in flight and then the pipe itself (stream_read). */
typedef struct Source {
    int fd;
    bool memory;
    const unsigned char *mem;
    uint64_t mem_lo;
    size_t mem_len;
    int end_err;                /* memory: the error its end stands for (a read error), 0 if none */
    const PiecesHost *host;     /* (stream_read) */
    Input *in;
} Source;

static long stream_read(const PiecesHost *h, Input *in, unsigned char *buf, size_t cap, uint64_t off);
static bool source_keeps(const Source *src, uint64_t off);

/* Up to cap bytes at off: 0 at the end, -1 with *err set on an error. */
static long source_read(const Source *src, unsigned char *buf, size_t cap, uint64_t *off, int *err)
{
    if (src->memory) {
        uint64_t at = *off - src->mem_lo;
        if (*off < src->mem_lo || (at >= src->mem_len && src->end_err)) {
            errno = *err = *off < src->mem_lo ? EIO : src->end_err;
            return -1;
        }
        size_t n = at >= src->mem_len ? 0 : src->mem_len - (size_t)at < cap ? src->mem_len - (size_t)at : cap;
        if (n)
            memcpy(buf, src->mem + at, n);
        *off += n;
        return (long)n;
    }
    if (src->in) {
        long k = stream_read(src->host, src->in, buf, cap, *off);
        if (k < 0)
            errno = *err = src->in->err ? src->in->err : EIO;
        else
            *off += (uint64_t)k;
        return k;
    }
    return input_read_retry(src->fd, (char *)buf, cap, off, err);
}

/* A piece's reader's source: from an offset.  Past soft (the piece's end)
 * usually only the next game start is wanted: reads stop at soft and are
 * small after it. */
typedef struct PieceSrc {
    const Source *src;
    uint64_t off;
    uint64_t soft;
    int err;
} PieceSrc;

#define PIECE_TAIL_READ 4096

static long piece_read(void *ctx, char *buf, size_t cap)
{
    PieceSrc *ps = ctx;
    if (ps->off < ps->soft && ps->soft - ps->off < cap)
        cap = (size_t)(ps->soft - ps->off);
    else if (ps->off >= ps->soft && cap > PIECE_TAIL_READ)
        cap = PIECE_TAIL_READ;
    return source_read(ps->src, (unsigned char *)buf, cap, &ps->off, &ps->err);
}

/* Up to cap bytes at off (fewer only at the end of the source); -1 on an
 * error. */
static long read_at(const Source *from, unsigned char *buf, size_t cap, uint64_t off)
{
    PieceSrc src = {from, off, UINT64_MAX, 0};
    size_t n = 0;
    while (n < cap) {
        long k = piece_read(&src, (char *)buf + n, cap - n);
        if (k < 0)
            return -1;
        if (k == 0)
            break;
        n += (size_t)k;
    }
    return (long)n;
}

#define SYNC_BEFORE 3           /* bytes before a sync point's '[' it looks at */
#define SYNC_AFTER 160          /* and after it (the reader's tag lookahead) */

/* Is offset off of the source a sync point (pgn_sync_at)? */
static bool sync_at_offset(const Source *src, uint64_t off)
{
    unsigned char buf[SYNC_BEFORE + SYNC_AFTER];
    if (off < SYNC_BEFORE)
        return false;
    long n = read_at(src, buf, sizeof buf, off - SYNC_BEFORE);
    return n > 0 && pgn_sync_at(buf, (size_t)n, SYNC_BEFORE);
}

/* The first sync point at an offset in [lo, hi), or UINT64_MAX. */
static uint64_t sync_find(const Source *src, uint64_t lo, uint64_t hi)
{
    unsigned char buf[16384];
    size_t want = 4096;         /* a game start is usually near: read little first */
    uint64_t at = lo < SYNC_BEFORE ? SYNC_BEFORE : lo;  /* next candidate */
    while (at < hi) {
        uint64_t from = at - SYNC_BEFORE;
        long n = read_at(src, buf, want, from);
        if (n <= 0)
            return UINT64_MAX;
        size_t len = (size_t)n;
        bool eof = len < want;
        want = sizeof buf;
        /* Candidates whose tag start might run past the buffer wait for
         * the next read, which begins SYNC_BEFORE bytes before them. */
        size_t limit = eof ? len : len - SYNC_AFTER;
        size_t p = SYNC_BEFORE;
        while (p < limit) {
            const unsigned char *q = memchr(buf + p, '[', limit - p);
            if (!q)
                break;
            p = (size_t)(q - buf);
            if (from + p >= hi)
                return UINT64_MAX;
            if (pgn_sync_at(buf, len, p))
                return from + p;
            p++;
        }
        if (eof)
            break;
        at = from + limit;
    }
    return UINT64_MAX;
}


/* Keeps the checked game's report in slot s; its diagnostics go to the
 * piece's pool (one array for the piece, not one per game). */
static bool piece_keep(Batch *b, Slot *s, const GameReport *work)
{
    if (s->rep.priv)
        game_report_free(&s->rep);  /* the slot was last used by a plain batch */
    if (b->npool + work->ndiags > b->pool_cap) {
        size_t cap = b->pool_cap ? b->pool_cap : 256;
        while (cap < b->npool + work->ndiags)
            cap *= 2;
        Diag *v = mem_realloc(b->pool, cap, sizeof *v);
        if (!v)
            return false;
        b->pool = v;
        b->pool_cap = cap;
    }
    if (work->ndiags)
        memcpy(b->pool + b->npool, work->diags, work->ndiags * sizeof *work->diags);
    if (b->nlpool + work->line_len > b->lpool_cap) {
        size_t cap = b->lpool_cap ? b->lpool_cap : 4096;
        while (cap < b->nlpool + work->line_len)
            cap *= 2;
        uint16_t *v = mem_realloc(b->lpool, cap, sizeof *v);
        if (!v)
            return false;
        b->lpool = v;
        b->lpool_cap = cap;
    }
    s->lpool_at = b->nlpool;
    if (work->line_len)
        memcpy(b->lpool + b->nlpool, work->line, work->line_len * sizeof *work->line);
    b->nlpool += work->line_len;
    s->rep = *work;
    s->rep.line = NULL;         /* in the line pool while it is output */
    s->rep.priv = NULL;
    s->rep.diags = NULL;        /* pointed into the pool while it is output */
    s->rep.game = s->game;
    s->rep.repair = NULL;       /* (in the thread's scratch: the next game's) */
    if (work->repair) {
        if (!s->repair && !(s->repair = mem_alloc(sizeof *s->repair)))
            return false;
        *s->repair = *work->repair;
        s->repair->work = NULL;
        s->rep.repair = s->repair;
    }
    s->pool_at = b->npool;
    b->npool += work->ndiags;
    return true;
}

/* Reads and checks the games of a piece from offset from: those before the
 * first game at or after `after` that begins at a sync point, at most
 * PIECE_GAMES of them (more only where a pipe's stretch read again may not
 * stop, source_keeps).  Runs on any thread; touches only b. */
static void piece_fill(const BatchConfig *cfg, Batch *b, PieceTools *t, const Source *from_src, uint64_t from,
                       uint32_t from_col, bool from_tok, uint64_t after)
{
    GameReport *work = &t->rep;
    b->ngames = 0;
    b->piece.capped = false;
    b->tail.n = 0;
    b->npool = 0;
    b->nlpool = 0;
    b->piece.err = 0;
    b->piece.start = from;
    b->piece.stop = UINT64_MAX;
    b->piece.stop_line = 0;
    b->piece.read_end = from;
    b->gap_lines = 0;
    b->exp.len = 0;
    if (b->rec)
        report_deferred_reset(b->rec);
    PieceSrc src = {from_src, from, after, 0};
    bool stream = from_src->memory || from_src->in;   /* (a pipe's bytes, not a file's) */
    PgnOptions po = batch_read_options(cfg, stream);
    po.offset = from;
    po.column = from_col;
    po.line_tok = from_tok;
    PgnReader *r = t->game || (t->game = pgn_game_new()) ? pgn_reader_new(piece_read, &src, &po) : NULL;
    if (!r) {
        b->oom = true;
        return;
    }
    PgnGame *g = t->game;     /* read and checked here; the slot keeps a copy */
    for (;;) {
        if (!batch_slot_ready(b, b->ngames)) {
            b->oom = true;
            break;
        }
        Slot *s = &b->slot[b->ngames];
        s->pre.n = 0;
        int got = pgn_next(r, g);
        if (got == 1 && source_keeps(from_src, g->start.offset) &&
            (b->ngames >= PIECE_GAMES || (g->start.offset >= after && sync_at_offset(from_src, g->start.offset)))) {
            /* This game is the next piece's first: what came before it is ours. */
            b->piece.capped = b->ngames >= PIECE_GAMES;
            b->piece.stop = g->start.offset;
            b->piece.stop_line = g->start.line;
            b->piece.stop_col = g->start.col;
            b->piece.stop_tok = g->start_line_tok;
            if (!batch_diags_take(&b->tail, r, cfg->opt))
                b->oom = true;
            break;
        }
        if (!batch_diags_take(got == 1 ? &s->pre : &b->tail, r, cfg->opt))
            b->oom = true;
        if (got != 1) {
            if (got < 0)
                b->piece.err = src.err ? src.err : EIO;
            break;
        }
        game_check(g, &cfg->opt->check, work);
        if (cfg->ids)
            s->ident = baseline_game_id(g);
        if (work->out_of_memory || !batch_export_slot(cfg, t, b, s, g, work))
            b->oom = true; /* never a silent verdict on a game not wholly checked */
        /* The copy holds what the output will use of the game (a piece
         * holds up to PIECE_GAMES of them until they are written): its
         * tags; a pipe's text for a copy, else the slices of it that
         * errors' lines are cut from (a file's are read again). */
        bool text = cfg->keep_text == KEEP_ALL || (cfg->keep_text == KEEP_WITH_FINDINGS && work->ndiags > 0);
        bool raw = text && stream && cfg->copying && !(cfg->opt->export_games && s->exp_status == PGN_EXPORT_DONE);
        if (!pgn_game_keep(s->game, g, text ? PGN_COPY_TAGS | (raw ? PGN_COPY_RAW : 0) : 0) ||
            (text && !raw && !batch_keep_slices(cfg, s->game, g, work)) || !piece_keep(b, s, work)) {
            b->oom = true;
            break;
        }
        if (cfg->defer)
            batch_defer_game(b, &s->pre, g, work);
        /* The Result value the report points at: the same tag in the copy. */
        s->rep.result_tag = NULL;
        for (size_t k = 0; work->result_tag && k < s->game->ntags; k++)
            if (g->tags[k].value == work->result_tag)
                s->rep.result_tag = s->game->tags[k].value;
        pgn_game_trim(g);
        game_report_trim(work);
        b->ngames++;
    }
    b->piece.read_end = from + pgn_bytes_read(r);
    b->gap_lines = pgn_take_gap_lines(r);   /* (those before the next piece's first game too) */
    pgn_reader_free(r);
    if (cfg->defer)
        batch_defer_diags(b, &b->tail);
}

/* A worker's share of a piece: find where its games start, read them. */
void pieces_check(const BatchConfig *cfg, Batch *b, PieceTools *work)
{
    Source src = {.fd = b->input->fd};
    if (b->kind == BATCH_SEGMENT) {
        src.memory = true;
        src.mem = b->seg;
        src.mem_lo = b->piece.seg_lo;
        src.mem_len = b->piece.seg_len;
        src.end_err = b->piece.seg_err;
    }
    uint64_t start = b->piece.lo == 0 ? 0 : sync_find(&src, b->piece.lo, b->piece.hi);
    if (start == UINT64_MAX) {
        b->ngames = 0;
        b->tail.n = 0;
        b->gap_lines = 0;
        if (b->rec)
            report_deferred_reset(b->rec);
        b->piece.start = UINT64_MAX;  /* no game starts here: a stretch inside a game */
        return;
    }
    piece_fill(cfg, b, work, &src, start, 1, false, b->piece.hi);    /* (a sync point starts a line) */
}

static void lines_shift(Diag *d, size_t n, uint64_t by)
{
    for (size_t i = 0; i < n; i++)
        if (d[i].pos.line)
            d[i].pos.line += (uint32_t)by;
}

/* Writes out a piece whose games start where the input's last one stopped:
 * lines and game numbers made the file's, then the input moves on. */
static void piece_emit(const PiecesHost *h, Batch *b)
{
    Input *in = b->input;
    uint64_t dl = in->line_base - 1;
    for (size_t i = 0; i < b->ngames; i++) {
        Slot *s = &b->slot[i];
        s->rep.diags = b->pool + s->pool_at;
        if (s->rep.line_len)
            s->rep.line = b->lpool + s->lpool_at;
        lines_shift(s->rep.diags, s->rep.ndiags, dl);
        lines_shift(s->pre.v, s->pre.n, dl);
        if (s->rep.repair == s->repair && s->repair)   /* the repairs' places (repair.h), once */
            repair_lines_shift(s->repair, (uint32_t)dl);
        PgnGame *g = s->game;
        g->start.line += (uint32_t)dl;
        if (g->result_pos.line)
            g->result_pos.line += (uint32_t)dl;
        if (s->rep.marker_pos.line)
            s->rep.marker_pos.line += (uint32_t)dl;
        for (size_t k = 0; k < g->ntags; k++) {
            g->tags[k].pos.line += (uint32_t)dl;
            g->tags[k].value_pos.line += (uint32_t)dl;
        }
        g->index += in->index_base;
    }
    lines_shift(b->tail.v, b->tail.n, dl);
    h->emit(h->run, b, 0, in->index_base, dl);  /* (a copy is made to its size) */
    for (size_t i = 0; i < b->ngames; i++) {
        b->slot[i].rep.diags = NULL;
        b->slot[i].rep.line = NULL;
    }
    in->index_base += b->ngames;
    *h->games_read += b->ngames;
    if (b->piece.read_end > in->bytes)
        in->bytes = b->piece.read_end;
    if (b->piece.err) {
        in->err = b->piece.err;
        in->ended = true;
    } else if (b->piece.stop == UINT64_MAX) {
        in->ended = true;
    } else {
        in->line_base += b->piece.stop_line - 1;
        in->expect = b->piece.stop;
        in->expect_col = b->piece.stop_col;
        in->expect_tok = b->piece.stop_tok;
    }
}

/* ---- pipes in segments ---- */

#define SEG_READ INPUT_PEND_READ /* bytes read from the pipe at once */
#define SEG_KEEP (128u << 10)   /* of a stretch read again, bytes kept behind it */

/* The pipe's bytes at off for the thread that writes the output (a stretch
 * read again): from the segments in flight, then the pending bytes, then
 * more of the pipe.  A stretch read again can run far past the segments
 * (a game longer than a segment); the pending bytes then keep SEG_KEEP
 * behind the reading, more than its reader can hold, so that the next
 * segment can begin where that reading stops. */
static long stream_read(const PiecesHost *h, Input *in, unsigned char *buf, size_t cap, uint64_t off)
{
    const Batch *b;
    for (size_t k = 0; (b = h->in_flight(h->run, k)) != NULL; k++) {
        if (b->input == in && b->kind == BATCH_SEGMENT && off >= b->piece.seg_lo && off - b->piece.seg_lo < b->piece.seg_len) {
            size_t at = (size_t)(off - b->piece.seg_lo), n = b->piece.seg_len - at < cap ? b->piece.seg_len - at : cap;
            memcpy(buf, b->seg + at, n);
            return (long)n;
        }
    }
    for (;;) {
        if (off < in->pend_off)
            return -1;          /* gone: cannot happen (see source_keeps) */
        if (off - in->pend_off < in->pend_len) {
            size_t at = (size_t)(off - in->pend_off), n = in->pend_len - at < cap ? in->pend_len - at : cap;
            memcpy(buf, in->pend + at, n);
            return (long)n;
        }
        if (off > SEG_KEEP) {
            uint64_t cut = off - SEG_KEEP, held = 0;
            for (size_t k = 0; (b = h->in_flight(h->run, k)) != NULL; k++) {
                if (b->input == in && b->kind == BATCH_SEGMENT && b->piece.seg_lo + b->piece.seg_len > held)
                    held = b->piece.seg_lo + b->piece.seg_len;
            }
            /* (bytes the segments still hold are kept: the next segment
             * begins where the pending bytes do) */
            if (cut > held) {
                if (cut > in->gap_end && cut > in->pend_off)
                    in->gap_end = cut;
                input_pend_drop(in, cut);
            }
        }
        if (!input_pend_more(in))
            return in->err ? -1 : 0;
    }
}

/* Can a stretch be read (again) from offset off of the source?  A pipe's
 * bytes before Input.gap_end are gone: a stretch read again does not stop
 * at a game that began there (the next would have to read it from its
 * start), but takes it and stops at a later one. */
static bool source_keeps(const Source *src, uint64_t off)
{
    return !src->in || off >= src->in->gap_end + SYNC_BEFORE;
}

/* Reads the stretch of the input from where it stands to the first game at
 * or after `upto` that begins at a sync point again, in order, on this
 * thread, and writes it out (a spare batch, PIECE_GAMES games at a time). */
static void piece_reread_to(const PiecesHost *h, Batch *b, uint64_t upto)
{
    Input *in = b->input;
    Source src = {.fd = in->fd};
    if (in->mode == INPUT_SEGMENTS) {
        src.host = h;
        src.in = in;
    }
    Batch *r = h->spare;
    r->input = in;
    r->kind = BATCH_PIECE;
    r->piece = (Piece){.lo = b->piece.lo, .hi = b->piece.hi};
    do {
        r->oom = false;
        piece_fill(h->cfg, r, h->own, &src, in->expect, in->expect_col, in->expect_tok, upto);
        piece_emit(h, r);
    } while (r->piece.capped && !in->ended && !*h->stop && in->expect < upto);
    r->input = NULL;
}

/* piece_reread_to the end of b's stretch (b's own reading is not used) */
static void piece_reread(const PiecesHost *h, Batch *b)
{
    piece_reread_to(h, b, b->piece.hi);
}

/* Writes out a piece used as read.  Where it stopped short of its
 * stretch's end (at PIECE_GAMES), what is left is read again here for a
 * segment (its stretch is still in memory) and for a file's last piece
 * (no piece after it would: its games past the cap were once lost); a
 * file's other pieces leave it to the next (pieces_output). */
static void piece_emit_whole(const PiecesHost *h, Batch *b)
{
    Input *in = b->input;
    piece_emit(h, b);
    if ((b->kind == BATCH_SEGMENT || b->file_end) && !in->ended && !*h->stop && in->expect < b->piece.hi)
        piece_reread(h, b);
}

/* A piece in input order.  It is used as read when it starts where the one
 * before stopped; a piece with no game start, or one inside what an earlier
 * piece read, adds nothing; otherwise (the one before stopped at
 * PIECE_GAMES, or the reader did not begin a game at this piece's sync
 * point) its stretch is read again here from where the input stands.  A
 * segment of a pipe is used only if its reading also ended where the next
 * begins (its reader sees only the segment and a little past its end), and
 * is finished here at once when it stopped at PIECE_GAMES: the stretch
 * before the next segment is then still in memory. */
void pieces_output(const PiecesHost *h, Batch *b)
{
    Input *in = b->input;
    if (in->ended || *h->stop)
        return;
    bool whole = b->kind != BATCH_SEGMENT || b->file_end || (b->piece.capped && b->piece.stop < b->piece.hi) || b->piece.stop == b->piece.hi;
    if (b->piece.start == in->expect && whole) {
        piece_emit_whole(h, b);
        return;
    }
    if (in->expect >= b->piece.hi)
        return;
    /* A piece of a file behind a piece that stopped short of it (at
     * PIECE_GAMES; a few pieces of a large file): the games
     * between are read here up to this piece's first game, and where
     * that reading meets it there, this piece is used as read rather than
     * read again whole on this thread (which made -j2 slower:
     * tests/BENCH.md).
     * A segment's stretch read again comes from the segments in flight
     * and the pipe (stream_read), which this does not try: it is read
     * again whole, as before. */
    if (b->kind != BATCH_SEGMENT && b->piece.start != UINT64_MAX && in->expect < b->piece.start) {
        piece_reread_to(h, b, b->piece.start);
        if (in->ended || *h->stop)
            return;
        if (b->piece.start == in->expect) {
            piece_emit_whole(h, b);
            return;
        }
        if (in->expect >= b->piece.hi)
            return;
    }
    piece_reread(h, b);
}

/* -jN on a regular file read from its start: pieces, which the threads
 * read and check whole, written out in order. */
void pieces_file(const PiecesHost *h, Input *in)
{
    in->mode = INPUT_PIECES;
    in->expect = 0;
    in->line_base = 1;
    in->index_base = 0;
    uint64_t size = h->piece_bytes;
    uint64_t n = (in->size + size - 1) / size;
    bool last = false;
    for (uint64_t j = 0; j < n && !*h->stop; j++) {
        Batch *b = h->acquire(h->run);
        b->input = in;
        last = j + 1 == n;
        b->kind = BATCH_PIECE;
        b->piece = (Piece){.lo = j * size, .hi = last ? UINT64_MAX : (j + 1) * size};  /* the last reads to the end */
        b->file_end = last;
        h->submit(h->run, b);
        if (last)
            break;              /* in may be closed from here on */
        h->output_ready(h->run, false);
        if (!in->ended)
            h->show_progress(h->run, in, false);
    }
    if (!last)
        h->close_in_turn(h->run, in);
}

/* pieces_pipe' next cut after lo: the first sync point at or after
 * lo + size with SYNC_AFTER bytes after it in the pending bytes (1), else
 * lo + most (0: none comes), else the end of input (-1: *hi UINT64_MAX). */
static int seg_cut(Input *in, uint64_t lo, uint64_t size, uint64_t most, uint64_t *hi)
{
    uint64_t scan = lo + size;
    for (;;) {
        uint64_t end = in->pend_off + in->pend_len;
        uint64_t limit = in->pend_eof ? end : end > SYNC_AFTER ? end - SYNC_AFTER : 0;
        if (limit > lo + most)
            limit = lo + most;
        while (scan < limit) {
            const unsigned char *q = memchr(in->pend + (scan - in->pend_off), '[', (size_t)(limit - scan));
            if (!q)
                break;
            uint64_t p = in->pend_off + (uint64_t)(q - in->pend);
            if (p - in->pend_off >= SYNC_BEFORE && pgn_sync_at(in->pend, in->pend_len, (size_t)(p - in->pend_off))) {
                *hi = p;
                return 1;
            }
            scan = p + 1;
        }
        scan = limit > scan ? limit : scan;
        if (scan >= lo + most) {
            *hi = lo + most;
            return 0;
        }
        if (!input_pend_more(in)) {
            *hi = UINT64_MAX;   /* the end of input (or a read error) */
            return -1;
        }
    }
}

/* -jN on a pipe: segments of about h->piece_bytes cut at sync points
 * (or at four times that, or 64 KB, where none comes), each held in memory
 * and read and checked whole by a thread like a piece of a file, written
 * out in order.  So a pipe is not read by one thread alone: this thread
 * only reads it into the segments' buffers and looks for sync points.
 * False, having read nothing but the pending bytes, when the pipe is to be
 * read in batches instead (below). */
bool pieces_pipe(const PiecesHost *h, Input *in)
{
    uint64_t size = h->piece_bytes, most = 4 * size > (64u << 10) ? 4 * size : (64u << 10);
    /* A pipe with no sync point between its first `size` and `most` bytes
     * (bare movetext, say) would be cut only where none is, and every
     * segment read again on this thread: it is read on this thread in
     * batches instead, from the bytes looked at (input_read takes them
     * first). */
    uint64_t lo = 0, hi;
    int cut = seg_cut(in, lo, size, most, &hi);
    if (cut == 0)
        return false;
    in->mode = INPUT_SEGMENTS;
    in->expect = 0;
    in->line_base = 1;
    in->index_base = 0;
    bool last = false;
    while (!last && !*h->stop) {
        /* (may write older segments out, and reading one again may take
         * more of the pipe and drop what is behind it) */
        Batch *b = h->acquire(h->run);
        if (lo > 0) {
            if (in->pend_off > 0 && lo < in->pend_off + SYNC_BEFORE)
                lo = in->pend_off + SYNC_BEFORE;
            cut = seg_cut(in, lo, size, most, &hi);   /* 0: cut anyway (see pieces_output) */
        }
        last = cut < 0;
        /* The pending bytes (from SYNC_BEFORE before lo, all that has been
         * read) become the segment: their buffer is handed over, not
         * copied, and the batch's old buffer takes the bytes from
         * SYNC_BEFORE before hi on, the next segment's start. */
        uint64_t end = in->pend_off + in->pend_len;
        size_t keep = last ? 0 : (size_t)(end - (hi - SYNC_BEFORE));
        if (keep > b->seg_cap) {
            size_t cap = keep > 2 * SEG_READ ? keep : 2 * SEG_READ;
            unsigned char *p = mem_realloc(b->seg, cap, 1);
            if (!p) {
                h->out_of_memory(h->run);
                in->err = ENOMEM;
                last = true;
                keep = 0;
            } else {
                b->seg = p;
                b->seg_cap = cap;
            }
        }
        unsigned char *spare = b->seg;
        size_t spare_cap = b->seg_cap;
        b->kind = BATCH_SEGMENT;
        b->piece = (Piece){.lo = lo, .hi = last ? UINT64_MAX : hi, .seg_lo = in->pend_off, .seg_len = in->pend_len};
        b->seg = in->pend;
        b->seg_cap = in->pend_cap;
        in->pend = spare;
        in->pend_cap = spare_cap;
        in->pend_off = last ? end : hi - SYNC_BEFORE;
        in->pend_len = keep;
        if (keep)
            memcpy(in->pend, b->seg + (in->pend_off - b->piece.seg_lo), keep);
        b->piece.seg_err = last ? in->err : 0;
        b->input = in;
        b->file_end = last;
        h->submit(h->run, b);
        if (last)
            break;
        lo = hi;
        h->output_ready(h->run, false);
        h->show_progress(h->run, in, false);
    }
    if (!last)
        h->close_in_turn(h->run, in);
    return true;
}
