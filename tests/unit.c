/* unit.c - data-driven unit tests of the rules core: FEN laws, SAN parse, rules queries, SAN round trip. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "movegen.h"
#include "rules.h"
#include "game.h"
#include "fen960.h"
#include "san.h"
#include "report_core.h"
#include "tags.h"

#define STARTPOS "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
#define MAX_FIELDS 16
#define MAX_FILES 128

static unsigned long n_passed, n_failed;
static const char *cur_file;
static long cur_line;

/* ---------------------------------------------------------------- harness */

#if defined(__GNUC__) || defined(__clang__)
#define PRINTF_LIKE(a, b) __attribute__((format(printf, a, b)))
#else
#define PRINTF_LIKE(a, b)
#endif

static void pass(const char *fmt, ...) PRINTF_LIKE(1, 2);
static void fail(const char *name, const char *fmt, ...) PRINTF_LIKE(2, 3);

static void pass(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ok ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    n_passed++;
}

static void fail(const char *name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("FAIL %s: ", name);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    n_failed++;
}

/* A case name: "file:line". */
static const char *case_name(void)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s:%ld", cur_file, cur_line);
    return buf;
}

/* --------------------------------------------------------------- name maps */

typedef struct Name {
    const char *name;
    int value;
} Name;

#define N(x) { #x, x }
static const Name fen_error_names[] = {
    N(FEN_OK), N(FEN_ERR_FIELDS), N(FEN_ERR_RANKS), N(FEN_ERR_RANK_LENGTH), N(FEN_ERR_PIECE_CHAR),
    N(FEN_ERR_SIDE), N(FEN_ERR_CASTLING_SYNTAX), N(FEN_ERR_EP_SYNTAX), N(FEN_ERR_COUNTER_SYNTAX),
    N(FEN_ERR_KING_COUNT), N(FEN_ERR_KINGS_ADJACENT), N(FEN_ERR_PAWN_RANK), N(FEN_ERR_TOO_MANY),
    N(FEN_ERR_OPPONENT_IN_CHECK), N(FEN_ERR_CASTLING_RIGHTS), N(FEN_ERR_EP_SQUARE), N(FEN_ERR_PROMOTED),
    { NULL, 0 }
};
static const Name fen_warn_names[] = {
    N(FEN_WARN_NO_COUNTERS), N(FEN_WARN_FULLMOVE_ZERO), N(FEN_WARN_HALFMOVE_HIGH),
    N(FEN_WARN_SHREDDER), N(FEN_WARN_NO_FULLMOVE), { NULL, 0 }
};
static const Name illegal_names[] = {
    N(ILL_NONE), N(ILL_NO_PIECE), N(ILL_OWN_PIECE), N(ILL_CAPTURES_KING), N(ILL_PINNED),
    N(ILL_LEAVES_CHECK), N(ILL_KING_INTO_CHECK), N(ILL_EP_DISCOVERS), N(ILL_CASTLE_NO_RIGHT),
    N(ILL_CASTLE_BLOCKED), N(ILL_CASTLE_IN_CHECK), N(ILL_CASTLE_ATTACKED), N(ILL_NO_EP),
    N(ILL_PROMO_MISSING), N(ILL_PROMO_PIECE), N(ILL_PROMO_RANK), N(ILL_PAWN_CAPTURE_FORWARD),
    { NULL, 0 }
};
/* SAN_NOTE_* without the prefix, as written in the case files. */
static const Name note_names[] = {
    { "CASTLE_ZEROS", SAN_NOTE_CASTLE_ZEROS }, { "PROMO_NO_EQUALS", SAN_NOTE_PROMO_NO_EQUALS },
    { "PROMO_LOWERCASE", SAN_NOTE_PROMO_LOWERCASE }, { "CAPTURE_MISSING", SAN_NOTE_CAPTURE_MISSING },
    { "CAPTURE_SURPLUS", SAN_NOTE_CAPTURE_SURPLUS }, { "OVERDISAMBIGUATED", SAN_NOTE_OVERDISAMBIGUATED },
    { "LONG_ALGEBRAIC", SAN_NOTE_LONG_ALGEBRAIC }, { "UCI", SAN_NOTE_UCI },
    { "SUFFIX", SAN_NOTE_SUFFIX }, { "EP_SUFFIX", SAN_NOTE_EP_SUFFIX },
    { "PAWN_LETTER", SAN_NOTE_PAWN_LETTER },
    { "UNDERDISAMBIGUATED_FILE", SAN_NOTE_UNDERDISAMBIGUATED_FILE },
    { NULL, 0 }
};
static const Name status_names[] = {
    { "ok", SAN_OK }, { "syntax", SAN_SYNTAX }, { "null", SAN_NULL_MOVE },
    { "ambiguous", SAN_AMBIGUOUS }, { "illegal", SAN_ILLEGAL }, { NULL, 0 }
};
#undef N

static bool name_lookup(const Name *t, const char *s, size_t len, int *out)
{
    for (; t->name; t++) {
        if (strlen(t->name) == len && memcmp(t->name, s, len) == 0) {
            *out = t->value;
            return true;
        }
    }
    return false;
}

static const char *name_of(const Name *t, int v)
{
    for (; t->name; t++)
        if (t->value == v)
            return t->name;
    return "?";
}

/* "A,B,C" (names, with an optional prefix to strip) -> OR of the values. */
static bool parse_bits(const Name *t, const char *s, const char *prefix, unsigned *out)
{
    size_t plen = strlen(prefix);
    *out = 0;
    if (*s == '\0' || strcmp(s, "-") == 0 || strcmp(s, "0") == 0)
        return true;
    while (*s) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        int v;
        if (len > plen && memcmp(s, prefix, plen) == 0) {
            s += plen;
            len -= plen;
        }
        if (!name_lookup(t, s, len, &v))
            return false;
        *out |= (unsigned)v;
        s += len;
        if (*s == ',')
            s++;
    }
    return true;
}

static void bits_text(const Name *t, unsigned bits, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (bits == 0) {
        snprintf(buf, cap, "-");
        return;
    }
    for (; t->name; t++) {
        if (bits & (unsigned)t->value) {
            size_t n = strlen(buf);
            snprintf(buf + n, cap - n, "%s%s", n ? "," : "", t->name);
            bits &= ~(unsigned)t->value;
        }
    }
    if (bits) {
        size_t n = strlen(buf);
        snprintf(buf + n, cap - n, "%s0x%x", n ? "," : "", bits);
    }
}

/* ----------------------------------------------------------- small helpers */

static int parse_square(const char *s)
{
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    return sq_make(s[0] - 'a', s[1] - '1');
}

static void square_text(int sq, char *buf)
{
    if (sq < 0 || sq >= 64) {
        snprintf(buf, 3, "--");
        return;
    }
    buf[0] = (char)('a' + sq_file(sq));
    buf[1] = (char)('1' + sq_rank(sq));
    buf[2] = '\0';
}

/* Splits a line in place at TABs (a field beginning with '#' and all after it
 * are dropped); returns the number of fields. */
