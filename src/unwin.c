/* unwin.c - can a colour ever checkmate?  Helpmate search and exhaustive search (R22, R29, R43); the blockade proof is unwin_blockade.c. */
#include "unwin.h"

#include <pthread.h>
#include <string.h>

#include "movegen.h"
#include "rules.h"

/* --------------------------------------------------------------- tables */

typedef struct TtEntry {
    uint64_t key;
    uint32_t gen;
    uint8_t depth;           /* no helpmate within this many plies */
    uint8_t pad[3];
} TtEntry;

/* A position of the exhaustive search, stored whole (a key alone could
 * collide and hide a position never visited: the proof must not rest on
 * a hash). */
typedef struct SeenEntry {
    uint32_t check;          /* the key's low half: most other positions differ there */
    uint32_t gen;
    uint32_t parent;         /* index of the entry it was reached from, SEEN_ROOT for the root */
    Move move;               /* the move from there */
    uint8_t side;
    uint8_t ep;
    uint8_t board[32];       /* two squares a byte */
} SeenEntry;

#define SEEN_ROOT UINT32_MAX

static size_t floor_pow2(size_t n)
{
    size_t p = 1;
    while (p * 2 <= n)
        p *= 2;
    return p;
}

/* One remembered answer of unwin_decide_verdict: the question whole.  A
 * table keeps up to UNWIN_ANSWERS of them (the final positions a
 * repeated game brings back). */
#define UNWIN_ANSWERS 1024u
typedef struct AnswerEntry {
    uint64_t key, budget;
    uint8_t board[64];
    uint8_t side, ep, castling, color, verdict, reason, used;
} AnswerEntry;

size_t unwin_table_bytes(uint64_t budget)
{
    /* The visited set and its queue take 5/6 of what the answers leave
     * (an entry and an index a node), the answers at most UNWIN_ANSWERS. */
    uint64_t need = budget * (sizeof(SeenEntry) + sizeof(uint32_t)) / 5 * 6 + UNWIN_ANSWERS * sizeof(AnswerEntry);
    size_t bytes = UNWIN_TABLE_MIN;
    while (bytes < need && bytes < UNWIN_TABLE_DEFAULT)
        bytes *= 2;
    return bytes < UNWIN_TABLE_DEFAULT ? bytes : UNWIN_TABLE_DEFAULT;
}

void unwin_table_init(UnwinTable *t, void *mem, size_t bytes)
{
    /* Up to UNWIN_ANSWERS remembered answers, at most half the table; of
     * the rest a sixth for the helpmate table, the rest for the visited
     * set and its queue (an index a position); the set need not be a
     * power of two (see visit). */
    unsigned char *p = mem;
    size_t nans = bytes / 2 / sizeof(AnswerEntry);
    nans = floor_pow2(nans < UNWIN_ANSWERS ? nans + 1 : UNWIN_ANSWERS);
    t->answers = p;
    t->answers_mask = nans - 1;
    p += nans * sizeof(AnswerEntry);
    bytes -= nans * sizeof(AnswerEntry);
    size_t ntt = floor_pow2(bytes / 6 / sizeof(TtEntry));
    size_t rest = bytes - ntt * sizeof(TtEntry);
    size_t nseen = rest / (sizeof(SeenEntry) + sizeof(uint32_t));
    if (nseen > UINT32_MAX - 1)
        nseen = UINT32_MAX - 1; /* (an index is 32 bits, SEEN_ROOT apart) */
    t->tt = p;
    t->tt_mask = ntt - 1;
    t->seen = p + ntt * sizeof(TtEntry);
    t->seen_count = nseen;
    t->queue = p + ntt * sizeof(TtEntry) + nseen * sizeof(SeenEntry);
    t->gen = 0;
    t->seen_gen = 0;
    memset(mem, 0, (size_t)(p - (unsigned char *)mem) + bytes);
}

/* A new generation of an entry table: this search's entries.  After 2^32
 * of them the stamps would repeat (an old entry could pass for a visited
 * position), so the table is cleared then. */
static uint32_t next_gen(uint32_t *gen, void *tab, size_t bytes)
{
    if (++*gen == 0) {
        memset(tab, 0, bytes);
        *gen = 1;
    }
    return *gen;
}

static void next_tt_gen(UnwinTable *t)
{
    next_gen(&t->gen, t->tt, (t->tt_mask + 1) * sizeof(TtEntry));
}

/* ------------------------------------------------------ helpmate search */



