/* unwin_blockade.c - the static proof that a colour can never mate: pawns locked for ever, no mating square (R22, R29). */
#include "unwin_blockade.h"

#include "bitboard.h"

/* ------------------------------------------------------------ blockade
 *
 * The proof for positions whose pawns are locked.  W is the colour asked
 * about, L the other.  Some pawns are taken to be capturable (the set K,
 * empty at first); then:
 *
 * 1. The frozen men F (frozen_men): the largest set of men not in K of
 *    which none has a move while all of them stand (a pawn with a man of
 *    F in front, a piece whose every square holds a man of F of its own,
 *    a king whose every square is its own man of F or attacked by an
 *    enemy one).  Any other pawn can only walk forward along its path:
 *    the squares up to the first man of F ahead or enemy pawn not in K
 *    (that one only ever comes closer; an own pawn or a capturable enemy
 *    pawn ahead may go).  A path that reaches the last rank may promote:
 *    nothing is proven.  No en passant capture may be open (a double
 *    step in the future passes a square of its path: see 3).  Castling
 *    (standard chess only: castle_standard) is two moves of the regions
 *    of step 2: the king steps over an empty square not attacked onto
 *    another, the rook slides over empty squares; and a man of F never
 *    castles: a frozen king has a man of F of its own or an enemy man's
 *    attack next to it on the rook's side, a frozen rook a man of F next
 *    to it on the king's side, for ever.
 * 2. The regions.  Every other piece is flooded over the board with the
 *    men of F as the only walls (other men move away, so ignoring them
 *    only enlarges the region); a king also never enters a square that
 *    an enemy man of F attacks (frozen_attacks).
 * 3. A pawn whose path meets the attacks of an enemy piece (from its
 *    region), or the squares next to the enemy king's region that no man
 *    of F of its own guards, is added to K, and so is a man of F so
 *    attacked; then all is done again (K only grows, so this ends).
 *    When K is stable, no man of F can ever be taken, and no pawn attacks
 *    (from its path) a square of an enemy pawn's path or of an enemy
 *    piece's region (kings aside: a pawn checks a king, never takes it)
 *    -- else nothing is proven.  Then, by induction over any series of
 *    moves, the men of F stay, the other pawns stay on their paths (or
 *    are taken), no pawn ever takes, and every piece stays in its region:
 *    the first move breaking one of these would need one of the captures
 *    excluded.  One capture is not counted: a king's taking a man of F
 *    that leaves the other side no move (stalemate, the end of the game;
 *    king_take_ends).
 * 4. No mate on any square s of L's king's region: a mate needs a check on
 *    s by a piece or pawn of W (from their regions and paths: a king never
 *    checks), and each flight square of s (next to s, in the region: the
 *    others are men of F or attacked by them) either attacked by W (a
 *    piece, a pawn or W's king, from their regions and paths) or taken by
 *    a piece or pawn of L, each by another one (a man of W standing there
 *    unprotected is taken by the king, a protected one is attacked).  When
 *    the flight squares W cannot attack outnumber what L can put on them
 *    (a bipartite matching), s is no mating square.  Where this leaves s
 *    open, W's king is taken on one square k of its region at a time,
 *    neither s nor next to it (kings never touch): at the mate it stands
 *    on one square and attacks only those next to it, not all of king_att
 *    (blk_no_mate_king); s is no mating square if no k leaves a match.
 *    When L has no man that can move but its king, its last move before
 *    the mate brought its king to s, and W's king must have stood where
 *    that move was legal (the tempo rule, blk_no_mate_king).
 * No square of the region being a mating square, W can never mate. */

/* The squares a step of a rook, or of a bishop, away from those of b. */
static Bitboard orth_spread(Bitboard b)
{
    const Bitboard not_a = ~0x0101010101010101ull, not_h = ~0x8080808080808080ull;
    return ((b & not_a) >> 1) | ((b & not_h) << 1) | (b << 8) | (b >> 8);
}

static Bitboard diag_spread(Bitboard b)
{
    const Bitboard not_a = ~0x0101010101010101ull, not_h = ~0x8080808080808080ull;
    return ((b & not_a) << 7) | ((b & not_h) << 9) | ((b & not_a) >> 9) | ((b & not_h) >> 7);
}