static int split_tabs(char *line, char **f)
{
    int n = 0;
    char *p = line;
    while (p && n < MAX_FIELDS) {
        char *t = strchr(p, '\t');
        if (t)
            *t = '\0';
        while (*p == ' ')
            p++;
        char *e = p + strlen(p);
        while (e > p && e[-1] == ' ')
            *--e = '\0';
        if (*p == '#')
            break;
        if (*p)
            f[n++] = p;
        p = t ? t + 1 : NULL;
    }
    return n;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The sorted names of the *.txt files of a directory. */
static int list_txt(const char *dir, char **names)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < MAX_FILES) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".txt") == 0 && e->d_name[0] != '.') {
            names[n] = malloc(strlen(dir) + len + 2);
            if (!names[n])
                break;
            sprintf(names[n], "%s/%s", dir, e->d_name);
            n++;
        }
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    return n;
}

typedef void (*LineFn)(char *line);

static void for_each_line(const char *path, LineFn fn)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fail(path, "cannot open: %s", strerror(errno));
        return;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    cur_file = path;
    cur_line = 0;
    while ((len = getline(&line, &cap, f)) != -1) {
        cur_line++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        const char *s = line;
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0' || *s == '#')
            continue;
        fn(line);
    }
    free(line);
    fclose(f);
}

static void for_each_file(const char *dir, LineFn fn)
{
    char *names[MAX_FILES];
    int n = list_txt(dir, names);
    if (n <= 0) {
        fail(dir, "no case files");
        return;
    }
    for (int i = 0; i < n; i++) {
        for_each_line(names[i], fn);
        free(names[i]);
    }
}


static FenError load_fen(Position *pos, const char *fen, bool c960, FenInfo *info)
{
    FenInfo dummy;
    return pos_from_fen(pos, fen, strlen(fen), c960, info ? info : &dummy);
}

/* ------------------------------------------------------------- R1 and R2 */

static void test_board_and_start(void)
{
    /* R1: squares a1..h8, files from White's left, ranks from White's side. */
    Position pos;
    if (load_fen(&pos, "k7/8/8/8/8/8/8/7K w - - 0 1", false, NULL) != FEN_OK) {
        fail("R1-square-names", "bare kings FEN rejected");
    } else {
        int bad = 0;
        char want[8], got[8];
        for (int s = 0; s < 64; s++) {
            int t = 63 - s;
            if (t == s)
                continue;
            snprintf(want, sizeof want, "%c%c%c%c", 'a' + (s & 7), '1' + (s >> 3), 'a' + (t & 7), '1' + (t >> 3));
            memset(got, 0, sizeof got);
            move_to_uci(&pos, move_new(s, t, MOVE_NORMAL, 0), got);
            if (strcmp(want, got) != 0) {
                if (!bad)
                    fail("R1-square-names", "square %d to %d: expected %s, got %s", s, t, want, got);
                bad++;
            }
        }
        if (!bad)
            pass("R1-square-names (a1=0 .. h8=63 via move_to_uci)");
        if (pos.king_sq[WHITE] == 7 && pos.king_sq[BLACK] == 56 && pos.board[7] == (WHITE << 3 | KING)
            && pos.board[56] == (BLACK << 3 | KING))
            pass("R1-fen-ranks (rank 8 first, file a first)");
        else
            fail("R1-fen-ranks", "k7/.../7K: kings at %d/%d, expected h1=7 and a8=56",
                 pos.king_sq[WHITE], pos.king_sq[BLACK]);
    }

    /* R1: the twenty first moves name their squares. */
    Position start;
    pos_startpos(&start);
    {
        static const char *const want[20] = {
            "a2a3", "a2a4", "b1a3", "b1c3", "b2b3", "b2b4", "c2c3", "c2c4", "d2d3", "d2d4",
            "e2e3", "e2e4", "f2f3", "f2f4", "g1f3", "g1h3", "g2g3", "g2g4", "h2h3", "h2h4",
        };
        MoveList list;
        char got[20][8];
        const char *ptr[20];
        gen_legal(&start, &list);
        if (list.count != 20) {
            fail("R1-first-moves", "expected 20 legal moves, got %d", list.count);
        } else {
            for (int i = 0; i < 20; i++) {
                memset(got[i], 0, sizeof got[i]);
                move_to_uci(&start, list.moves[i], got[i]);
                ptr[i] = got[i];
            }
            qsort(ptr, 20, sizeof *ptr, cmp_str);
            int i = 0;
            while (i < 20 && strcmp(ptr[i], want[i]) == 0)
                i++;
            if (i == 20)
                pass("R1-first-moves");
            else
                fail("R1-first-moves", "move %d: expected %s, got %s", i, want[i], ptr[i]);
        }
    }

    /* R2: the start position, by the law's own words. */
    {
        static const char back[8] = { ROOK, KNIGHT, BISHOP, QUEEN, KING, BISHOP, KNIGHT, ROOK };
        int bad = -1;
        for (int f = 0; f < 8 && bad < 0; f++) {
            if (start.board[sq_make(f, 0)] != (WHITE << 3 | back[f])
                || start.board[sq_make(f, 1)] != (WHITE << 3 | PAWN)
                || start.board[sq_make(f, 6)] != (BLACK << 3 | PAWN)
                || start.board[sq_make(f, 7)] != (BLACK << 3 | back[f]))
                bad = f;
            for (int r = 2; r < 6; r++)
                if (start.board[sq_make(f, r)] != 0)
                    bad = f;
        }
        if (bad >= 0)
            fail("R2-start-pieces", "file %c differs from Ra1 Nb1 Bc1 Qd1 Ke1 Bf1 Ng1 Rh1", 'a' + bad);
        else
            pass("R2-start-pieces");
        /* Queen on her own colour: d1 light (file+rank odd), d8 dark. */
        if (((3 + 0) & 1) == 1 && start.board[3] == (WHITE << 3 | QUEEN) && ((3 + 7) & 1) == 0
            && start.board[59] == (BLACK << 3 | QUEEN))
            pass("R2-queen-on-her-colour");
        else
            fail("R2-queen-on-her-colour", "queens not on d1/d8");
        if (start.side == WHITE && start.castling == (CASTLE_WK | CASTLE_WQ | CASTLE_BK | CASTLE_BQ)
            && start.castle_rook[0] == 7 && start.castle_rook[1] == 0 && start.castle_rook[2] == 63
            && start.castle_rook[3] == 56 && start.king_sq[WHITE] == 4 && start.king_sq[BLACK] == 60
            && start.ep == SQ_NONE && start.halfmove == 0 && start.fullmove == 1 && !start.chess960
            && start.checkers == 0)
            pass("R2-start-state (White to move, all rights, no ep, 0 1)");
        else
            fail("R2-start-state", "side %d castling %d rooks %d,%d,%d,%d kings %d,%d ep %d clocks %u %u",
                 start.side, start.castling, start.castle_rook[0], start.castle_rook[1],
                 start.castle_rook[2], start.castle_rook[3], start.king_sq[0], start.king_sq[1],
                 start.ep, start.halfmove, start.fullmove);
        if (pos_is_consistent(&start))
            pass("R2-startpos-consistent");
        else
            fail("R2-startpos-consistent", "pos_is_consistent(pos_startpos) is false");
    }

    /* R2: the start FEN parses to exactly pos_startpos and formats back. */
    {
        Position p;
        FenInfo info;
        FenError e = load_fen(&p, STARTPOS, false, &info);
        if (e != FEN_OK) {
            fail("R2-startpos-fen", "rejected: %s", pos_fen_error_text(e));
        } else {
            bool same = memcmp(p.by_color, start.by_color, sizeof p.by_color) == 0
                        && memcmp(p.by_type, start.by_type, sizeof p.by_type) == 0
                        && memcmp(p.board, start.board, sizeof p.board) == 0 && p.side == start.side
                        && p.ep == start.ep && p.castling == start.castling
                        && memcmp(p.castle_rook, start.castle_rook, sizeof p.castle_rook) == 0
                        && memcmp(p.king_sq, start.king_sq, sizeof p.king_sq) == 0
                        && p.chess960 == start.chess960 && p.ep_legal == start.ep_legal
                        && p.halfmove == start.halfmove && p.fullmove == start.fullmove
                        && p.key == start.key && p.checkers == start.checkers
                        && pos_pinned(&p) == pos_pinned(&start);
            if (same && info.warnings == 0)
                pass("R2-startpos-fen-equals-pos_startpos");
            else
                fail("R2-startpos-fen-equals-pos_startpos", "fields differ (warnings %u)", info.warnings);
            char buf[128];
            pos_to_fen(&start, buf);
            if (strcmp(buf, STARTPOS) == 0)
                pass("R2-startpos-to-fen");
            else
                fail("R2-startpos-to-fen", "expected '%s', got '%s'", STARTPOS, buf);
        }
    }
}

