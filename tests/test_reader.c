/* test_reader.c - regression tests for the streaming PGN reader (src/pgn*.c). */
#include "input.h"
#include "pgn.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int passed, failed;

static void ok(const char *name) { printf("ok %s\n", name); passed++; }

static void fail(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(const char *name, const char *fmt, ...)
{
    va_list ap;
    printf("FAIL %s: ", name);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    failed++;
}

/* ---- growable text ---- */
typedef struct Buf {
    char *p;
    size_t len, cap;
} Buf;

static void bput(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap : 1024;
        while (nc < b->len + n + 1)
            nc *= 2;
        char *q = realloc(b->p, nc);
        if (q == NULL) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
        b->p = q;
        b->cap = nc;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void bprintf(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bprintf(Buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    bput(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static int read_file(const char *path, Buf *out)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return -1;
    char tmp[65536];
    size_t n;
    out->len = 0;
    bput(out, "", 0);
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        bput(out, tmp, n);
    fclose(f);
    return 0;
}

/* ---- sources: a memory block delivered in chunks ---- */
typedef struct MemSrc {
    const char *p;
    size_t len, at;
    unsigned seed;     /* 0: one big read; else random chunk sizes */
    size_t maxchunk;
    int fail_at_end;   /* return -1 instead of 0 at the end */
} MemSrc;

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 8) & 0xFFFFFF;
}

static long mem_read(void *ctx, char *buf, size_t cap)
{
    MemSrc *m = ctx;
    if (m->at >= m->len) {
        if (m->fail_at_end) {
            errno = EIO;
            return -1;
        }
        return 0;
    }
    size_t n = m->len - m->at;
    if (m->seed) {
        size_t c = 1 + rnd(&m->seed) % m->maxchunk;
        if (c < n)
            n = c;
    }
    if (n > cap)
        n = cap;
    memcpy(buf, m->p + m->at, n);
    m->at += n;
    return (long)n;
}

/* ---- canonical dump of everything the reader returns ---- */
static void dump_pos(Buf *b, PgnPos p) { bprintf(b, "%llu:%u:%u", (unsigned long long)p.offset, p.line, p.col); }

static void dump_diag(Buf *b, const char *what, const Diag *d)
{
    bprintf(b, "  %s %s ", what, diag_info[d->code].slug);
    dump_pos(b, d->pos);
    bprintf(b, "\n");
}

static const char *res_name(PgnResult r)
{
    switch (r) {
    case PGN_RES_WHITE: return "1-0";
    case PGN_RES_BLACK: return "0-1";
    case PGN_RES_DRAW: return "1/2-1/2";
    case PGN_RES_UNKNOWN: return "*";
    default: return "none";
    }
}

typedef struct Summary {
    size_t games, elems;
    int rc;                /* last pgn_next return */
    int raw_ok;            /* raw bytes + gaps reproduce the input */
} Summary;

/* Reads all games from src; appends a dump to out (if non-NULL). */
static Summary run_reader(PgnReadFn fn, void *ctx, Buf *out, const char *orig, size_t orig_len, int keep_raw)
{
    Summary s = {0, 0, 0, 1};
    /* (the notes too, in the chunking test: the fast paths and the general
     * steps keep the same) */
    PgnOptions opt = {.keep_raw = keep_raw != 0, .notes = keep_raw > 1};
    PgnReader *r = pgn_reader_new(fn, ctx, &opt);
    PgnGame *g = pgn_game_new();
    uint64_t prev_end = 0;
    if (r == NULL || g == NULL) {
        s.rc = -2;
        return s;
    }
    for (;;) {
        int rc = pgn_next(r, g);
        size_t nf;
        const Diag *fd = pgn_file_diags(r, &nf);
        if (out)
            for (size_t i = 0; i < nf; i++)
                dump_diag(out, "file", &fd[i]);
        s.rc = rc;
        if (rc != 1)
            break;
        s.games++;
        s.elems += g->nelems;
        if (keep_raw && orig) {
            if (g->start.offset < prev_end || g->end_offset < g->start.offset || g->end_offset > orig_len
                || (g->raw_complete && (g->raw_len != g->end_offset - g->start.offset
                    || memcmp(g->raw, orig + g->start.offset, g->raw_len) != 0)))
                s.raw_ok = 0;
            prev_end = g->end_offset;
        }
        if (out == NULL)
            continue;
        bprintf(out, "game %llu ", (unsigned long long)g->index);
        dump_pos(out, g->start);
        bprintf(out, " end=%llu result=%s", (unsigned long long)g->end_offset, res_name(g->result));
        if (g->result != PGN_RES_NONE) {
            bprintf(out, "@");
            dump_pos(out, g->result_pos);
        }
        bprintf(out, "%s%s\n", g->truncated ? " truncated" : "", g->syntax_error ? " syntax-error" : "");
        for (size_t i = 0; i < g->ntags; i++) {
            bprintf(out, "  tag %s=\"%s\" ", g->tags[i].name, g->tags[i].value);
            dump_pos(out, g->tags[i].pos);
            bprintf(out, " ");
            dump_pos(out, g->tags[i].value_pos);
            bprintf(out, "\n");
        }
        for (size_t i = 0; i < g->nelems; i++) {
            const PgnElem *e = &g->elems[i];
            if (e->kind == PGN_EL_VAR_START)
                bprintf(out, "  (");
            else if (e->kind == PGN_EL_VAR_END)
                bprintf(out, "  )");
            else {
                bprintf(out, "  move ");
                if (e->number >= 0)
                    bprintf(out, "%d", (int)e->number);
                bprintf(out, "%.*s%s", (int)e->dots, "..........", e->dots > 10 ? "+" : "");
                bprintf(out, "%s%s", e->text, e->truncated ? "~" : "");
                if (e->nags)
                    bprintf(out, " nags=%u", (unsigned)e->nags);
                if (e->clock >= 0)
                    bprintf(out, " clk=%d", (int)e->clock);
            }
            bprintf(out, " ");
            dump_pos(out, e->pos);
            bprintf(out, "\n");
        }
        for (size_t i = 0; i < g->nnotes; i++)
            bprintf(out, "  note %u %llu+%u =%u\n", (unsigned)g->notes[i].kind,
                    (unsigned long long)g->notes[i].offset, (unsigned)g->notes[i].len, (unsigned)g->notes[i].value);
        for (size_t i = 0; i < g->ndiags; i++)
            dump_diag(out, "diag", &g->diags[i]);
        if (g->ndiags_dropped)
            bprintf(out, "  dropped %zu\n", g->ndiags_dropped);
    }
    if (out)
        bprintf(out, "end rc=%d bytes=%llu\n", s.rc, (unsigned long long)pgn_bytes_read(r));
    pgn_game_free(g);
    pgn_reader_free(r);
    return s;
}

static Summary run_mem(const char *p, size_t len, unsigned seed, size_t maxchunk, Buf *out, int keep_raw)
{
    MemSrc m = {p, len, 0, seed, maxchunk, 0};
    return run_reader(mem_read, &m, out, p, len, keep_raw);
}

/* ---- the chunking test ---- */
static void check_chunking(const char *name, const char *p, size_t len, int nseeds)
{
    Buf whole = {0}, part = {0};
    run_mem(p, len, 0, 0, &whole, 2);
    for (int s = 1; s <= nseeds; s++) {
        size_t maxchunk = s == 1 ? 1 : s == 2 ? 3 : (size_t)(1u << (2 + s % 14));
        part.len = 0;
        Summary sm = run_mem(p, len, (unsigned)s * 7919u, maxchunk, &part, 2);
        if (part.len != whole.len || memcmp(part.p, whole.p, whole.len) != 0) {
            size_t k = 0;
            while (k < whole.len && k < part.len && whole.p[k] == part.p[k])
                k++;
            fail(name, "chunked read (seed %d, max %zu) differs at dump byte %zu", s, maxchunk, k);
            free(whole.p);
            free(part.p);
            return;
        }
        if (!sm.raw_ok) {
            fail(name, "raw bytes do not match the input (seed %d)", s);
            free(whole.p);
            free(part.p);
            return;
        }
    }
    ok(name);
    free(whole.p);
    free(part.p);
}

/* ---- inline token-level cases ---- */
typedef struct Case {
    const char *name;      /* what it covers */
    const char *input;
    const char *expect;    /* substrings that must all appear in the dump, separated by '|' */
    const char *absent;    /* substrings that must not appear ('|'-separated), or NULL */
} Case;

static const Case cases[] = {
    {"string-escapes", "[White \"a\\\"b\\\\c\"]\n\n1. e4 *\n", "tag White=\"a\"b\\c\"|move 1.e4", "diag"},
    {"bad-escape", "[White \"a\\nb\"]\n\n*\n", "tag White=\"a\\nb\"|diag bad-escape 9:1:10", NULL},
    {"unterminated-string", "[White \"abc\n[Black \"x\"]\n\n1. e4 *\n",
     "diag unterminated-string 7:1:8|tag Black=\"x\"|move 1.e4", NULL},
    {"move-numbers-periods", "1. e4 e5 2.Nf3 2... Nc6 3 . Bb5 3.... a6 *\n",
     "move 1.e4 3:1:4|move e5 6:1:7|move 2.Nf3|move 2...Nc6|move 3.Bb5|move 3....a6|result=*@", "diag"},
    {"san-suffixes-verbatim", "1. Nf3!? Nf6?! 2. O-O-O+ 0-0 3. e8=Q# -- 4. Z0 exd6e.p. 5. Qh4xe7 *\n",
     "move 1.Nf3!?|move Nf6?!|move 2.O-O-O+|move 0-0|move 3.e8=Q#|move --|move 4.Z0|move exd6e.p.|move 5.Qh4xe7", "diag"},
    {"ep-separate-token-folded", "1. exd6 e.p. Kxd6 *\n", "move 1.exd6e.p.|move Kxd6", "diag"},
    {"nags-counted-on-previous-move", "1. e4 $1 $14 e5 ! *\n", "move 1.e4 nags=2|move e5 nags=1", "diag"},
    {"bad-nag", "1. e4 $256 $ e5 *\n", "diag bad-nag 6:1:7|diag bad-nag 11:1:12|move e5", NULL},
    {"variations-nested", "1. e4 (1. d4 (1. c4) 1... d5) e5 *\n",
     "move 1.e4|  ( 6:1:7|move 1.d4|  ( 13:1:14|move 1.c4|  ) 19:1:20|move 1...d5|  ) 28:1:29|move e5", "diag"},
    {"unbalanced-close", "1. e4 ) e5 *\n", "diag unbalanced-variation 6:1:7|move e5", NULL},
    {"unbalanced-open", "1. e4 ( d4 *\n", "diag unbalanced-variation", NULL},
    {"comments-brace-and-semicolon", "1. e4 {a comment\nover two lines} e5 ; rest of line (\n2. Nf3 *\n",
     "move e5 33:2:17|move 2.Nf3 56:3:4", "diag"},
    {"escape-line-column-1", "% escape line\n[Event \"x\"]\n%another\n\n1. e4 *\n", "tag Event=\"x\"|move 1.e4", "diag|file"},
    {"escape-not-column-1", "[Event \"x\"]\n\n1. e4 % e5 *\n", "diag unexpected-char 19:3:7| syntax-error", NULL},
    /* "<x>" is one reserved token (issue 18: one mistake, one error), not a
     * < and a > around a "move" x; a lone > is a reserved token of its own. */
    {"reserved-tokens", "1. e4 <x> e5 *\n", "diag reserved-token 6:1:7|move e5", "move x|diag reserved-token 8:"},
    {"reserved-token-lone", "1. e4 > e5 *\n", "diag reserved-token 6:1:7|move e5", NULL},
    {"results-all", "1-0\n\n0-1\n\n1/2-1/2\n\n*\n", "result=1-0@0:1:1|result=0-1@5:3:1|result=1/2-1/2@10:5:1|result=*@19:7:1", "diag"},
    {"tags-several-per-line", "[Event \"a\"][Site \"b\"] [Date\t\"c\"]\n\n*\n", "tag Event=\"a\" 0:1:1|tag Site=\"b\" 11:1:12|tag Date=\"c\" 22:1:23", "diag bad"},
    {"duplicate-tag-kept", "[White \"a\"]\n[White \"b\"]\n\n*\n", "tag White=\"a\"|tag White=\"b\"|diag duplicate-tag 12:2:1", NULL},
    {"bad-tag-no-value", "[Event]\n[Site \"s\"]\n\n1. e4 *\n", "diag bad-tag 6:1:7|tag Site=\"s\"|move 1.e4", NULL},
    /* The ] belongs at offset 10 (line 1, column 11), after the value: said
     * there, not at the next pair's [; the pair, whole but for its ], is
     * kept (it is then not also a missing Event tag). */
    {"bad-tag-unclosed", "[Event \"e\"\n[Site \"s\"]\n\n1. e4 *\n", "diag bad-tag 10:1:11|tag Event=\"e\"|tag Site=\"s\"",
     "diag bad-tag 11:"},
    /* A value that is not a string: the pair is skipped to its ], and the
     * movetext after it on the line is read (here 1. e4 and the marker). */
    {"bad-tag-not-string-then-movetext", "[pgn] 1. e4 *\n", "diag bad-tag 4:1:5|move 1.e4|result=*", "missing-termination"},
    /* One mistake, one error: "1/2" as a game's last token is the
     * termination marker written wrongly, not a move of the game. */
    {"half-point-not-a-marker", "1. e4 e5 1/2\n", "diag missing-termination 9:1:10", "move 1/2"},
    {"half-point-mid-game-is-a-move", "1. e4 1/2 e5 *\n", "move 1/2|move e5|result=*", "missing-termination"},
    /* Without a marker the game's end is said past its last move, where the
     * marker belongs (a move that may be right is not blamed). */
    {"missing-termination-after-last-move", "1. e4 e5\n\n[Event \"x\"]\n*\n", "diag missing-termination 8:1:9", NULL},
    /* A byte glued to a move breaks that token: one unexpected-char, and
     * the broken token is no move of the game. */
    {"unexpected-char-glued", "1. e4 O\xe2\x80\x91O *\n", "diag unexpected-char 7:1:8|move 1.e4", "move O"},
    {"bad-tag-no-name", "[Event \"e\"]\n[ \"s\"]\n\n*\n", "diag bad-tag 14:2:3", NULL},
    {"blank-line-in-movetext", "[Event \"e\"]\n\n1. e4\n\n\n e5 2. Nf3 *\n", "game 1|move e5|move 2.Nf3", "game 2|diag"},
    {"missing-termination-at-eof", "[Event \"e\"]\n\n1. e4 e5", "result=none truncated|diag missing-termination", NULL},
    {"missing-termination-before-tags", "[Event \"a\"]\n\n1. e4 e5\n[Event \"b\"]\n\n1. d4 *\n",
     "game 1 0:1:1 end=22 result=none|diag missing-termination|game 2 22:4:1|move 1.d4", "truncated"},
    {"tagless-movetext-is-a-game", "1. e4 e5 *\n", "game 1 0:1:1 end=11 result=*", "diag|file"},
    {"non-game-text-between-games", "From: someone@example.org\nSubject: games\n\n[Event \"a\"]\n\n*\n\nSome prose, here.\n\n[Event \"b\"]\n\n*\n",
     "file non-game-text 0:1:1|game 1 42:4:1|file non-game-text 58:8:1|game 2 77:10:1", "game 3"},
    {"stray-comment-between-games-not-a-game", "[Event \"a\"]\n\n*\n\n{ a note }\n\n[Event \"b\"]\n\n*\n",
     "file non-game-text|game 2", "game 3"},
    {"syntax-error-resync", "[Event \"a\"]\n\n1. e4 ] e5 1-0\nmore junk\n[Event \"b\"]\n\n1. d4 *\n",
     "game 1 0:1:1 end=38 result=none syntax-error|move 1.e4|diag syntax 19:3:7|game 2 38:5:1|move 1.d4", "missing-termination"},
    {"bracket-in-movetext-not-line-start", "[Event \"a\"]\n\n1. e4 [Event \"x\"] e5 *\n[Event \"b\"]\n\n*\n",
     "diag syntax 19:3:7|game 2", NULL},
    {"unexpected-char", "1. e4 , e5 *\n[Event \"b\"]\n\n*\n", "diag unexpected-char 6:1:7|game 2", NULL},
    {"unterminated-comment-runs-into-game", "[Event \"a\"]\n\n1. e4 { oops\n1. e5\n\n[Event \"b\"]\n\n1. d4 *\n",
     "diag unterminated-comment 19:3:7|game 2 33:6:1|move 1.d4", NULL},
    {"unterminated-comment-event-line", "[Event \"a\"]\n\n1. e4 { oops\n[Event \"b\"]\n\n1. d4 *\n",
     "diag unterminated-comment 19:3:7|game 2 26:4:1", NULL},
    {"unterminated-comment-at-eof", "1. e4 { oops\nmore", "diag unterminated-comment 6:1:7|truncated", NULL},
    {"tag-line-inside-comment-not-blank-kept", "1. e4 { see\n[Site \"x\"] } e5 *\n", "move e5", "diag|game 2"},
    {"clk-command", "1. e4 { [%clk 0:03:00] } e5 { [%eval 0.2] [%clk 1:02:03.4] } 2. Nf3 {[%clk 0:00:05.25]} *\n",
     "move 1.e4 clk=18000|move e5 clk=372340|move 2.Nf3 clk=525", "diag"},
    /* The same command in a game long enough for the block walk, which
     * reads "{ [%clk H:MM:SS] }" with word operations: 9:59:59 is 35,999 s,
     * 1:30:00 is 5,400 s, 0:59:59 is 3,599 s, in centiseconds. */
    {"clk-command-walk",
     "1. e4 { [%clk 9:59:59] } 1... e5 { [%clk 0:00:07] } 2. Nf3 { [%clk 1:30:00] } 2... Nc6 { [%clk 0:59:59] } "
     "3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Na5 10. Bc2 c5 11. d4 Qc7 *\n",
     "move 1.e4 clk=3599900|move 1...e5 clk=700|move 2.Nf3 clk=540000|move 2...Nc6 clk=359900", "diag"},
    {"bad-clock", "1. e4 { [%clk 3 minutes] } e5 { [%emt 0:00:05] } *\n", "diag bad-clock 8:1:9", "clk="},
    /* a command is read in a fixed window of 128 bytes from its '%', never
     * in whatever is buffered beyond it: a time after 100 blanks is read,
     * one after 200 is not, at every read size (the chunked reads) */
    {"clk-after-100-blanks", "1. e4 {[%clk                                                                                                    0:01:00]} e5 *\n", "move 1.e4 clk=6000|move e5", "diag"},
    {"clk-after-200-blanks", "1. e4 {[%clk                                                                                                                                                                                                        0:01:00]} e5 *\n", "diag bad-clock 7:1:8|move e5", "clk="},
    /* a '}' is a token of its line: after a comment over two lines, a '['
     * on the closing brace's line does not start a game, as on one line */
    {"brace-then-bracket-one-line", "1. e4 {a} [White \"x\"] e5 *\n", "move 1.e4|syntax-error", "game 2"},
    {"brace-then-bracket-two-lines", "1. e4 {a\n} [White \"x\"] e5 *\n", "move 1.e4|syntax-error", "game 2"},
    /* An exporter wrapped the comment line inside the command: still a time. */
    {"clk-command-wrapped", "1. e4 { [%clk 0:03:\n00] } e5 {[%clk 1:\r\n02:03]} *\n",
     "move 1.e4 clk=18000|move e5 clk=372300", "diag"},
    {"crlf-line-ends", "[Event \"a\"]\r\n\r\n1. e4\r\ne5 *\r\n[Event \"b\"]\r\n\r\n*\r\n",
     "move 1.e4 18:3:4|move e5 22:4:1|game 1 0:1:1 end=28|game 2 28:5:1", "missing|bad|unexpected"},
    {"lone-cr-line-ends", "[Event \"a\"]\r\r1. e4\re5 *\r[Event \"b\"]\r\r*\r",
     "move 1.e4 16:3:4|move e5 19:4:1|game 2 24:5:1", "missing|bad|unexpected"},
    {"bom-skipped", "\xEF\xBB\xBF[Event \"a\"]\n\n1. e4 *\n", "game 1 3:1:1|move 1.e4 19:3:4", "diag|file"},
    {"latin1-in-strings-and-comments", "[White \"M\xFCller\"]\n\n1. e4 {caf\xE9 \xC3\xA9t\xC3\xA9} *\n", "tag White=\"M\xFCller\"", "diag"},
    {"bad-byte-control", "[White \"a\x01\"]\n\n1. e4 {x\x02y\x7F} e5 {\x85} *\n", "diag bad-byte 9:1:10", "diag bad-byte 2"},
    {"bad-byte-c1-in-comment", "1. e4 {x\x85y} e5 *\n", "diag bad-byte 8:1:9", NULL},
    {"nul-bytes", "1. e4 {a\0b} e5 *\n\0\0\n[Event \"b\"]\n\n*\n", "diag bad-byte 8:1:9|file non-game-text|game 2", NULL},
    {"headers-only-games", "[Event \"a\"]\n[Site \"x\"]\n\n[Event \"b\"]\n[Site \"y\"]\n",
     "game 1 0:1:1 end=24|diag empty-game|game 2 24:4:1", NULL},
    {"event-twice-without-blank-line", "[Event \"a\"]\n[Event \"b\"]\n*\n", "game 2", "duplicate-tag"},
    /* Event in another case bounds games as Event does (game.c honours a
     * known tag name in another case): after Event, within a line, in a
     * comment left open, and in a section long enough for tag_lines (the
     * third tag, after 12 + 11 bytes, starts game 2 on line 3). */
    {"event-any-case-twice-without-blank-line", "[Event \"a\"]\n[event \"b\"]\n*\n", "game 2 12:2:1",
     "duplicate-tag"},
    {"event-any-case-within-a-line", "[event \"a\"][EVENT \"b\"]\n*\n", "game 2 11:1:12", "duplicate-tag"},
    {"unterminated-comment-event-line-lowercase", "[Event \"a\"]\n\n1. e4 { oops\n[event \"b\"]\n\n1. d4 *\n",
     "diag unterminated-comment 19:3:7|game 2 26:4:1", NULL},
    {"event-any-case-tag-lines",
     "[Event \"a\"]\n[Site \"x\"]\n[eVeNt \"b\"]\n[Site \"y\"]\n[Date \"????.??.??\"]\n[Round \"1\"]\n"
     "[White \"W\"]\n[Black \"B\"]\n[Result \"*\"]\n\n*\n",
     "game 1 0:1:1 end=23|game 2 23:3:1", "duplicate-tag"},
    {"result-line-rest-belongs-to-game", "1. e4 1-0 ; note\n1. d4 0-1 {c} \n\n", "game 1 0:1:1 end=17|game 2 17:2:1 end=32", "diag|file"},
    {"token-too-long", "1. Nf3abcdefghijklmnopq e5 *\n", "move 1.Nf3abcdefghijkl~|diag token-too-long 3:1:4|move e5", NULL},
    {"percent-in-comment-not-command", "1. e4 {100% sure [%eval #3]} *\n", "move 1.e4", "diag"},
    {"dots-without-number", "e4 ... e5 *\n", "move e4|move ...e5", "diag"},
};

/* Sync points (pgn_sync_at): after a blank line, or an Event pair in any
 * case at a line start; not another tag after a non-blank line. */
static void run_sync(void)
{
    static const struct {
        const char *text;
        bool want;
    } c[] = {
        {"1-0\n\n[Site \"a\"]\n", true},   {"1-0\n[Event \"a\"]\n", true},
        {"1-0\n[event \"a\"]\n", true},     {"1-0\n[EVENT \"a\"]\n", true},
        {"1-0\n[Site \"a\"]\n", false},     {"1-0\n[Events \"a\"]\n", false},
        {"1-0\n[Evens \"a\"]\n", false},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        const unsigned char *b = (const unsigned char *)c[i].text;
        size_t len = strlen(c[i].text), p = (size_t)(strchr(c[i].text, '[') - c[i].text);
        char nm[64];
        snprintf(nm, sizeof nm, "sync/%zu", i + 1);
        if (pgn_sync_at(b, len, p) == c[i].want)
            ok(nm);
        else
            fail(nm, "pgn_sync_at(\"%s\") is %d", c[i].text, !c[i].want);
    }
}

static void split_check(const char *name, const char *dump, const char *list, int want)
{
    if (list == NULL)
        return;
    char item[256];
    const char *s = list;
    while (*s) {
        const char *e = strchr(s, '|');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n >= sizeof item)
            n = sizeof item - 1;
        memcpy(item, s, n);
        item[n] = '\0';
        int found = strstr(dump, item) != NULL;
        if (found != want) {
            fail(name, "%s \"%s\" in:\n%s", want ? "missing" : "unexpected", item, dump);
            return;
        }
        s += n + (e != NULL);
    }
}

static void run_cases(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const Case *c = &cases[i];
        size_t len = strlen(c->input);
        if (strcmp(c->name, "nul-bytes") == 0)
            len = 35;   /* the input holds NULs: its exact length */
        Buf d = {0};
        run_mem(c->input, len, 0, 0, &d, 1);
        int before = failed;
        char nm[128];
        snprintf(nm, sizeof nm, "case/%s", c->name);
        split_check(nm, d.p, c->expect, 1);
        if (failed == before)
            split_check(nm, d.p, c->absent, 0);
        if (failed == before)
            ok(nm);
        snprintf(nm, sizeof nm, "chunks/%s", c->name);
        check_chunking(nm, c->input, len, 6);
        free(d.p);
    }
}

