/* unwin_quick.c - the cheap filter before the search of unwin.c: positions
 * where a colour can plainly still mate (unwin.h, unwin_quick_winnable).
 *
 * What makes a position unwinnable for a colour W that has mating
 * material (rules_can_mate) is always one of three things, and the filter
 * passes only positions that show none of them:
 *
 * 1. Forced play: a side with one or a few legal moves can be made to
 *    give up W's last mating man, or be stalemated (CHA's vector has
 *    pins, lone rooks next to the king, kings shut in a corner by their
 *    own pawns).  The filter wants the side to move out of check with at
 *    least QUICK_MOBILITY legal moves, the other side at least that many
 *    moves by a count of its men's reach (pieces to squares not its own,
 *    pawn pushes and captures, king steps off the enemy pawns' attacks
 *    and the enemy king's), and a man of W's mating force that is not
 *    alone next to the enemy king.  In check, every evasion is tried once,
 *    each as a position of its own (a helpmate may choose any evasion).
 * 2. Walls: pawns that block each other head on (and the pawns of their
 *    colour behind them on the file) never move unless a capture opens
 *    the file.  Taking every such pawn as fixed for ever, and the squares
 *    the fixed pawns attack as closed to the enemy king, the squares each
 *    king can walk to must meet (the kings are on one side of any wall)
 *    and the defending king must have at least QUICK_REGION of them.
 * 3. Jammed force: men of W that cannot get out (a rook behind its own
 *    pawns, knights on the last rank in front of locked pawns, bishops of
 *    one colour against pawns on the other).  W's force must be a queen
 *    or rook with at least 4 empty squares on its lines, a pawn whose way
 *    to the last rank is empty (or held only by W's king, where that king
 *    can walk away: pawn_way_free), or that walks to a square where it
 *    takes a man of L onto a file whose way is empty (pawn_way_by_capture),
 *    a knight and another minor piece that
 *    each have two empty squares to go to, or bishops with such room on
 *    both colours of squares.
 * Two endings are taken by their theory, with both sides holding at least
 *    two moves and the side to move a legal one: a queen or rook against
 *    the bare king (not one standing next to it with the king to move),
 *    and kings and pawns with a pawn of W whose way to promotion is empty
 *    (as above).
 *
 * This is an argument, not a proof: a position that passes every test
 * could still hide a long forced line.  What makes it safe to use:
 * - the filter only ever says "winnable", which leaves the result
 *   standing, as the program did before the searches ran by default: a
 *   position it passes wrongly is a missed draw, never a false alarm;
 * - tests/test_unwin -q holds it against every question of CHA's test
 *   vector (1,857 unwinnable, adversarial by design) and of the 30,000
 *   lichess positions (864 unwinnable, decided by our search at 10
 *   million nodes, tests/unwin/lichess.txt): it passes none of the
 *   unwinnable ones (tests/suites/unwin.sh).
 * Where the position itself shows none of this, the positions up to two
 * plies ahead are asked (at most QUICK_AHEAD_POSITIONS of them): a
 * helpmate may play any move, and a position that can follow an
 * unwinnable one is unwinnable too, so this adds no new kind of risk.
 * Held at four plies ahead (100,000 positions a question) against the
 * whole test vector as well: it passes none of its unwinnable questions.
 * Cost: bit operations, one legal-move count and a few flood fills a
 * position (tests/test_unwin -q prints the time a question). */
#include "unwin.h"

#include <string.h>

#include "mem.h"
#include "movegen.h"
#include "rules.h"

#define QUICK_MOBILITY 6
#define QUICK_REGION 8
#define QUICK_HEAVY_ROOM 4
#define QUICK_WIDE 24
/* The lookahead of unwin_quick_winnable: plies, and positions at most. */
#define QUICK_AHEAD_PLIES 2
#define QUICK_AHEAD_POSITIONS 400

static const Bitboard NOT_A = ~0x0101010101010101ull, NOT_H = ~0x8080808080808080ull;
static const Bitboard LIGHT = 0x55AA55AA55AA55AAull;

static Bitboard pawn_attacks_of(int c, Bitboard b)
{
    return c == WHITE ? ((b & NOT_A) << 7) | ((b & NOT_H) << 9) : ((b & NOT_A) >> 9) | ((b & NOT_H) >> 7);
}

