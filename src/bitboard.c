/* bitboard.c - attack tables: leaper tables and magic-indexed slider tables. */
#include "chess.h"

typedef BbMagic Magic;

Bitboard bb_pawn_att[2][64];
Bitboard bb_knight_att[64];
Bitboard bb_king_att[64];
Bitboard bb_between_tab[64][64];
Bitboard bb_line_tab[64][64];
BbMagic bb_bishop_magic[64];
Bitboard bb_file_mask[64];
uint8_t bb_rank_att[8][64];
static Bitboard bishop_table[0x1480];
static bool initialised;

/* Bishop magic multipliers found once by init_magics' own search (fixed seed) and
 * kept here so start-up is a table fill, not a search; a multiplier that
 * failed verification would simply be searched again. */
static const Bitboard bishop_magics[64] = {
    0x8210103483004200ull,
    0x0008022802002820ull,
    0x0404810401000010ull,
    0x4004043280808044ull,
    0x0181104004600101ull,
    0x8802021104000000ull,
    0x000111011041a000ull,
    0x4000420890211000ull,
    0x3200109001080880ull,
    0x0002e0810a0a0840ull,
    0x2040840802004228ull,
    0x9200110408800000ull,
    0x0000c45040020100ull,
    0x0200088824401000ull,
    0x0000110690104804ull,
    0x04010a4400a41006ull,
    0x01c100d03001a100ull,
    0x9820220481020a00ull,
    0x520d263000420040ull,
    0x0180810802004102ull,
    0x0002001016100000ull,
    0x0200800808010828ull,
    0x0002402c88081800ull,
    0x4018400a82009080ull,
    0x441005010a200402ull,
    0x4024041143880802ull,
    0x0200280210004940ull,
    0xa201004024004200ull,
    0x8000840184802000ull,
    0x0800820080880c00ull,
    0x1008004821040202ull,
    0x0000921019820280ull,
    0x0102084100045001ull,
    0xa590820820200802ull,
    0x0104020200010409ull,
    0x0000a00800210106ull,
    0x0001020401020102ull,
    0x0508080021011000ull,
    0x0058162850140100ull,
    0x0002040020004212ull,
    0x000801108a001000ull,
    0x0a408090100008c2ull,
    0x0000101804002800ull,
    0x0000004200821800ull,
    0x0020049008800401ull,
    0x02c8015004080480ull,
    0x8804014414000110ull,
    0x0008011042000080ull,
    0x04010c8290400010ull,
    0x0382048208232402ull,
    0x1000202108080140ull,
    0x008000120a020100ull,
    0x108c0011a2020004ull,
    0x010004200421100eull,
    0x8820200409105000ull,
    0x0108300400802840ull,
    0x0402008049282000ull,
    0x0000002402080480ull,
    0x08001c0422017001ull,
    0x000200001420a801ull,
    0x2010c20011020204ull,
    0x3000308461444500ull,
    0x1000040404c80200ull,
    0x0825011019060080ull,
};

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

static void init_magics(Magic *magics, Bitboard *table, const int (*dirs)[2], const Bitboard *known)
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
        for (bool first = true;; first = false) {
            if (first)
                m->magic = known[sq];
            else
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
    init_magics(bb_bishop_magic, bishop_table, bishop_dirs, bishop_magics);
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
