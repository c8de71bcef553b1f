/* position.c - positions: strict FEN parse and format, copy-make, Zobrist keys. */
#include "position.h"
#include "laws.h"

#include <string.h>

uint64_t zob_piece[16][64];
uint64_t zob_castle[16];
uint64_t zob_ep[8];
uint64_t zob_side;
static bool zob_ready;
static Position start_position;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void chess_init(void)
{
    if (zob_ready)
        return;
    bb_init();
    uint64_t s = 0x70676E636865636Bull; /* fixed seed: keys identical on every run */
    for (int p = 0; p < 16; p++)
        for (int sq = 0; sq < 64; sq++)
            zob_piece[p][sq] = splitmix(&s);
    for (int i = 0; i < 16; i++)
        zob_castle[i] = splitmix(&s);
    for (int i = 0; i < 8; i++)
        zob_ep[i] = splitmix(&s);
    zob_side = splitmix(&s);
    static const char start[] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    FenError e = pos_from_fen(&start_position, start, sizeof start - 1, false, NULL);
    (void)e;
    zob_ready = true;
}

const char *pos_fen_error_text(FenError e)
{
    switch (e) {
    case FEN_OK: return "valid";
    case FEN_ERR_FIELDS: return "a FEN has 6 space-separated fields (4 at the least)";
    case FEN_ERR_RANKS: return "the piece placement does not have 8 ranks";
    case FEN_ERR_RANK_LENGTH: return "a rank does not describe exactly 8 squares";
    case FEN_ERR_PIECE_CHAR: return "a character in the piece placement is not a piece letter or a digit 1-8";
    case FEN_ERR_SIDE: return "the side to move is not 'w' or 'b'";
    case FEN_ERR_CASTLING_SYNTAX: return "the castling field is malformed";
    case FEN_ERR_EP_SYNTAX: return "the en passant field is not '-' or a square";
    case FEN_ERR_COUNTER_SYNTAX: return "a move counter is not a non-negative integer (" LAW_R35 ")";
    case FEN_ERR_KING_COUNT: return "each side must have exactly one king (" LAW_R30 ")";
    case FEN_ERR_KINGS_ADJACENT: return "the kings stand on adjacent squares (" LAW_R30 ")";
    case FEN_ERR_PAWN_RANK: return "a pawn stands on the first or last rank (" LAW_R31 ")";
    case FEN_ERR_TOO_MANY: return "more than 16 men or 8 pawns of one colour (FIDE 3.10.3)";
    case FEN_ERR_PROMOTED: return "more promoted pieces than pawns missing from eight (FIDE 3.10.3)";
    case FEN_ERR_OPPONENT_IN_CHECK: return "the side not to move is in check (" LAW_R32 ")";
    case FEN_ERR_CASTLING_RIGHTS: return "a castling right without its king and rook in place (" LAW_R33 ")";
    case FEN_ERR_EP_SQUARE: return "the en passant square is impossible (" LAW_R34 ")";
    default: return "invalid FEN";
    }
}

Bitboard pos_attackers_to(const Position *pos, int sq, Bitboard occ)
{
    return (bb_pawn_attacks(BLACK, sq) & pos->by_color[WHITE] & pos->by_type[PAWN]) |
           (bb_pawn_attacks(WHITE, sq) & pos->by_color[BLACK] & pos->by_type[PAWN]) |
           (bb_knight_attacks(sq) & pos->by_type[KNIGHT]) |
           (bb_king_attacks(sq) & pos->by_type[KING]) |
           (bb_bishop_attacks(sq, occ) & (pos->by_type[BISHOP] | pos->by_type[QUEEN])) |
           (bb_rook_attacks(sq, occ) & (pos->by_type[ROOK] | pos->by_type[QUEEN]));
}

CHESS_NOINLINE bool pos_slider_attacks(int sq, Bitboard diag, Bitboard orth, Bitboard occ)
{
    return (diag && (bb_bishop_attacks(sq, occ) & diag)) || (orth && (bb_rook_attacks(sq, occ) & orth));
}

bool pos_square_attacked(const Position *pos, int sq, int by, Bitboard occ)
{
    return pos_square_attacked_inline(pos, sq, by, occ);
}