static Bitboard spread(Bitboard b)
{
    Bitboard side = ((b & NOT_A) >> 1) | ((b & NOT_H) << 1), row = b | side;
    return side | (row << 8) | (row >> 8);
}

/* The squares a king on `from` walks to over `open`. */
static Bitboard flood(Bitboard from, Bitboard open)
{
    Bitboard r = from, prev;
    do {
        prev = r;
        r = ((r | spread(r)) & open) | from;
    } while (r != prev);
    return r;
}

/* Every square ahead of the men of b, for colour c's pawns. */
static Bitboard ahead_of(int c, Bitboard b)
{
    if (c == WHITE) {
        b <<= 8;
        b |= b << 8;
        b |= b << 16;
        b |= b << 32;
    } else {
        b >>= 8;
        b |= b >> 8;
        b |= b >> 16;
        b |= b >> 32;
    }
    return b;
}

static Bitboard piece_reach(const Position *p, int sq, Bitboard occ)
{
    switch (piece_type(p->board[sq])) {
    case KNIGHT: return bb_knight_attacks(sq);
    case BISHOP: return bb_bishop_attacks(sq, occ);
    case ROOK: return bb_rook_attacks(sq, occ);
    default: return bb_bishop_attacks(sq, occ) | bb_rook_attacks(sq, occ);
    }
}

/* At least two, and at least four, squares in b (without a count). */
static bool two_or_more(Bitboard b)
{
    return (b & (b - 1)) != 0;
}

static bool four_or_more(Bitboard b)
{
    b &= b - 1;
    b &= b - 1;
    return (b & (b - 1)) != 0;
}

/* Colour c's moves by the reach of its men (see 1 above): are there at
 * least k?  The count stops once it has k (every term adds, none takes
 * away): the pawns and the king first, then the pieces, the queens and
 * rooks, which reach most, before the minor pieces. */
static bool reach_at_least(const Position *p, int c, int k)
{
    Bitboard occ = p->by_type[0], own = p->by_color[c], pawns = p->by_type[PAWN];
    Bitboard pw = own & pawns;
    /* (pushes go to empty squares, captures to enemy men: apart; a king's
     * step may share a square with either, counted once more then) */
    Bitboard pm = ((c == WHITE ? pw << 8 : pw >> 8) & ~occ) | (pawn_attacks_of(c, pw) & p->by_color[c ^ 1]);
    Bitboard ks = bb_king_attacks(p->king_sq[c]) & ~own & ~pawn_attacks_of(c ^ 1, pawns & p->by_color[c ^ 1]) &
                  ~bb_king_attacks(p->king_sq[c ^ 1]);
    int n = bb_count(pm | ks);
    if (pm & ks)
        n += bb_count(pm & ks);
    Bitboard diag = own & (p->by_type[QUEEN] | p->by_type[BISHOP]);
    Bitboard line = own & (p->by_type[QUEEN] | p->by_type[ROOK]);
    for (Bitboard b = line; b && n < k;)
        n += bb_count(bb_rook_attacks(bb_pop(&b), occ) & ~own);
    for (Bitboard b = diag; b && n < k;)
        n += bb_count(bb_bishop_attacks(bb_pop(&b), occ) & ~own);
    for (Bitboard b = own & p->by_type[KNIGHT]; b && n < k;)
        n += bb_count(bb_knight_attacks(bb_pop(&b)) & ~own);
#ifdef PGNCHECK_DEBUG
    /* (the whole count, man by man) */
    int all = bb_count(pm) + bb_count(ks);
    for (Bitboard b = own & ~pawns & ~p->by_type[KING]; b;) {
        int sq = bb_pop(&b);
        all += bb_count(piece_reach(p, sq, occ) & ~own);
    }
    CHESS_DEBUG_ASSERT((n >= k) == (all >= k));
#endif
    return n >= k;
}

/* At least k legal moves for the side to move, out of check, by a count
 * of some of them: the men that stand off the king's lines to the enemy
 * sliders (pin_lines) are not pinned, and every move of such a man other
 * than the king (en passant aside) is legal: its pushes, and its moves
 * to squares with no man of its own (nor a king).  False says nothing. */
