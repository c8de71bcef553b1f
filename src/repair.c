/* repair.c - repair with proof (issue 35).
 *
 * A main line that breaks at ply k (a move that is illegal, ambiguous or
 * no move at all, or a move after the game ended) is searched for single
 * edits at or before k: a move put right (its piece letter, disambiguation,
 * destination, pawn file, castling side, promotion piece, a piece letter
 * of another language), two moves of one side swapped back, a move or a
 * pair of moves put in, a move written twice taken out, a DGT board's
 * king move after the end taken out.  An edit is proven when the whole
 * rest of the game, every later move as written but for its check and
 * mate marks, then replays legally and ends as the game's result says
 * (a checkmate for the side the result names, no mate or stalemate
 * against it, a '#' on the last move a mate).  The proven ones are ranked
 * by how likely such a slip is (tier), nearest the break first, and the
 * best is applied only when it carries most of their weight (decide).
 *
 * The replay of a candidate line is here in one place (replay_line), to
 * be replaced by the move record of a later refactor. */
#include "repair.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mem.h"
#include "movegen.h"
#include "position.h"
#include "san.h"

static const char *const edit_slugs[REPAIR_EDIT_COUNT] = {
    "piece-letter", "language", "disambiguation", "destination", "pawn-file", "castling", "promotion",
    "transposed", "missing-move", "missing-pair", "written-twice", "dgt-king",
};

const char *repair_edit_slug(RepairEdit e) { return e < REPAIR_EDIT_COUNT ? edit_slugs[e] : "unknown"; }

/* How likely each slip is (lower: likelier); each ply before the break adds PLY_COST. */
static const uint32_t edit_base[REPAIR_EDIT_COUNT] = {
    [REPAIR_PIECE_LETTER] = 6, [REPAIR_LANGUAGE] = 2,      [REPAIR_DISAMBIGUATION] = 5,
    [REPAIR_DESTINATION] = 8,  [REPAIR_PAWN_FILE] = 7,     [REPAIR_CASTLING] = 4,
    [REPAIR_PROMOTION] = 2,    [REPAIR_TRANSPOSED] = 12,   [REPAIR_MISSING_MOVE] = 14,
    [REPAIR_MISSING_PAIR] = 20, [REPAIR_WRITTEN_TWICE] = 8, [REPAIR_DGT_KING] = 1,
};
#define PLY_COST 3

/* The cost of an edit (tier() below), in units where each unit divides
 * the edit's weight by e^(1/2): the weight of a candidate is
 * exp(-cost / 2), and the best is applied when it carries at least
 * REPAIR_SHARE of the weight of every candidate proven. */
#define COST_MARK 16     /* each move of the line whose check mark or notation the position contradicts */
#define COST_PAIR 16     /* a pair of moves put in */
#define REPAIR_SHARE 0.9

/* The search's reach before the break, in plies. */
#define WIN_SUBST 40   /* a move put right */
#define WIN_SWAP 16    /* two moves swapped */
#define WIN_MISSING 10 /* a move put in */
#define WIN_PAIR 10    /* a pair put in */
#define WIN_TWICE 4    /* a move taken out */

/* One item of a candidate line: a token as written, or a move. */
typedef struct Item {
    const char *tok;  /* NULL: mv */
    size_t len;
    Move mv;
    const PgnElem *marked; /* mv put in this token's place: its check mark */
} Item;

typedef struct Work {
    const PgnElem **tok;   /* the main line's move tokens */
    size_t ntok, tok_cap;
    Position *pos;         /* pos[i]: before ply i (0-based), i <= k */
    Move *mv;              /* mv[i]: ply i's move, i < k */
    uint64_t *hash;        /* hash[i]: the line's identity before ply i */
    uint32_t *off;         /* off[i]: marks and notation the recorded plies before i contradict */
    size_t pos_cap;
} Work;

typedef struct Search {
    RepairSet *rs;
    Work *w;
    size_t k;              /* the ply (0-based) that breaks */
    PgnResult result;
    uint32_t rest;         /* plies replayed after the edit, of the best */
    uint32_t marks_off;    /* of the last line replayed: moves whose check mark disagrees */
} Search;

/* ---- the written move's shape ---- */

typedef struct Shape {
    bool ok;               /* read as a move */
    bool castle, castle_long;
    bool lang;             /* piece letter of another language */
    int piece;             /* PAWN..KING */
    int ff, fr;            /* origin file / rank given, -1 if not */
    int to;
    int promo;             /* 0 none */
    bool capture;
} Shape;