/* ------------------------------------------------------------- FEN cases */

/* EXPECTED <TAB> FEN [<TAB> 960] [<TAB> warn=A,B] [<TAB> roundtrip=FEN|-] [<TAB> eplegal=0|1]
 * [<TAB> samekey=FEN] [<TAB> diffkey=FEN] [<TAB> material=S:Q,R,N,BL,BD,P,MEN,PROMOTED]
 * [<TAB> counter=1|2] [<TAB> # comment].  Without roundtrip= an ok FEN must format back to itself.
 * material= (with FEN_ERR_TOO_MANY or FEN_ERR_PROMOTED) gives the counts
 * FenInfo must hold: side w or b, its queens, rooks, knights, bishops on
 * light and on dark squares, pawns, all its men, and fen_promoted().
 * counter= (with FEN_ERR_COUNTER_SYNTAX): which counter FenInfo names, 1
 * the halfmove clock, 2 the fullmove number. */
static void fen_case(char *line)
{
    char *f[MAX_FIELDS];
    int n = split_tabs(line, f);
    const char *name = case_name();
    int want;
    if (n < 2) {
        fail(name, "malformed case line");
        return;
    }
    if (strcmp(f[0], "ok") == 0)
        want = FEN_OK;
    else if (!name_lookup(fen_error_names, f[0], strlen(f[0]), &want)) {
        fail(name, "unknown FenError name %s", f[0]);
        return;
    }
    const char *fen = f[1];
    bool c960 = false;
    unsigned want_warn = 0;
    const char *roundtrip = fen, *samekey = NULL, *diffkey = NULL, *material = NULL;
    int eplegal = -1, counter = 0;
    for (int i = 2; i < n; i++) {
        if (strcmp(f[i], "960") == 0) {
            c960 = true;
        } else if (strncmp(f[i], "material=", 9) == 0) {
            material = f[i] + 9;
        } else if (strncmp(f[i], "counter=", 8) == 0) {
            counter = atoi(f[i] + 8);
        } else if (strncmp(f[i], "warn=", 5) == 0) {
            if (!parse_bits(fen_warn_names, f[i] + 5, "", &want_warn)) {
                fail(name, "unknown warning in %s", f[i]);
                return;
            }
        } else if (strncmp(f[i], "roundtrip=", 10) == 0) {
            roundtrip = f[i] + 10;
        } else if (strncmp(f[i], "eplegal=", 8) == 0) {
            eplegal = atoi(f[i] + 8);
        } else if (strncmp(f[i], "samekey=", 8) == 0) {
            samekey = f[i] + 8;
        } else if (strncmp(f[i], "diffkey=", 8) == 0) {
            diffkey = f[i] + 8;
        } else {
            fail(name, "unknown option %s", f[i]);
            return;
        }
    }
    Position pos;
    FenInfo info;
    memset(&info, 0, sizeof info);
    FenError e = pos_from_fen(&pos, fen, strlen(fen), c960, &info);
    if (e == FEN_OK)
        e = pos_check_material(&pos, &info);   /* as for a game's FEN tag (R3) */
    if ((int)e != want) {
        fail(name, "%s: expected %s, got %s (%s)", fen, name_of(fen_error_names, want),
             name_of(fen_error_names, (int)e), pos_fen_error_text(e));
        return;
    }
    if (material) {
        char side;
        int v[8];
        if (sscanf(material, "%c:%d,%d,%d,%d,%d,%d,%d,%d", &side, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
                   &v[7]) != 9) {
            fail(name, "malformed material=%s", material);
            return;
        }
        const int got[8] = {info.men[QUEEN], info.men[ROOK],  info.men[KNIGHT], info.bishops[0],
                            info.bishops[1], info.men[PAWN],  info.men[0],      fen_promoted(&info)};
        if ((side == 'w' ? WHITE : BLACK) != info.side || memcmp(v, got, sizeof v) != 0) {
            fail(name, "%s: material expected %s, got %c:%d,%d,%d,%d,%d,%d,%d,%d", fen, material,
                 info.side == WHITE ? 'w' : 'b', got[0], got[1], got[2], got[3], got[4], got[5], got[6], got[7]);
            return;
        }
    }
    if (counter && info.counter != counter) {
        fail(name, "%s: counter %d expected, got %d", fen, counter, info.counter);
        return;
    }
    if (e != FEN_OK) {
        pass("%s %s", name, name_of(fen_error_names, want));
        return;
    }
    if (info.warnings != want_warn) {
        char a[160], b[160];
        bits_text(fen_warn_names, want_warn, a, sizeof a);
        bits_text(fen_warn_names, info.warnings, b, sizeof b);
        fail(name, "%s: warnings expected %s, got %s", fen, a, b);
        return;
    }
    if (!pos_is_consistent(&pos)) {
        fail(name, "%s: parsed position not consistent", fen);
        return;
    }
    if (eplegal >= 0 && (int)pos.ep_legal != eplegal) {
        fail(name, "%s: ep_legal expected %d, got %d", fen, eplegal, (int)pos.ep_legal);
        return;
    }
    /* R26: the position's identity counts the en passant square only when a capture is legal. */
    for (int k = 0; k < 2; k++) {
        const char *other = k ? diffkey : samekey;
        Position p2;
        if (!other)
            continue;
        if (load_fen(&p2, other, c960, NULL) != FEN_OK) {
            fail(name, "comparison FEN '%s' rejected", other);
            return;
        }
        if ((p2.key == pos.key) != (k == 0)) {
            fail(name, "%s: key %s that of '%s'", fen, k ? "equals" : "differs from", other);
            return;
        }
    }
    if (strcmp(roundtrip, "-") != 0) {
        char buf[128];
        memset(buf, 0, sizeof buf);
        size_t len = pos_to_fen(&pos, buf);
        if (strcmp(buf, roundtrip) != 0 || len != strlen(roundtrip)) {
            fail(name, "round trip of '%s': expected '%s', got '%s' (len %zu)", fen, roundtrip, buf, len);
            return;
        }
        /* The output parses back to the same position. */
        Position again;
        if (load_fen(&again, buf, c960, NULL) != FEN_OK || again.key != pos.key
            || memcmp(again.board, pos.board, sizeof pos.board) != 0 || again.castling != pos.castling
            || memcmp(again.castle_rook, pos.castle_rook, sizeof pos.castle_rook) != 0
            || again.ep != pos.ep) {
            fail(name, "'%s' does not parse back to the same position", buf);
            return;
        }
    }
    pass("%s ok", name);
}

