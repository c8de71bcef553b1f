/* bitboard.h - attack tables and bit operations on sets of squares (bitboard.c). */
#ifndef PGNCHECK_BITBOARD_H
#define PGNCHECK_BITBOARD_H

#include "chess.h"

static inline int bb_lsb(Bitboard b) { return __builtin_ctzll(b); }
/* Where the compiler may not use the POPCNT instruction (the default
 * x86-64 target), __builtin_popcountll is a call into libgcc's table
 * loop; the bit-parallel count is a dozen inline instructions (the
 * search's filter counts squares at every step: 4 ms of big.pgn's run). */
static inline int bb_count(Bitboard b)
{
#if defined(__POPCNT__) || !defined(__x86_64__)
    return __builtin_popcountll(b);
#else
    b = b - ((b >> 1) & 0x5555555555555555ull);
    b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
    b = (b + (b >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((b * 0x0101010101010101ull) >> 56);
#endif
}
static inline int bb_pop(Bitboard *b) { int s = __builtin_ctzll(*b); *b &= *b - 1; return s; }
static inline Bitboard bb_sq(int sq) { return (Bitboard)1 << sq; }

/* Attack tables (bitboard.c), filled by chess_init(); the lookups are
 * inline because they are the innermost loop of everything.  Sliders use
 * hyperbola quintessence (the occupancy of one line, a subtraction each
 * way) and a 512-byte rank table: faster here than magic bitboards
 * (tests/BENCH.md), whose 800 KB of tables miss the cache while the
 * reader streams the input through it. */
extern Bitboard bb_pawn_att[2][64];
extern Bitboard bb_knight_att[64];
extern Bitboard bb_king_att[64];
extern Bitboard bb_between_tab[64][64];
extern Bitboard bb_line_tab[64][64];
extern Bitboard bb_file_mask[64];     /* the square's file, without the square */
extern Bitboard bb_diag_mask[64];     /* its a1-h8 diagonal, without the square */
extern Bitboard bb_anti_mask[64];     /* its h1-a8 diagonal, without the square */
extern uint8_t bb_rank_att[8][64];    /* rank attacks by file and inner occupancy */
extern Bitboard bb_rook_empty_tab[64];   /* rook attacks on an empty board */
extern Bitboard bb_bishop_empty_tab[64]; /* bishop attacks on an empty board */
extern Bitboard bb_queen_empty_tab[64];  /* both: the square's eight rays */
/* The squares a piece of each type (KNIGHT..KING) on an empty board
 * reaches from a square: a piece there reaches it on a board when no
 * piece stands between (bb_between: 0 for a leaper's squares). */
extern Bitboard bb_reach_tab[8][64];
/* The king's distance between two squares (the larger of the file and
 * rank distances): the search's move ordering asks it of every move. */
extern uint8_t bb_dist_tab[64][64];
static inline int bb_dist(int a, int b) { return bb_dist_tab[a][b]; }

static inline Bitboard bb_pawn_attacks(int color, int sq) { return bb_pawn_att[color][sq]; }
/* The squares the pawns of colour c on b attack, all at once. */
static inline Bitboard bb_pawn_set_attacks(int c, Bitboard b)
{
    const Bitboard not_a = ~0x0101010101010101ull, not_h = ~0x8080808080808080ull;
    if (c == WHITE)
        return ((b & not_a) << 7) | ((b & not_h) << 9);
    return ((b & not_a) >> 9) | ((b & not_h) >> 7);
}
/* The squares next to those of b. */
static inline Bitboard bb_king_spread(Bitboard b)
{
    const Bitboard not_a = ~0x0101010101010101ull, not_h = ~0x8080808080808080ull;
    Bitboard side = ((b & not_a) >> 1) | ((b & not_h) << 1);
    Bitboard row = b | side;
    return side | (row << 8) | (row >> 8);
}
static inline Bitboard bb_knight_attacks(int sq) { return bb_knight_att[sq]; }
static inline Bitboard bb_king_attacks(int sq) { return bb_king_att[sq]; }
/* Squares strictly between a and b if they share a line, else 0. */
static inline Bitboard bb_between(int a, int b) { return bb_between_tab[a][b]; }
/* The whole line through a and b if they share one, else 0. */
static inline Bitboard bb_line(int a, int b) { return bb_line_tab[a][b]; }

/* Slider attacks along one line (mask) from sq, given the occupancy. */
CHESS_HOT_INLINE Bitboard bb_hq(Bitboard occ, Bitboard mask, int sq)
{
    Bitboard s = (Bitboard)1 << sq;
    Bitboard o = occ & mask;
    Bitboard fwd = o - 2 * s;
    Bitboard rev = __builtin_bswap64(__builtin_bswap64(o) - 2 * __builtin_bswap64(s));
    return (fwd ^ rev) & mask;
}
CHESS_HOT_INLINE Bitboard bb_bishop_attacks(int sq, Bitboard occ)
{
    return bb_hq(occ, bb_diag_mask[sq], sq) | bb_hq(occ, bb_anti_mask[sq], sq);
}
CHESS_HOT_INLINE Bitboard bb_rook_attacks(int sq, Bitboard occ)
{
    int r8 = sq & 56;
    return bb_hq(occ, bb_file_mask[sq], sq) | ((Bitboard)bb_rank_att[sq & 7][(occ >> (r8 + 1)) & 63] << r8);
}
/* For squares a and b on one line (rank, file or diagonal): are the
 * squares strictly between them empty in occ?  Arithmetic on the line
 * through b, not the 32 KB between table (cache misses while the reader
 * streams its input through the cache). */
static inline bool bb_path_clear(int a, int b, Bitboard occ)
{
    Bitboard x = (Bitboard)1 << a, y = (Bitboard)1 << b;
    Bitboard line = !((a ^ b) & 7)    ? bb_file_mask[b]
                  : !((a ^ b) & 56)   ? (Bitboard)0xFF << (b & 56)
                  : bb_diag_mask[b] & x ? bb_diag_mask[b]
                                        : bb_anti_mask[b];
    Bitboard span = x < y ? y - x : x - y; /* from the lower square up to below the higher */
    return !(span & line & occ & ~(x | y));
}

/* Empty-board slider attacks. */
static inline Bitboard bb_bishop_empty(int sq) { return bb_bishop_empty_tab[sq]; }
static inline Bitboard bb_rook_empty(int sq) { return bb_rook_empty_tab[sq]; }
static inline Bitboard bb_queen_empty(int sq) { return bb_queen_empty_tab[sq]; }

/* Fills the tables (called by chess_init). */
void bb_init(void);

#endif