static int piece_of(char c, bool *lang)
{
    *lang = false;
    switch (c) {
    case 'K': return KING;
    case 'Q': return QUEEN;
    case 'R': return ROOK;
    case 'B': return BISHOP;
    case 'N': return KNIGHT;
    case 'P': return PAWN;
    /* German and others: Springer, Läufer, Turm, Dame */
    case 'S': *lang = true; return KNIGHT;
    case 'L': *lang = true; return BISHOP;
    case 'T': *lang = true; return ROOK;
    case 'D': *lang = true; return QUEEN;
    default: return 0;
    }
}

/* The token without its marks and annotations: its length. */
static size_t core_len(const char *t, size_t n)
{
    if (n >= 4 && memcmp(t + n - 4, "e.p.", 4) == 0)
        n -= 4;
    while (n > 0 && (t[n - 1] == '+' || t[n - 1] == '#' || t[n - 1] == '!' || t[n - 1] == '?'))
        n--;
    return n;
}

static Shape shape_of(const char *t, size_t n)
{
    Shape s = {.ff = -1, .fr = -1, .to = SQ_NONE};
    n = core_len(t, n);
    if (n >= 3 && (t[0] == 'O' || t[0] == '0') && t[1] == '-' && t[2] == t[0]) {
        s.castle = s.ok = true;
        s.castle_long = n >= 5 && t[3] == '-' && t[4] == t[0];
        return s;
    }
    size_t i = 0;
    s.piece = PAWN;
    if (n && t[0] >= 'A' && t[0] <= 'Z') {
        s.piece = piece_of(t[0], &s.lang);
        if (!s.piece)
            return s;
        i = 1;
    }
    if (n > i + 1 && (t[n - 1] == 'Q' || t[n - 1] == 'R' || t[n - 1] == 'B' || t[n - 1] == 'N' ||
                      t[n - 1] == 'q' || t[n - 1] == 'r' || t[n - 1] == 'b' || t[n - 1] == 'n')) {
        bool l;
        s.promo = piece_of((char)(t[n - 1] & ~0x20), &l);
        n--;
        if (n > i && t[n - 1] == '=')
            n--;
    }
    if (n < i + 2 || t[n - 2] < 'a' || t[n - 2] > 'h' || t[n - 1] < '1' || t[n - 1] > '8')
        return s;
    s.to = sq_make(t[n - 2] - 'a', t[n - 1] - '1');
    for (size_t j = i; j < n - 2; j++) {
        char c = t[j];
        if (c >= 'a' && c <= 'h')
            s.ff = c - 'a';
        else if (c >= '1' && c <= '8')
            s.fr = c - '1';
        else if (c == 'x' || c == ':')
            s.capture = true;
        else if (c != '-')
            return s;
    }
    s.ok = true;
    return s;
}

static int abs_i(int x) { return x < 0 ? -x : x; }

/* The kind of slip that would write move m (in p) as w, or -1. */
static int relate(const Shape *w, const Position *p, Move m)
{
    int from = move_from(m), to = move_to(m), type = move_type(m);
    if (type == MOVE_CASTLING) {
        if (!w->castle)
            return -1;
        bool lng = sq_file(to) < sq_file(from);
        return lng != w->castle_long ? REPAIR_CASTLING : -1;
    }
    if (!w->ok || w->castle)
        return -1;
    int pt = piece_type(p->board[from]);
    bool from_ok = (w->ff < 0 || w->ff == sq_file(from)) && (w->fr < 0 || w->fr == sq_rank(from));
    int promo = type == MOVE_PROMOTION ? move_promo(m) : 0;
    if (w->promo && w->promo != promo)
        return -1;
    if (to == w->to) {
        if (pt == w->piece) {
            if (promo && !w->promo)
                return from_ok ? REPAIR_PROMOTION : -1;
            if (w->lang)
                return from_ok ? REPAIR_LANGUAGE : -1;
            if (pt == PAWN)
                return w->ff >= 0 && w->ff != sq_file(from) ? REPAIR_PAWN_FILE : -1;
            return REPAIR_DISAMBIGUATION;
        }
        if (w->lang || w->promo != promo)
            return -1;
        /* (a pawn capture's file is no piece's origin) */
        if (w->piece == PAWN && w->ff >= 0)
            return -1;
        return from_ok ? REPAIR_PIECE_LETTER : -1;
    }
    if (pt != w->piece || w->lang || (promo && !w->promo))
        return -1;
    int df = abs_i(sq_file(to) - sq_file(w->to)), dr = abs_i(sq_rank(to) - sq_rank(w->to));
    if (pt == PAWN && w->ff >= 0 && w->ff == sq_file(from) && dr == 0 && sq_file(from) != sq_file(to))
        return REPAIR_PAWN_FILE; /* dxc5 for dxe5 */
    if (df + dr == 1 && from_ok)
        return REPAIR_DESTINATION;
    return -1;
}

/* ---- the replay ---- */

