/* movegen.c - legal move generation (checkers and pins computed once per position), perft. */
#include "movegen.h"

static inline Move *add_promotions(Move *out, int from, int to)
{
    *out++ = move_new(from, to, MOVE_PROMOTION, QUEEN);
    *out++ = move_new(from, to, MOVE_PROMOTION, ROOK);
    *out++ = move_new(from, to, MOVE_PROMOTION, BISHOP);
    *out++ = move_new(from, to, MOVE_PROMOTION, KNIGHT);
    return out;
}

/* En passant legality: simulate the capture (R15: the horizontal discovered check). */
static bool ep_legal(const Position *pos, int from, int to)
{
    int us = pos->side, ksq = pos->king_sq[us];
    int victim = to + (us == WHITE ? -8 : 8);
    Bitboard occ = (pos->by_type[0] ^ bb_sq(from) ^ bb_sq(victim)) | bb_sq(to);
    Bitboard them = pos->by_color[us ^ 1];
    return !(bb_rook_attacks(ksq, occ) & them & (pos->by_type[ROOK] | pos->by_type[QUEEN])) &&
           !(bb_bishop_attacks(ksq, occ) & them & (pos->by_type[BISHOP] | pos->by_type[QUEEN])) &&
           !((pos->checkers & ~bb_sq(victim)) & (pos->by_type[KNIGHT] | pos->by_type[PAWN]));
}

/* Is no square of the king's path (path) attacked by the enemy of us,
 * with occupancy occ (the king and rook lifted)?  What pos_square_attacked
 * asks of each square, without its calls and without slider attack sets:
 * an enemy slider on one of a square's empty-board lines of its kind
 * attacks the square exactly when nothing of occ stands between them
 * (bb_between), and on a back rank there are seldom more than one or two
 * such sliders.  (Each square's attack sets cost more than all of these
 * tests: castling took about twice the instructions of another move.) */
static bool castle_path_safe(const Position *pos, int us, Bitboard path, Bitboard occ)
{
    const Bitboard them = pos->by_color[us ^ 1];
    const Bitboard diag = them & (pos->by_type[BISHOP] | pos->by_type[QUEEN]);
    const Bitboard orth = them & (pos->by_type[ROOK] | pos->by_type[QUEEN]);
    while (path) {
        int s = bb_pop(&path);
        if (((bb_pawn_attacks(us, s) & pos->by_type[PAWN]) | (bb_knight_attacks(s) & pos->by_type[KNIGHT]) |
             (bb_king_attacks(s) & pos->by_type[KING])) & them)
            return false;
        for (Bitboard a = (bb_bishop_empty(s) & diag) | (bb_rook_empty(s) & orth); a;)
            if (!(bb_between(s, bb_pop(&a)) & occ))
                return false;
    }
    return true;
}

/* Castling in standard chess and Chess960 (R14): every square between king
 * and rook and their destinations empty (but for the two), the king not in
 * check and not crossing or landing on an attacked square. */
bool gen_castle_ok(const Position *pos, int idx)
{
    int us = pos->side;
    int kfrom = pos->king_sq[us], rfrom = pos->castle_rook[idx];
    bool king_side = (idx & 1) == 0;
    int back = us == WHITE ? 0 : 7;
    int kto = sq_make(king_side ? 6 : 2, back), rto = sq_make(king_side ? 5 : 3, back);
    Bitboard span = bb_between(kfrom, kto) | bb_between(rfrom, rto) | bb_sq(kto) | bb_sq(rto);
    span &= ~(bb_sq(kfrom) | bb_sq(rfrom));
    if (span & pos->by_type[0])
        return false;
    Bitboard occ = pos->by_type[0] ^ bb_sq(kfrom) ^ bb_sq(rfrom);
    Bitboard path = bb_between(kfrom, kto) | bb_sq(kto);
    bool ok = castle_path_safe(pos, us, path, occ);
    /* (the long way: each square of the path by pos_square_attacked) */
#ifdef PGNCHECK_DEBUG
    bool safe = true;
    for (Bitboard p = path; p;)
        safe &= !pos_square_attacked(pos, bb_pop(&p), us ^ 1, occ);
    CHESS_DEBUG_ASSERT(ok == safe);
#endif
    return ok;
}

/* The squares the pawns, knights and king of colour `by` attack, as one
 * set: the king's flight squares are then tested for sliders only. */