typedef struct Search {
    UnwinTable *t;
    const Position *root;
    int winner;
    int mode;                /* the defending king's aim in the ordering (move_score) */
    uint32_t seed;           /* 0, or the seed of the ordering's noise (a dive of its own) */
    bool sac;                /* the ordering of sacrifices (move_score) */
    bool bar;                /* the ordering of barred pawns (move_score) */
    Move path[UNWIN_MAX_LINE];   /* a dive's moves from the root to where it stands */
    /* The milestone: the position of most progress (progress()) a dive
     * has reached, and the moves to it; later dives start there too. */
    Position ms_pos;
    int ms_len, ms_score;
    Move ms_line[UNWIN_MAX_LINE];
    uint64_t nodes, budget;
    bool out;                /* the budget ran out */
    int line_len;
    Move line[UNWIN_MAX_LINE];
    bool bfs_started, bfs_dead;  /* the exhaustive search: begun; cannot go on (table full) */
    size_t bfs_head, bfs_tail;   /* its queue, kept between calls */
    uint8_t wk_dist[64];         /* the mating king's walk to the defending king's first square */
    uint8_t lk_dist[64];         /* the defending king's walk to the mating king's first square */
    uint8_t corner_dist[5][64];  /* the defending king's walk to the nearest corner, to a1 h1 a8 h8 */
    int lk_root, wk_root;        /* the kings' first squares */
} Search;

static int edge_dist(int sq)
{
    int f = sq_file(sq), r = sq_rank(sq);
    int df = f < 4 ? f : 7 - f, dr = r < 4 ? r : 7 - r;
    return df < dr ? df : dr;
}

/* Move ordering: the mating side pushes its pawns to promotion and
 * brings its pieces near the defending king; the defending king goes to
 * the nearest corner, its own pieces come next to it (they will block
 * its flight squares), and neither side throws away the mating side's
 * material. */
/* Walk distances of a king of colour c to square `to` over the squares
 * it may use while the pawns stand (not its own pawns', not attacked by
 * enemy pawns), 20 + the plain distance where the walk cannot go: the
 * way round a pawn chain, for the move ordering. */
static void walk_dist(const Position *p, int c, Bitboard to, uint8_t *dist)
{
    Bitboard pawns = p->by_type[PAWN];
    Bitboard ok = ~(pawns & p->by_color[c]) & ~bb_pawn_set_attacks(c ^ 1, pawns & p->by_color[c ^ 1]);
    for (int i = 0; i < 64; i++) {
        int near = 99;
        for (Bitboard t = to; t;) {
            int d = bb_dist(i, bb_pop(&t));
            near = d < near ? d : near;
        }
        dist[i] = (uint8_t)(20 + near);
    }
    Bitboard seen = to & ok, front = seen;
    for (Bitboard t = seen; t;)
        dist[bb_pop(&t)] = 0;
    for (int d = 1; front; d++) {
        Bitboard next = 0;
        for (Bitboard f = front; f;)
            next |= bb_king_attacks(bb_pop(&f));
        next &= ok & ~seen;
        seen |= next;
        front = next;
        for (Bitboard f = next; f;)
            dist[bb_pop(&f)] = (uint8_t)d;
    }
}