/* ------------------------------------------------------------- SAN cases */

/* Builds the Move that a UCI string names in pos (castling as king-to-g/c in
 * standard chess, king-takes-rook in Chess960), independently of the core. */
static bool move_from_uci(const Position *pos, const char *uci, Move *m)
{
    size_t len = strlen(uci);
    if (len != 4 && len != 5)
        return false;
    int from = parse_square(uci), to = parse_square(uci + 2);
    if (from < 0 || to < 0)
        return false;
    int pc = pos->board[from];
    int us = pos->side;
    if (len == 5) {
        static const char promo[] = "nbrq";
        const char *p = strchr(promo, uci[4]);
        if (!p || uci[4] == '\0')
            return false;
        *m = move_new(from, to, MOVE_PROMOTION, KNIGHT + (int)(p - promo));
        return true;
    }
    if (piece_type(pc) == PAWN && to == pos->ep && sq_file(from) != sq_file(to) && pos->board[to] == 0) {
        *m = move_new(from, to, MOVE_EN_PASSANT, 0);
        return true;
    }
    if (piece_type(pc) == KING && pos->board[to] == (us << 3 | ROOK)) {
        *m = move_new(from, to, MOVE_CASTLING, 0);
        return true;
    }
    if (piece_type(pc) == KING && !pos->chess960 && sq_rank(from) == sq_rank(to)
        && (sq_file(to) - sq_file(from) == 2 || sq_file(from) - sq_file(to) == 2)) {
        int rook = sq_make(sq_file(to) > sq_file(from) ? 7 : 0, sq_rank(from));
        *m = move_new(from, rook, MOVE_CASTLING, 0);
        return true;
    }
    *m = move_new(from, to, MOVE_NORMAL, 0);
    return true;
}

static bool same_move(Move a, Move b)
{
    if (move_from(a) != move_from(b) || move_to(a) != move_to(b) || move_type(a) != move_type(b))
        return false;
    return move_type(a) != MOVE_PROMOTION || move_promo(a) == move_promo(b);
}

static void move_text(Move m, char *buf)
{
    static const char *const types[] = { "normal", "promo", "ep", "castle" };
    char sq1[3], sq2[3];
    square_text(move_from(m), sq1);
    square_text(move_to(m), sq2);
    sprintf(buf, "%s%s/%s", sq1, sq2, types[move_type(m)]);
    if (move_type(m) == MOVE_PROMOTION)
        sprintf(buf + strlen(buf), "=%c", "??NBRQ"[move_promo(m)]);
}

static bool is_legal(const Position *pos, Move m)
{
    MoveList list;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == m)
            return true;
    return false;
}

/* FEN <TAB> TOKEN <TAB> EXPECT... [<TAB> # comment]
 * EXPECT words (TAB or space separated): uci:MOVE notes:A,B mark:N nag:N | syntax | null |
 * ambiguous:N [cand:MOVE,MOVE] | illegal:ILL_X [sq:SQ] [sq2:SQ]; and 960 for Chess960. */

static int san_fast_taken; /* SAN cases the fast path took (san_case) */