/* Own pieces of the side to move that alone shield its king from an enemy slider. */
Bitboard pos_pinned(const Position *pos)
{
    int c = pos->side, ksq = pos->king_sq[c];
    Bitboard them = pos->by_color[c ^ 1];
    Bitboard snipers = ((bb_rook_empty(ksq) & (pos->by_type[ROOK] | pos->by_type[QUEEN])) |
                        (bb_bishop_empty(ksq) & (pos->by_type[BISHOP] | pos->by_type[QUEEN]))) & them;
    Bitboard blockers = 0;
    Bitboard occ = pos->by_type[0] ^ snipers;
    while (snipers) {
        int s = bb_pop(&snipers);
        Bitboard b = bb_between(ksq, s) & occ;
        if (b && !(b & (b - 1)))
            blockers |= b & pos->by_color[c];
    }
    return blockers;
}

static void put_piece(Position *pos, int pc, int sq)
{
    pos->board[sq] = (uint8_t)pc;
    pos->by_color[piece_color(pc)] |= bb_sq(sq);
    pos->by_type[piece_type(pc)] |= bb_sq(sq);
    pos->by_type[0] |= bb_sq(sq);
}

bool pos_ep_capture_legal(const Position *pos)
{
    if (pos->ep == SQ_NONE)
        return false;
    int us = pos->side, ep = pos->ep;
    int victim = ep + (us == WHITE ? -8 : 8);
    Bitboard cands = bb_pawn_attacks(us ^ 1, ep) & pos->by_color[us] & pos->by_type[PAWN];
    if (pos->board[victim] != ((us ^ 1) << 3 | PAWN) || pos->board[ep])
        return false;
    int ksq = pos->king_sq[us];
    while (cands) {
        int from = bb_pop(&cands);
        Bitboard occ = (pos->by_type[0] ^ bb_sq(from) ^ bb_sq(victim)) | bb_sq(ep);
        Bitboard them = pos->by_color[us ^ 1] & ~bb_sq(victim);
        Bitboard att = (bb_rook_attacks(ksq, occ) & (pos->by_type[ROOK] | pos->by_type[QUEEN])) |
                       (bb_bishop_attacks(ksq, occ) & (pos->by_type[BISHOP] | pos->by_type[QUEEN])) |
                       (bb_knight_attacks(ksq) & pos->by_type[KNIGHT]) |
                       (bb_pawn_attacks(us, ksq) & pos->by_type[PAWN]);
        if (!(att & them))
            return true;
    }
    return false;
}

static uint64_t compute_key(const Position *pos)
{
    uint64_t k = 0;
    for (int sq = 0; sq < 64; sq++)
        if (pos->board[sq])
            k ^= zob_piece[pos->board[sq]][sq];
    k ^= zob_castle[pos->castling];
    if (pos->ep_legal)
        k ^= zob_ep[sq_file(pos->ep)];
    if (pos->side == BLACK)
        k ^= zob_side;
    return k;
}

/* Derived fields after the board, side, ep and castling are set. */
static void finish_position(Position *pos)
{
    int us = pos->side;
    pos->checkers = pos_attackers_to(pos, pos->king_sq[us], pos->by_type[0]) & pos->by_color[us ^ 1];
    Bitboard them = pos->by_color[us ^ 1];
    pos->pin_lines = pos_pin_lines_of(pos->king_sq[us], them & (pos->by_type[BISHOP] | pos->by_type[QUEEN]),
                                      them & (pos->by_type[ROOK] | pos->by_type[QUEEN]));
    pos->ep_legal = pos_ep_capture_legal(pos);
    pos->key = compute_key(pos);
}

static FenError fen_fail(FenInfo *info, const char *fen, const char *at, FenError e)
{
    if (info)
        info->column = (int)(at - fen);
    return e;
}

static bool parse_uint(const char *s, const char *end, uint32_t *out)
{
    if (s == end)
        return false;
    uint64_t v = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9')
            return false;
        v = v * 10 + (uint64_t)(*s - '0');
        if (v > 0x7FFFFFFF)
            return false;
    }
    *out = (uint32_t)v;
    return true;
}