static int move_score(const Search *sr, const Position *p, Move m, int winner, int mode, int prey, const uint8_t *prey_d)
{
    int from = move_from(m), to = move_to(m);
    int pc = p->board[from], pt = piece_type(pc);
    int cap = move_type(m) == MOVE_CASTLING ? 0 : p->board[to];
    int lk = p->king_sq[winner ^ 1];
    Bitboard w_pawns = p->by_type[PAWN] & p->by_color[winner];
    int s = 0;
    if (p->side == winner) {
        if (move_type(m) == MOVE_PROMOTION)
            s += move_promo(m) == QUEEN ? 100 : move_promo(m) == ROOK ? 40 : 30;
        if (pt == PAWN) {
            /* With sr->bar, a pawn that an enemy pawn bars on its file
             * ranks below the pieces' moves: it can only lock the files. */
            Bitboard file = 0x0101010101010101ull << sq_file(to);
            Bitboard ahead = winner == WHITE ? file & (~0ull << to << 1) : file & (bb_sq(to) - 1);
            bool barred = sr->bar && (ahead & p->by_type[PAWN] & p->by_color[winner ^ 1]);
            s += (barred ? 0 : 20) + (winner == WHITE ? sq_rank(to) : 7 - sq_rank(to));
        }
        else if (pt != KING)
            s += 5 * (bb_dist(from, lk) - bb_dist(to, lk));
        else if (prey_d && prey_d[from] < 99)
            s += 6 * (prey_d[from] - prey_d[to]);
        else if (sr->wk_dist[from] > bb_dist(from, sr->lk_root) + 1)
            s += 3 * (sr->wk_dist[from] - sr->wk_dist[to]); /* the way round the pawns */
        else
            s += 3 * (bb_dist(from, lk) - bb_dist(to, lk));
        if (cap)
            s += piece_type(cap) == PAWN ? 15 : 4;
        if (sr->sac && pt == PAWN && cap)
            s += 30; /* a pawn onto another file, where none may bar it */
    } else if (sr->sac && pt != KING && (bb_sq(to) & bb_pawn_set_attacks(winner, w_pawns))) {
        s += 40; /* a man given to a pawn of the mating side: it changes files */
    } else if (sr->sac && pt == KING && prey >= 0) {
        /* The defending king takes a pawn that bars one of its own. */
        s += 8 * (bb_dist(from, prey) - bb_dist(to, prey)) + (cap ? 20 : 0);
    } else if (sr->sac && pt == PAWN) {
        /* The defending side's pawns run to promote: pieces to give away. */
        s += 15 + (winner == WHITE ? 7 - sq_rank(to) : sq_rank(to));
        if (move_type(m) == MOVE_PROMOTION)
            s += move_promo(m) == QUEEN ? 30 : 0;
    } else {
        if (pt == KING && mode == 0)
            s += 10 * (sr->corner_dist[0][from] - sr->corner_dist[0][to]) + 4 * (edge_dist(from) - edge_dist(to));
        else if (pt == KING && mode >= 3) /* mode 3-6: to the corner a1, h1, a8, h8 (a mate may need that one) */
            s += 10 * (sr->corner_dist[mode - 2][from] - sr->corner_dist[mode - 2][to]);
        else if (pt == KING) {
            /* Mode 1: toward the mating side's king, mode 2: toward its
             * nearest piece (where the mate can be given). */
            int target = p->king_sq[winner];
            if (mode == 1 && sr->lk_dist[from] > bb_dist(from, sr->wk_root) + 1)
                s += 8 * (sr->lk_dist[from] - sr->lk_dist[to]); /* the way round the pawns */
            else if (mode == 1)
                s += 8 * (bb_dist(from, target) - bb_dist(to, target));
            else {
                Bitboard b = p->by_color[winner] & ~p->by_type[KING] & ~p->by_type[PAWN];
                int best = 99;
                while (b) {
                    int q = bb_pop(&b);
                    if (bb_dist(from, q) < best)
                        best = bb_dist(from, q), target = q;
                }
                s += 8 * (bb_dist(from, target) - bb_dist(to, target));
            }
            s += 3 * (edge_dist(from) - edge_dist(to));
        }
        else if (pt != PAWN)
            s += 3 * (bb_dist(from, lk) - bb_dist(to, lk));
        else
            s += 1;
        if (move_type(m) == MOVE_PROMOTION)
            s += move_promo(m) == QUEEN ? 2 : move_promo(m) == KNIGHT ? 6 : 4;
        if (cap)
            s += piece_type(cap) == PAWN ? -4 : -40;
    }
    if (sr->seed) {
        /* Noise of 0-15 points a move, fixed per seed, position and move:
         * dives with other seeds try other lines among moves of about
         * the same worth. */
        uint64_t h = (p->key ^ ((uint64_t)sr->seed << 32) ^ m) * 0x9E3779B97F4A7C15ull;
        s += (int)(h >> 60);
    }
    return s;
}

/* The mating king's walk (its steps, 99 out of reach) to the enemy
 * pawns that bar its own pawns' files and that no enemy pawn guards:
 * taking them frees a pawn to promote.  False when there are none. */
static bool pawns_prey(const Position *p, int w, uint8_t *dist)
{
    Bitboard mine = p->by_type[PAWN] & p->by_color[w], theirs = p->by_type[PAWN] & p->by_color[w ^ 1];
    Bitboard ahead = 0; /* the squares ahead of the mating side's pawns */
    for (Bitboard b = mine; b;) {
        int sq = bb_pop(&b);
        Bitboard file = 0x0101010101010101ull << sq_file(sq);
        ahead |= w == WHITE ? file & (~0ull << (sq + 1)) : file & (bb_sq(sq) - 1);
    }
    Bitboard guarded = bb_pawn_set_attacks(w ^ 1, theirs);
    Bitboard target = theirs & ahead & ~guarded;
    if (!target)
        return false;
    Bitboard ok = ~mine & ~guarded;
    memset(dist, 99, 64);
    Bitboard seen = target, front = target;
    for (Bitboard t = seen; t;)
        dist[bb_pop(&t)] = 0;
    for (int d = 1; front && d < 40; d++) {
        Bitboard next = bb_king_spread(front) & ok & ~seen;
        seen |= next;
        front = next;
        for (Bitboard f = next; f;)
            dist[bb_pop(&f)] = (uint8_t)d;
    }
    return dist[p->king_sq[w]] < 99;
}

/* The moves of list best first by move_score (a stable sort: moves that
 * score the same keep the generator's order), the scores in score.
 * With `first` below the count (at most ORDER_FIRST_MAX), only the first
 * `first` moves are put in their places: a dive looks at no more. */
