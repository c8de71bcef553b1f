/* position.h - a position: FEN in and out, keys, make, pins and checks, consistency (position.c). */
#ifndef PGNCHECK_POSITION_H
#define PGNCHECK_POSITION_H

#include "bitboard.h"

const char *fen_error_text(FenError e);
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
#ifdef PGNCHECK_DEBUG
#include <assert.h>
#define POS_DEBUG_CONSISTENT(pos) assert(pos_is_consistent(pos))
#else
#define POS_DEBUG_CONSISTENT(pos) ((void)0)
#endif
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

#endif