/* The material of side c, counted for R3. */
static void material_of(const Position *pos, int c, FenInfo *m)
{
    Bitboard own = pos->by_color[c];
    memset(m, 0, sizeof *m);
    m->side = (uint8_t)c;
    m->men[0] = (uint8_t)bb_count(own);
    for (int t = PAWN; t <= KING; t++)
        m->men[t] = (uint8_t)bb_count(own & pos->by_type[t]);
    Bitboard bishops = own & pos->by_type[BISHOP];
    m->bishops[0] = (uint8_t)bb_count(bishops & 0x55AA55AA55AA55AAull);    /* b1, d1 ... a2: light */
    m->bishops[1] = (uint8_t)(m->men[BISHOP] - m->bishops[0]);
}

static void material_copy(FenInfo *info, const FenInfo *m)
{
    info->side = m->side;
    memcpy(info->men, m->men, sizeof m->men);
    memcpy(info->bishops, m->bishops, sizeof m->bishops);
}

/* R3: every piece beyond the first queen, the second rook or knight and
 * the first bishop on a square colour was a pawn (R13), so those extra
 * pieces are at most the pawns missing from eight.  A necessary condition
 * only: captures and pawn files are not followed, so a composer's or a
 * database's position passes it unless a count is plainly wrong. */
FenError pos_check_material(const Position *pos, FenInfo *info)
{
    for (int c = 0; c < 2; c++) {
        FenInfo m;
        material_of(pos, c, &m);
        if (fen_promoted(&m) > 8 - m.men[PAWN]) {
            if (info)
                material_copy(info, &m);
            return FEN_ERR_PROMOTED;
        }
    }
    return FEN_OK;
}

/* Index of a castling right: 0 WK, 1 WQ, 2 BK, 3 BQ. */
static int right_index(int color, bool king_side) { return color * 2 + (king_side ? 0 : 1); }

/* A FEN's fields: [fs[i], fe[i]) for i < nf, and the text they point
 * into (fen_fail's column). */
typedef struct FenFields {
    const char *fen;
    const char *fs[7], *fe[7];
    int nf;
} FenFields;

/* Trims surrounding whitespace and cuts the fields at spaces. */
static FenError fen_fields(FenFields *f, const char *fen, size_t len, FenInfo *info)
{
    const char *end = fen + len;
    while (fen < end && (*fen == ' ' || *fen == '\t'))
        fen++;
    while (end > fen && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
        end--;
    f->fen = fen;
    f->nf = 0;
    const char *p = fen;
    while (p < end) {
        if (f->nf == 7)
            return fen_fail(info, fen, p, FEN_ERR_FIELDS);
        f->fs[f->nf] = p;
        while (p < end && *p != ' ')
            p++;
        f->fe[f->nf++] = p;
        while (p < end && *p == ' ')
            p++;
    }
    if (f->nf < 4 || f->nf > 6)
        return fen_fail(info, fen, f->nf ? f->fs[f->nf - 1] : fen, FEN_ERR_FIELDS);
    return FEN_OK;
}

/* Field 1: the placement, rank 8 first. */
static FenError fen_placement(Position *pos, const FenFields *f, FenInfo *info)
{
    int rank = 7, file = 0;
    const char *p;
    for (p = f->fs[0]; p < f->fe[0]; p++) {
        char c = *p;
        if (c == '/') {
            if (file != 8)
                return fen_fail(info, f->fen, p, FEN_ERR_RANK_LENGTH);
            if (--rank < 0)
                return fen_fail(info, f->fen, p, FEN_ERR_RANKS);
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8)
                return fen_fail(info, f->fen, p, FEN_ERR_RANK_LENGTH);
        } else {
            static const char letters[] = "pnbrqk";
            const char *l = NULL;
            for (int i = 0; i < 6; i++)
                if (c == letters[i] || c == letters[i] - 32)
                    l = &letters[i];
            if (!l)
                return fen_fail(info, f->fen, p, FEN_ERR_PIECE_CHAR);
            if (file >= 8)
                return fen_fail(info, f->fen, p, FEN_ERR_RANK_LENGTH);
            int color = (c >= 'a') ? BLACK : WHITE;
            put_piece(pos, color << 3 | (int)(l - letters + 1), sq_make(file, rank));
            file++;
        }
    }
    if (file != 8)
        return fen_fail(info, f->fen, f->fe[0], FEN_ERR_RANK_LENGTH);
    if (rank != 0)
        return fen_fail(info, f->fen, f->fe[0], FEN_ERR_RANKS);
    return FEN_OK;
}