static void san_case(char *line)
{
    char *f[MAX_FIELDS];
    int n = split_tabs(line, f);
    const char *name = case_name();
    if (n < 3) {
        fail(name, "malformed case line");
        return;
    }
    const char *fen = f[0], *tok = f[1];
    char *words[32];
    int nw = 0;
    for (int i = 2; i < n; i++) {
        char *save = NULL;
        for (char *w = strtok_r(f[i], " ", &save); w && nw < 32; w = strtok_r(NULL, " ", &save))
            words[nw++] = w;
    }
    int want_status = -1, want_reason = -1, want_mark = -1, want_nag = -1, want_ncand = -1;
    int want_sq = -2, want_sq2 = -2;
    unsigned want_notes = 0;
    const char *want_uci = NULL, *want_cand = NULL;
    bool c960 = false;
    for (int i = 0; i < nw; i++) {
        char *w = words[i];
        char *colon = strchr(w, ':');
        size_t klen = colon ? (size_t)(colon - w) : strlen(w);
        const char *val = colon ? colon + 1 : "";
        int v;
        if (strcmp(w, "960") == 0) {
            c960 = true;
        } else if (!colon && name_lookup(status_names, w, klen, &v)) {
            want_status = v;
        } else if (strncmp(w, "uci:", 4) == 0) {
            want_status = SAN_OK;
            want_uci = val;
        } else if (strncmp(w, "notes:", 6) == 0) {
            if (!parse_bits(note_names, val, "SAN_NOTE_", &want_notes)) {
                fail(name, "unknown note in %s", w);
                return;
            }
        } else if (strncmp(w, "mark:", 5) == 0) {
            want_mark = atoi(val);
        } else if (strncmp(w, "nag:", 4) == 0) {
            want_nag = atoi(val);
        } else if (strncmp(w, "ambiguous:", 10) == 0) {
            want_status = SAN_AMBIGUOUS;
            want_ncand = atoi(val);
        } else if (strncmp(w, "cand:", 5) == 0) {
            want_cand = val;
        } else if (strncmp(w, "illegal:", 8) == 0) {
            want_status = SAN_ILLEGAL;
            if (!name_lookup(illegal_names, val, strlen(val), &want_reason)) {
                fail(name, "unknown SanIllegal %s", val);
                return;
            }
        } else if (strncmp(w, "sq:", 3) == 0) {
            want_sq = parse_square(val);
        } else if (strncmp(w, "sq2:", 4) == 0) {
            want_sq2 = parse_square(val);
        } else {
            fail(name, "unknown expectation word %s", w);
            return;
        }
    }
    if (want_status < 0) {
        fail(name, "no expected status");
        return;
    }
    Position pos;
    FenInfo info;
    FenError e = pos_from_fen(&pos, fen, strlen(fen), c960 || fen_looks_960(fen), &info);
    if (e != FEN_OK) {
        fail(name, "FEN '%s' rejected: %s", fen, pos_fen_error_text(e));
        return;
    }
    SanResult r;
    memset(&r, 0, sizeof r);
    SanStatus st = san_parse(&pos, tok, strlen(tok), &r);
    char got[64];
    if (st == SAN_OK)
        move_text(r.move, got);
    else if (st == SAN_ILLEGAL)
        snprintf(got, sizeof got, "%s", name_of(illegal_names, (int)r.reason));
    else
        snprintf(got, sizeof got, "%d candidates", r.ncand);
    if ((int)st != want_status || st != r.status) {
        fail(name, "%s '%s': expected %s, got %s (%s)", fen, tok, name_of(status_names, want_status),
             name_of(status_names, (int)st), got);
        return;
    }
    if (st == SAN_OK && want_uci) {
        Move m;
        if (!move_from_uci(&pos, want_uci, &m)) {
            fail(name, "bad expected move %s", want_uci);
            return;
        }
        char want[64];
        move_text(m, want);
        if (!same_move(m, r.move)) {
            fail(name, "%s '%s': expected %s, got %s", fen, tok, want, got);
            return;
        }
        if (!is_legal(&pos, r.move)) {
            fail(name, "%s '%s': move %s not in gen_legal", fen, tok, got);
            return;
        }
        char uci[8];
        memset(uci, 0, sizeof uci);
        move_to_uci(&pos, r.move, uci);
        if (strcmp(uci, want_uci) != 0) {
            fail(name, "%s '%s': move_to_uci gives %s, expected %s", fen, tok, uci, want_uci);
            return;
        }
    }
    if (st == SAN_OK && r.notes != want_notes) {
        char a[256], b[256];
        bits_text(note_names, want_notes, a, sizeof a);
        bits_text(note_names, r.notes, b, sizeof b);
        fail(name, "%s '%s': notes expected %s, got %s", fen, tok, a, b);
        return;
    }
    if (st == SAN_OK && want_mark >= 0 && r.mark != want_mark) {
        fail(name, "%s '%s': mark expected %d, got %d", fen, tok, want_mark, r.mark);
        return;
    }
    if (st == SAN_OK && want_nag >= 0 && r.nag != want_nag) {
        fail(name, "%s '%s': nag expected %d, got %d", fen, tok, want_nag, r.nag);
        return;
    }
    if (st == SAN_ILLEGAL && (int)r.reason != want_reason) {
        fail(name, "%s '%s': expected %s, got %s (%s)", fen, tok, name_of(illegal_names, want_reason),
             got, san_illegal_text(r.reason));
        return;
    }
    if (st == SAN_ILLEGAL && want_sq != -2 && r.sq != want_sq) {
        char a[3], b[3];
        square_text(want_sq, a);
        square_text(r.sq, b);
        fail(name, "%s '%s': sq expected %s, got %s", fen, tok, a, b);
        return;
    }
    if (st == SAN_ILLEGAL && want_sq2 != -2 && r.sq2 != want_sq2) {
        char a[3], b[3];
        square_text(want_sq2, a);
        square_text(r.sq2, b);
        fail(name, "%s '%s': sq2 expected %s, got %s", fen, tok, a, b);
        return;
    }
    if (st == SAN_AMBIGUOUS) {
        if (want_ncand >= 0 && r.ncand != want_ncand) {
            fail(name, "%s '%s': expected %d candidates, got %d", fen, tok, want_ncand, r.ncand);
            return;
        }
        if (want_cand) {
            /* Every listed candidate is among cand[], and the counts agree. */
            char buf[128];
            snprintf(buf, sizeof buf, "%s", want_cand);
            int k = 0;
            char *save = NULL;
            for (char *c = strtok_r(buf, ",", &save); c; c = strtok_r(NULL, ",", &save), k++) {
                Move m;
                bool found = false;
                if (!move_from_uci(&pos, c, &m)) {
                    fail(name, "bad candidate %s", c);
                    return;
                }
                for (int i = 0; i < r.ncand && i < 8; i++)
                    found |= same_move(m, r.cand[i]);
                if (!found) {
                    fail(name, "%s '%s': candidate %s missing", fen, tok, c);
                    return;
                }
            }
            if (k != r.ncand) {
                fail(name, "%s '%s': %d candidates listed, got %d", fen, tok, k, r.ncand);
                return;
            }
        }
    }
    /* The fast path (san_play: resolves and makes at once, the replay's
     * usual way) agrees with san_parse: when it takes the token, the case
     * is a move without notation notes, the same mark, and the position
     * after it is pos_make's of san_parse's move (san_play's result holds
     * no move: the position tells it); when it declines, the position is
     * untouched (the general way then decides). */
    Position fast = pos;
    uint32_t played = san_play(&fast, tok, strlen(tok));
    if (played) {
        Position made;
        if (st != SAN_OK || r.notes || san_played_mark(played) != r.mark) {
            fail(name, "%s '%s': san_play took it with mark %d, san_parse says %s %04x notes %x mark %d", fen, tok,
                 san_played_mark(played), name_of(status_names, (int)st), (unsigned)r.move, r.notes, r.mark);
            return;
        }
        pos_make(&pos, r.move, &made);
        if (!pos_equal(&fast, &made)) {
            fail(name, "%s '%s': san_play left another position than pos_make", fen, tok);
            return;
        }
        san_fast_taken++;
    } else if (!pos_equal(&fast, &pos)) {
        fail(name, "%s '%s': san_play declined but changed the position", fen, tok);
        return;
    }
    pass("%s %s %s", name, tok, name_of(status_names, want_status));
}

/* ----------------------------------------------------------- rules cases */

/* FEN <TAB> checkmate|stalemate|none <TAB> dead|alive <TAB> canmate-white:yes|no <TAB> canmate-black:yes|no */
static void rules_case(char *line)
{
    char *f[MAX_FIELDS];
    int n = split_tabs(line, f);
    const char *name = case_name();
    if (n < 5 || strncmp(f[3], "canmate-white:", 14) != 0 || strncmp(f[4], "canmate-black:", 14) != 0) {
        fail(name, "malformed case line");
        return;
    }
    Position pos;
    FenError e = load_fen(&pos, f[0], fen_looks_960(f[0]), NULL);
    if (e != FEN_OK) {
        fail(name, "FEN '%s' rejected: %s", f[0], pos_fen_error_text(e));
        return;
    }
    const char *state = rules_is_checkmate(&pos) ? "checkmate" : rules_is_stalemate(&pos) ? "stalemate" : "none";
    const char *dead = rules_insufficient_material(&pos) ? "dead" : "alive";
    const char *cw = rules_can_mate(&pos, WHITE) ? "yes" : "no";
    const char *cb = rules_can_mate(&pos, BLACK) ? "yes" : "no";
    int bad = 0;
    char msg[256] = "";
    if (strcmp(state, f[1]) != 0) {
        bad++;
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " state %s (expected %s)", state, f[1]);
    }
    if (strcmp(dead, f[2]) != 0) {
        bad++;
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " %s (expected %s)", dead, f[2]);
    }
    if (strcmp(cw, f[3] + 14) != 0) {
        bad++;
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " canmate-white:%s (expected %s)", cw, f[3] + 14);
    }
    if (strcmp(cb, f[4] + 14) != 0) {
        bad++;
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " canmate-black:%s (expected %s)", cb, f[4] + 14);
    }
    /* Checkmate and stalemate must also agree with the move generator (R20, R21). */
    bool any = gen_has_legal_move(&pos);
    if ((strcmp(f[1], "none") == 0) != any) {
        bad++;
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), " gen_has_legal_move=%d", any);
    }
    if (bad)
        fail(name, "%s:%s", f[0], msg);
    else
        pass("%s %s %s", name, f[1], f[2]);
}

/* ------------------------------------------- SAN format/parse round trip */

static unsigned long prop_moves, prop_fail_moves;