static inline uint64_t hash_step(uint64_t h, uint64_t key) { return (h ^ key) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull; }

/* Notation notes that a line contradicts: a capture mark on a move that
 * takes nothing or none on one that does, an origin given that the
 * position does not need or not given where it needs one. */
#define NOTES_OFF (SAN_NOTE_CAPTURE_MISSING | SAN_NOTE_CAPTURE_SURPLUS | SAN_NOTE_OVERDISAMBIGUATED | \
                   SAN_NOTE_UNDERDISAMBIGUATED_FILE)

/* Makes the token t (len n, NUL-terminated) in *p: false if it names no
 * single legal move.  The mark is not looked at; *off counts a notation
 * note the position gives the token (NOTES_OFF). */
static bool play_tok(RepairSet *rs, Position *p, const char *t, size_t n, uint32_t *off)
{
    rs->nodes++;
    if (san_play(p, t, n))
        return true;
    SanResult r;
    if (san_parse(p, t, n, &r) != SAN_OK)
        return false;
    *off += (r.notes & NOTES_OFF) != 0;
    pos_do(p, r.move);
    return true;
}

/* Does the game end in p as the result and the last token (its '#')
 * say?  A checkmate for the side the result names (or no result), a
 * stalemate for a draw (or none), a '#' only on a mate. */
static bool ends_right(const Position *p, PgnResult res, const char *last)
{
    bool over = !gen_has_legal_move(p);
    bool none = res == PGN_RES_NONE || res == PGN_RES_UNKNOWN;
    if (over && p->checkers)
        return none || res == (p->side == WHITE ? PGN_RES_BLACK : PGN_RES_WHITE);
    if (over)
        return none || res == PGN_RES_DRAW;
    return !(last && strchr(last, '#'));
}

/* Replays items[0..ni) then the tokens from j on, from before ply p
 * (0-based): true if all are legal and the game ends right.  *key: the
 * line's identity. */
/* Does the token's check mark ('+', '#', or none) disagree with the
 * position its move left? */
static inline bool mark_off(const char *t, size_t n, const Position *after)
{
    while (n > 0 && (t[n - 1] == '!' || t[n - 1] == '?'))
        n--;
    bool marked = n > 0 && (t[n - 1] == '+' || t[n - 1] == '#');
    return marked != (after->checkers != 0);
}

static bool replay_line(Search *S, size_t p, const Item *items, size_t ni, size_t j, uint64_t *key, uint32_t *plies)
{
    Work *w = S->w;
    RepairSet *rs = S->rs;
    Position pos = w->pos[p];
    uint64_t h = w->hash[p];
    S->marks_off = w->off[p];
    const char *last = p ? w->tok[p - 1]->text : NULL;
    uint32_t n = 0;
    for (size_t i = 0; i < ni; i++) {
        if (items[i].tok) {
            if (!play_tok(rs, &pos, items[i].tok, items[i].len, &S->marks_off))
                return false;
            S->marks_off += mark_off(items[i].tok, items[i].len, &pos);
            last = items[i].tok;
        } else {
            rs->nodes++;
            bool takes = pos.board[move_to(items[i].mv)] && move_type(items[i].mv) != MOVE_CASTLING;
            takes |= move_type(items[i].mv) == MOVE_EN_PASSANT;
            pos_do(&pos, items[i].mv);
            if (items[i].marked) {
                const PgnElem *m = items[i].marked;
                S->marks_off += mark_off(m->text, m->len, &pos);
                /* (the capture mark of the token it replaces) */
                S->marks_off += (memchr(m->text, 'x', m->len) != NULL) != takes;
            }
            last = items[i].marked ? items[i].marked->text : NULL;
        }
        h = hash_step(h, pos.key);
        n++;
    }
    for (; j < w->ntok; j++) {
        const PgnElem *e = w->tok[j];
        if (e->truncated || !play_tok(rs, &pos, e->text, e->len, &S->marks_off))
            return false;
        S->marks_off += mark_off(e->text, e->len, &pos);
        h = hash_step(h, pos.key);
        last = e->text;
        n++;
        if (rs->nodes > REPAIR_BUDGET)
            return false;
    }
    if (!ends_right(&pos, S->result, last))
        return false;
    *key = h;
    *plies = n;
    return true;
}

/* ---- candidates ---- */

static void label(const Work *w, size_t ply, char *buf, size_t cap)
{
    const Position *p0 = &w->pos[0];
    size_t half = ply + (p0->side == BLACK);
    snprintf(buf, cap, "%u%s", (unsigned)(p0->fullmove + half / 2), half % 2 ? "..." : ".");
}