/* Region and attack set of the piece of type pt on sq (step 2).  A
 * slider's region is that of its single steps (a step of a rook is to a
 * square next to it on a file or rank, of a bishop on a diagonal, of a
 * queen either): every square a slide passes over is one step on, and
 * one step is a slide.  Its attack set is then every square a step away
 * from the region: the first wall on a line from a square of the region
 * is one step from the last square of the region before it, and a
 * square a step away is always attacked.  (As a loop over the region's
 * squares, each slider's attacks with the walls, this gave the same
 * sets at more cost.) */
static Bitboard blk_region(int pt, int sq, Bitboard walls, Bitboard no_king, Bitboard *att)
{
    Bitboard reg = bb_sq(sq), todo = reg, a = 0;
    if (pt == KING) {
        /* The whole front at once: a king steps to any square next to it. */
        for (Bitboard grow = reg; grow;) {
            grow = bb_king_spread(grow) & ~walls & ~no_king & ~reg;
            reg |= grow;
        }
        *att = bb_king_spread(reg);
        return reg;
    }
    if (pt == BISHOP || pt == ROOK || pt == QUEEN) {
        Bitboard (*step)(Bitboard) = pt == BISHOP ? diag_spread : pt == ROOK ? orth_spread : bb_king_spread;
        for (Bitboard grow = reg; grow;) {
            grow = step(grow) & ~walls & ~reg;
            reg |= grow;
        }
        *att = step(reg);
#ifdef PGNCHECK_DEBUG
        /* (the slides from each square of the region: the same sets) */
        Bitboard slid = bb_sq(sq), left = slid;
        a = 0;
        while (left) {
            int s = bb_pop(&left);
            Bitboard t = (pt != ROOK ? bb_bishop_attacks(s, walls) : 0) | (pt != BISHOP ? bb_rook_attacks(s, walls) : 0);
            a |= t;
            left |= t & ~walls & ~slid;
            slid |= t & ~walls;
        }
        CHESS_DEBUG_ASSERT(slid == reg && a == *att);
#endif
        return reg;
    }
    /* A knight: its jumps, from one square of the region at a time. */
    while (todo) {
        int s = bb_pop(&todo);
        Bitboard t = bb_knight_attacks(s);
        a |= t;
        Bitboard nw = t & ~walls & ~reg;
        reg |= nw;
        todo |= nw;
    }
    *att = a;
    return reg;
}

/* What the man of type pt and colour c on sq attacks, with `walls` the
 * only men on the board. */
static Bitboard blk_attacks(int pt, int c, int sq, Bitboard walls)
{
    switch (pt) {
    case PAWN: return bb_pawn_set_attacks(c, bb_sq(sq));
    case KNIGHT: return bb_knight_attacks(sq);
    case BISHOP: return bb_bishop_attacks(sq, walls);
    case ROOK: return bb_rook_attacks(sq, walls);
    case QUEEN: return bb_bishop_attacks(sq, walls) | bb_rook_attacks(sq, walls);
    default: return bb_king_attacks(sq);
    }
}

/* The squares colour c's men of F attack for as long as F stands.  A
 * frozen slider attacks only squares next to it on its lines, each
 * holding a frozen man of its own (else it could move: frozen_men), so
 * no man can ever come between; pawns, knights and kings attack the
 * same squares wherever the others stand. */
static Bitboard frozen_attacks(const Position *pos, int c, Bitboard F)
{
    Bitboard a = 0;
    for (Bitboard m = F & pos->by_color[c]; m;) {
        int sq = bb_pop(&m);
        a |= blk_attacks(piece_type(pos->board[sq]), c, sq, F);
    }
    return a;
}