/* Fields 2 to 6 for their syntax, before the board laws, so that the most
 * basic defect is the one reported: the side to move, the castling
 * letters, the en passant square (*ep) and the counters. */
static FenError fen_syntax(Position *pos, const FenFields *f, int *ep, FenInfo *info)
{
    const char *fen = f->fen;
    if (f->fe[1] - f->fs[1] != 1 || (f->fs[1][0] != 'w' && f->fs[1][0] != 'b'))
        return fen_fail(info, fen, f->fs[1], FEN_ERR_SIDE);
    pos->side = f->fs[1][0] == 'w' ? WHITE : BLACK;
    const char *cs = f->fs[2], *ce = f->fe[2];
    if (!(ce - cs == 1 && *cs == '-')) {
        for (const char *p = cs; p < ce; p++) {
            char c = *p;
            bool ok = (c >= 'A' && c <= 'H') || (c >= 'a' && c <= 'h') || c == 'K' || c == 'Q' ||
                      c == 'k' || c == 'q';
            if (!ok)
                return fen_fail(info, fen, p, FEN_ERR_CASTLING_SYNTAX);
            for (const char *q = cs; q < p; q++)
                if (*q == c)
                    return fen_fail(info, fen, p, FEN_ERR_CASTLING_SYNTAX);
        }
    }
    const char *es = f->fs[3], *ee = f->fe[3];
    *ep = SQ_NONE;
    if (!(ee - es == 1 && *es == '-')) {
        if (ee - es != 2 || es[0] < 'a' || es[0] > 'h' || es[1] < '1' || es[1] > '8')
            return fen_fail(info, fen, es, FEN_ERR_EP_SYNTAX);
        *ep = sq_make(es[0] - 'a', es[1] - '1');
    }
    uint32_t half = 0, full = 1;
    if (f->nf >= 5 && !parse_uint(f->fs[4], f->fe[4], &half)) {
        if (info)
            info->counter = 1;
        return fen_fail(info, fen, f->fs[4], FEN_ERR_COUNTER_SYNTAX);
    }
    if (f->nf >= 6 && !parse_uint(f->fs[5], f->fe[5], &full)) {
        if (info)
            info->counter = 2;
        return fen_fail(info, fen, f->fs[5], FEN_ERR_COUNTER_SYNTAX);
    }
    /* Missing counters (EPD style) and fullmove 0 are taken as 0 and 1:
     * warnings (R35), each its own. */
    if (f->nf < 6 && info)
        info->warnings |= f->nf == 4 ? FEN_WARN_NO_COUNTERS : FEN_WARN_NO_FULLMOVE;
    if (full == 0) {
        if (info)
            info->warnings |= FEN_WARN_FULLMOVE_ZERO;
        full = 1;
    }
    pos->halfmove = half;
    pos->fullmove = full;
    return FEN_OK;
}

/* The laws of the board alone: R30 one king each, not adjacent; R31 no
 * pawn on the first or last rank; R3 at most 8 pawns and 16 men a side
 * (the promoted pieces are pos_check_material's: a game's start, not any
 * position, needs them reachable); R32 the side not to move not in check. */
static FenError fen_board_laws(Position *pos, const FenFields *f, FenInfo *info)
{
    const char *at = f->fs[0];
    for (int c = 0; c < 2; c++) {
        Bitboard k = pos->by_color[c] & pos->by_type[KING];
        if (bb_count(k) != 1)
            return fen_fail(info, f->fen, at, FEN_ERR_KING_COUNT);
        pos->king_sq[c] = (uint8_t)bb_lsb(k);
    }
    if (bb_king_attacks(pos->king_sq[WHITE]) & bb_sq(pos->king_sq[BLACK]))
        return fen_fail(info, f->fen, at, FEN_ERR_KINGS_ADJACENT);
    if (pos->by_type[PAWN] & 0xFF000000000000FFull)
        return fen_fail(info, f->fen, at, FEN_ERR_PAWN_RANK);
    for (int c = 0; c < 2; c++) {
        FenInfo m;
        material_of(pos, c, &m);
        if (m.men[PAWN] > 8 || m.men[0] > 16) {
            if (info)
                material_copy(info, &m);
            return fen_fail(info, f->fen, at, FEN_ERR_TOO_MANY);
        }
    }
    int them = pos->side ^ 1;
    if (pos_attackers_to(pos, pos->king_sq[them], pos->by_type[0]) & pos->by_color[pos->side])
        return fen_fail(info, f->fen, at, FEN_ERR_OPPONENT_IN_CHECK);
    return FEN_OK;
}