static void cat_tok(char *buf, size_t cap, const char *t, size_t n)
{
    size_t len = strlen(buf);
    if (len && len + 1 < cap)
        buf[len++] = ' ', buf[len] = 0;
    if (len + n >= cap)
        n = len + 1 < cap ? cap - len - 1 : 0;
    memcpy(buf + len, t, n);
    buf[len + n] = 0;
}

/* The weight of a candidate of cost c: exp(-c / 2), by products (no libm). */
static double weight(uint32_t c)
{
    double w = 1.0;
    for (uint32_t i = 0; i < c; i++)
        w *= 0.60653065971263342; /* e^(-1/2) */
    return w;
}

/* Records a proven candidate: kept if it is among the REPAIR_MAX best and
 * its line is not one already kept. */
static void keep(Search *S, Repair *c, uint32_t plies)
{
    RepairSet *rs = S->rs;
    /* Check marks are not needed for the proof, but a line whose marks
     * agree with its moves is the likelier: they rank first. */
    if (c->nput < 0)
        return; /* (its text would not fit: it could not be written) */
    c->marks_off = S->marks_off;
    uint32_t marks = c->marks_off < 16 ? c->marks_off : 16;
    c->tier += COST_MARK * marks;
    c->score += 1000 * COST_MARK * marks;
    for (size_t i = 0; i < rs->n; i++)
        if (rs->r[i].line_key == c->line_key) {
            if (c->score < rs->r[i].score) {
                /* (the same line by a likelier edit: its weight instead) */
                rs->mass += weight(c->tier) - weight(rs->r[i].tier);
                size_t at = i;
                while (at > 0 && rs->r[at - 1].score > c->score)
                    at--;
                memmove(&rs->r[at + 1], &rs->r[at], (i - at) * sizeof *c);
                rs->r[at] = *c;
                if (at == 0)
                    S->rest = plies;
            }
            return;
        }
    rs->found++;
    rs->mass += weight(c->tier);
    size_t at = rs->n;
    while (at > 0 && rs->r[at - 1].score > c->score)
        at--;
    if (at >= REPAIR_MAX)
        return;
    if (rs->n < REPAIR_MAX)
        rs->n++;
    memmove(&rs->r[at + 1], &rs->r[at], (rs->n - 1 - at) * sizeof *c);
    rs->r[at] = *c;
    if (at == 0)
        S->rest = plies;
}

static void put(Repair *c, int i, uint64_t at, uint32_t len, const char *text, bool loose)
{
    size_t n = strlen(text);
    if (c->nput < 0 || c->put_used + n + 1 > sizeof c->put_text) {
        c->nput = -1;
        return;
    }
    c->put[i].at = at;
    c->put[i].len = len;
    c->put[i].loose = loose;
    c->put[i].text = c->put_used;
    memcpy(c->put_text + c->put_used, text, n + 1);
    c->put_used = (uint8_t)(c->put_used + n + 1);
    c->nput = i + 1;
}

/* The cost of an edit: how much of the record it takes to be wrong.  0: a
 * slip the notation makes likely at the break (a piece letter of another
 * language, a promotion to a queen left unwritten, the castling side, a
 * DGT artefact, an origin left out of a move the position makes
 * ambiguous); 2: one token at the break written wrong; 6: one token
 * before the break, a move left out, or the move at the break swapped
 * with its side's move before or after; 8: two other moves of one side
 * swapped (12 with three moves between); 16: a pair left out.  COST_MARK
 * is added for each move whose check mark or notation the line
 * contradicts (keep). */
static uint32_t tier(RepairEdit e, bool at_break, int promo)
{
    switch (e) {
    case REPAIR_DGT_KING:
    case REPAIR_LANGUAGE:
    case REPAIR_CASTLING:
        return at_break ? 0 : 6;
    case REPAIR_PROMOTION:
        /* (a queen is the promotion a score leaves unwritten; another
         * piece asks that the scribe left out the rarer one) */
        return at_break ? (promo == QUEEN ? 0 : 16) : 6;
    case REPAIR_PIECE_LETTER:
    case REPAIR_DISAMBIGUATION:
    case REPAIR_DESTINATION:
    case REPAIR_PAWN_FILE:
    case REPAIR_WRITTEN_TWICE:
        return at_break ? 2 : 6;
    case REPAIR_TRANSPOSED: return 8;
    case REPAIR_MISSING_MOVE: return 6;
    default: return COST_PAIR;
    }
}

static void start_cand(Search *S, Repair *c, RepairEdit e, size_t ply, uint32_t span)
{
    memset(c, 0, sizeof *c);
    c->edit = e;
    c->ply = (uint32_t)ply + 1;
    c->span = span;
    c->tier = tier(e, ply == S->k, 0);
    c->score = c->tier * 1000 + edit_base[e] + PLY_COST * (uint32_t)(S->k - (ply < S->k ? ply : S->k));
    c->pos = ply < S->w->ntok ? S->w->tok[ply]->pos : S->w->tok[S->w->ntok - 1]->pos;
}