/* ---- case files: tests/reader/NAME.pgn with expected dump NAME.out ---- */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void run_case_files(void)
{
    const char *dir = "tests/reader";
    DIR *dp = opendir(dir);
    if (dp == NULL) {
        fail("case-files", "cannot open %s", dir);
        return;
    }
    char *names[512];
    size_t nn = 0;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL && nn < 512) {
        size_t l = strlen(de->d_name);
        if (l > 4 && strcmp(de->d_name + l - 4, ".pgn") == 0)
            names[nn++] = strdup(de->d_name);
    }
    closedir(dp);
    qsort(names, nn, sizeof names[0], cmp_str);
    for (size_t i = 0; i < nn; i++) {
        char path[1024], outp[1024], nm[600];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        snprintf(outp, sizeof outp, "%s/%.*s.out", dir, (int)(strlen(names[i]) - 4), names[i]);
        snprintf(nm, sizeof nm, "file/%s", names[i]);
        Buf in = {0}, want = {0}, got = {0};
        if (read_file(path, &in) != 0 || read_file(outp, &want) != 0) {
            fail(nm, "cannot read %s or %s", path, outp);
        } else {
            run_mem(in.p, in.len, 0, 0, &got, 1);
            if (got.len != want.len || memcmp(got.p, want.p, got.len) != 0)
                fail(nm, "dump differs from %s; got:\n%s", outp, got.p);
            else
                ok(nm);
            snprintf(nm, sizeof nm, "chunks/%s", names[i]);
            check_chunking(nm, in.p, in.len, 5);
        }
        free(in.p);
        free(want.p);
        free(got.p);
        free(names[i]);
    }
}