/* Step 1's frozen men: the largest set F among `cand` (the men not in K)
 * such that, while every man of F stands, none of them has a move:
 *  - a pawn: the square in front holds a man of F (of either colour),
 *    and no enemy man stands now on a square it attacks;
 *  - a knight, bishop, rook or queen: every square it attacks with F as
 *    the only men on the board holds a man of F of its own colour (the
 *    real board has more men, which only shorten its lines);
 *  - a king: every square next to it holds a man of F of its own colour
 *    or is attacked by an enemy man of F (frozen_attacks): an enemy man
 *    there is protected, an empty square is attacked.
 * Found by dropping, from cand, every man with a move until none is
 * dropped (men that hold each other all stay: none can move first).
 * By induction over any series of moves, F stands for ever, provided
 * that no other man ever takes a man of F or stands where a pawn of F
 * could take it (step 3 shows both; a piece of F can take nothing: it
 * attacks only its own men); no en passant capture is open at the
 * start, a later double step is a pawn move of a path (step 3 again),
 * and a frozen king or rook never castles (step 1). */
static Bitboard frozen_men(const Position *pos, Bitboard cand)
{
    Bitboard F = cand;
    for (;;) {
        Bitboard g[2] = {frozen_attacks(pos, WHITE, F), frozen_attacks(pos, BLACK, F)}, drop = 0;
        for (Bitboard m = F; m;) {
            int sq = bb_pop(&m), pc = pos->board[sq];
            int c = piece_color(pc), pt = piece_type(pc);
            Bitboard mine = F & pos->by_color[c];
            bool moves;
            if (pt == PAWN)
                moves = !(F & bb_sq(c == WHITE ? sq + 8 : sq - 8)) ||
                        (bb_pawn_set_attacks(c, bb_sq(sq)) & pos->by_color[c ^ 1]);
            else if (pt == KING)
                moves = (bb_king_attacks(sq) & ~mine & ~g[c ^ 1]) != 0;
            else
                moves = (blk_attacks(pt, c, sq, F) & ~mine) != 0;
            if (moves)
                drop |= bb_sq(sq);
        }
        if (!drop)
            return F;
        F &= ~drop;
    }
}

/* A bipartite matching: can every square of need get a unit of its own
 * (unit i may stand on the squares of can[i])? */
static bool blk_try(int sqi, const int *sqs, int nsq, const Bitboard *can, int nu, int *owner, unsigned *seen)
{
    for (int u = 0; u < nu; u++) {
        if (!(can[u] & bb_sq(sqs[sqi])) || (*seen & (1u << u)))
            continue;
        *seen |= 1u << u;
        /* owner[u]: the index into sqs of the square unit u holds, or -1 */
        if (owner[u] < 0 || blk_try(owner[u], sqs, nsq, can, nu, owner, seen)) {
            owner[u] = sqi;
            return true;
        }
    }
    return false;
}

static bool blk_matchable(Bitboard need, const Bitboard *can, int nu)
{
    int sqs[8], nsq = 0, owner[24];
    while (need)
        sqs[nsq++] = bb_pop(&need);
    if (nsq > nu)
        return false;
    for (int u = 0; u < nu; u++)
        owner[u] = -1;
    for (int i = 0; i < nsq; i++) {
        unsigned seen = 0;
        if (!blk_try(i, sqs, nsq, can, nu, owner, &seen))
            return false;
    }
    return true;
}

/* Could W's king, stepping off o, uncover a check on a king on k by a
 * bishop, rook or queen of W standing in its region (diag: those of
 * the bishops and queens, orth: of the rooks and queens)?  Only men of
 * F are taken to stand between. */
static bool may_uncover(int k, int o, Bitboard walls, Bitboard diag, Bitboard orth)
{
    int df = (o & 7) - (k & 7), dr = (o >> 3) - (k >> 3);
    if (!(df == 0 || dr == 0 || df == dr || df == -dr) || (bb_between(k, o) & walls))
        return false;
    int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
    Bitboard movers = sf && sr ? diag : orth;
    for (int f = (o & 7) + sf, r = (o >> 3) + sr; f >= 0 && f < 8 && r >= 0 && r < 8; f += sf, r += sr) {
        Bitboard a = bb_sq(r * 8 + f);
        if (a & movers)
            return true;
        if (a & walls)
            return false;
    }
    return false;
}

