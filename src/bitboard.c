/* bitboard.c - attack tables: leaper tables and magic-indexed slider tables. */
#include "chess.h"

typedef struct Magic {
    Bitboard mask;
    Bitboard magic;
    Bitboard *attacks;
    unsigned shift;
} Magic;

static Bitboard pawn_att[2][64];
static Bitboard knight_att[64];
static Bitboard king_att[64];
static Bitboard between_bb[64][64];
static Bitboard line_bb[64][64];
static Magic rook_magic[64];
static Magic bishop_magic[64];
static Bitboard rook_table[0x19000];
static Bitboard bishop_table[0x1480];
static bool initialised;

Bitboard bb_pawn_attacks(int color, int sq) { return pawn_att[color][sq]; }
Bitboard bb_knight_attacks(int sq) { return knight_att[sq]; }
Bitboard bb_king_attacks(int sq) { return king_att[sq]; }
Bitboard bb_between(int a, int b) { return between_bb[a][b]; }
Bitboard bb_line(int a, int b) { return line_bb[a][b]; }

Bitboard bb_bishop_attacks(int sq, Bitboard occ)
{
    const Magic *m = &bishop_magic[sq];
    return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

Bitboard bb_rook_attacks(int sq, Bitboard occ)
{
    const Magic *m = &rook_magic[sq];
    return m->attacks[((occ & m->mask) * m->magic) >> m->shift];
}

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

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng_next(void)
{
    /* xorshift64*: deterministic, so tables are identical on every run. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545F4914F6CDD1Dull;
}

static void init_magics(Magic *magics, Bitboard *table, const int (*dirs)[2])
{
    static Bitboard occ[4096], ref[4096];
    static int epoch[4096];
    int cur = 0;
    size_t offset = 0;
    for (int sq = 0; sq < 64; sq++) {
        Magic *m = &magics[sq];
        Bitboard edges = ((0xFFull | 0xFF00000000000000ull) & ~(0xFFull << (8 * sq_rank(sq)))) |
                         ((0x0101010101010101ull | 0x8080808080808080ull) & ~(0x0101010101010101ull << sq_file(sq)));
        m->mask = slide(sq, 0, dirs) & ~edges;
        m->shift = (unsigned)(64 - bb_count(m->mask));
        m->attacks = table + offset;
        int size = 0;
        Bitboard b = 0;
        do { /* Carry-Rippler enumeration of every subset of the mask. */
            occ[size] = b;
            ref[size] = slide(sq, b, dirs);
            size++;
            b = (b - m->mask) & m->mask;
        } while (b);
        for (;;) {
            do
                m->magic = rng_next() & rng_next() & rng_next();
            while (bb_count((m->magic * m->mask) >> 56) < 6);
            cur++;
            int i;
            for (i = 0; i < size; i++) {
                unsigned idx = (unsigned)(((occ[i] & m->mask) * m->magic) >> m->shift);
                if (epoch[idx] < cur) {
                    epoch[idx] = cur;
                    m->attacks[idx] = ref[i];
                } else if (m->attacks[idx] != ref[i])
                    break;
            }
            if (i == size)
                break;
        }
        offset += (size_t)size;
    }
}

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
                knight_att[sq] |= bb_sq(sq_make(f + kn[i][0], r + kn[i][1]));
            if (on_board(f + kg[i][0], r + kg[i][1]))
                king_att[sq] |= bb_sq(sq_make(f + kg[i][0], r + kg[i][1]));
        }
        for (int df = -1; df <= 1; df += 2) {
            if (on_board(f + df, r + 1))
                pawn_att[WHITE][sq] |= bb_sq(sq_make(f + df, r + 1));
            if (on_board(f + df, r - 1))
                pawn_att[BLACK][sq] |= bb_sq(sq_make(f + df, r - 1));
        }
    }
    init_magics(rook_magic, rook_table, rook_dirs);
    init_magics(bishop_magic, bishop_table, bishop_dirs);
    for (int a = 0; a < 64; a++)
        for (int b = 0; b < 64; b++) {
            if (a == b)
                continue;
            Bitboard ba = bb_sq(a), bbb = bb_sq(b);
            if (slide(a, 0, rook_dirs) & bbb) {
                line_bb[a][b] = (slide(a, 0, rook_dirs) & slide(b, 0, rook_dirs)) | ba | bbb;
                between_bb[a][b] = slide(a, bbb, rook_dirs) & slide(b, ba, rook_dirs);
            } else if (slide(a, 0, bishop_dirs) & bbb) {
                line_bb[a][b] = (slide(a, 0, bishop_dirs) & slide(b, 0, bishop_dirs)) | ba | bbb;
                between_bb[a][b] = slide(a, bbb, bishop_dirs) & slide(b, ba, bishop_dirs);
            }
        }
    initialised = true;
}