/* Our own canonical SAN (FIDE / PGN standard), written independently of san.c. */
static void reference_san(const Position *pos, const MoveList *list, Move m, char *out)
{
    static const char letters[] = " PNBRQK";
    int from = move_from(m), to = move_to(m);
    int pt = piece_type(pos->board[from]);
    char *p = out;
    if (move_type(m) == MOVE_CASTLING) {
        strcpy(p, to > from ? "O-O" : "O-O-O");
        p += strlen(p);
    } else {
        bool capture = pos->board[to] != 0 || move_type(m) == MOVE_EN_PASSANT;
        if (pt == PAWN) {
            if (capture) {
                *p++ = (char)('a' + sq_file(from));
                *p++ = 'x';
            }
        } else {
            *p++ = letters[pt];
            int others = 0, same_file = 0, same_rank = 0;
            for (int i = 0; i < list->count; i++) {
                Move o = list->moves[i];
                int of = move_from(o);
                if (of == from || move_to(o) != to || move_type(o) == MOVE_CASTLING
                    || piece_type(pos->board[of]) != pt)
                    continue;
                others++;
                same_file += sq_file(of) == sq_file(from);
                same_rank += sq_rank(of) == sq_rank(from);
            }
            if (others) {
                if (!same_file)
                    *p++ = (char)('a' + sq_file(from));
                else if (!same_rank)
                    *p++ = (char)('1' + sq_rank(from));
                else {
                    *p++ = (char)('a' + sq_file(from));
                    *p++ = (char)('1' + sq_rank(from));
                }
            }
            if (capture)
                *p++ = 'x';
        }
        *p++ = (char)('a' + sq_file(to));
        *p++ = (char)('1' + sq_rank(to));
        if (move_type(m) == MOVE_PROMOTION) {
            *p++ = '=';
            *p++ = letters[move_promo(m)];
        }
    }
    Position next;
    pos_make(pos, m, &next);
    if (next.checkers)
        *p++ = gen_has_legal_move(&next) ? '+' : '#';
    *p = '\0';
}

static bool prop_check_position(const Position *pos, const char *fen, char *detail, size_t cap)
{
    MoveList list;
    gen_legal(pos, &list);
    bool ok = true;
    /* The quick "any legal move?" test (stalemate/mate after every ply)
     * must agree with full generation, here and after every move. */
    if (gen_has_legal_move(pos) != (list.count > 0)) {
        snprintf(detail, cap, "%s: gen_has_legal_move disagrees with gen_legal (%d moves)", fen, list.count);
        return false;
    }
    for (int i = 0; i < list.count; i++) {
        Position after;
        MoveList next;
        pos_make(pos, list.moves[i], &after);
        gen_legal(&after, &next);
        if (gen_has_legal_move(&after) != (next.count > 0)) {
            snprintf(detail, cap, "%s: after move %d gen_has_legal_move disagrees with gen_legal", fen, i);
            return false;
        }
    }
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        char buf[32], ref[32], uci[8];
        memset(buf, 0, sizeof buf);
        memset(uci, 0, sizeof uci);
        size_t len = san_format(pos, m, buf);
        move_to_uci(pos, m, uci);
        reference_san(pos, &list, m, ref);
        prop_moves++;
        const char *why = NULL;
        SanResult r;
        memset(&r, 0, sizeof r);
        Position next;
        pos_make(pos, m, &next);
        int mark = len > 0 && buf[len - 1] == '#' ? 2 : len > 0 && buf[len - 1] == '+' ? 1 : 0;
        if (len == 0 || len >= 12 || strlen(buf) != len)
            why = "bad length";
        else if (strcmp(buf, ref) != 0)
            why = "not canonical";
        else if (san_parse(pos, buf, len, &r) != SAN_OK)
            why = "does not parse";
        else if (r.move != m)
            why = "parses to another move";
        else if (r.notes != 0)
            why = "parse reports notes";
        else if (r.mark != mark)
            why = "mark differs";
        else if (!pos_is_consistent(&next))
            why = "pos_make result inconsistent";
        if (!why) {
            char nm[32];
            memset(nm, 0, sizeof nm);
            size_t l2 = san_format_nomark(pos, m, nm);
            size_t want = len - (size_t)(mark != 0);
            if (l2 != want || memcmp(nm, buf, want) != 0)
                why = "san_format_nomark differs";
        }
        if (why) {
            if (ok)
                snprintf(detail, cap, "%s: move %s: '%s' (reference '%s'): %s (status %d, notes 0x%x)", fen, uci,
                         buf, ref, why, r.status, r.notes);
            ok = false;
            prop_fail_moves++;
        }
    }
    return ok;
}

static void prop_file(const char *path, int stride)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fail(path, "cannot open: %s", strerror(errno));
        return;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0, idx = 0;
    while ((len = getline(&line, &cap, f)) != -1) {
        lineno++;
        char *semi = strchr(line, ';');
        if (semi)
            *semi = '\0';
        char *e = line + strlen(line);
        while (e > line && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r' || e[-1] == '\t'))
            *--e = '\0';
        if (line[0] == '\0' || line[0] == '#')
            continue;
        bool deep = idx++ % stride == 0;
        char name[256];
        snprintf(name, sizeof name, "R-san-roundtrip %s:%ld", path, lineno);
        Position pos;
        bool c960 = strstr(path, "960") != NULL || fen_looks_960(line);
        FenError fe = load_fen(&pos, line, c960, NULL);
        if (fe != FEN_OK) {
            fail(name, "FEN '%s' rejected: %s", line, pos_fen_error_text(fe));
            continue;
        }
        char detail[512];
        bool ok = prop_check_position(&pos, line, detail, sizeof detail);
        if (ok && deep) {
            MoveList list;
            gen_legal(&pos, &list);
            for (int i = 0; i < list.count && ok; i++) {
                Position next;
                char fen2[128];
                pos_make(&pos, list.moves[i], &next);
                pos_to_fen(&next, fen2);
                ok = prop_check_position(&next, fen2, detail, sizeof detail);
            }
        }
        if (ok)
            pass("%s (%s)", name, deep ? "depth 2" : "depth 1");
        else
            fail(name, "%s", detail);
    }
    free(line);
    fclose(f);
}

/* ------------------------------------------------------------------ main */

/* ---------------------------------------------------------------- R45 dates */

/* The day bounds of PGN dates and the laws they decide (R45), worked out
 * by hand: '?' digits span their range, "00" is an unknown month or day,
 * a year below 1400 holds a place. */
