/* bitboard.c - attack tables: leapers, line masks for sliders, between and line sets. */
#include "chess.h"

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
static bool initialised;

static bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

/* Slow ray walk, used only to fill the tables. */
static Bitboard slide(int sq, Bitboard occ, const int (*dirs)[2])
{
    Bitboard att = 0;
    for (int d = 0; d < 4; d++) {
        int f = sq_file(sq) + dirs[d][0], r = sq_rank(sq) + dirs[d][1];
        while (on_board(f, r)) {
            att |= bb_sq(sq_make(f, r));
            if (occ & bb_sq(sq_make(f, r)))
                break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return att;
}

static const int rook_dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
static const int bishop_dirs[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

void bb_init(void);
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
    }
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            if (a == b)
                continue;
            Bitboard ba = bb_sq(a), bbb = bb_sq(b);
            if (slide(a, 0, rook_dirs) & bbb) {
                bb_line_tab[a][b] = (slide(a, 0, rook_dirs) & slide(b, 0, rook_dirs)) | ba | bbb;
                bb_between_tab[a][b] = slide(a, bbb, rook_dirs) & slide(b, ba, rook_dirs);
            } else if (slide(a, 0, bishop_dirs) & bbb) {
                bb_line_tab[a][b] = (slide(a, 0, bishop_dirs) & slide(b, 0, bishop_dirs)) | ba | bbb;
                bb_between_tab[a][b] = slide(a, bbb, bishop_dirs) & slide(b, ba, bishop_dirs);
            }
        }
    initialised = true;
}