static Bitboard jumper_attacks(const Position *pos, int by)
{
    const Bitboard file_a = 0x0101010101010101ull, file_h = file_a << 7;
    Bitboard them = pos->by_color[by];
    Bitboard pawns = pos->by_type[PAWN] & them;
    Bitboard att = by == WHITE ? ((pawns << 9) & ~file_a) | ((pawns << 7) & ~file_h)
                               : ((pawns >> 7) & ~file_a) | ((pawns >> 9) & ~file_h);
    Bitboard knights = pos->by_type[KNIGHT] & them;
    while (knights)
        att |= bb_knight_attacks(bb_pop(&knights));
    return att | bb_king_attacks(pos->king_sq[by]);
}

/* Is sq attacked by a bishop, rook or queen of colour `by` (occupancy occ)?
 * The attack sets are computed only for a line that holds one. */
static bool slider_attacked(const Position *pos, int sq, int by, Bitboard occ)
{
    Bitboard them = pos->by_color[by];
    Bitboard diag = them & (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & bb_bishop_empty(sq);
    Bitboard orth = them & (pos->by_type[ROOK] | pos->by_type[QUEEN]) & bb_rook_empty(sq);
    return (diag && (bb_bishop_attacks(sq, occ) & diag)) || (orth && (bb_rook_attacks(sq, occ) & orth));
}

static int generate(const Position *pos, Move *list, bool any_only)
{
    Move *out = list;
    int us = pos->side, them = us ^ 1;
    int ksq = pos->king_sq[us];
    Bitboard own = pos->by_color[us], enemy = pos->by_color[them], occ = pos->by_type[0];
    Bitboard checkers = pos->checkers;
    /* In check (where "any legal move?" is asked at once, see game.c) a
     * king move is usually found before the pins are needed. */
    Bitboard pinned = any_only && checkers ? 0 : pos_pinned(pos);

    /* "Is there any legal move?" (asked after every ply): out of check, a
     * knight or pawn push is usually found at once, and needs no attack test. */
    if (any_only && !checkers) {
        Bitboard kn = pos->by_type[KNIGHT] & own & ~pinned;
        while (kn)
            if (bb_knight_attacks(bb_pop(&kn)) & ~own)
                return 1;
        Bitboard pw = pos->by_type[PAWN] & own & ~pinned;
        Bitboard pushes = us == WHITE ? (pw << 8) & ~occ : (pw >> 8) & ~occ;
        if (pushes)
            return 1;
        Bitboard sl = (pos->by_type[BISHOP] | pos->by_type[ROOK] | pos->by_type[QUEEN]) & own & ~pinned;
        while (sl) {
            int from = bb_pop(&sl);
            Bitboard near = bb_king_attacks(from) & ~own & ~occ;
            /* An empty adjacent square on one of the piece's lines is a move. */
            Bitboard lines = pos->by_type[ROOK] & bb_sq(from) ? bb_rook_empty(from)
                           : pos->by_type[BISHOP] & bb_sq(from) ? bb_bishop_empty(from)
                                                                : bb_rook_empty(from) | bb_bishop_empty(from);
            if (near & lines)
                return 1;
        }
    }
    Bitboard occ_noking = occ ^ bb_sq(ksq);
    Bitboard kt = bb_king_attacks(ksq) & ~own & ~jumper_attacks(pos, them);
    while (kt) {
        int to = bb_pop(&kt);
        if (!slider_attacked(pos, to, them, occ_noking)) {
            *out++ = move_new(ksq, to, MOVE_NORMAL, 0);
            if (any_only)
                return 1;
        }
    }
    if (checkers && (checkers & (checkers - 1)))
        return (int)(out - list); /* R17: double check, only the king moves */
    if (any_only && checkers)
        pinned = pos_pinned(pos);

    Bitboard target = checkers ? (bb_between(ksq, bb_lsb(checkers)) | checkers) : ~own;

    /* Knights, bishops, rooks, queens. */
    for (int pt = KNIGHT; pt <= QUEEN; pt++) {
        Bitboard pcs = pos->by_type[pt] & own;
        while (pcs) {
            int from = bb_pop(&pcs);
            Bitboard att;
            switch (pt) {
            case KNIGHT: att = bb_knight_attacks(from); break;
            case BISHOP: att = bb_bishop_attacks(from, occ); break;
            case ROOK: att = bb_rook_attacks(from, occ); break;
            default: att = bb_bishop_attacks(from, occ) | bb_rook_attacks(from, occ); break;
            }
            att &= target;
            if (pinned & bb_sq(from))
                att &= bb_line(ksq, from);
            while (att) {
                *out++ = move_new(from, bb_pop(&att), MOVE_NORMAL, 0);
                if (any_only)
                    return 1;
            }
        }
    }

    /* Pawns. */
    Bitboard pawns = pos->by_type[PAWN] & own;
    int up = us == WHITE ? 8 : -8;
    Bitboard rank3 = us == WHITE ? 0x0000000000FF0000ull : 0x0000FF0000000000ull;
    Bitboard last = us == WHITE ? 0xFF00000000000000ull : 0x00000000000000FFull;
    Bitboard empty = ~occ;
    Bitboard one = us == WHITE ? (pawns << 8) & empty : (pawns >> 8) & empty;
    Bitboard two = us == WHITE ? ((one & rank3) << 8) & empty : ((one & rank3) >> 8) & empty;
    one &= target;
    two &= target;
    while (one) {
        int to = bb_pop(&one), from = to - up;
        if ((pinned & bb_sq(from)) && !(bb_line(ksq, from) & bb_sq(to)))
            continue;
        if (bb_sq(to) & last)
            out = add_promotions(out, from, to);
        else
            *out++ = move_new(from, to, MOVE_NORMAL, 0);
        if (any_only)
            return 1;
    }
    while (two) {
        int to = bb_pop(&two), from = to - 2 * up;
        if ((pinned & bb_sq(from)) && !(bb_line(ksq, from) & bb_sq(to)))
            continue;
        *out++ = move_new(from, to, MOVE_NORMAL, 0);
        if (any_only)
            return 1;
    }
    Bitboard caps_from = pawns;
    while (caps_from) {
        int from = bb_pop(&caps_from);
        Bitboard att = bb_pawn_attacks(us, from) & enemy & target;
        if (pinned & bb_sq(from))
            att &= bb_line(ksq, from);
        while (att) {
            int to = bb_pop(&att);
            if (bb_sq(to) & last)
                out = add_promotions(out, from, to);
            else
                *out++ = move_new(from, to, MOVE_NORMAL, 0);
            if (any_only)
                return 1;
        }
        if (pos->ep != SQ_NONE && (bb_pawn_attacks(us, from) & bb_sq(pos->ep)) && ep_legal(pos, from, pos->ep)) {
            *out++ = move_new(from, pos->ep, MOVE_EN_PASSANT, 0);
            if (any_only)
                return 1;
        }
    }

    /* Castling: king takes own rook. */
    if (!checkers && pos->castling) {
        for (int i = us * 2; i < us * 2 + 2; i++)
            if ((pos->castling & (1 << i)) && gen_castle_ok(pos, i)) {
                *out++ = move_new(ksq, pos->castle_rook[i], MOVE_CASTLING, 0);
                if (any_only)
                    return 1;
            }
    }
    return (int)(out - list);
}

void gen_legal(const Position *pos, MoveList *list)
{
    list->count = generate(pos, list->moves, false);
}

bool gen_has_legal_move(const Position *pos)
{
    Move tmp[MAX_MOVES];
    return generate(pos, tmp, true) > 0;
}

bool gen_is_legal(const Position *pos, Move m)
{
    int us = pos->side, from = move_from(m), to = move_to(m);
    int ksq = pos->king_sq[us];
    if (move_type(m) == MOVE_EN_PASSANT)
        return ep_legal(pos, from, to);
    if (move_type(m) == MOVE_CASTLING) {
        int idx = us * 2 + (to > from ? 0 : 1);
        return !pos->checkers && (pos->castling & (1 << idx)) && pos->castle_rook[idx] == to && gen_castle_ok(pos, idx);
    }
    if (from == ksq)
        return !pos_square_attacked(pos, to, us ^ 1, pos->by_type[0] ^ bb_sq(ksq));
    if (pos->checkers) {
        if (pos->checkers & (pos->checkers - 1))
            return false;
        int c = bb_lsb(pos->checkers);
        if (!((bb_between(ksq, c) | pos->checkers) & bb_sq(to)))
            return false;
    }
    return !pos_move_unpins(pos, from, to);
}

bool gen_move_is_legal(const Position *pos, Move m)
{
    MoveList list;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++)
        if (list.moves[i] == m)
            return true;
    return false;
}

bool gen_gives_check(const Position *pos, Move m)
{
    Position next;
    pos_make(pos, m, &next);
    return next.checkers != 0;
}

uint64_t perft(const Position *pos, int depth)
{
    Move moves[MAX_MOVES];
    int n = generate(pos, moves, false);
    if (depth <= 1)
        return depth == 1 ? (uint64_t)n : 1;
    uint64_t total = 0;
    Position next;
    for (int i = 0; i < n; i++) {
        pos_make(pos, moves[i], &next);
        total += perft(&next, depth - 1);
    }
    return total;
}