static bool free_moves_at_least(const Position *p, int k)
{
    if (p->checkers)
        return false;
    int c = p->side;
    Bitboard occ = p->by_type[0], own = p->by_color[c], free_men = own & ~p->pin_lines;
    Bitboard to = ~own & ~p->by_type[KING];
    Bitboard pw = free_men & p->by_type[PAWN];
    int n = bb_count(((c == WHITE ? pw << 8 : pw >> 8) & ~occ) | (pawn_attacks_of(c, pw) & p->by_color[c ^ 1] & to));
    for (Bitboard b = free_men & (p->by_type[QUEEN] | p->by_type[ROOK]); b && n < k;)
        n += bb_count(bb_rook_attacks(bb_pop(&b), occ) & to);
    for (Bitboard b = free_men & (p->by_type[QUEEN] | p->by_type[BISHOP]); b && n < k;)
        n += bb_count(bb_bishop_attacks(bb_pop(&b), occ) & to);
    for (Bitboard b = free_men & p->by_type[KNIGHT]; b && n < k;)
        n += bb_count(bb_knight_attacks(bb_pop(&b)) & to);
#ifdef PGNCHECK_DEBUG
    if (n >= k) {
        MoveList list;
        gen_legal(p, &list);
        CHESS_DEBUG_ASSERT(list.count >= k); /* (the moves generated: at least as many) */
    }
#endif
    return n >= k;
}

/* At least k legal moves: the count above, else the moves generated. */
static bool legal_at_least(const Position *p, int k)
{
    if (free_moves_at_least(p, k))
        return true;
    MoveList list;
    gen_legal(p, &list);
    return list.count >= k;
}

/* A pawn of W (among `pw`) whose way to the last rank is empty, or
 * holds only W's king where that king can walk away (a helpmate waits
 * for it): the squares it walks to, off the pawns, their attacks and the
 * enemy king's, number more than QUICK_REGION (a king shut in beside its
 * pawns blocks them for ever).  The walk only where the king is the one
 * man in the way. */
static bool pawn_way_free(const Position *p, int W, Bitboard pw, Bitboard occ)
{
    if (pw & ~ahead_of(W ^ 1, occ))
        return true;
    Bitboard k = bb_sq(p->king_sq[W]);
    if (!(pw & ~ahead_of(W ^ 1, occ & ~k)))
        return false;
    Bitboard pawns = p->by_type[PAWN];
    Bitboard open = ~pawns & ~p->by_color[W] & ~pawn_attacks_of(W ^ 1, pawns & p->by_color[W ^ 1]) &
                    ~bb_king_attacks(p->king_sq[W ^ 1]);
    return bb_count(flood(k, open | k)) > QUICK_REGION;
}

/* The endings of their theory (see the head of the file). */
static bool quick_ending(const Position *p, int W)
{
    int L = W ^ 1;
    Bitboard occ = p->by_type[0], kings = p->by_type[KING];
    Bitboard wmen = p->by_color[W] & ~kings, lmen = p->by_color[L] & ~kings;
    Bitboard heavy = wmen & (p->by_type[QUEEN] | p->by_type[ROOK]);
    bool bare = !lmen && heavy && (p->side == W || !(bb_king_attacks(p->king_sq[L]) & heavy));
    /* (not with L's king shut in by its own men: a king that cannot
     * step now may be mated only where W's new queen can never reach) */
    Bitboard steps = bb_king_attacks(p->king_sq[L]) & ~p->by_color[L] & ~bb_king_attacks(p->king_sq[W]) &
                     ~pawn_attacks_of(W, wmen & p->by_type[PAWN]);
    bool pawn_race = !(occ & ~p->by_type[PAWN] & ~kings) && steps && pawn_way_free(p, W, wmen, occ);
    /* A lone minor piece mates with the help of a man of L that can move
     * to stand in its king's way (a pawn with an empty way to promotion,
     * or a piece with room): no pawns of W, and L's king free of walls. */
    Bitboard minors = wmen & (p->by_type[KNIGHT] | p->by_type[BISHOP]);
    bool minor = wmen == minors && bb_count(minors) == 1;
    bool helper = minor && (lmen & p->by_type[PAWN] & ~ahead_of(W, occ)) != 0;
    for (Bitboard b = minor ? lmen & ~p->by_type[PAWN] : 0; b && !helper;) {
        int sq = bb_pop(&b);
        helper = two_or_more(piece_reach(p, sq, occ) & ~occ);
    }
    minor = minor && helper &&
                 two_or_more(piece_reach(p, bb_lsb(minors), occ) & ~occ) &&
                 bb_count(flood(bb_sq(p->king_sq[L]), ~p->by_type[PAWN])) >= 16 &&
                 reach_at_least(p, W, QUICK_MOBILITY) && reach_at_least(p, L, QUICK_MOBILITY) &&
                 legal_at_least(p, QUICK_MOBILITY);
    return (bare || pawn_race || minor) && reach_at_least(p, W, 2) && reach_at_least(p, L, 2) && gen_has_legal_move(p);
}