static void old_tokens(const Work *w, Repair *c, size_t from, size_t n)
{
    c->old_text[0] = 0;
    for (size_t i = from; i < from + n && i < w->ntok; i++)
        cat_tok(c->old_text, sizeof c->old_text, w->tok[i]->text, w->tok[i]->len);
}

/* A token's trailing annotation ("!", "?!"): kept on the move put in its place. */
static const char *annotation(const PgnElem *e)
{
    size_t n = e->len;
    while (n > 0 && (e->text[n - 1] == '!' || e->text[n - 1] == '?'))
        n--;
    return e->text + n;
}

/* A move put right at ply p. */
static void try_substitutions(Search *S, size_t p)
{
    Work *w = S->w;
    const PgnElem *e = w->tok[p];
    if (e->truncated)
        return;
    Shape sh = shape_of(e->text, e->len);
    MoveList list;
    gen_legal(&w->pos[p], &list);
    for (int i = 0; i < list.count && S->rs->nodes <= REPAIR_BUDGET; i++) {
        Move m = list.moves[i];
        if (p < S->k && m == w->mv[p])
            continue;
        int kind = relate(&sh, &w->pos[p], m);
        if (kind < 0)
            continue;
        Item it = {NULL, 0, m, e};
        Repair c;
        uint32_t plies;
        if (!replay_line(S, p, &it, 1, p + 1, &c.line_key, &plies))
            continue;
        uint64_t key = c.line_key;
        start_cand(S, &c, (RepairEdit)kind, p, 1);
        /* a pawn written to the last rank without a piece: a promotion
         * left unwritten is likelier than a piece letter left out */
        if (kind == REPAIR_PIECE_LETTER && sh.piece == PAWN && !sh.promo && sh.to != SQ_NONE &&
            (sq_rank(sh.to) == 0 || sq_rank(sh.to) == 7)) {
            c.tier = 12;
            c.score = c.tier * 1000 + edit_base[kind];
        }
        /* the written move is one the position makes ambiguous (no origin
         * given, and the candidate moves that piece to that square): the
         * origin left out is the likeliest slip */
        if (kind == REPAIR_DISAMBIGUATION && p == S->k && sh.ff < 0 && sh.fr < 0) {
            c.tier = 0;
            c.score = edit_base[kind];
        }
        if (kind == REPAIR_PROMOTION) {
            c.tier = tier(REPAIR_PROMOTION, p == S->k, move_promo(m));
            c.score = c.tier * 1000 + edit_base[kind] + (move_promo(m) == QUEEN ? 0 : 6 - move_promo(m));
        }
        c.line_key = key;
        char san[16];
        san_format(&w->pos[p], m, san);
        old_tokens(w, &c, p, 1);
        snprintf(c.new_text, sizeof c.new_text, "%s", san);
        char text[40];
        snprintf(text, sizeof text, "%s%s", san, annotation(e));
        put(&c, 0, e->pos.offset, e->len, text, false);
        keep(S, &c, plies);
    }
}

/* Two moves of one side swapped: plies a and a + gap. */
static void try_swap(Search *S, size_t a, size_t gap)
{
    Work *w = S->w;
    size_t b = a + gap;
    if (b >= w->ntok)
        return;
    Item it[5];
    for (size_t i = 0; i <= gap; i++) {
        const PgnElem *e = w->tok[i == 0 ? b : i == gap ? a : a + i];
        if (e->truncated)
            return;
        it[i] = (Item){e->text, e->len, 0, NULL};
    }
    if (strcmp(it[0].tok, it[gap].tok) == 0)
        return;
    Repair c;
    uint32_t plies;
    uint64_t key;
    if (!replay_line(S, a, it, gap + 1, b + 1, &key, &plies))
        return;
    start_cand(S, &c, REPAIR_TRANSPOSED, a, (uint32_t)gap + 1);
    /* the move at the break swapped with its side's move before or after
     * it explains the break itself; two others swapped less so, and fewer
     * scribes swap moves three apart */
    if (gap == 2 && (a == S->k || b == S->k))
        c.tier = 6;
    else if (gap == 4)
        c.tier = 12;
    c.score = c.tier * 1000 + c.score % 1000;
    c.line_key = key;
    old_tokens(w, &c, a, gap + 1);
    for (size_t i = 0; i <= gap; i++)
        cat_tok(c.new_text, sizeof c.new_text, it[i].tok, it[i].len);
    put(&c, 0, w->tok[a]->pos.offset, w->tok[a]->len, w->tok[b]->text, false);
    put(&c, 1, w->tok[b]->pos.offset, w->tok[b]->len, w->tok[a]->text, false);
    keep(S, &c, plies);
}