#define ORDER_FIRST_MAX 8
static void order(const Search *sr, const Position *p, MoveList *list, int mode, int *score, int first)
{
    int winner = sr->winner, prey = -1;
    if (sr->sac && p->side != winner) {
        /* The prey of the defending king (move_score): the nearest pawn
         * of the mating side on a file with a pawn of its own. */
        Bitboard mine = p->by_type[PAWN] & p->by_color[winner ^ 1], files = mine;
        files |= files >> 8, files |= files >> 16, files |= files >> 32;
        files |= files << 8, files |= files << 16, files |= files << 32;
        int best = 99;
        for (Bitboard b = p->by_type[PAWN] & p->by_color[winner] & files; b;) {
            int q = bb_pop(&b), d = bb_dist(q, p->king_sq[winner ^ 1]);
            if (d < best)
                best = d, prey = q;
        }
    }
    uint8_t pd[64];
    const uint8_t *prey_d = NULL;
    if (p->side == winner && pawns_prey(p, winner, pd))
        prey_d = pd;
    for (int i = 0; i < list->count; i++)
        score[i] = move_score(sr, p, list->moves[i], winner, mode, prey, prey_d);
    if (first > 0 && first < list->count && first <= ORDER_FIRST_MAX) {
        /* Only the first `first` moves of the order: each move goes in
         * after those kept that score as much (the sort is stable). */
        Move top[ORDER_FIRST_MAX];
        int top_score[ORDER_FIRST_MAX], kept = 0;
        for (int i = 0; i < list->count; i++) {
            int v = score[i], j;
            if (kept == first && top_score[first - 1] >= v)
                continue;
            for (j = kept < first ? kept++ : first - 1; j > 0 && top_score[j - 1] < v; j--) {
                top[j] = top[j - 1];
                top_score[j] = top_score[j - 1];
            }
            top[j] = list->moves[i];
            top_score[j] = v;
        }
        memcpy(list->moves, top, sizeof(Move) * (size_t)first);
        memcpy(score, top_score, sizeof(int) * (size_t)first);
        return;
    }
    for (int i = 1; i < list->count; i++) {
        Move m = list->moves[i];
        int v = score[i], j = i - 1;
        while (j >= 0 && score[j] < v) {
            list->moves[j + 1] = list->moves[j];
            score[j + 1] = score[j];
            j--;
        }
        list->moves[j + 1] = m;
        score[j + 1] = v;
    }
}

/* The moves of the side to move in p that cannot give check, told
 * without making them (gen_gives_check makes each move): the squares
 * from which each type of its men would attack the enemy king, and the
 * king's lines.  A plain move (no promotion, en passant or castling) of
 * a man that stands on none of the king's eight lines
 *  - discovers no check: a piece of its own that attacks the king after
 *    the move had its line blocked before (else the side not to move was
 *    in check), and the move empties only `from` (off the line), where
 *    `to` can only block;
 *  - gives none itself unless `to` is one of its type's squares: a pawn's
 *    or a knight's attack does not depend on the other men; a slider's
 *    line from `to` to the king is that of the board before the move,
 *    `from` being off it; a king never checks.
 * Where the enemy king is in check already (no position the search
 * reaches; a set-up one could be), every move is made.  Any other move
 * is made, as before: an answer "no check" is never wrong. */
typedef struct CheckSquares {
    Bitboard lines;
    Bitboard by_type[7];
} CheckSquares;

static void check_squares(const Position *p, CheckSquares *cs)
{
    int us = p->side, ksq = p->king_sq[us ^ 1];
    Bitboard occ = p->by_type[0];
    cs->lines = pos_attackers_to(p, ksq, occ) & p->by_color[us] ? ~(Bitboard)0 : bb_queen_empty(ksq);
    cs->by_type[0] = 0;
    cs->by_type[PAWN] = bb_pawn_attacks(us ^ 1, ksq);
    cs->by_type[KNIGHT] = bb_knight_attacks(ksq);
    cs->by_type[BISHOP] = bb_bishop_attacks(ksq, occ);
    cs->by_type[ROOK] = bb_rook_attacks(ksq, occ);
    cs->by_type[QUEEN] = cs->by_type[BISHOP] | cs->by_type[ROOK];
    cs->by_type[KING] = 0;
}

static bool gives_no_check(const Position *p, const CheckSquares *cs, Move m)
{
    int from = move_from(m);
    bool none = move_type(m) == MOVE_NORMAL && !(cs->lines & bb_sq(from)) &&
                !(cs->by_type[piece_type(p->board[from])] & bb_sq(move_to(m)));
    CHESS_DEBUG_ASSERT(!none || !gen_gives_check(p, m)); /* (debug builds: the move made) */
    return none;
}

/* A mate in one by the winner to move in p?  Its move, or MOVE_NONE. */
static Move mate_in_one(const Position *p, const MoveList *list)
{
    CheckSquares cs;
    check_squares(p, &cs);
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (gives_no_check(p, &cs, m))
            continue;
        Position c;
        pos_make(p, m, &c);
        if (c.checkers && !gen_has_legal_move(&c))
            return m;
    }
    return MOVE_NONE;
}