static void test_laws_by_date(void)
{
    static const struct {
        const char *date, *utc, *event;
        int ok;
        uint32_t lo, hi;
        Laws laws;
    } cases[] = {
        {"1896.??.??", NULL, NULL, 1, 18960101, 18961231, LAWS_1997},
        {"2014.06.30", NULL, NULL, 1, 20140630, 20140630, LAWS_1997},
        {"2014.07.01", NULL, NULL, 1, 20140701, 20140701, LAWS_2014},
        {"2014.07.??", NULL, NULL, 1, 20140701, 20140731, LAWS_2014},
        {"2014.06.??", NULL, NULL, 1, 20140601, 20140631, LAWS_1997},
        {"2014.??.??", NULL, NULL, 1, 20140101, 20141231, LAWS_UNPROVEN},
        {"201?.??.??", NULL, NULL, 1, 20100101, 20191231, LAWS_UNPROVEN},
        {"19??.??.??", NULL, NULL, 1, 19000101, 19991231, LAWS_1997},
        {"????.??.??", NULL, NULL, 1, 14000101, 99991231, LAWS_UNPROVEN},
        {"2015", NULL, NULL, 1, 20150101, 20151231, LAWS_2014},
        {"2015-03-04", NULL, NULL, 1, 20150304, 20150304, LAWS_2014},
        {"1990.00.00", NULL, NULL, 1, 19900101, 19901231, LAWS_1997},
        {"2014.1?.??", NULL, NULL, 1, 20141001, 20141231, LAWS_2014},
        /* the forms laws_date_bounds reads at once, at their edges */
        {"1400.01.01", NULL, NULL, 1, 14000101, 14000101, LAWS_1997},
        {"2014.12.31", NULL, NULL, 1, 20141231, 20141231, LAWS_2014},
        {"2014.07.00", NULL, NULL, 1, 20140701, 20140731, LAWS_2014},
        {"2014.00.15", NULL, NULL, 1, 20140115, 20141215, LAWS_UNPROVEN},
        {"2014.05.32", NULL, NULL, 0, 0, 0, LAWS_UNPROVEN},
        {"1399.05.05", NULL, NULL, 0, 0, 0, LAWS_UNPROVEN},
        {"1399.??.??", NULL, NULL, 0, 0, 0, LAWS_UNPROVEN},
        {"2014.07.01 ", NULL, NULL, 1, 20140701, 20140701, LAWS_2014},
        {"2014.07.01x", NULL, NULL, 0, 0, 0, LAWS_UNPROVEN},
        {"2014.07.0", NULL, NULL, 0, 0, 0, LAWS_UNPROVEN},
        {"2014.07.?1", NULL, NULL, 1, 20140701, 20140731, LAWS_2014},
        {"2014.??.15", NULL, NULL, 1, 20140115, 20141215, LAWS_UNPROVEN},
        {"0000.00.00", NULL, NULL, 0, 0, 0, LAWS_UNPROVEN},
        {"2014.13.01", NULL, NULL, 0, 0, 0, LAWS_UNPROVEN},
        {"14.7.2014", NULL, NULL, 0, 0, 0, LAWS_UNPROVEN},
        {"", NULL, NULL, 0, 0, 0, LAWS_UNPROVEN},
        /* no Date: UTCDate; EventDate only raises the earliest day */
        {NULL, "2016.01.01", NULL, 0, 0, 0, LAWS_2014},
        {"????.??.??", NULL, "2015.01.10", 1, 14000101, 99991231, LAWS_2014},
        {"2014.??.??", NULL, "2014.06.20", 1, 20140101, 20141231, LAWS_UNPROVEN},
        {"2014.??.??", NULL, "2014.07.20", 1, 20140101, 20141231, LAWS_2014},
        {"2013.??.??", NULL, "2015.01.01", 1, 20130101, 20131231, LAWS_UNPROVEN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint32_t lo = 0, hi = 0;
        int ok = laws_date_bounds(cases[i].date, &lo, &hi);
        Laws l = laws_for_dates(cases[i].date, cases[i].utc, cases[i].event);
        char name[80];
        snprintf(name, sizeof name, "R45 date \"%s\" utc %s event %s", cases[i].date ? cases[i].date : "(none)",
                 cases[i].utc ? cases[i].utc : "-", cases[i].event ? cases[i].event : "-");
        if (ok != cases[i].ok || (ok && (lo != cases[i].lo || hi != cases[i].hi)))
            fail(name, "bounds %d %u-%u, want %d %u-%u", ok, (unsigned)lo, (unsigned)hi, cases[i].ok,
                 (unsigned)cases[i].lo, (unsigned)cases[i].hi);
        else if (l != cases[i].laws)
            fail(name, "laws %d, want %d", (int)l, (int)cases[i].laws);
        else
            pass("%s: laws %s%s", name, laws_name(l), l == LAWS_UNPROVEN ? " (unproven)" : "");
    }
}


/* ------------------------------------------------------- history rules */

/* The history rules of rules.h without PGN: key histories made by hand
 * and by moves from positions, each expected count worked out below. */
static void expect_int(const char *name, int got, int want)
{
    if (got != want)
        fail(name, "got %d, want %d", got, want);
    else
        pass("%s: %d", name, got);
}

static void test_history_rules(void)
{
    /* A history of period 4 (keys 1000..1003 over and over): the key of
     * ply q stood at q, q-4, ..., q mod 4. */
    static uint64_t keys[320];
    for (int i = 0; i < 320; i++)
        keys[i] = 1000 + (uint64_t)(i % 4);
    expect_int("R26 repetitions: ply 8, clock 8 (plies 0, 4, 8)", rules_repetitions(keys, 8, 8), 3);
    expect_int("R26 repetitions: ply 9, clock 9 (plies 1, 5, 9)", rules_repetitions(keys, 9, 9), 3);
    expect_int("R23 repetitions: ply 16, clock 16 (0, 4, ..., 16)", rules_repetitions(keys, 16, 16), 5);
    /* clock 3: the last irreversible move was ply 5, nothing before it
     * counts and ply 4 is before it */
    expect_int("R26 repetitions: ply 8, clock 3 (before the clock: none)", rules_repetitions(keys, 8, 3), 1);
    expect_int("R26 repetitions: ply 8, clock 4 (ply 4 counts, 0 not)", rules_repetitions(keys, 8, 4), 2);

    /* The table (rules_rep_count) against the look-back, ply by ply as the
     * replay asks, from ply 100 (clock = ply: no irreversible move) to 303;
     * then a capture at ply 304 starts a new stretch of new keys. */
    for (int i = 304; i < 320; i++)
        keys[i] = 5000 + (uint64_t)(i % 4);
    RulesRepTable t;
    memset(&t, 0, sizeof t);
    rules_rep_reset(&t);
    int differ = 0;
    for (uint32_t q = 100; q < 304; q++)
        differ += rules_rep_count(&t, keys, q, q) != rules_repetitions(keys, q, q);
    expect_int("R26 repetition table agrees with the look-back, plies 100-303", differ, 0);
    expect_int("R26 repetition table: ply 300 (0, 4, ..., 300: 76)", rules_rep_count(&t, keys, 300, 300), 76);
    expect_int("R26 repetition table: ply 303 (3, 7, ..., 303: 76)", rules_rep_count(&t, keys, 303, 303), 76);
    /* ply 308, clock 4: the stretch starts at 304, whose key recurs at 308 */
    expect_int("R26 repetition table: new stretch, ply 308 clock 4 (304, 308)", rules_rep_count(&t, keys, 308, 4), 2);
    expect_int("R26 repetitions: new stretch, ply 308 clock 4", rules_repetitions(keys, 308, 4), 2);
    rules_rep_free(&t);

    /* Moves from the start: 1. Nf3 Nf6 2. Ng1 Ng8 twice.  The start
     * position stands at plies 0, 4 and 8 (knight moves: the clock is 8
     * at ply 8), a third time: threefold (R27); at ply 4 twice only. */
    Position pos;
    pos_startpos(&pos);
    uint64_t hist[9];
    hist[0] = pos.key;
    static const int from_to[4][2] = {{6, 21}, {62, 45}, {21, 6}, {45, 62}}; /* g1-f3, g8-f6, f3-g1, f6-g8 */
    for (int ply = 1; ply <= 8; ply++) {
        const int *ft = from_to[(ply - 1) % 4];
        pos_do(&pos, move_new(ft[0], ft[1], MOVE_NORMAL, 0));
        hist[ply] = pos.key;
        if (ply == 4) {
            expect_int("R26 knights out and back: the start position twice at ply 4",
                       rules_repetitions(hist, 4, pos.halfmove), 2);
            expect_int("R27 twice is no claim", rules_draw_claim(&pos, hist, 4), RULES_CLAIM_NONE);
        }
    }
    expect_int("R27 knights out and back twice: clock 8", (int)pos.halfmove, 8);
    expect_int("R27 knights out and back twice: the start position a third time",
               rules_repetitions(hist, 8, pos.halfmove), 3);
    expect_int("R27 threefold claim at ply 8", rules_draw_claim(&pos, hist, 8), RULES_CLAIM_THREEFOLD);

    /* The 50-move claim by the clock alone: 100 plies (50 moves each)
     * claim, 99 not (R27, FIDE 9.3); ply 0, so no repetition. */
    static const char *const fifty[2] = {"8/8/8/4k3/8/8/8/R3K3 w - - 100 80", "8/8/8/4k3/8/8/8/R3K3 w - - 99 80"};
    for (int i = 0; i < 2; i++) {
        if (pos_from_fen(&pos, fifty[i], strlen(fifty[i]), false, NULL) != FEN_OK) {
            fail("R27 fifty", "FEN %s refused", fifty[i]);
            continue;
        }
        uint64_t k0 = pos.key;
        expect_int(i ? "R27 clock 99: no claim" : "R27 clock 100: fifty-move claim", rules_draw_claim(&pos, &k0, 0),
                   i ? RULES_CLAIM_NONE : RULES_CLAIM_FIFTY);
    }

    /* The endings the board decides.  Fool's mate: White to move, in
     * check from h4, no move (R20).  Kh8 against Qf7 Kg6, Black to move:
     * not in check, g8 g7 h7 all attacked (R21).  Two kings (R22).  The
     * start: none. */
    static const struct { const char *fen, *name; int want; } ends[] = {
        {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "R20 fool's mate", RULES_END_CHECKMATE},
        {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "R21 Kh8 v Qf7 Kg6 stalemate", RULES_END_STALEMATE},
        {"8/8/4k3/8/8/4K3/8/8 w - - 0 1", "R22 two kings dead", RULES_END_DEAD},
        {STARTPOS, "R20-R22 start position: no ending", RULES_END_NONE},
    };
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        if (pos_from_fen(&pos, ends[i].fen, strlen(ends[i].fen), false, NULL) != FEN_OK) {
            fail(ends[i].name, "FEN refused");
            continue;
        }
        expect_int(ends[i].name, rules_board_ending(&pos, gen_has_legal_move(&pos)), ends[i].want);
    }
}