/* Step 4 again on a square s it could not exclude, W's king on one
 * square at a time: at the mate W's king stands on one square k of its
 * region, neither s nor next to it (kings never touch), and attacks the
 * squares next to k, not all of king_att (the squares next to the whole
 * region).  Each other attacker is still taken from its whole region.
 * True when, for every such k, the flight squares of s (next to s, in
 * L's king's region) that neither k nor att_check covers outnumber what
 * L can put on them: no mate on s.  (The set of k is one square at
 * least, W's king's own; the flights left for one k include those of the
 * first try, so this only decides squares the first try left open.)
 *
 * With `tempo`, when L has no man that can move but its king (its other
 * men are men of F), the king on k must also have let L's last move
 * be made: a move of L's king to s from a square of `came` (next to s,
 * in L's king's region), which was not next to W's king then.  W's
 * mating move is not a move of W's king, which never checks, unless it
 * uncovers a line of W's bishop, rook or queen to s (may_uncover; diag
 * and orth their regions): then W's king stood before on a square next
 * to k (of its region, not next to s) on such a line.  No k allowing
 * such a last move, no mate on s.  (Not where L's king stands on s
 * already with W to move: then L's last move was before the position;
 * nor while W may castle: its rook could give the check.) */
static bool blk_no_mate_king(int s, const Bitboard *king_reg, Bitboard att_check, const Bitboard *can, int nu, int W,
                             Bitboard came, bool tempo, Bitboard walls, Bitboard diag, Bitboard orth)
{
    const int L = W ^ 1;
    Bitboard near_s = bb_king_attacks(s) | bb_sq(s);
    Bitboard flights = bb_king_attacks(s) & king_reg[L] & ~att_check;
    for (Bitboard ks = king_reg[W] & ~near_s; ks;) {
        int k = bb_pop(&ks);
        if (tempo) {
            /* (L's king came to s from a square of `came` not next to
             * W's king: on k, or where it uncovered the check from) */
            Bitboard open = came & ~bb_king_attacks(k) & ~bb_sq(k);
            for (Bitboard before = bb_king_attacks(k) & king_reg[W] & ~near_s; before && !open;) {
                int k0 = bb_pop(&before);
                if ((diag | orth) && may_uncover(s, k0, walls, diag, orth))
                    open |= came & ~bb_king_attacks(k0);
            }
            if (!open)
                continue;
        }
        Bitboard need = flights & ~bb_king_attacks(k);
        if (!need || blk_matchable(need, can, nu))
            return false;
    }
    return true;
}

/* Step 3's exception: the man x of colour c (a man of F, of which
 * the enemy king's region touches x and no enemy piece attacks it) is
 * taken only by that king, and that capture ends the game.  Right after
 * it the enemy king stands on x, every other man of F where it stood
 * (F stands until some man of it is taken), and c has no legal move:
 *  - every man of c but its king and x is a man of F: none has a move
 *    while F stands (frozen_men), and the king on x changes none of
 *    them (a pawn with x in front is still blocked; a piece of F that
 *    attacked x guarded it, and the king could not take it; no pawn
 *    of c can take an enemy piece or pawn: steps 2 and 3);
 *  - c's king stands on a square k of its region `reg` not next to x
 *    (else x was guarded), and every square next to k in that region
 *    is next to x, where the enemy king forbids it (kings never touch);
 *    the squares next to k outside the region hold a man of F of c or
 *    are attacked by an enemy one.
 * So the capture is stalemate, or mate of c: the end of the game.  When
 * c is L, the taker is W's king, and the capture must not be a mate by
 * W: a king move checks only by uncovering a line of a bishop, rook or
 * queen of W (diag, orth: their regions), from a square o of W's king's
 * region `taker` next to x (may_uncover).  Then no mate by W ever
 * follows the capture, and the proof may go on as if x were never
 * taken. */
static bool king_take_ends(const Position *pos, int c, int x, Bitboard walls, Bitboard reg, Bitboard taker,
                           bool by_w, Bitboard diag, Bitboard orth)
{
    Bitboard near_x = bb_king_attacks(x) | bb_sq(x);
    if (pos->by_color[c] & ~pos->by_type[KING] & ~bb_sq(x) & ~walls)
        return false;
    for (Bitboard ks = reg & ~near_x; ks;) {
        int k = bb_pop(&ks);
        if (bb_king_attacks(k) & reg & ~near_x)
            return false;
        if (by_w && (diag | orth))
            for (Bitboard os = bb_king_attacks(x) & taker; os;)
                if (may_uncover(k, bb_pop(&os), walls, diag, orth))
                    return false;
    }
    return true;
}