/* The mating side's progress toward a mate it can give: its pieces (a
 * promotion counts), then its pawns that no enemy pawn bars on their
 * files (a sacrifice taken by a pawn makes one). */
static int progress(const Position *p, int w)
{
    Bitboard mine = p->by_color[w], pawns = p->by_type[PAWN] & mine;
    Bitboard bar = p->by_type[PAWN] & p->by_color[w ^ 1];
    int sc = 9 * bb_count(p->by_type[QUEEN] & mine) + 5 * bb_count(p->by_type[ROOK] & mine) +
             3 * bb_count((p->by_type[BISHOP] | p->by_type[KNIGHT]) & mine);
    int free_pawns = 0;
    while (pawns) {
        int sq = bb_pop(&pawns);
        Bitboard file = 0x0101010101010101ull << sq_file(sq);
        Bitboard ahead = w == WHITE ? file & (~0ull << (sq + 1)) : file & (bb_sq(sq) - 1);
        free_pawns += !(ahead & bar);
    }
    return 8 * sc + free_pawns;
}

/* A dive: a deep, narrow search that follows the ordering, trying only
 * the first `width` moves of each side (all of them for a mate in one),
 * each position once per dive at a given depth (the table). */
static bool dive(Search *s, const Position *p, int depth, int ply, int width)
{
    if (s->nodes++ >= s->budget) {
        s->out = true;
        return false;
    }
    TtEntry *e = (TtEntry *)s->t->tt + (p->key & s->t->tt_mask);
    if (e->key == p->key && e->gen == s->t->gen && e->depth >= depth)
        return false;
    e->key = p->key;
    e->gen = s->t->gen;
    e->depth = (uint8_t)depth;
    int pr = progress(p, s->winner);
    if (pr > s->ms_score) {
        s->ms_score = pr;
        s->ms_pos = *p;
        s->ms_len = ply;
        memcpy(s->ms_line, s->path, sizeof(Move) * (size_t)ply);
    }
    MoveList list;
    gen_legal(p, &list);
    if (p->side == s->winner) {
        Move m = mate_in_one(p, &list);
        if (m != MOVE_NONE) {
            s->line[ply] = m;
            s->line_len = ply + 1;
            return true;
        }
    }
    if (depth <= 1 || ply + 1 >= UNWIN_MAX_LINE)
        return false;
    int score[MAX_MOVES];
    order(s, p, &list, s->mode, score, width);
    int n = list.count < width ? list.count : width;
    for (int i = 0; i < n && !s->out; i++) {
        Position c;
        pos_make(p, list.moves[i], &c);
        if (!rules_can_mate(&c, s->winner))
            continue;
        s->path[ply] = list.moves[i];
        if (dive(s, &c, depth - 1, ply + 1, width)) {
            s->line[ply] = list.moves[i];
            return true;
        }
    }
    return false;
}

/* A helpmate within depth plies from p (ply of the line)? */
static bool hm(Search *s, const Position *p, int depth, int ply)
{
    if (s->nodes++ >= s->budget) {
        s->out = true;
        return false;
    }
    TtEntry *e = (TtEntry *)s->t->tt + (p->key & s->t->tt_mask);
    if (e->key == p->key && e->gen == s->t->gen && e->depth >= depth)
        return false;
    bool mover = p->side == s->winner;
    MoveList list;
    gen_legal(p, &list);
    int score[MAX_MOVES];
    order(s, p, &list, 0, score, MAX_MOVES);
    CheckSquares cs;
    if (mover && depth == 1)
        check_squares(p, &cs);
    for (int i = 0; i < list.count && !s->out; i++) {
        Move m = list.moves[i];
        if (mover && depth == 1 && gives_no_check(p, &cs, m))
            continue; /* the last move of the mate is a check (a move
                       * gives_no_check passes is made: c.checkers) */
        Position c;
        pos_make(p, m, &c);
        if (mover && c.checkers && !gen_has_legal_move(&c)) {
            s->line[ply] = m;
            s->line_len = ply + 1;
            return true;
        }
        if (depth == 1 || !rules_can_mate(&c, s->winner))
            continue;
        if (hm(s, &c, depth - 1, ply + 1)) {
            s->line[ply] = m;
            return true;
        }
    }
    if (!s->out) {
        e->key = p->key;
        e->gen = s->t->gen;
        e->depth = (uint8_t)depth;
    }
    return false;
}

/* ---------------------------------------------------- exhaustive search */

static void pack(const Position *p, SeenEntry *e)
{
    for (int i = 0; i < 32; i++)
        e->board[i] = (uint8_t)(p->board[2 * i] | p->board[2 * i + 1] << 4);
    e->side = p->side;
    e->ep = p->ep;
}