/* A pawn of W (among `pw`) that can walk its file through empty squares
 * to one from which it takes a man of L (not the king) standing there
 * now, onto a file whose way to the last rank is then empty: a helpmate
 * leaves that man where it is (L has other moves: the mobility tests of
 * quick), and the pawn promotes as a free one would. */
static bool pawn_way_by_capture(int W, Bitboard pw, const Position *p, Bitboard occ)
{
    Bitboard empty = ~occ, ws = pw;
    for (int i = 0; i < 6; i++)
        ws |= (W == WHITE ? ws << 8 : ws >> 8) & empty;
    Bitboard prey = pawn_attacks_of(W, ws) & p->by_color[W ^ 1] & ~p->by_type[KING];
    return (prey & ~ahead_of(W ^ 1, occ)) != 0;
}

/* W's force is free (3 above). */
static bool free_force(const Position *p, int W)
{
    Bitboard occ = p->by_type[0], pawns = p->by_type[PAWN];
    Bitboard mine = p->by_color[W] & ~p->by_type[KING];
    if (pawn_way_free(p, W, mine & pawns, occ) || ((mine & pawns) && pawn_way_by_capture(W, mine & pawns, p, occ)))
        return true;
    /* (the queens and rooks first: one with room answers) */
    for (Bitboard b = mine & (p->by_type[QUEEN] | p->by_type[ROOK]); b;)
        if (four_or_more(piece_reach(p, bb_pop(&b), occ) & ~occ))
            return true;
    Bitboard minors = 0;
    for (Bitboard b = mine & (p->by_type[KNIGHT] | p->by_type[BISHOP]); b;) {
        int sq = bb_pop(&b);
        if (two_or_more(piece_reach(p, sq, occ) & ~occ))
            minors |= bb_sq(sq);
    }
    if ((minors & p->by_type[KNIGHT]) && two_or_more(minors))
        return true;
    Bitboard bishops = minors & p->by_type[BISHOP];
    return (bishops & LIGHT) && (bishops & ~LIGHT);
}

static bool quick(const Position *p, int W, bool evasion)
{
    int L = W ^ 1;
    if (!rules_can_mate(p, W))
        return false;
    if (p->checkers) {
        if (evasion)
            return false;
        MoveList list;
        gen_legal(p, &list);
        for (int i = 0; i < list.count; i++) {
            Position next;
            pos_make(p, list.moves[i], &next);
            if (quick(&next, W, true))
                return true;
        }
        return false;
    }
    if (quick_ending(p, W))
        return true;
    if (!reach_at_least(p, p->side ^ 1, QUICK_MOBILITY) || !free_force(p, W))
        return false;
    Bitboard mine = p->by_color[W] & ~p->by_type[KING];
    if (bb_count(mine) < 2 && (bb_king_attacks(p->king_sq[L]) & mine))
        return false;
    /* 2: the fixed pawns, their attacks, the kings' walks. */
    Bitboard pawns = p->by_type[PAWN];
    Bitboard wp = pawns & p->by_color[WHITE], bp = pawns & p->by_color[BLACK];
    Bitboard fw = wp & (bp >> 8), fb = bp & (wp << 8);
    for (;;) {
        Bitboard nw = fw | (wp & (fw >> 8)), nb = fb | (bp & (fb << 8));
        if (nw == fw && nb == fb)
            break;
        fw = nw;
        fb = nb;
    }
    Bitboard fixed = fw | fb;
    if (fixed) {
        /* (none fixed: each king walks the whole board) */
        Bitboard closed[2] = {pawn_attacks_of(WHITE, fw), pawn_attacks_of(BLACK, fb)};
        Bitboard lreg = flood(bb_sq(p->king_sq[L]), ~fixed & ~closed[W]);
        Bitboard wreg = flood(bb_sq(p->king_sq[W]), ~fixed & ~closed[L]);
        if (!(lreg & wreg) || bb_count(lreg) < QUICK_REGION)
            return false;
    }
    /* (the legal moves counted only where the reach is small: a side
     * with QUICK_WIDE moves by its men's reach is not in forced play) */
    return free_moves_at_least(p, QUICK_MOBILITY) || reach_at_least(p, p->side, QUICK_WIDE) ||
           legal_at_least(p, QUICK_MOBILITY);
}