/* R33: castling rights.  KQkq means the outermost rook on that side of
 * the king (X-FEN); a file letter names the rook (Shredder-FEN). */
static FenError fen_castling(Position *pos, const FenFields *f, bool chess960, FenInfo *info)
{
    const char *cs = f->fs[2], *ce = f->fe[2];
    for (int i = 0; i < 4; i++)
        pos->castle_rook[i] = SQ_NONE;
    if (ce - cs == 1 && *cs == '-')
        return FEN_OK;
    for (const char *p = cs; p < ce; p++) {
        char c = *p;
        int color = (c >= 'a') ? BLACK : WHITE;
        int back = color == WHITE ? 0 : 7;
        int ksq = pos->king_sq[color];
        int rook = color << 3 | ROOK;
        int rsq = SQ_NONE;
        bool king_side;
        if (sq_rank(ksq) != back)
            return fen_fail(info, f->fen, p, FEN_ERR_CASTLING_RIGHTS);
        if (c == 'K' || c == 'k' || c == 'Q' || c == 'q') {
            king_side = (c == 'K' || c == 'k');
            if (king_side) {
                for (int fl = 7; fl > sq_file(ksq); fl--)
                    if (pos->board[sq_make(fl, back)] == rook) { rsq = sq_make(fl, back); break; }
            } else {
                for (int fl = 0; fl < sq_file(ksq); fl++)
                    if (pos->board[sq_make(fl, back)] == rook) { rsq = sq_make(fl, back); break; }
            }
        } else {
            int fl = (c >= 'a') ? c - 'a' : c - 'A';
            rsq = sq_make(fl, back);
            if (pos->board[rsq] != rook || fl == sq_file(ksq))
                return fen_fail(info, f->fen, p, FEN_ERR_CASTLING_RIGHTS);
            king_side = fl > sq_file(ksq);
            if (!chess960 && info)
                info->warnings |= FEN_WARN_SHREDDER;
        }
        if (rsq == SQ_NONE)
            return fen_fail(info, f->fen, p, FEN_ERR_CASTLING_RIGHTS);
        /* Standard chess: king on e1/e8, rooks on a/h only. */
        if (!chess960 && (sq_file(ksq) != 4 || (sq_file(rsq) != (king_side ? 7 : 0))))
            return fen_fail(info, f->fen, p, FEN_ERR_CASTLING_RIGHTS);
        int idx = right_index(color, king_side);
        if (pos->castling & (1 << idx))
            return fen_fail(info, f->fen, p, FEN_ERR_CASTLING_SYNTAX);
        pos->castling |= (uint8_t)(1 << idx);
        pos->castle_rook[idx] = (uint8_t)rsq;
    }
    return FEN_OK;
}

/* R34: an en passant square needs an enemy pawn that just went through
 * it with a double step: right rank, pawn in front, squares empty. */
static FenError fen_en_passant(Position *pos, const FenFields *f, int ep, FenInfo *info)
{
    if (ep == SQ_NONE)
        return FEN_OK;
    int us = pos->side;
    int need_rank = us == WHITE ? 5 : 2;
    int victim = ep + (us == WHITE ? -8 : 8);
    int origin = ep + (us == WHITE ? 8 : -8);
    if (sq_rank(ep) != need_rank || pos->board[victim] != ((us ^ 1) << 3 | PAWN) || pos->board[ep] ||
        pos->board[origin])
        return fen_fail(info, f->fen, f->fs[3], FEN_ERR_EP_SQUARE);
    pos->ep = (uint8_t)ep;
    return FEN_OK;
}

