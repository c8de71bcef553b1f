/* bitboard.c - attack tables: leapers, line masks for sliders, between and line sets. */
#include "bitboard.h"

Bitboard bb_pawn_att[2][64];
Bitboard bb_knight_att[64];
Bitboard bb_king_att[64];
Bitboard bb_between_tab[64][64];
Bitboard bb_line_tab[64][64];
Bitboard bb_file_mask[64];
Bitboard bb_diag_mask[64], bb_anti_mask[64];
uint8_t bb_rank_att[8][64];
Bitboard bb_rook_empty_tab[64], bb_bishop_empty_tab[64], bb_queen_empty_tab[64];
Bitboard bb_reach_tab[8][64];
uint8_t bb_dist_tab[64][64];
static bool initialised;

static bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

/* The squares from sq on in one direction to the board's edge. */
static Bitboard ray(int sq, int df, int dr)
{
    Bitboard b = 0;
    for (int f = sq_file(sq) + df, r = sq_rank(sq) + dr; on_board(f, r); f += df, r += dr)
        b |= bb_sq(sq_make(f, r));
    return b;
}

void bb_init(void)
{
    if (initialised)
        return;
    for (int sq = 0; sq < 64; sq++) {
        int f = sq_file(sq), r = sq_rank(sq);
        static const int kn[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        static const int kg[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
        for (int i = 0; i < 8; i++) {
            if (on_board(f + kn[i][0], r + kn[i][1]))
                bb_knight_att[sq] |= bb_sq(sq_make(f + kn[i][0], r + kn[i][1]));
            if (on_board(f + kg[i][0], r + kg[i][1]))
                bb_king_att[sq] |= bb_sq(sq_make(f + kg[i][0], r + kg[i][1]));
        }
        for (int df = -1; df <= 1; df += 2) {
            if (on_board(f + df, r + 1))
                bb_pawn_att[WHITE][sq] |= bb_sq(sq_make(f + df, r + 1));
            if (on_board(f + df, r - 1))
                bb_pawn_att[BLACK][sq] |= bb_sq(sq_make(f + df, r - 1));
        }
    }
    for (int sq = 0; sq < 64; sq++)
        for (int d = 1; d < 8; d++) {
            int f = sq_file(sq), r = sq_rank(sq);
            if (on_board(f + d, r + d)) bb_diag_mask[sq] |= bb_sq(sq_make(f + d, r + d));
            if (on_board(f - d, r - d)) bb_diag_mask[sq] |= bb_sq(sq_make(f - d, r - d));
            if (on_board(f + d, r - d)) bb_anti_mask[sq] |= bb_sq(sq_make(f + d, r - d));
            if (on_board(f - d, r + d)) bb_anti_mask[sq] |= bb_sq(sq_make(f - d, r + d));
        }
    for (int sq = 0; sq < 64; sq++)
        for (int r = 0; r < 8; r++)
            if (r != sq_rank(sq))
                bb_file_mask[sq] |= bb_sq(sq_make(sq_file(sq), r));
    for (int f = 0; f < 8; f++)
        for (int inner = 0; inner < 64; inner++) {
            unsigned occ = (unsigned)inner << 1, att = 0;
            for (int x = f + 1; x < 8; x++) {
                att |= 1u << x;
                if (occ & (1u << x))
                    break;
            }
            for (int x = f - 1; x >= 0; x--) {
                att |= 1u << x;
                if (occ & (1u << x))
                    break;
            }
            bb_rank_att[f][inner] = (uint8_t)att;
        }
    for (int sq = 0; sq < 64; sq++) {
        bb_rook_empty_tab[sq] = bb_file_mask[sq] | ((Bitboard)bb_rank_att[sq & 7][0] << (sq & 56));
        bb_bishop_empty_tab[sq] = bb_diag_mask[sq] | bb_anti_mask[sq];
        bb_queen_empty_tab[sq] = bb_rook_empty_tab[sq] | bb_bishop_empty_tab[sq];
        bb_reach_tab[KNIGHT][sq] = bb_knight_att[sq];
        bb_reach_tab[BISHOP][sq] = bb_bishop_empty_tab[sq];
        bb_reach_tab[ROOK][sq] = bb_rook_empty_tab[sq];
        bb_reach_tab[QUEEN][sq] = bb_queen_empty_tab[sq];
        bb_reach_tab[KING][sq] = bb_king_att[sq];
        for (int t = 0; t < 64; t++) {
            int df = sq_file(sq) - sq_file(t), dr = sq_rank(sq) - sq_rank(t);
            df = df < 0 ? -df : df;
            dr = dr < 0 ? -dr : dr;
            bb_dist_tab[sq][t] = (uint8_t)(df > dr ? df : dr);
        }
    }
    /* Line and between sets by a walk along each of a square's eight
     * rays, not a ray walk for every pair of squares, which cost as much
     * as a replay of many games at every start (tests/BENCH.md). */
    static const int dirs[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
    for (int a = 0; a < 64; a++)
        for (int d = 0; d < 8; d++) {
            int df = dirs[d][0], dr = dirs[d][1];
            Bitboard line = ray(a, df, dr) | ray(a, -df, -dr) | bb_sq(a), between = 0;
            for (int f = sq_file(a) + df, r = sq_rank(a) + dr; on_board(f, r); f += df, r += dr) {
                int b = sq_make(f, r);
                bb_line_tab[a][b] = line;
                bb_between_tab[a][b] = between;
                between |= bb_sq(b);
            }
        }
    initialised = true;
}
