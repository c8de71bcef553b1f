/* position.h - a position: FEN in and out, keys, make, pins and checks, consistency (position.c). */
#ifndef PGNCHECK_POSITION_H
#define PGNCHECK_POSITION_H

#include "bitboard.h"

const char *pos_fen_error_text(FenError e);
CHESS_NODISCARD FenError pos_from_fen(Position *pos, const char *fen, size_t len,
                                      bool chess960, FenInfo *info);
/* R3 for a game's start position (pos from pos_from_fen): FEN_ERR_PROMOTED
 * with the side's counts in *info when it has more promoted pieces than
 * pawns missing from eight (fen_promoted), else FEN_OK.  Kept apart from
 * pos_from_fen, which takes any position the rules can be played from:
 * public perft vectors hold Chess960 back ranks with both bishops on one
 * colour. */
CHESS_NODISCARD FenError pos_check_material(const Position *pos, FenInfo *info);
void pos_startpos(Position *pos);
/* A position from its board (a piece code a square, 0 empty), side to
 * move and en passant square (SQ_NONE, or kept only when the capture is
 * legal), without castling rights, clocks 0 and 1: for a caller that
 * stored the board itself (unwin.c) and knows it legal. */
void pos_from_board(Position *pos, const uint8_t board[64], int side, int ep);
/* Writes a NUL-terminated FEN (at most 100 bytes) and returns its length.
 * Castling is written as KQkq when unambiguous, Shredder letters otherwise. */
size_t pos_to_fen(const Position *pos, char *buf);

/* Copy-make: *out is the position after the legal move m. */
void pos_make(const Position *pos, Move m, Position *out);
/* The same in place: *pos becomes the position after the legal move m. */
void pos_do(Position *pos, Move m);
/* pos_do for a legal castling move m. */
void pos_do_castle(Position *pos, Move m);
/* Full recomputation check of every derived field (debug builds and tests). */
bool pos_is_consistent(const Position *pos);
/* Debug builds (-DPGNCHECK_DEBUG: make check's sanitizer build) check
 * each position the replay makes against that full recomputation. */
#define POS_DEBUG_CONSISTENT(pos) CHESS_DEBUG_ASSERT(pos_is_consistent(pos))
/* Every field of a and b the same (the padding aside). */
bool pos_equal(const Position *a, const Position *b);

Bitboard pos_attackers_to(const Position *pos, int sq, Bitboard occupied);
bool pos_square_attacked(const Position *pos, int sq, int by_color, Bitboard occupied);
/* Pieces of the side to move pinned to its king (computed on demand: most
 * positions of a game never need it). */
Bitboard pos_pinned(const Position *pos);
/* pos_move_unpins() (below): the per-move form of pos_pinned. */
static inline bool pos_in_check(const Position *pos) { return pos->checkers != 0; }

/* Would moving the piece on `from` (not the king, not en passant) to `to`
 * leave the king of the side to move attacked by an enemy slider?  For a
 * position out of check, or an evasion that already blocks or captures the
 * single checker: the cheap per-move form of pos_pinned.  Only a piece on
 * one of the king's lines can uncover it, and then the slider attacks of
 * that kind are taken from the king with the move made (a piece landing
 * on the line still shields; capturing the slider removes it). */
CHESS_HOT_INLINE bool pos_move_unpins(const Position *pos, int from, int to)
{
    int us = pos->side, ksq = pos->king_sq[us];
    Bitboard f = (Bitboard)1 << from, t = (Bitboard)1 << to;
    Bitboard them = pos->by_color[us ^ 1] & ~t;
    Bitboard occ = (pos->by_type[0] ^ f) | t;
    Bitboard rays = bb_rook_empty(ksq);
    if (rays & f) {
        Bitboard snipers = rays & them & (pos->by_type[ROOK] | pos->by_type[QUEEN]);
        return snipers && (bb_rook_attacks(ksq, occ) & snipers);
    }
    rays = bb_bishop_empty(ksq);
    if (rays & f) {
        Bitboard snipers = rays & them & (pos->by_type[BISHOP] | pos->by_type[QUEEN]);
        return snipers && (bb_bishop_attacks(ksq, occ) & snipers);
    }
    return false;
}

/* Those of the pieces (of the side to move, not its king) whose move
 * might uncover their king (not en passant): the ones on its empty-board
 * lines that hold an enemy slider moving along them (pos->pin_lines).
 * Pieces elsewhere need no pin test, which is most of them. */
CHESS_HOT_INLINE Bitboard pos_pin_suspects(const Position *pos, Bitboard pieces)
{
    return pos->pin_lines & pieces;
}

/* The pin_lines of a king on ksq whose enemy's sliders are diag
 * (bishops, queens) and orth (rooks, queens).  Without
 * branches: whether an enemy slider stands on the king's lines is as good
 * as random to the branch predictor, and a mispredicted branch costs more
 * than these few operations (tests/BENCH.md).  Each line set is
 * multiplied by its test's 0 or 1: two instructions fewer than a mask
 * made of the test, and the compiler makes branches of the plain
 * conditional (?:). */