/* Where a move put in before ply p is written: before the token of ply p
 * for a White move (after its move number), after the token before it
 * for a Black move. */
static void insert_at(const Work *w, size_t p, int side, uint64_t *at, bool *after)
{
    if (side == BLACK && p > 0 && !w->tok[p - 1]->truncated) {
        *at = w->tok[p - 1]->pos.offset + w->tok[p - 1]->len;
        *after = true;
    } else {
        *at = w->tok[p < w->ntok ? p : w->ntok - 1]->pos.offset;
        *after = false;
    }
}

/* One move (pair: two) put in before ply p. */
static void try_insert(Search *S, size_t p, bool pair)
{
    Work *w = S->w;
    MoveList l1, l2;
    gen_legal(&w->pos[p], &l1);
    for (int i = 0; i < l1.count && S->rs->nodes <= REPAIR_BUDGET; i++) {
        Item it[2] = {{NULL, 0, l1.moves[i], NULL}, {NULL, 0, 0, NULL}};
        int n2 = 1;
        Position after1;
        if (pair) {
            pos_make(&w->pos[p], l1.moves[i], &after1);
            gen_legal(&after1, &l2);
            n2 = l2.count;
        }
        for (int j = 0; j < n2 && S->rs->nodes <= REPAIR_BUDGET; j++) {
            if (pair)
                it[1].mv = l2.moves[j];
            Repair c;
            uint32_t plies;
            uint64_t key;
            if (!replay_line(S, p, it, pair ? 2 : 1, p, &key, &plies))
                continue;
            start_cand(S, &c, pair ? REPAIR_MISSING_PAIR : REPAIR_MISSING_MOVE, p, 0);
            c.line_key = key;
            char s1[16], s2[16] = "";
            san_format(&w->pos[p], it[0].mv, s1);
            if (pair)
                san_format(&after1, it[1].mv, s2);
            cat_tok(c.new_text, sizeof c.new_text, s1, strlen(s1));
            if (pair)
                cat_tok(c.new_text, sizeof c.new_text, s2, strlen(s2));
            int side = w->pos[p].side;
            uint64_t at;
            bool after;
            insert_at(w, p, side, &at, &after);
            char text[64], num[16] = "";
            /* a pair from White: the next move's number between them and the move of ply p */
            if (pair && side == WHITE)
                snprintf(num, sizeof num, " %u.", (unsigned)(w->pos[p].fullmove + 1));
            if (pair && side == BLACK)
                snprintf(text, sizeof text, "%s %u. %s", s1, (unsigned)(w->pos[p].fullmove + 1), s2);
            else
                snprintf(text, sizeof text, "%s%s%s%s", s1, pair ? " " : "", s2, num);
            char full[72];
            snprintf(full, sizeof full, after ? " %s" : "%s ", text);
            put(&c, 0, at, 0, full, false);
            keep(S, &c, plies);
        }
    }
}

/* A move written twice: the token of ply p, the same as the one before. */
static void try_delete(Search *S, size_t p)
{
    Work *w = S->w;
    if (p == 0 || p >= w->ntok)
        return;
    const PgnElem *e = w->tok[p], *d = w->tok[p - 1];
    size_t a = core_len(e->text, e->len), b = core_len(d->text, d->len);
    if (e->truncated || a != b || memcmp(e->text, d->text, a) != 0)
        return;
    Repair c;
    uint32_t plies;
    uint64_t key;
    if (!replay_line(S, p, NULL, 0, p + 1, &key, &plies))
        return;
    start_cand(S, &c, REPAIR_WRITTEN_TWICE, p, 1);
    c.line_key = key;
    old_tokens(w, &c, p, 1);
    put(&c, 0, e->pos.offset, e->len, "", true);
    keep(S, &c, plies);
}

/* A DGT board's artefact: after the last move, the kings put on the
 * centre squares to signal the result, recorded as king moves. */
static bool dgt_king(const PgnElem *e)
{
    Shape s = shape_of(e->text, e->len);
    return s.ok && !s.castle && s.piece == KING && !s.lang && s.ff < 0 && s.fr < 0 &&
           (s.to == sq_make(3, 3) || s.to == sq_make(4, 3) || s.to == sq_make(3, 4) || s.to == sq_make(4, 4));
}