/* The filter on the positions exactly `depth` plies ahead (any legal
 * moves, as a helpmate may play them), for each colour of `colors` (bit
 * 1 << colour), at most *left positions in all.  A position that can
 * reach one the filter passes for a colour can itself still be won by
 * it.  Nothing here can pass an unwinnable position the filter itself
 * would not: every position an unwinnable one leads to is unwinnable
 * too, and the test vector's questions are asked through this lookahead
 * (tests/test_unwin -q). */
static bool ahead(const Position *p, unsigned colors, int depth, int *left)
{
    for (int c = 0; c < 2; c++)
        if ((colors >> c & 1) && !rules_can_mate(p, c))
            colors &= ~(1u << c);
    if (!colors)
        return false;
    MoveList list;
    gen_legal(p, &list);
    for (int i = 0; i < list.count; i++) {
        if (--*left < 0)
            return false;
        Position next;
        pos_make(p, list.moves[i], &next);
        if (depth > 1 ? ahead(&next, colors, depth - 1, left)
                      : ((colors & 1) && quick(&next, WHITE, false)) || ((colors & 2) && quick(&next, BLACK, false)))
            return true;
    }
    return false;
}

/* The lookahead one ply deeper at a time: most positions that pass do so
 * one ply ahead. */
static bool look_ahead(const Position *p, unsigned colors, int plies)
{
    int left = QUICK_AHEAD_POSITIONS;
    for (int depth = 1; depth <= plies; depth++)
        if (ahead(p, colors, depth, &left))
            return true;
    return false;
}

/* The lookahead's answers, remembered a thread: the final positions of
 * a game's copies come back (big.pgn asks the lookahead of
 * unwin_quick_alive 2,586 times, of 703 positions).  The question is kept
 * whole, as unwin.c keeps its answers: the colours asked, and the
 * position (its board, side to move, castling rights, en passant
 * square). */
#define AHEAD_MEMO 2048u
typedef struct AheadMemo {
    uint64_t key;
    uint8_t board[64];
    uint8_t side, ep, castling, colors, answer;
} AheadMemo;
/* (allocated at a thread's first lookahead, zero pages until used; NULL
 * where the memory was refused: then nothing is remembered) */
static _Thread_local AheadMemo *ahead_memo;
static _Thread_local bool ahead_memo_tried;

static bool look_ahead_memo(const Position *p, unsigned colors)
{
    if (!ahead_memo_tried) {
        ahead_memo_tried = true;
        ahead_memo = mem_calloc(AHEAD_MEMO, sizeof *ahead_memo);
    }
    if (!ahead_memo)
        return look_ahead(p, colors, QUICK_AHEAD_PLIES);
    AheadMemo *m = &ahead_memo[(p->key ^ colors) & (AHEAD_MEMO - 1)];
    uint8_t ep = (uint8_t)(p->ep_legal ? p->ep : SQ_NONE);
    if (m->colors == colors && m->key == p->key && m->side == p->side && m->ep == ep &&
        m->castling == p->castling && !memcmp(m->board, p->board, sizeof m->board))
        return m->answer;
    bool r = look_ahead(p, colors, QUICK_AHEAD_PLIES);
    *m = (AheadMemo){.key = p->key, .side = (uint8_t)p->side, .ep = ep, .castling = p->castling,
                     .colors = (uint8_t)colors, .answer = r};
    memcpy(m->board, p->board, sizeof m->board);
    return r;
}

void unwin_quick_thread_free(void)
{
    mem_free(ahead_memo);
    ahead_memo = NULL;
    ahead_memo_tried = false;
}

bool unwin_quick_winnable(const Position *pos, int color)
{
    return quick(pos, color, false) || look_ahead_memo(pos, 1u << color);
}

bool unwin_quick_alive(const Position *pos, int first)
{
    return quick(pos, first, false) || quick(pos, first ^ 1, false) || look_ahead_memo(pos, 3u);
}

bool unwin_quick_forced(const Position *pos)
{
    return !reach_at_least(pos, WHITE, QUICK_MOBILITY) || !reach_at_least(pos, BLACK, QUICK_MOBILITY);
}