CHESS_HOT_INLINE Bitboard pos_pin_lines_of(int ksq, Bitboard diag, Bitboard orth)
{
    Bitboard be = bb_bishop_empty(ksq), re = bb_rook_empty(ksq);
    return be * ((be & diag) != 0) | re * ((re & orth) != 0);
}

/* The slider part of pos_square_attacked (diag, orth: the enemy's
 * sliders on the square's empty-board lines), out of line: it needs more
 * registers than the usual early answers, which then save none. */
bool pos_slider_attacks(int sq, Bitboard diag, Bitboard orth, Bitboard occ);

/* pos_square_attacked, inline for the king moves of the SAN fast path. */
CHESS_HOT_INLINE bool pos_square_attacked_inline(const Position *pos, int sq, int by, Bitboard occ)
{
    Bitboard them = pos->by_color[by];
    if (((bb_pawn_attacks(by ^ 1, sq) & pos->by_type[PAWN]) | (bb_knight_attacks(sq) & pos->by_type[KNIGHT]) |
         (bb_king_attacks(sq) & pos->by_type[KING])) & them)
        return true;
    /* Sliders: the attack sets are computed only for a line that holds one. */
    Bitboard diag = them & (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & bb_bishop_empty(sq);
    Bitboard orth = them & (pos->by_type[ROOK] | pos->by_type[QUEEN]) & bb_rook_empty(sq);
    return (diag | orth) && pos_slider_attacks(sq, diag, orth, occ);
}

/* ---- The make's parts, inline ----
 * pos_do's own, and a caller's which has just found a move (san.c's fast
 * path): it makes the move with the piece and captured piece it already
 * knows, without a call or a second look at the board.  Out of line
 * (pos_do_pawn / pos_do_piece called from san.c), the replay took more
 * instructions (tests/BENCH.md), so the make is inline here; position
 * owns every make, and no other file writes a Position's fields for one. */
extern uint64_t zob_piece[16][64];   /* Zobrist keys, filled by chess_init() */
extern uint64_t zob_castle[16];
extern uint64_t zob_ep[8];
extern uint64_t zob_side;

/* Is an en passant capture onto pos->ep legal for the side to move? */
bool pos_ep_capture_legal(const Position *pos);
/* A rook that moves or is captured takes its castling right with it
 * (rooks with a right stand on the first or last rank). */
void pos_drop_rook_rights(Position *p, int from, int to);

/* The start of every move: the key loses the side to move and the en
 * passant file it had.  Returns the key so far (the clocks are the
 * caller's: a pawn move or capture resets the halfmove clock). */
CHESS_HOT_INLINE uint64_t pos_move_begin(const Position *p)
{
    uint64_t k = p->key ^ zob_side;
    if (p->ep_legal)
        k ^= zob_ep[sq_file(p->ep)];
    return k;
}

/* The end of every move, once the pieces stand where they go (us: the
 * side that moved; k: the key but for the en passant file; chk: its
 * pawn or knight check; moved: the squares the move emptied or filled;
 * ep: a double step's square, SQ_NONE if none). */
CHESS_HOT_INLINE void pos_move_end(Position *p, int us, uint64_t k, Bitboard chk, Bitboard moved, int ep)
{
    const int them = us ^ 1;
    p->by_type[0] = p->by_color[WHITE] | p->by_color[BLACK];
    p->side = (uint8_t)them;
    const int ksq = p->king_sq[them];
    /* Derived state for the side now to move: checks by sliders.  Before
     * the move the king was not in check, so a slider check is new: the
     * moved piece landing on one of the king's lines, or a line opened by
     * the square it left.  Only then, and only when one of the mover's
     * sliders of that kind also stands on such a line, are the sliders
     * looked at, and then as a whole, so the checkers are the same set a
     * full computation finds.  The conditions are combined without
     * branches into one test that is mostly false: each of them alone is
     * as good as random to the branch predictor (faster than a first
     * test of the moved squares alone: tests/BENCH.md).  The lines with a
     * slider on them are the next move's pin_lines. */
    Bitboard mine = p->by_color[us];
    Bitboard diag = (p->by_type[BISHOP] | p->by_type[QUEEN]) & mine;
    Bitboard orth = (p->by_type[ROOK] | p->by_type[QUEEN]) & mine;
    Bitboard lines = pos_pin_lines_of(ksq, diag, orth);
    p->pin_lines = lines;
    if (lines & moved) {
        /* The sliders on the king's lines, each of its kind's line: each
         * gives check exactly when nothing stands between it and the
         * king.  There are seldom more than two, and their between sets
         * cost fewer instructions than the slider attack sets from the
         * king (which the debug build compares). */
        Bitboard occ = p->by_type[0], slid = chk;
        const Bitboard *btw = bb_between_tab[ksq];
        for (Bitboard s = (bb_bishop_empty(ksq) & diag) | (bb_rook_empty(ksq) & orth); s;) {
            int x = bb_pop(&s);
            chk |= bb_sq(x) & (0 - (Bitboard)((btw[x] & occ) == 0));
        }
        CHESS_DEBUG_ASSERT(chk == (slid | (bb_bishop_attacks(ksq, occ) & diag) | (bb_rook_attacks(ksq, occ) & orth)));
        (void)slid;
    }
    p->checkers = chk;
    /* The en passant square is kept only when the capture is legal, and
     * then it enters the key (R26). */
    p->ep = SQ_NONE;
    p->ep_legal = false;
    if (ep != SQ_NONE) {
        p->ep = (uint8_t)ep;
        if (pos_ep_capture_legal(p)) {
            p->ep_legal = true;
            k ^= zob_ep[sq_file(ep)];
        } else
            p->ep = SQ_NONE;
    }
    p->key = k;
}

/* A normal move needs the rare ends of pos_do_normal (calls out of line)
 * only when it leaves an en passant square to test (a double step beside
 * an enemy pawn) or may take a castling right (a rook moved or taken). */
CHESS_HOT_INLINE bool pos_normal_is_rare(const Position *p, int from, int to, int pt, int captured)
{
    int us = p->side;
    /* (squares are never negative: their mean by a shift, without the
     * fix-up of a signed division) */
    if (pt == PAWN && (from ^ to) == 16 &&
        (bb_pawn_attacks(us, (from + to) >> 1) & p->by_color[us ^ 1] & p->by_type[PAWN]))
        return true;
    return p->castling && (pt == ROOK || piece_type(captured) == ROOK);
}

/* pos_do for a legal move of type MOVE_NORMAL from `from` to `to`, given
 * the type of the piece on from (pt) and the piece on to (captured, 0 if
 * none).  Inline with pt a constant in san.c's pawn and per-kind paths,
 * where each kind of piece then has only its own tests, and with pt a
 * value in its one path for every kind of piece but the pawn (which it
 * tells the compiler), where the kinds' parts cost no branch but the
 * king's; rare false (the move is known not pos_normal_is_rare) leaves
 * out the rare ends, so that the code has no call with values to keep
 * across it. */
CHESS_HOT_INLINE void pos_do_normal(Position *p, int from, int to, int pt, int captured, const bool rare)
{
    const int us = p->side, them = us ^ 1, pc = us << 3 | pt;
    /* The key's tables are read before the position is written: the
     * compiler cannot tell the tables from the position's words. */
    uint64_t k = zob_piece[pc][from] ^ zob_piece[pc][to] ^ pos_move_begin(p);
    int ep = SQ_NONE;
    /* Checks by a pawn or knight: before the move the side not to move is
     * never in check, so only the piece moved can give one of them. */
    Bitboard chk = 0;
    const Bitboard fromto = bb_sq(from) | bb_sq(to);
    p->fullmove += (uint32_t)us; /* after Black's move */
    if (captured) {
        k ^= zob_piece[captured][to];
        p->by_color[them] ^= bb_sq(to);
        p->by_type[piece_type(captured)] ^= bb_sq(to);
    }
    p->halfmove = pt == PAWN || captured ? 0 : p->halfmove + 1;
    p->by_color[us] ^= fromto;
    p->by_type[pt] ^= fromto;
    p->board[from] = 0;
    p->board[to] = (uint8_t)pc;
    if (pt == PAWN) {
        chk = bb_pawn_attacks(them, p->king_sq[them]) & bb_sq(to);
        /* A double step leaves an en passant square only when an
         * enemy pawn stands beside the pawn (pos_move_end then tests it). */
        if (rare && (from ^ to) == 16 &&
            (bb_pawn_attacks(us, (from + to) >> 1) & p->by_color[them] & p->by_type[PAWN]))
            ep = (from + to) >> 1;
    } else {
        /* A knight's check without a branch on the kind: pt is a constant
         * in the per-kind callers, which then keep only their own part,
         * and not in san.c's one path for every kind of piece. */
        chk = bb_knight_attacks(p->king_sq[them]) & bb_sq(to) & (0 - (Bitboard)(pt == KNIGHT));
    }
    if (pt == KING) {
        p->king_sq[us] = (uint8_t)to;
        unsigned mine = us == WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ;
        if (p->castling & mine) {
            k ^= zob_castle[p->castling];
            p->castling &= (uint8_t)~mine;
            k ^= zob_castle[p->castling];
        }
    }
    /* A right's square always holds its rook: only a rook move or
     * capture can take a right away. */
    if (rare && p->castling && (pt == ROOK || piece_type(captured) == ROOK)) {
        k ^= zob_castle[p->castling];
        pos_drop_rook_rights(p, from, to);
        k ^= zob_castle[p->castling];
    }
    pos_move_end(p, us, k, chk, fromto, ep);
}

#endif