/* ---- real files in corpus/ with their game counts (corpus/SOURCES.tsv) ---- */
static void run_corpus(void)
{
    Buf tsv = {0};
    if (read_file("corpus/SOURCES.tsv", &tsv) != 0) {
        fail("corpus", "cannot read corpus/SOURCES.tsv");
        return;
    }
    char *save = NULL;
    for (char *line = strtok_r(tsv.p, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char path[512], src[512];
        long games;
        if (line[0] == '#' || strncmp(line, "path\t", 5) == 0)
            continue;
        if (sscanf(line, "%511[^\t]\t%511[^\t]\t%ld", path, src, &games) != 3)
            continue;
        char nm[600];
        snprintf(nm, sizeof nm, "games/%s", path);
        Buf in = {0};
        if (read_file(path, &in) != 0) {
            fail(nm, "cannot read");
            continue;
        }
        Summary s = run_mem(in.p, in.len, 0, 0, NULL, 1);
        if (s.rc != 0 || (long)s.games != games || !s.raw_ok)
            fail(nm, "games %zu (want %ld), rc %d, raw %s", s.games, games, s.rc, s.raw_ok ? "ok" : "bad");
        else
            ok(nm);
        snprintf(nm, sizeof nm, "chunks/%s", path);
        check_chunking(nm, in.p, in.len, 3);
        free(in.p);
    }
    free(tsv.p);
}

/* ---- every file of ../shared/corpus/edge read without a crash ---- */
static void walk_edge(const char *dir, size_t *files, size_t *games, int *bad)
{
    DIR *dp = opendir(dir);
    if (dp == NULL)
        return;
    struct dirent *de;
    while ((de = readdir(dp)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk_edge(path, files, games, bad);
            continue;
        }
        Buf in = {0};
        if (read_file(path, &in) != 0)
            continue;
        Summary s = run_mem(in.p, in.len, 0, 0, NULL, 1);
        Summary c = run_mem(in.p, in.len, 99, 7, NULL, 0);
        if (s.rc != 0 || !s.raw_ok || c.games != s.games || c.elems != s.elems) {
            fail("edge", "%s: rc %d raw %d, chunked %zu/%zu games", path, s.rc, s.raw_ok, c.games, s.games);
            *bad = 1;
        }
        (*files)++;
        *games += s.games;
        free(in.p);
    }
    closedir(dp);
}

static void run_edge(void)
{
    const char *dir = "../shared/corpus/edge";
    struct stat st;
    if (stat(dir, &st) != 0) {
        printf("ok edge-corpus # skipped: %s absent\n", dir);
        passed++;
        return;
    }
    size_t files = 0, games = 0;
    int bad = 0;
    walk_edge(dir, &files, &games, &bad);
    if (!bad)
        printf("ok edge-corpus (%zu files, %zu games)\n", files, games), passed++;
}

/* ---- generated inputs: big comment, caps, read error ---- */
/* One game per offset 0..63 in a 64-byte block: after the tags, `pad`
 * blanks, then 3 * np pieces in an order that differs per game (stride),
 * then the termination marker; the whole read and the chunked reads must
 * give the same dump. */
static void walk_pieces(const char *name, const char *event, const char *const *pieces, size_t np, size_t stride,
                        const char *end)
{
    Buf all = {0};
    for (unsigned pad = 0; pad < 64; pad++) {
        Buf b = {0};
        bprintf(&b, "[Event \"%s %u\"]\n\n", event, pad);
        for (unsigned k = 0; k < pad; k++)
            bput(&b, " ", 1);
        for (size_t k = 0; k < 3 * np; k++) {
            const char *p = pieces[(k * stride + pad) % np];
            bput(&b, p, strlen(p));
        }
        bprintf(&b, "%s\n\n", end);
        bput(&all, b.p, b.len);
        free(b.p);
    }
    check_chunking(name, all.p, all.len, 4);
    free(all.p);
}

static void run_generated(void)
{
    /* Movetext with tokens the block walk of the fast path hands to the byte
     * dispatch (detached annotations, "e.p.", "1.2", "--", results, long
     * symbols, comments holding such runs, tabs, CRLF), at every offset
     * within a 64-byte block: read whole and in small chunks (which take the
     * slow paths), the dumps must agree. */
    {
        static const char *const pieces[] = {
            "1.e4 e5 2.Nf3 Nc6 ", "3. Bb5 a6 ", "4.Ba4 !? Nf6 ", "5... O-O ", "exd6 e.p. ", "6.exd6e.p. Qxd6 ",
            "7.Nc3 {+1.5 [%eval 0.17] d=36, mb=+0-1} Be7 ", "{ [%clk 0:01:02.5] } ", "1.2 ", "8.-- Bd7 ",
            "9.Qe2 $14 ( 9.d4 exd4 ) 9... b5\t10.Bb3 ", "11.Nxxxxxxxxxxxxxxxxxe5 d6 ", "12.h3\r\n12... h6 ",
            "13.c3 ! ", "14.Rd1 Re8 ", "15.d4 ?? ", "16.a4 b4 17.Nd5 ", "{ [%clk 0:00:59] } ", "18. dxe5 dxe5 ",
        };
        walk_pieces("gen/walk-unusual-runs", "walk", pieces, sizeof pieces / sizeof pieces[0], 7, "1-0");
    }
    /* The same for runs starting with digits that are not a plain move
     * number (more than three digits, digits followed by something other
     * than a period or a blank), which the block walk hands on too. */
    {
        static const char *const pieces[] = {
            "1.e4 e5 ", "2.Nf3 Nc6 ", "1234.d4 ", "999... exd4 ", "12/3 ", "12a4 ", "123x4 ", "0000 ",
            "7{c} Nf6 ", "8$1 ", "9( 9.d4 ) ", "10\tBb5 ", "11\nO-O ", "12!? a6 ", "13-- h6 ", "14+ ",
            "15.. Ba4 ", "1/2-1/2 ", "3-0 ", "16.c3 b5 17.Bb3 d6 ", "0-1 ", "18.h3\r\n18... Na5 ", "1-0x ",
        };
        walk_pieces("gen/walk-number-runs", "numbers", pieces, sizeof pieces / sizeof pieces[0], 5, "*");
    }
    /* Clock comments near the shape the block walk reads with word
     * operations, "{ [%clk H:MM:SS] }": other digits, widths, blanks and
     * closings are read by the general steps, with the same results. */
    {
        static const char *const pieces[] = {
            "1. e4 { [%clk 9:59:59] } ", "1... e5 { [%clk 0:60:00] } ", "2. Nf3 { [%clk 10:00:00] } ",
            "2... Nc6 { [%clk 0:0a:00] } ", "3. Bb5 { [%clk 1:02:03]} ", "a6 { [%clk 1:02:03]  } ",
            "4. Ba4 { [%clk 1:02:03.4] } ", "Nf6 { [%clk 0:5:00] } ", "5. O-O { [%clk :02:03] } ",
            "Be7 { [%clk 0:00:00] } ", "6. Re1 { [%clk 1:02:03]\n} ", "b5 { [%clk 1:02:6] } ",
            "7. Bb3 { [%clk 0:59:59] }", "d6 {  [%clk 0:01:00] } ", "8. c3 { [%clk 0:01:00] x} ",
            "O-O { [%clk 0:01:00]} } ", "9. h3 {[%clk 0:01:00] } ", "Na5 { [%clk 0;01:00] } ", "10. Bc2 ",
        };
        walk_pieces("gen/walk-clock-comments", "clocks", pieces, sizeof pieces / sizeof pieces[0], 5, "1-0");
    }
    /* Tag lines near the shape tag_lines reads straight through: names of
     * 15 and 16 bytes, with digits or '_', values of 31 and 32 bytes,
     * escapes, tabs, CR LF and lone CR, two pairs on a line, duplicates and
     * a second Event (a new game), at every offset of the buffer; the whole
     * read and the chunked reads must give the same dump. */
    {
        static const char *const lines[] = {
            "[Event \"e\"]\n", "[Site \"s\"]\r\n", "[Date \"2024.01.01\"]\r", "[Round \"1\"]\n",
            "[White \"a\\\"b\"]\n", "[Black \"0123456789012345678901234567890\"]\n",
            "[Result \"01234567890123456789012345678901\"]\n", "[ABCDEFGHIJKLMNO \"15\"]\n",
            "[ABCDEFGHIJKLMNOP \"16\"]\n", "[White_Elo2 \"x\"]\n", "[ECO\t\"B01\"]\n", "[A \"1\"] [B \"2\"]\n",
            "[Site \"again\"]\n", "[Event \"second\"]\n", "[X \"caf\xc3\xa9\"]\n", "[Y \"\"]\n", "[Z  \"two\"]\n",
        };
        size_t nl = sizeof lines / sizeof lines[0];
        Buf all = {0};
        for (unsigned g = 0; g < 96; g++) {
            for (unsigned k = 0; k < g % 7; k++)
                bput(&all, "\n", 1);
            bprintf(&all, "[Event \"g%u\"]\n", g);
            for (size_t k = 0; k < 6 + g % 5; k++) {
                const char *l = lines[(g * 5 + k * 3) % nl];
                bput(&all, l, strlen(l));
            }
            bprintf(&all, "\n1. e4 *\n\n");
        }
        check_chunking("gen/tag-lines", all.p, all.len, 4);
        free(all.p);
    }
    /* a 5 MB comment (with line ends) streamed; the next game is read */
    {
        size_t n = 5u << 20;
        Buf b = {0};
        bprintf(&b, "[Event \"big\"]\n\n1. e4 {");
        char line[80];
        memset(line, 'x', sizeof line - 1);
        line[sizeof line - 1] = '\n';
        while (b.len < n)
            bput(&b, line, sizeof line);
        bprintf(&b, "} e5 {[%%clk 0:01:00]} *\n\n[Event \"next\"]\n\n1. d4 *\n");
        Buf d = {0};
        run_mem(b.p, b.len, 0, 0, &d, 0);
        char want[64];
        snprintf(want, sizeof want, "move e5 clk=6000");
        if (strstr(d.p, want) && strstr(d.p, "game 2") && strstr(d.p, "move 1.d4") && !strstr(d.p, "diag"))
            ok("gen/5MB-comment-then-next-game");
        else
            fail("gen/5MB-comment-then-next-game", "dump:\n%.2000s", d.p);
        Summary s = run_mem(b.p, b.len, 5, 65536 * 3, NULL, 0);
        if (s.games == 2 && s.elems == 3)
            ok("gen/5MB-comment-chunked");
        else
            fail("gen/5MB-comment-chunked", "games %zu elems %zu", s.games, s.elems);
        free(b.p);
        free(d.p);
    }
    /* variation nesting beyond the cap: one diagnostic, stays in sync */
    {
        Buf b = {0};
        bprintf(&b, "1. e4 ");
        for (int i = 0; i < 10000; i++)
            bprintf(&b, "( d4 ");
        for (int i = 0; i < 10000; i++)
            bprintf(&b, ") ");
        bprintf(&b, "e5 *\n1. c4 *\n");
        Buf d = {0};
        Summary s = run_mem(b.p, b.len, 0, 0, &d, 0);
        char *p = strstr(d.p, "variation-too-deep");
        if (s.games == 2 && p && !strstr(p + 1, "variation-too-deep") && strstr(d.p, "move e5")
            && !strstr(d.p, "unbalanced") && s.elems == 3 + 2 * PGN_MAX_DEPTH + PGN_MAX_DEPTH)
            ok("gen/variation-too-deep");
        else
            fail("gen/variation-too-deep", "games %zu elems %zu", s.games, s.elems);
        free(b.p);
        free(d.p);
    }
    /* too many tags, a too long tag value */
    {
        Buf b = {0};
        for (int i = 0; i < PGN_MAX_TAGS + 10; i++)
            bprintf(&b, "[T%d \"v\"]\n", i);
        bprintf(&b, "[Long \"");
        for (int i = 0; i < PGN_MAX_TAG_VALUE + 100; i++)
            bput(&b, "y", 1);
        bprintf(&b, "\"]\n\n1. e4 *\n");
        Buf d = {0};
        Summary s = run_mem(b.p, b.len, 0, 0, &d, 0);
        if (s.games == 1 && strstr(d.p, "diag too-many-tags") && strstr(d.p, "diag tag-too-long") && strstr(d.p, "move 1.e4"))
            ok("gen/tag-caps");
        else
            fail("gen/tag-caps", "games %zu", s.games);
        free(b.p);
        free(d.p);
    }
    /* more diagnostics than kept: capped with a note */
    {
        Buf b = {0};
        bprintf(&b, "1. e4 ");
        for (int i = 0; i < 500; i++)
            bprintf(&b, "$999 ");
        bprintf(&b, "*\n");
        PgnReader *r;
        MemSrc m = {b.p, b.len, 0, 0, 0, 0};
        PgnOptions opt = {0};
        r = pgn_reader_new(mem_read, &m, &opt);
        PgnGame *g = pgn_game_new();
        int rc = pgn_next(r, g);
        if (rc == 1 && g->ndiags == PGN_MAX_DIAGS && g->diags[PGN_MAX_DIAGS - 1].code == D_TOO_MANY_DIAGNOSTICS
            && g->ndiags_dropped == 500 - (PGN_MAX_DIAGS - 1) && g->result == PGN_RES_UNKNOWN)
            ok("gen/diag-cap");
        else
            fail("gen/diag-cap", "rc %d ndiags %zu dropped %zu", rc, g->ndiags, g->ndiags_dropped);
        pgn_game_free(g);
        pgn_reader_free(r);
        free(b.p);
    }
    /* a read error: the game so far is returned, then -1 with READ_ERROR */
    {
        const char *in = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. d4";
        MemSrc m = {in, strlen(in), 0, 0, 0, 1};
        PgnOptions opt = {0};
        PgnReader *r = pgn_reader_new(mem_read, &m, &opt);
        PgnGame *g = pgn_game_new();
        int rc1 = pgn_next(r, g);
        int rc2 = pgn_next(r, g);
        bool trunc = g->truncated;
        int rc3 = pgn_next(r, g);
        size_t nf;
        const Diag *fd = pgn_file_diags(r, &nf);
        int rc4 = pgn_next(r, g);
        if (rc1 == 1 && rc2 == 1 && trunc && rc3 == -1 && nf == 1 && fd[0].code == D_READ_ERROR && rc4 == 0)
            ok("gen/read-error");
        else
            fail("gen/read-error", "rc %d %d %d %d nf %zu", rc1, rc2, rc3, rc4, nf);
        pgn_game_free(g);
        pgn_reader_free(r);
    }
    /* many elements: a long game beyond the element cap is capped with one diagnostic */
    {
        Buf b = {0};
        for (int i = 0; i < PGN_MAX_ELEMS + 5; i++)
            bput(&b, "Nf3 ", 4);
        bprintf(&b, "*\n1. e4 *\n");
        Buf d = {0};
        Summary s = run_mem(b.p, b.len, 0, 0, NULL, 0);
        if (s.games == 2 && s.elems == PGN_MAX_ELEMS + 1)
            ok("gen/element-cap");
        else
            fail("gen/element-cap", "games %zu elems %zu", s.games, s.elems);
        free(b.p);
        free(d.p);
    }
}

/* ---- --count FILE: reader-only throughput (not a test) ---- */
static int count_mode(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        return 2;
    }
    PgnOptions opt = {0};
    PgnReader *r = pgn_reader_new(input_read_fd, &fd, &opt);
    PgnGame *g = pgn_game_new();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    size_t games = 0, elems = 0, diags = 0;
    while (pgn_next(r, g) == 1) {
        games++;
        elems += g->nelems;
        diags += g->ndiags;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    double mb = (double)pgn_bytes_read(r) / 1e6;
    printf("%zu games, %zu elements, %zu diagnostics, %.1f MB in %.3f s: %.0f MB/s\n",
           games, elems, diags, mb, s, mb / s);
    pgn_game_free(g);
    pgn_reader_free(r);
    close(fd);
    return 0;
}

/* ---- --count FILE THREADS: the same on THREADS threads, as pgncheck -jN
 * reads a regular file: cut into pieces of about 1 MB at sync points
 * (pgn_sync_at), each piece read whole by a reader of its own started at
 * its cut, the threads taking pieces in turn.  The counts are those of a
 * reader from the start only where every cut starts a game, which
 * pgncheck confirms and this does not: the bench compares them. ---- */
#define COUNT_PIECE (1u << 20)
#define COUNT_WINDOW 16384
#define SYNC_AFTER 160          /* bytes after a '[' that pgn_sync_at may look at */

typedef struct CountShare {
    int fd;
    uint64_t size;
    size_t npieces;
    atomic_size_t next;
    atomic_size_t games, elems, diags;
    atomic_bool failed;
} CountShare;

/* The first sync point at or after off, or the file's size. */
static uint64_t count_cut(const CountShare *sh, uint64_t off)
{
    if (off == 0)
        return 0;
    unsigned char buf[COUNT_WINDOW];
    uint64_t at = off < 3 ? 3 : off;          /* next candidate */
    for (;;) {
        uint64_t from = at - 3;
        ssize_t n = pread(sh->fd, buf, sizeof buf, (off_t)from);
        if (n <= 0)
            return sh->size;
        size_t len = (size_t)n;
        bool eof = from + len >= sh->size || len <= SYNC_AFTER;
        size_t limit = eof ? len : len - SYNC_AFTER;
        for (size_t p = 3; p < limit; p++) {
            const unsigned char *q = memchr(buf + p, '[', limit - p);
            if (!q)
                break;
            p = (size_t)(q - buf);
            if (pgn_sync_at(buf, len, p))
                return from + p;
        }
        if (eof)
            return sh->size;
        at = from + limit;
    }
}

typedef struct CountSrc {
    int fd;
    uint64_t off, end;
} CountSrc;

static long count_read(void *ctx, char *buf, size_t cap)
{
    CountSrc *cs = ctx;
    if (cs->end - cs->off < cap)
        cap = (size_t)(cs->end - cs->off);
    if (cap == 0)
        return 0;
    ssize_t n = pread(cs->fd, buf, cap, (off_t)cs->off);
    if (n > 0)
        cs->off += (uint64_t)n;
    return (long)n;
}

static void *count_thread(void *arg)
{
    CountShare *sh = arg;
    PgnGame *g = pgn_game_new();
    size_t games = 0, elems = 0, diags = 0;
    for (size_t k; g && (k = atomic_fetch_add(&sh->next, 1)) < sh->npieces;) {
        uint64_t lo = count_cut(sh, (uint64_t)k * COUNT_PIECE);
        uint64_t hi = count_cut(sh, (uint64_t)(k + 1) * COUNT_PIECE);
        if (lo >= hi)
            continue;           /* no sync point in the piece: the one before reads it */
        CountSrc src = {sh->fd, lo, hi};
        PgnOptions opt = {.offset = lo};
        PgnReader *r = pgn_reader_new(count_read, &src, &opt);
        if (!r)
            break;
        int rc;
        while ((rc = pgn_next(r, g)) == 1) {
            games++;
            elems += g->nelems;
            diags += g->ndiags;
        }
        if (rc < 0)
            atomic_store(&sh->failed, true);
        pgn_reader_free(r);
    }
    if (!g)
        atomic_store(&sh->failed, true);
    pgn_game_free(g);
    atomic_fetch_add(&sh->games, games);
    atomic_fetch_add(&sh->elems, elems);
    atomic_fetch_add(&sh->diags, diags);
    return NULL;
}

static int count_threads(const char *path, int nthreads)
{
    CountShare sh = {.fd = open(path, O_RDONLY)};
    struct stat st;
    if (sh.fd < 0 || fstat(sh.fd, &st) != 0) {
        perror(path);
        return 2;
    }
    sh.size = (uint64_t)st.st_size;
    sh.npieces = (size_t)((sh.size + COUNT_PIECE - 1) / COUNT_PIECE);
    pgn_init();
    pthread_t th[64];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int started = 0;
    while (started < nthreads && pthread_create(&th[started], NULL, count_thread, &sh) == 0)
        started++;
    for (int t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    close(sh.fd);
    if (started == 0 || atomic_load(&sh.failed)) {
        fprintf(stderr, "%s: reading failed\n", path);
        return 2;
    }
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    double mb = (double)sh.size / 1e6;
    printf("%zu games, %zu elements, %zu diagnostics, %.1f MB in %.3f s on %d threads: %.0f MB/s\n",
           atomic_load(&sh.games), atomic_load(&sh.elems), atomic_load(&sh.diags), mb, s, started, mb / s);
    return 0;
}

static int dump_mode(const char *path)
{
    Buf in = {0}, d = {0};
    if (read_file(path, &in) != 0) {
        perror(path);
        return 2;
    }
    run_mem(in.p, in.len, 0, 0, &d, 1);
    fputs(d.p, stdout);
    free(in.p);
    free(d.p);
    return 0;
}

int main(int argc, char **argv)
{
    /* PGNCHECK_SIMD=sse2 or avx2: the narrower paths, as pgncheck takes it */
    pgn_init_simd(getenv("PGNCHECK_SIMD"));
    if (argc == 3 && strcmp(argv[1], "--count") == 0)
        return count_mode(argv[2]);
    if (argc == 4 && strcmp(argv[1], "--count") == 0) {
        char *end;
        long t = strtol(argv[3], &end, 10);
        if (*argv[3] == '\0' || *end != '\0' || t < 1 || t > 64) {
            fprintf(stderr, "test_reader: --count FILE THREADS: THREADS from 1 to 64\n");
            return 2;
        }
        return count_threads(argv[2], (int)t);
    }
    if (argc == 3 && strcmp(argv[1], "--dump") == 0)
        return dump_mode(argv[2]);
    run_cases();
    run_sync();
    run_case_files();
    run_generated();
    run_corpus();
    run_edge();
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