FenError pos_from_fen(Position *pos, const char *fen, size_t len, bool chess960, FenInfo *info)
{
    memset(pos, 0, sizeof *pos);
    if (info)
        memset(info, 0, sizeof *info);
    pos->ep = SQ_NONE;
    pos->chess960 = chess960;
    FenFields f;
    int ep;
    FenError e;
    if ((e = fen_fields(&f, fen, len, info)) != FEN_OK || (e = fen_placement(pos, &f, info)) != FEN_OK ||
        (e = fen_syntax(pos, &f, &ep, info)) != FEN_OK || (e = fen_board_laws(pos, &f, info)) != FEN_OK ||
        (e = fen_castling(pos, &f, chess960, info)) != FEN_OK || (e = fen_en_passant(pos, &f, ep, info)) != FEN_OK)
        return e;
    /* The halfmove clock is not compared with a fullmove number the FEN
     * did not give (a missing or zero one). */
    bool full_given = f.nf == 6 && !(info && (info->warnings & FEN_WARN_FULLMOVE_ZERO));
    if (info && full_given && pos->halfmove > 2 * pos->fullmove + (pos->side == BLACK))
        info->warnings |= FEN_WARN_HALFMOVE_HIGH;
    finish_position(pos);
    /* A FEN may leave the side to move in an impossible check (three
     * checkers, or two that no single move can give): not a law of its
     * own here, but R3 asks for a position that could be on the board. */
    if (bb_count(pos->checkers) > 2)
        return fen_fail(info, f.fen, f.fs[0], FEN_ERR_OPPONENT_IN_CHECK);
    return FEN_OK;
}

void pos_from_board(Position *pos, const uint8_t board[64], int side, int ep)
{
    memset(pos, 0, sizeof *pos);
    for (int sq = 0; sq < 64; sq++) {
        if (!board[sq])
            continue;
        put_piece(pos, board[sq], sq);
        if (piece_type(board[sq]) == KING)
            pos->king_sq[piece_color(board[sq])] = (uint8_t)sq;
    }
    for (int i = 0; i < 4; i++)
        pos->castle_rook[i] = SQ_NONE;
    pos->side = (uint8_t)side;
    pos->ep = (uint8_t)ep;
    pos->fullmove = 1;
    finish_position(pos);
    if (!pos->ep_legal)
        pos->ep = SQ_NONE;
}

void pos_startpos(Position *pos)
{
    *pos = start_position;
}

size_t pos_to_fen(const Position *pos, char *buf)
{
    static const char letters[] = " PNBRQK  pnbrqk";
    char *o = buf;
    /* Rank by rank, from one occupied square to the next. */
    Bitboard occ = pos->by_color[WHITE] | pos->by_color[BLACK];
    for (int r = 7; r >= 0; r--) {
        unsigned row = (unsigned)(occ >> (8 * r)) & 0xFFu;
        int f = 0;
        while (row) {
            int x = bb_lsb(row);
            row &= row - 1;
            if (x > f)
                *o++ = (char)('0' + (x - f));
            *o++ = letters[pos->board[sq_make(x, r)]];
            f = x + 1;
        }
        if (f < 8)
            *o++ = (char)('0' + (8 - f));
        if (r)
            *o++ = '/';
    }
    *o++ = ' ';
    *o++ = pos->side == WHITE ? 'w' : 'b';
    *o++ = ' ';
    if (!pos->castling)
        *o++ = '-';
    for (int i = 0; i < 4; i++) {
        if (!(pos->castling & (1 << i)))
            continue;
        int color = i / 2;
        bool king_side = (i % 2) == 0;
        int rsq = pos->castle_rook[i];
        /* KQkq when the right's rook is the outermost on its side. */
        bool outer = true;
        int back = color == WHITE ? 0 : 7;
        int ksq = pos->king_sq[color];
        int rook = color << 3 | ROOK;
        if (king_side) {
            for (int f = sq_file(rsq) + 1; f < 8; f++)
                if (pos->board[sq_make(f, back)] == rook)
                    outer = false;
        } else {
            for (int f = 0; f < sq_file(rsq); f++)
                if (pos->board[sq_make(f, back)] == rook)
                    outer = false;
        }
        (void)ksq;
        char c = outer ? (king_side ? 'K' : 'Q') : (char)('A' + sq_file(rsq));
        *o++ = color == WHITE ? c : (char)(c + 32);
    }
    *o++ = ' ';
    if (pos->ep == SQ_NONE)
        *o++ = '-';
    else {
        *o++ = (char)('a' + sq_file(pos->ep));
        *o++ = (char)('1' + sq_rank(pos->ep));
    }
    char num[24];
    uint32_t vals[2] = {pos->halfmove, pos->fullmove};
    for (int i = 0; i < 2; i++) {
        *o++ = ' ';
        int n = 0;
        uint32_t v = vals[i];
        do {
            num[n++] = (char)('0' + v % 10);
            v /= 10;
        } while (v);
        while (n)
            *o++ = num[--n];
    }
    *o = '\0';
    return (size_t)(o - buf);
}