static void try_dgt(Search *S)
{
    Work *w = S->w;
    size_t k = S->k;
    if (k == 0 || w->ntok - k > 2)
        return;
    for (size_t i = k; i < w->ntok; i++)
        if (!dgt_king(w->tok[i]))
            return;
    if (!ends_right(&w->pos[k], S->result, w->tok[k - 1]->text))
        return;
    Repair c;
    S->marks_off = w->off[k];
    start_cand(S, &c, REPAIR_DGT_KING, k, (uint32_t)(w->ntok - k));
    c.line_key = w->hash[k] ^ 0x5bd1e995u;
    old_tokens(w, &c, k, w->ntok - k);
    for (size_t i = k; i < w->ntok; i++)
        put(&c, (int)(i - k), w->tok[i]->pos.offset, w->tok[i]->len, "", true);
    keep(S, &c, 0);
}

/* ---- the search ---- */

static bool work_reserve(Work *w, size_t n)
{
    if (n <= w->pos_cap)
        return true;
    size_t cap = w->pos_cap ? w->pos_cap : 64;
    while (cap < n)
        cap *= 2;
    Position *p = mem_realloc(w->pos, cap, sizeof *p);
    if (!p)
        return false;
    w->pos = p;
    Move *m = mem_realloc(w->mv, cap, sizeof *m);
    if (!m)
        return false;
    w->mv = m;
    uint64_t *h = mem_realloc(w->hash, cap, sizeof *h);
    if (!h)
        return false;
    w->hash = h;
    uint32_t *o = mem_realloc(w->off, cap, sizeof *o);
    if (!o)
        return false;
    w->off = o;
    w->pos_cap = cap;
    return true;
}

void repair_set_free(RepairSet *rs)
{
    Work *w = rs->work;
    if (w) {
        mem_free(w->tok);
        mem_free(w->pos);
        mem_free(w->mv);
        mem_free(w->hash);
        mem_free(w->off);
        mem_free(w);
    }
    /* (the candidates need no clearing: n says how many hold one) */
    memset(rs, 0, offsetof(RepairSet, r));
    rs->work = NULL;
}

/* The main line's move tokens, in w->tok. */
static bool main_tokens(const PgnGame *g, Work *w)
{
    w->ntok = 0;
    int depth = 0;
    for (size_t i = 0; i < g->nelems; i++) {
        const PgnElem *e = &g->elems[i];
        if (e->kind == PGN_EL_VAR_START)
            depth++;
        else if (e->kind == PGN_EL_VAR_END)
            depth -= depth > 0;
        else if (depth == 0) {
            if (w->ntok == w->tok_cap) {
                size_t cap = w->tok_cap ? w->tok_cap * 2 : 128;
                const PgnElem **t = mem_realloc(w->tok, cap, sizeof *t);
                if (!t)
                    return false;
                w->tok = t;
                w->tok_cap = cap;
            }
            w->tok[w->ntok++] = e;
        }
    }
    return true;
}

/* The search in three phases, so that a budget spent in a later phase
 * leaves the earlier ones whole: one token put right, swapped or taken out
 * (searched_to 2 when done), a move put in (3), a pair put in (UINT32_MAX:
 * all searched). */
static void search(Search *S)
{
    size_t k = S->k;
    RepairSet *rs = S->rs;
    rs->searched_to = 0;
    try_dgt(S);
    /* nearest the break first */
    for (size_t d = 0; d <= WIN_SUBST && d <= k && rs->nodes <= REPAIR_BUDGET; d++) {
        size_t p = k - d;
        try_substitutions(S, p);
        if (d <= WIN_SWAP) {
            try_swap(S, p, 2);
            try_swap(S, p, 4);
        }
        if (d <= WIN_TWICE)
            try_delete(S, p);
    }
    if (rs->nodes > REPAIR_BUDGET)
        return;
    rs->searched_to = 2;
    for (size_t d = 0; d <= WIN_MISSING && d <= k && rs->nodes <= REPAIR_BUDGET; d++)
        try_insert(S, k - d, false);
    if (rs->nodes > REPAIR_BUDGET)
        return;
    rs->searched_to = 3;
    for (size_t d = 0; d <= WIN_PAIR && d <= k && rs->nodes <= REPAIR_BUDGET; d++)
        try_insert(S, k - d, true);
    if (rs->nodes <= REPAIR_BUDGET)
        rs->searched_to = UINT32_MAX;
}

/* Unique: the best candidate carries REPAIR_SHARE of the weight of all
 * proven.  A search cut at its budget counts what it did not search as
 * found: a phase of single tokens cut leaves no repair unique; ten moves
 * put in, fifty pairs, for the later phases. */
static void decide(RepairSet *rs)
{
    rs->complete = rs->searched_to == UINT32_MAX;
    double mass = rs->mass;
    if (rs->searched_to == 2)
        mass += 10 * weight(tier(REPAIR_MISSING_MOVE, false, 0));
    else if (rs->searched_to == 3)
        mass += 50 * weight(COST_PAIR);
    for (size_t i = 0; i < rs->n; i++)
        rs->r[i].share = mass > 0 ? weight(rs->r[i].tier) / mass : 0;
    rs->unique = rs->n && rs->searched_to >= 2 && rs->r[0].share >= REPAIR_SHARE;
}