bool unwin_blockade(const Position *pos, int color)
{
    if (!unwin_may_be_blocked(pos))
        return false; /* (a necessary condition, in bit operations) */
    const int W = color, L = color ^ 1;
    const Bitboard pawns = pos->by_type[PAWN];
    const Bitboard own[2] = {pawns & pos->by_color[WHITE], pawns & pos->by_color[BLACK]};
    Bitboard capturable = 0;
    /* Per colour: each pawn's path (fixed ones: their square), their union,
     * the pawns' attacks from them, the fixed ones' attacks. */
    Bitboard path[2][8], paths[2], pawn_att[2], fixed = 0;
    int npath[2];
    Bitboard king_reg[2], king_att[2], piece_reg[2], piece_att[2], diag_reg[2], orth_reg[2];
    Bitboard can[24];
    int nu;
    Bitboard F = 0;
    for (int round = 0;; round++) {
        if (round > 32)
            return false; /* cannot happen: K gains a man each round, and there are 30 */
        /* Step 1: the frozen men F (frozen_men), the paths of the others. */
        Bitboard walls = frozen_men(pos, pos->by_type[0] & ~capturable), guards[2];
        F = walls;
        fixed = walls & pawns;
        Bitboard stuck = walls & ~pawns & ~pos->by_type[KING];
        for (int c = 0; c < 2; c++) {
            Bitboard stop = walls | (own[c ^ 1] & ~capturable);
            int step = c == WHITE ? 8 : -8;
            npath[c] = 0;
            paths[c] = own[c] & fixed;
            for (Bitboard m = own[c] & ~fixed; m;) {
                int sq = bb_pop(&m);
                Bitboard pth = bb_sq(sq);
                for (int t = sq + step; t >= 0 && t < 64 && !(stop & bb_sq(t)); t += step)
                    pth |= bb_sq(t);
                if (pth & 0xFF000000000000FFull)
                    return false; /* may promote */
                path[c][npath[c]++] = pth;
                paths[c] |= pth;
            }
            pawn_att[c] = bb_pawn_set_attacks(c, paths[c]);
            guards[c] = frozen_attacks(pos, c, walls);
        }
        for (int c = 0; c < 2; c++)
            if (pawn_att[c] & paths[c ^ 1])
                return false; /* a pawn may take a pawn */
        /* Step 2, and a first look at step 3's captures by pawns. */
        nu = 0;
        for (int c = 0; c < 2; c++) {
            king_reg[c] = blk_region(KING, pos->king_sq[c], walls, guards[c ^ 1], &king_att[c]);
            piece_reg[c] = piece_att[c] = diag_reg[c] = orth_reg[c] = 0;
            Bitboard pieces = pos->by_color[c] & ~pawns & ~pos->by_type[KING];
            if (pieces & pawn_att[c ^ 1])
                return false; /* a pawn may take a piece now */
            while (pieces) {
                int sq = bb_pop(&pieces);
                /* (A stuck piece's region is its square.) */
                Bitboard a, reg = blk_region(piece_type(pos->board[sq]), sq, walls, 0, &a);
                piece_reg[c] |= reg;
                piece_att[c] |= a;
                int pt = piece_type(pos->board[sq]);
                if (pt == BISHOP || pt == QUEEN)
                    diag_reg[c] |= reg;
                if (pt == ROOK || pt == QUEEN)
                    orth_reg[c] |= reg;
                if (c == L && !(stuck & bb_sq(sq))) {
                    if (nu >= 24)
                        return false; /* (never: at most 15 pieces) */
                    can[nu++] = reg;
                }
            }
        }
        for (int c = 0; c < 2; c++)
            if (pawn_att[c] & piece_reg[c ^ 1])
                return false; /* a pawn may take a piece */
        /* Step 3: the men that may be taken: pawns on their paths, fixed
         * pawns, stuck pieces. */
        Bitboard more = 0;
        for (int c = 0; c < 2; c++) {
            Bitboard takers = piece_att[c ^ 1] | (king_att[c ^ 1] & ~guards[c]);
            Bitboard men = ((paths[c] & fixed) | (stuck & pos->by_color[c])) & takers;
            for (Bitboard k = men & ~piece_att[c ^ 1]; k;) {
                int x = bb_pop(&k);
                if (king_take_ends(pos, c, x, walls, king_reg[c], king_reg[c ^ 1], c == L, diag_reg[W], orth_reg[W]))
                    men &= ~bb_sq(x);
            }
            more |= men;
            for (int i = 0; i < npath[c]; i++)
                if (path[c][i] & takers)
                    more |= path[c][i] & own[c];
        }
        if (!(more & ~capturable))
            break;
        capturable |= more;
    }
    for (int i = 0; i < npath[L] && nu < 24; i++)
        can[nu++] = path[L][i];
    Bitboard att_check = pawn_att[W] | piece_att[W];
    Bitboard att_all = att_check | king_att[W];
    /* Step 4. */
    bool tempo = !(pos->by_color[L] & ~pos->by_type[KING] & ~F) &&
                 !(pos->castling & (W == WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ));
    Bitboard cand = king_reg[L] & att_check;
    while (cand) {
        int s = bb_pop(&cand);
        Bitboard need = bb_king_attacks(s) & king_reg[L] & ~att_all;
        if ((!need || blk_matchable(need, can, nu)) &&
            !blk_no_mate_king(s, king_reg, att_check, can, nu, W, bb_king_attacks(s) & king_reg[L],
                              tempo && !(s == pos->king_sq[L] && pos->side == W), F, diag_reg[W], orth_reg[W]))
            return false;
    }
    return true;
}