/* tags.c: the tag a name means (its case first, else any case), and
 * report_core.c's one-pass reading of the six shown tags, which must
 * agree with it whatever the order of the tags. */
static void test_tags(void)
{
    static const char *const names[][2] = {
        {"event", "e1"}, {"Event", "E2"}, {"site", "s"}, {"WhiteElo", "2000"}, {"White", "W"},
        {"BLACK", "b"}, {"Round", "1"}, {"Date", "d"}, {"Result", "1-0"}, {"Rounds", "x"}, {"DATE", "D"},
    };
    enum { N = sizeof names / sizeof names[0] };
    static const char *const want[TAGS_ROSTER_N] = {"E2", "s", "d", "1", "W", "b", "1-0"};
    PgnTag tags[N];
    int bad = 0;
    for (int rot = 0; rot < N; rot++) {
        memset(tags, 0, sizeof tags);
        for (int i = 0; i < N; i++) {
            tags[i].name = names[(i + rot) % N][0];
            tags[i].value = names[(i + rot) % N][1];
        }
        PgnGame g;
        memset(&g, 0, sizeof g);
        g.tags = tags;
        g.ntags = N;
        const char *v[REPORT_SHOWN];
        report_tags6(&g, v);
        for (int k = 0; k < TAGS_ROSTER_N; k++) {
            const char *t = tags_value(&g, tags_roster[k]);
            if (!t || strcmp(t, want[k]) != 0 || (k < REPORT_SHOWN && v[k] != t)) {
                fail("tags", "rotation %d: %s is \"%s\" (six shown: \"%s\"), not \"%s\"", rot, tags_roster[k],
                     t ? t : "(none)", k < REPORT_SHOWN && v[k] ? v[k] : "(none)", want[k]);
                bad++;
            }
        }
    }
    if (!bad)
        pass("tags: the roster's values in %d orders, tags_value and report_tags6 alike", N);
    static const struct {
        const char *v;
        int want;
    } variants[] = {
        {NULL, 0}, {"", 0}, {"Standard", 0}, {"From Position", 0}, {"Chess960", 1}, {"chess 960", 1},
        {"Fischer-Random", 1}, {"FRC", 1}, {"freestyle_chess", 1}, {"crazyhouse", -1}, {"960x", -1},
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++) {
        int got = tags_variant(variants[i].v);
        if (got != variants[i].want)
            fail("tags_variant", "\"%s\": %d, not %d", variants[i].v ? variants[i].v : "(null)", got, variants[i].want);
        else
            pass("tags_variant \"%s\": %d", variants[i].v ? variants[i].v : "(null)", got);
    }
    static const struct {
        const char *name;
        int want;
    } index[] = {{"Event", TAGS_EVENT}, {"Round", TAGS_ROUND}, {"Result", TAGS_RESULT}, {"round", -1},
                 {"Rounds", -1}, {"WhiteElo", -1}, {"Black", TAGS_BLACK}, {"FEN", -1}};
    for (size_t i = 0; i < sizeof index / sizeof index[0]; i++) {
        int got = tags_roster_index(index[i].name);
        if (got != index[i].want)
            fail("tags_roster_index", "\"%s\": %d, not %d", index[i].name, got, index[i].want);
        else
            pass("tags_roster_index \"%s\": %d", index[i].name, got);
    }
}

int main(int argc, char **argv)
{
    const char *dir = "tests";
    int stride = 4;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
            stride = atoi(argv[++i]);
            if (stride < 1)
                stride = 1;
        } else if (argv[i][0] != '-') {
            dir = argv[i];
        } else {
            fprintf(stderr, "usage: tests/unit [-s STRIDE] [TESTS-DIR]\n"
                            "  STRIDE: every STRIDE-th perft position is also checked at depth 2\n");
            return 2;
        }
    }
    chess_init();
    char path[1024];

    test_board_and_start();
    test_laws_by_date();
    test_history_rules();
    test_tags();
    snprintf(path, sizeof path, "%s/fen", dir);
    for_each_file(path, fen_case);
    snprintf(path, sizeof path, "%s/san", dir);
    for_each_file(path, san_case);
    /* the agreement above must have been tried: the usual shapes (the
     * fast path's) make most of the files' moves */
    if (san_fast_taken < 90)
        fail("san fast path", "san_play took only %d of the SAN cases", san_fast_taken);
    else
        pass("san fast path: san_play took %d SAN cases, each as san_parse and pos_make", san_fast_taken);
    snprintf(path, sizeof path, "%s/rules", dir);
    for_each_file(path, rules_case);
    snprintf(path, sizeof path, "%s/epd/standard.epd", dir);
    prop_file(path, stride);
    snprintf(path, sizeof path, "%s/epd/chess960.epd", dir);
    prop_file(path, stride);
    printf("# san round trip: %lu moves checked, %lu wrong\n", prop_moves, prop_fail_moves);

    printf("%lu passed, %lu failed\n", n_passed, n_failed);
    if (fflush(stdout) != 0)
        return 2;
    return n_failed ? 1 : 0;
}