/* The position of an entry (no castling rights: see exhaust). */
static void unpack(const SeenEntry *e, Position *p)
{
    uint8_t board[64];
    for (int i = 0; i < 32; i++) {
        board[2 * i] = e->board[i] & 15;
        board[2 * i + 1] = e->board[i] >> 4;
    }
    pos_from_board(p, board, e->side, e->ep);
}

/* Adds p (reached from entry parent by move m) to the visited set;
 * returns its index, or SEEN_ROOT when it was there already or the
 * table is full (then *full is set). */
static uint32_t visit(UnwinTable *t, const Position *p, uint32_t parent, Move m, bool *full)
{
    SeenEntry want;
    pack(p, &want);
    SeenEntry *tab = t->seen;
    /* The key's high half scaled to the table: any size will do. */
    size_t n = t->seen_count, i = (size_t)(((p->key >> 32) * n) >> 32);
    uint32_t check = (uint32_t)p->key;
    for (int probe = 0; probe < 64; probe++, i = i + 1 == n ? 0 : i + 1) {
        SeenEntry *e = &tab[i];
        if (e->gen != t->seen_gen) {
            memcpy(e->board, want.board, sizeof e->board);
            e->check = check;
            e->gen = t->seen_gen;
            e->side = want.side;
            e->ep = want.ep;
            e->parent = parent;
            e->move = m;
            return (uint32_t)i;
        }
        if (e->check == check && e->side == want.side && e->ep == want.ep &&
            !memcmp(e->board, want.board, sizeof e->board))
            return SEEN_ROOT;
    }
    *full = true;
    return SEEN_ROOT;
}

/* Is every position reachable from root, short of those proven
 * unwinnable for the winner, free of a mate by the winner?  A breadth-
 * first search over positions stored whole: 1 yes (exhausted), 0
 * undetermined (budget or table spent), 2 a mate was reached (s->line:
 * the shortest).  The rules that end a game on the way (the 75-move
 * rule, fivefold repetition) are ignored: that can only add positions. */
static int exhaust(Search *s, const Position *root)
{
    UnwinTable *t = s->t;
    if (root->castling)
        return 0;
    SeenEntry *tab = t->seen;
    uint32_t *queue = t->queue;
    size_t cap = t->seen_count;
    bool full = false;
    if (!s->bfs_started) {
        /* The first call of a question; a later one goes on from where
         * the budget stopped it (the queue and the set are kept). */
        s->bfs_started = true;
        next_gen(&t->seen_gen, t->seen, cap * sizeof(SeenEntry));
        uint32_t r = visit(t, root, SEEN_ROOT, MOVE_NONE, &full);
        if (r == SEEN_ROOT)
            return 0;
        s->bfs_head = 0;
        s->bfs_tail = 0;
        queue[s->bfs_tail++] = r;
    }
    size_t head = s->bfs_head, tail = s->bfs_tail;
    while (head < tail) {
        if (s->nodes >= s->budget || s->bfs_dead) {
            s->bfs_head = head;
            s->bfs_tail = tail;
            return 0;
        }
        uint32_t at = queue[head++];
        Position p;
        unpack(&tab[at], &p);
        MoveList list;
        gen_legal(&p, &list);
        for (int i = 0; i < list.count; i++) {
            s->nodes++;
            Position c;
            pos_make(&p, list.moves[i], &c);
            uint32_t ci = visit(t, &c, at, list.moves[i], &full);
            if (ci == SEEN_ROOT) {
                if (full) {
                    s->bfs_dead = true;
                    return 0;
                }
                continue;
            }
            if (c.side != s->winner && c.checkers && !gen_has_legal_move(&c)) {
                int n = 0;
                for (uint32_t x = ci; tab[x].parent != SEEN_ROOT; x = tab[x].parent)
                    n++;
                if (n > UNWIN_MAX_LINE) {
                    s->bfs_dead = true;
                    return 0;
                }
                s->line_len = n;
                for (uint32_t x = ci; tab[x].parent != SEEN_ROOT; x = tab[x].parent)
                    s->line[--n] = tab[x].move;
                return 2;
            }
            if (!rules_can_mate(&c, s->winner) || unwin_blockade(&c, s->winner))
                continue;
            if (tail >= cap) {
                s->bfs_dead = true;
                return 0;
            }
            queue[tail++] = ci;
        }
    }
    return 1;
}

/* --------------------------------------------------------------- driver */

bool unwin_line_mates(const Position *pos, int color, const Move *line, int n)
{
    Position p = *pos, q;
    for (int i = 0; i < n; i++) {
        if (!gen_move_is_legal(&p, line[i]))
            return false;
        pos_make(&p, line[i], &q);
        p = q;
    }
    return p.side != color && p.checkers && !gen_has_legal_move(&p);
}