CHESS_NOINLINE void pos_drop_rook_rights(Position *p, int from, int to)
{
    for (int i = 0; i < 4; i++)
        if ((p->castling & (1 << i)) && (p->castle_rook[i] == from || p->castle_rook[i] == to))
            p->castling &= (uint8_t)~(1 << i);
}

/* The pieces' part of en passant and promotion: out of line, so that
 * pos_do keeps its values in registers for the usual moves.  Returns the
 * key with the pieces' changes made. */
static CHESS_NOINLINE uint64_t do_special(Position *p, Move m, uint64_t k)
{
    int us = p->side, them = us ^ 1;
    int from = move_from(m), to = move_to(m), type = move_type(m);
    int pc = p->board[from];
    int captured = type == MOVE_EN_PASSANT ? (them << 3 | PAWN) : p->board[to];
    int capsq = type == MOVE_EN_PASSANT ? to + (us == WHITE ? -8 : 8) : to;
    if (captured) {
        p->by_color[them] ^= bb_sq(capsq);
        p->by_type[piece_type(captured)] ^= bb_sq(capsq);
        p->board[capsq] = 0;
        k ^= zob_piece[captured][capsq];
    }
    p->halfmove = 0;
    Bitboard fromto = bb_sq(from) | bb_sq(to);
    p->by_color[us] ^= fromto;
    p->by_type[PAWN] ^= bb_sq(from);
    p->board[from] = 0;
    k ^= zob_piece[pc][from];
    int now = type == MOVE_PROMOTION ? us << 3 | move_promo(m) : pc;
    p->by_type[piece_type(now)] |= bb_sq(to);
    p->board[to] = (uint8_t)now;
    k ^= zob_piece[now][to];
    if (p->castling && (fromto & 0xFF000000000000FFull))
        pos_drop_rook_rights(p, from, to);
    return k;
}

void pos_do_castle(Position *p, Move m)
{
    const int us = p->side, from = move_from(m), to = move_to(m);
    const unsigned castling0 = p->castling;
    uint64_t k = pos_move_begin(p);
    p->halfmove++;
    p->fullmove += (uint32_t)us; /* after Black's move */
    /* King takes own rook: both leave, then land on the g/c and f/d files. */
    bool king_side = to > from;
    int kto = sq_make(king_side ? 6 : 2, sq_rank(from));
    int rto = sq_make(king_side ? 5 : 3, sq_rank(from));
    int king = us << 3 | KING, rook = us << 3 | ROOK;
    k ^= zob_piece[king][from] ^ zob_piece[rook][to] ^ zob_piece[king][kto] ^ zob_piece[rook][rto];
    p->by_color[us] ^= bb_sq(from) | bb_sq(to);
    p->by_type[KING] ^= bb_sq(from);
    p->by_type[ROOK] ^= bb_sq(to);
    p->board[from] = 0;
    p->board[to] = 0;
    p->board[kto] = (uint8_t)king;
    p->board[rto] = (uint8_t)rook;
    p->by_color[us] |= bb_sq(kto) | bb_sq(rto);
    p->by_type[KING] |= bb_sq(kto);
    p->by_type[ROOK] |= bb_sq(rto);
    p->king_sq[us] = (uint8_t)kto;
    p->castling &= (uint8_t)~(us == WHITE ? (CASTLE_WK | CASTLE_WQ) : (CASTLE_BK | CASTLE_BQ));
    k ^= zob_castle[castling0] ^ zob_castle[p->castling];
    /* No pawn or knight check (only the king and a rook move); a slider
     * check needs a line through a square the king or rook left or the
     * square the rook lands on (the king gives none). */
    pos_move_end(p, us, k, 0, bb_sq(from) | bb_sq(to) | bb_sq(rto), SQ_NONE);
}

/* pos_do for en passant and promotion, whole and out of line: the usual
 * moves' path then shares no values with these. */