/* Every castling right of pos standard: the king on e1 (e8), its rook
 * on a1 or h1 (a8, h8).  (In Chess960 a rook may castle while its king
 * stays: a frozen king beside a frozen rook could still castle.) */
static bool castle_standard(const Position *pos)
{
    for (int i = 0; i < 4; i++) {
        if (!(pos->castling & (1 << i)))
            continue;
        int back = i < 2 ? 0 : 56;
        if (pos->king_sq[i / 2] != back + 4 || pos->castle_rook[i] != back + (i % 2 ? 0 : 7))
            return false;
    }
    return true;
}

bool unwin_may_be_blocked(const Position *pos)
{
    if (pos->ep_legal || (pos->castling && !castle_standard(pos)))
        return false;
    Bitboard pawns = pos->by_type[PAWN], occ = pos->by_type[0];
    if (!pawns)
        return false;
    Bitboard wp = pawns & pos->by_color[WHITE], bp = pawns & pos->by_color[BLACK];
    /* Every pawn needs a man ahead on its file: its path (or a man of F
     * in front of it) ends there, before the last rank.  Fill the men
     * toward each side. */
    Bitboard down = occ >> 8;
    down |= down >> 8;
    down |= down >> 16;
    down |= down >> 32;
    Bitboard up = occ << 8;
    up |= up << 8;
    up |= up << 16;
    up |= up << 32;
    if ((wp & ~down) || (bp & ~up))
        return false;
    /* A path holds at least the empty squares in front of its pawn, up to
     * the first man (every stop of unwin_blockade is a man); a pawn that
     * may take a pawn or a piece from there fails the proof (step 3). */
    Bitboard empty = ~occ, ws = wp, bs = bp;
    for (int i = 0; i < 6; i++) {
        ws |= (ws << 8) & empty;
        bs |= (bs >> 8) & empty;
    }
    Bitboard pieces = occ & ~pawns & ~pos->by_type[KING];
    return !(bb_pawn_set_attacks(WHITE, ws) & (bs | (pieces & pos->by_color[BLACK]))) &&
           !(bb_pawn_set_attacks(BLACK, bs) & (ws | (pieces & pos->by_color[WHITE])));
}

bool unwin_pawns_locked(const Position *pos)
{
    if (pos->castling || pos->ep_legal)
        return false;
    Bitboard pawns = pos->by_type[PAWN];
    Bitboard wp = pawns & pos->by_color[WHITE], bp = pawns & pos->by_color[BLACK];
    return pawns && !((wp << 8) & ~pawns) && !((bp >> 8) & ~pawns) && !(bb_pawn_set_attacks(WHITE, wp) & bp);
}