bool repair_search(const PgnGame *g, const Position *start, PgnResult result, RepairSet *rs)
{
    Work *w = rs->work;
    memset(rs, 0, sizeof *rs);
    if (!w && !(w = mem_calloc(1, sizeof *w)))
        return false;
    rs->work = w;
    if (!main_tokens(g, w) || !work_reserve(w, w->ntok + 1))
        return false;
    /* the recorded line up to its break */
    w->pos[0] = *start;
    w->hash[0] = 0;
    w->off[0] = 0;
    size_t k = 0;
    for (; k < w->ntok; k++) {
        const PgnElem *e = w->tok[k];
        SanResult r;
        rs->nodes++;
        if (e->truncated || san_parse(&w->pos[k], e->text, e->len, &r) != SAN_OK)
            break;
        w->mv[k] = r.move;
        pos_make(&w->pos[k], r.move, &w->pos[k + 1]);
        w->hash[k + 1] = hash_step(w->hash[k], w->pos[k + 1].key);
        w->off[k + 1] = w->off[k] + ((r.notes & NOTES_OFF) != 0) + mark_off(e->text, e->len, &w->pos[k + 1]);
    }
    if (k == w->ntok)
        return true; /* (it replays: an error of another kind) */
    Search S = {.rs = rs, .w = w, .k = k, .result = result};
    rs->searched = true;
    rs->ply = (uint32_t)k + 1;
    rs->pos = w->tok[k]->pos;
    rs->result = result == PGN_RES_NONE ? "" : result == PGN_RES_WHITE ? "1-0"
               : result == PGN_RES_BLACK ? "0-1" : result == PGN_RES_DRAW ? "1/2-1/2" : "*";
    rs->nodes = 0;
    search(&S);
    decide(rs);
    rs->rest = S.rest;
    /* labels for the message */
    for (size_t i = 0; i < rs->n; i++)
        label(w, rs->r[i].ply - 1, rs->r[i].label, sizeof rs->r[i].label);
    return true;
}

/* "the rest of the game (41 plies) then replays legally to 1-0" */
static void rest_text(const RepairSet *rs, char *buf, size_t cap)
{
    const char *to = rs->result[0] ? rs->result : "its end";
    if (rs->rest == 0)
        snprintf(buf, cap, "the game then ends legally in %s", to);
    else
        snprintf(buf, cap, "the rest of the game (%u %s) then replays legally to %s", (unsigned)rs->rest,
                 rs->rest == 1 ? "ply" : "plies", to);
}

void repair_message(const RepairSet *rs, char *buf, size_t cap)
{
    const Repair *r = &rs->r[0];
    if (repair_unique(rs)) {
        char rest[96];
        rest_text(rs, rest, sizeof rest);
        if (r->new_text[0] && r->old_text[0])
            snprintf(buf, cap, "did you mean %s %s for %s (%s)? %s", r->label, r->new_text, r->old_text,
                     repair_edit_slug(r->edit), rest);
        else if (r->new_text[0])
            snprintf(buf, cap, "did you mean %s %s, %s left out (%s)? %s", r->label, r->new_text,
                     r->edit == REPAIR_MISSING_PAIR ? "two moves" : "a move", repair_edit_slug(r->edit), rest);
        else
            snprintf(buf, cap, "did you mean %s without %s (%s)? %s", r->label, r->old_text, repair_edit_slug(r->edit),
                     rest);
        return;
    }
    size_t len = (size_t)snprintf(buf, cap, "%u %s the rest of the game replay legally%s, none applied:",
                                  (unsigned)rs->found, rs->found == 1 ? "repair makes" : "repairs make",
                                  rs->complete ? "" : " (search cut at its budget)");
    /* the best REPAIR_SHOWN that fit, with room left for the count */
    size_t shown = 0;
    for (; shown < rs->n && shown < REPAIR_SHOWN; shown++) {
        char item[REPAIR_TEXT * 2 + 48];
        const Repair *c = &r[shown];
        int n = snprintf(item, sizeof item, "%s %s %s%s (%s)", shown ? ";" : "", c->label,
                         c->new_text[0] ? c->new_text : "without ", c->new_text[0] ? "" : c->old_text,
                         repair_edit_slug(c->edit));
        if (n < 0 || len + (size_t)n + 24 >= cap)
            break;
        memcpy(buf + len, item, (size_t)n + 1);
        len += (size_t)n;
    }
    if (rs->found > shown && len < cap)
        snprintf(buf + len, cap - len, "; and %u more", (unsigned)(rs->found - shown));
}