static CHESS_NOINLINE void do_special_move(Position *p, Move m)
{
    const int us = p->side, them = us ^ 1;
    const unsigned castling0 = p->castling;
    p->halfmove++; /* do_special resets it for the pawn moves */
    p->fullmove += (uint32_t)us; /* after Black's move */
    uint64_t k = do_special(p, m, pos_move_begin(p));
    if (p->castling != castling0)
        k ^= zob_castle[castling0] ^ zob_castle[p->castling];
    /* Checks by a pawn or knight: before the move the side not to move is
     * never in check, so only the pieces moved can give one of them. */
    const int ksq = p->king_sq[them];
    Bitboard chk = ((bb_pawn_attacks(them, ksq) & p->by_type[PAWN]) | (bb_knight_attacks(ksq) & p->by_type[KNIGHT])) &
                   p->by_color[us];
    pos_move_end(p, us, k, chk, ~(Bitboard)0, SQ_NONE); /* en passant victim: every line */
}

void pos_do(Position *p, Move m)
{
    const unsigned mv = m; /* decoded as a 32-bit word: no 16-bit partial-register work */
    if (mv >> 12 & 3) {
        if ((mv >> 12 & 3) == MOVE_CASTLING)
            pos_do_castle(p, m);
        else
            do_special_move(p, m);
        return;
    }
    const int from = (int)(mv & 63), to = (int)((mv >> 6) & 63);
    pos_do_normal(p, from, to, piece_type(p->board[from]), p->board[to], true);
}

void pos_make(const Position *pos, Move m, Position *out)
{
    *out = *pos;
    pos_do(out, m);
}

bool pos_equal(const Position *a, const Position *b)
{
    return !memcmp(a->by_color, b->by_color, sizeof a->by_color) &&
           !memcmp(a->by_type, b->by_type, sizeof a->by_type) && !memcmp(a->board, b->board, sizeof a->board) &&
           a->side == b->side && a->ep == b->ep && a->castling == b->castling &&
           !memcmp(a->castle_rook, b->castle_rook, sizeof a->castle_rook) &&
           !memcmp(a->king_sq, b->king_sq, sizeof a->king_sq) && a->chess960 == b->chess960 &&
           a->ep_legal == b->ep_legal && a->halfmove == b->halfmove && a->fullmove == b->fullmove &&
           a->key == b->key && a->checkers == b->checkers && a->pin_lines == b->pin_lines;
}

bool pos_is_consistent(const Position *pos)
{
    Bitboard col[2] = {0, 0}, typ[7] = {0};
    for (int sq = 0; sq < 64; sq++) {
        int pc = pos->board[sq];
        if (!pc)
            continue;
        if (piece_type(pc) < PAWN || piece_type(pc) > KING || (pc & ~15) || (pc & 0x8 && piece_color(pc) != 1))
            return false;
        col[piece_color(pc)] |= bb_sq(sq);
        typ[piece_type(pc)] |= bb_sq(sq);
        typ[0] |= bb_sq(sq);
    }
    if (col[0] != pos->by_color[0] || col[1] != pos->by_color[1] || (col[0] & col[1]))
        return false;
    for (int t = 0; t < 7; t++)
        if (typ[t] != pos->by_type[t])
            return false;
    for (int c = 0; c < 2; c++)
        if (bb_count(col[c] & typ[KING]) != 1 || pos->king_sq[c] != bb_lsb(col[c] & typ[KING]))
            return false;
    for (int i = 0; i < 4; i++)
        if (pos->castling & (1 << i)) {
            int color = i / 2;
            if (pos->castle_rook[i] >= 64 || pos->board[pos->castle_rook[i]] != (color << 3 | ROOK) ||
                sq_rank(pos->king_sq[color]) != (color ? 7 : 0))
                return false;
        }
    Position tmp = *pos;
    finish_position(&tmp);
    if (tmp.checkers != pos->checkers || tmp.key != pos->key ||
        tmp.ep_legal != pos->ep_legal || tmp.pin_lines != pos->pin_lines)
        return false;
    int them = pos->side ^ 1;
    if (pos_attackers_to(pos, pos->king_sq[them], pos->by_type[0]) & pos->by_color[pos->side])
        return false;
    return true;
}