static UnwinVerdict found(UnwinResult *r, const Search *s, UnwinVerdict v, UnwinReason why)
{
    r->verdict = v;
    r->reason = why;
    r->line_len = v == UNWIN_WINNABLE ? s->line_len : 0;
    if (r->line_len)
        memcpy(r->line, s->line, sizeof(Move) * (size_t)r->line_len);
    r->nodes = s->nodes;
    return v;
}

/* The exhaustive search with `share` more nodes: 1 decided. */
static bool exhaust_for(Search *s, uint64_t share, UnwinResult *r)
{
    s->budget = s->nodes + share;
    int x = exhaust(s, s->root);
    if (x == 1)
        found(r, s, UNWIN_UNWINNABLE, UNWIN_BY_EXHAUSTION);
    else if (x == 2)
        found(r, s, UNWIN_WINNABLE, UNWIN_BY_HELPMATE);
    return x != 0;
}

static bool dive_for(Search *s, uint64_t share, int width, int depth, int mode, bool from_ms, UnwinResult *r)
{
    s->mode = mode;
    s->budget = s->nodes + share;
    s->out = false;
    next_tt_gen(s->t);
    if (!from_ms) {
        if (!dive(s, s->root, depth, 0, width))
            return false;
    } else {
        /* From the milestone (copied: a new one may replace it), its
         * moves the start of the line. */
        Position start = s->ms_pos;
        int len = s->ms_len;
        memcpy(s->path, s->ms_line, sizeof(Move) * (size_t)len);
        memcpy(s->line, s->ms_line, sizeof(Move) * (size_t)len);
        if (len + depth >= UNWIN_MAX_LINE)
            depth = UNWIN_MAX_LINE - 1 - len;
        if (depth < 1 || !dive(s, &start, depth, len, width))
            return false;
    }
    found(r, s, UNWIN_WINNABLE, UNWIN_BY_HELPMATE);
    return true;
}

UnwinVerdict unwin_decide(const Position *pos, int color, UnwinTable *t, uint64_t budget, UnwinResult *r)
{
    Search s = {.t = t, .winner = color, .root = pos};
    s.ms_score = progress(pos, color);
    r->line_len = 0;
    r->nodes = 0;
    r->verdict = UNWIN_UNDETERMINED;
    r->reason = UNWIN_BY_BUDGET;
    if (!gen_has_legal_move(pos)) {
        /* The game is over: a mate given by `color` is the helpmate of no
         * move; a stalemate or a mate of `color` leaves no series of moves
         * at all. */
        if (pos->side != color && pos->checkers)
            return found(r, &s, UNWIN_WINNABLE, UNWIN_BY_HELPMATE);
        return found(r, &s, UNWIN_UNWINNABLE, UNWIN_BY_EXHAUSTION);
    }
    if (!rules_can_mate(pos, color))
        return found(r, &s, UNWIN_UNWINNABLE, UNWIN_BY_MATERIAL);
    if (unwin_blockade(pos, color))
        return found(r, &s, UNWIN_UNWINNABLE, UNWIN_BY_BLOCKADE);
    s.lk_root = pos->king_sq[color ^ 1];
    s.wk_root = pos->king_sq[color];
    walk_dist(pos, color, bb_sq(pos->king_sq[color ^ 1]), s.wk_dist);
    walk_dist(pos, color ^ 1, bb_sq(pos->king_sq[color]), s.lk_dist);
    walk_dist(pos, color ^ 1, 0x8100000000000081ull, s.corner_dist[0]);
    for (int i = 0; i < 4; i++)
        walk_dist(pos, color ^ 1, bb_sq((i & 1 ? 7 : 0) + (i & 2 ? 56 : 0)), s.corner_dist[i + 1]);
    /* A narrow dive finds most helpmates at once (its mating side's
     * pawns first push where no enemy pawn bars them); a short exhaustive
     * search settles the locked positions with few positions to visit;
     * then wider dives, every move to a small depth, and the exhaustive
     * search with the rest of the budget. */
    s.bar = true;
    if (dive_for(&s, budget / 5, 2, 40, 0, false, r))
        return r->verdict;
    s.bar = false;
    if (exhaust_for(&s, budget / 5, r))
        return r->verdict;
    static const struct { int width, depth, mode; } dives[] = {
        {2, 40, 1}, {2, 40, 2}, {3, 60, 0}, {3, 60, 1}, {3, 60, 2}, {2, 120, 0}, {4, 40, 0}, {3, 120, 1}};
    /* A dive of budget/40 nodes, at least 100 (one shorter than its
     * depth never gets there), as many as budget/5 pays for. */
    uint64_t dshare = budget / 40 > 100 ? budget / 40 : 100;
    if (dshare > budget / 5)
        dshare = budget / 5 ? budget / 5 : 1;
    size_t ndives = sizeof dives / sizeof dives[0];
    if (budget / 5 / dshare < ndives)
        ndives = (size_t)(budget / 5 / dshare);
    for (size_t d = 0; d < ndives; d++)
        if (dive_for(&s, dshare, dives[d].width, dives[d].depth, dives[d].mode, false, r))
            return r->verdict;
    /* Dives with noise in the ordering (Search.seed): each its own line
     * among moves of about the same worth. */
    uint64_t share = budget / 120 > 80 ? budget / 120 : 80;
    if (share > budget / 5)
        share = budget / 5 ? budget / 5 : 1;
    uint32_t seed = 1;
    for (uint64_t n = budget / 5 / share; seed <= n; seed++) {
        s.seed = seed;
        s.sac = seed / 2 % 2;
        if (dive_for(&s, share, 2 + (int)(seed % 2), seed % 3 == 0 ? 120 : 60, (int)(seed % 7),
                     s.ms_len > 0 && seed / 4 % 2, r))
            return r->verdict;
    }
    s.seed = 0;
    s.sac = false;
    s.budget = s.nodes + budget / 10;
    s.out = false;
    next_tt_gen(t);
    for (int depth = pos->side == color ? 1 : 2; depth < UNWIN_MAX_LINE && !s.out; depth += 2)
        if (hm(&s, pos, depth, 0))
            return found(r, &s, UNWIN_WINNABLE, UNWIN_BY_HELPMATE);
    if (budget > s.nodes && exhaust_for(&s, budget - s.nodes, r))
        return r->verdict;
    /* The exhaustive search stops where its table fills: the rest of the
     * budget goes to more dives with noise. */
    for (; s.nodes < budget; seed++) {
        s.seed = seed;
        s.sac = seed / 2 % 2;
        if (dive_for(&s, share < budget - s.nodes ? share : budget - s.nodes, 2 + (int)(seed % 2),
                     seed % 3 == 0 ? 120 : 60, (int)(seed % 7), s.ms_len > 0 && seed / 4 % 2, r))
            return r->verdict;
    }
    r->nodes = s.nodes;
    return r->verdict;
}

static bool same_question(const AnswerEntry *e, const Position *pos, int color, uint64_t budget)
{
    return e->used && e->key == pos->key && e->budget == budget && e->color == color && e->side == pos->side &&
           e->ep == (pos->ep_legal ? pos->ep : SQ_NONE) && e->castling == pos->castling &&
           !memcmp(e->board, pos->board, sizeof e->board);
}

/* The answers of every thread, behind one lock: a game's copies are
 * searched once at any -j (with an answer store per thread, two threads
 * searched big.pgn's repeated questions twice: 257 searches at -j2, 184
 * at -j1).  A search's answer depends only on the question (its tables
 * start each search afresh: gen, seen_gen), so which thread asked first
 * changes nothing.  The lock is taken twice a search, and only where the
 * filter left the question to one. */
#define SHARED_ANSWERS 4096u
static AnswerEntry shared_answers[SHARED_ANSWERS];
static pthread_mutex_t shared_mu = PTHREAD_MUTEX_INITIALIZER;

static AnswerEntry *answer_slot(AnswerEntry *base, size_t mask, const Position *pos, int color, uint64_t budget)
{
    return base + ((pos->key ^ (uint64_t)color * 0x9E3779B97F4A7C15ull ^ budget * 0xC2B2AE3D27D4EB4Full) & mask);
}

UnwinVerdict unwin_decide_verdict(const Position *pos, int color, UnwinTable *t, uint64_t budget, UnwinReason *why)
{
    AnswerEntry *e = (AnswerEntry *)t->answers + ((pos->key ^ (uint64_t)color * 0x9E3779B97F4A7C15ull) & t->answers_mask);
    if (same_question(e, pos, color, budget)) {
        *why = (UnwinReason)e->reason;
        return (UnwinVerdict)e->verdict;
    }
    AnswerEntry *g = answer_slot(shared_answers, SHARED_ANSWERS - 1, pos, color, budget);
    pthread_mutex_lock(&shared_mu);
    bool hit = same_question(g, pos, color, budget);
    AnswerEntry got = *g;
    pthread_mutex_unlock(&shared_mu);
    UnwinVerdict v;
    if (hit) {
        v = (UnwinVerdict)got.verdict;
        *why = (UnwinReason)got.reason;
    } else {
        static _Thread_local UnwinResult r; /* (its line is 1 KB: not on the stack) */
        v = unwin_decide(pos, color, t, budget, &r);
        *why = r.reason;
    }
    *e = (AnswerEntry){.key = pos->key, .budget = budget, .side = pos->side,
                       .ep = pos->ep_legal ? pos->ep : SQ_NONE, .castling = pos->castling,
                       .color = (uint8_t)color, .verdict = (uint8_t)v, .reason = (uint8_t)*why, .used = 1};
    memcpy(e->board, pos->board, sizeof e->board);
    if (!hit) {
        pthread_mutex_lock(&shared_mu);
        *g = *e;
        pthread_mutex_unlock(&shared_mu);
    }
    return v;
}
