/* san.c - SAN: resolve a move token against a position (strictly), and format canonical SAN. */
#include "san.h"

#include "movegen.h"
#include "position.h"

#include <string.h>

/* What the fast path knows of the move it has found, for the make: its
 * squares and the piece on the destination (and for a pawn, the move). */
typedef struct FastMove {
    int from, to, captured;
    Move move;
} FastMove;

/* Those of the origin squares `test` (pieces of the side to move on its
 * king's lines) whose move to `to` uncovers no check (san.c).  Out of
 * line: the slider attacks need registers that san_fast would otherwise
 * save and restore on every call. */
static Bitboard san_unpinned(const Position *pos, Bitboard test, int to);

/* The legal ones among the origin squares cands of a move (not a pawn's)
 * to `to`: only the pieces on the king's lines need a pin test.  In check
 * (gen_is_legal's tests, once for all the candidates: they share `to`),
 * none but the king's moves answer a double check, and the others must
 * take the checker or stand between it and the king. */
CHESS_HOT_INLINE Bitboard san_legal_from(const Position *pos, Bitboard cands, int to, int pt)
{
    if (pt == KING) /* one king: legal when its square is not attacked */
        return pos_square_attacked_inline(pos, to, pos->side ^ 1, pos->by_type[0] ^ cands) ? 0 : cands;
    Bitboard checkers = pos->checkers;
    if (checkers && ((checkers & (checkers - 1)) ||
                     !((bb_between(pos->king_sq[pos->side], bb_lsb(checkers)) | checkers) & bb_sq(to))))
        return 0;
    Bitboard test = pos_pin_suspects(pos, cands);
    Bitboard legal = cands & ~test;
    return test ? legal | san_unpinned(pos, test, to) : legal;
}

/* The fast path of san_parse for the common, canonically written shapes
 * (e4, exd5, Nf3, Nxe5, Nbd2, R1xe2, O-O, O-O-O, each with + or #),
 * resolved straight from attack sets.  The result packs the move and its mark (0, 1 for
 * '+', 2 for '#') as san_fast_move() / san_fast_mark() read them, in a
 * register rather than through pointers so the caller's loop keeps it
 * there.  It is 0 (no move is 0: its from and to squares would be the
 * same) for anything but exactly one legal move — a notation deviation,
 * an illegal or ambiguous move, a promotion — which san_parse then
 * handles and diagnoses.  The mark is read here, inline; the rest is
 * done by one of two halves (san.c), each out of line on its own: a
 * function with only the pawn moves' or only the pieces' values needs
 * fewer registers saved on every call than one holding both. */
static Move san_fast_pawn(const Position *pos, const char *s, size_t n);
static Move san_fast_piece(const Position *pos, const char *s, size_t n);

/* The mark of a token (n >= 1) by a table: one load for both characters,
 * no branch; *n loses the mark's character. */
static inline uint32_t san_mark_of(const char *s, size_t *n)
{
    static const uint8_t mark_of[256] = {['+'] = 1, ['#'] = 2};
    uint32_t mark = mark_of[(unsigned char)s[*n - 1]];
    *n -= mark != 0;
    return mark;
}

static inline uint32_t san_fast(const Position *pos, const char *s, size_t n)
{
    if (n < 2)
        return 0;
    uint32_t mark = san_mark_of(s, &n);
    Move m = (unsigned)(unsigned char)s[0] - 'a' < 8 ? san_fast_pawn(pos, s, n) : san_fast_piece(pos, s, n);
    return m ? m | mark << 16 : 0;
}

/* san_fast's pawn moves (the token starts with a file letter; promotions
 * go the general way): whether the token names one legal move, and then
 * *fm (captured is 0 for en passant).  A found move is never 0, but the
 * compiler cannot tell: the callers would test it again. */
CHESS_HOT_INLINE bool pawn_resolve(const Position *pos, const char *s, size_t n, FastMove *fm)
{
    int us = pos->side;
    unsigned f0 = (unsigned)(unsigned char)s[0] - 'a';
    Move m;
    int up = 8 - 16 * us;
    int to, from, pawn = us << 3 | PAWN;
    unsigned r8;
    if (n == 2) {
        r8 = (unsigned)(unsigned char)s[1] - '1';
        if (r8 - 1 >= 6)
            return false;
        to = (int)(r8 * 8 + f0);
        if (pos->board[to])
            return false;
        from = to - up;
        if (pos->board[from] != pawn) {
            if (pos->board[from] || r8 != (us == WHITE ? 3u : 4u) || pos->board[from - up] != pawn)
                return false;
            from -= up;
        }
        m = move_new(from, to, MOVE_NORMAL, 0);
        fm->captured = 0;
    } else if (n == 4 && s[1] == 'x') {
        unsigned f2 = (unsigned)(unsigned char)s[2] - 'a';
        r8 = (unsigned)(unsigned char)s[3] - '1';
        if (f2 >= 8 || r8 - 1 >= 6 || (f0 != f2 + 1 && f2 != f0 + 1))
            return false;
        to = (int)(r8 * 8 + f2);
        from = to - up + (int)f0 - (int)f2;
        if (pos->board[from] != pawn)
            return false;
        int target = pos->board[to];
        fm->captured = target;
        if (target) {
            if (piece_color(target) == us || piece_type(target) == KING)
                return false;
            m = move_new(from, to, MOVE_NORMAL, 0);
        } else if (to == pos->ep)
            m = move_new(from, to, MOVE_EN_PASSANT, 0);
        else
            return false;
    } else
        return false;
    /* Legal: out of check, a pawn's normal move needs a pin test only on
     * one of its king's lines; else gen_is_legal decides. */
    if (!pos->checkers && move_type(m) == MOVE_NORMAL) {
        Bitboard f = bb_sq(from);
        if (pos_pin_suspects(pos, f) && !san_unpinned(pos, f, to))
            return false;
    } else if (!gen_is_legal(pos, m))
        return false;
    fm->from = from;
    fm->to = to;
    fm->move = m;
    return true;
}

/* Castling by the fast path (O-O, O-O-O): the move, or 0.  The king
 * takes its own rook (chess.h). */
CHESS_HOT_INLINE Move castle_resolve(const Position *pos, const char *s, size_t n)
{
    int us = pos->side;
    if ((n == 3 && s[1] == '-' && s[2] == 'O') || (n == 5 && s[1] == '-' && s[2] == 'O' && s[3] == '-' && s[4] == 'O')) {
        int idx = us * 2 + (n == 3 ? 0 : 1);
        if (!(pos->castling & (1 << idx)))
            return 0;
        if (pos->checkers || !gen_castle_ok(pos, idx))
            return 0;
        return move_new(pos->king_sq[us], pos->castle_rook[idx], MOVE_CASTLING, 0);
    }
    return 0;
}

/* Does the destination's piece (code 0-15) fit the token: by [side to
 * move << 1 | capture written], none without an 'x', an enemy piece but
 * the king with one (one load for what is as good as random to the
 * branch predictor). */
#define FIT_ENEMY(c) [(c) << 3 | PAWN] = 1, [(c) << 3 | KNIGHT] = 1, [(c) << 3 | BISHOP] = 1, \
                     [(c) << 3 | ROOK] = 1, [(c) << 3 | QUEEN] = 1
static const uint8_t target_fits[4][16] = {
    [WHITE << 1] = {[0] = 1}, [WHITE << 1 | 1] = {FIT_ENEMY(BLACK)},
    [BLACK << 1] = {[0] = 1}, [BLACK << 1 | 1] = {FIT_ENEMY(WHITE)},
};
#undef FIT_ENEMY

/* A piece move token without its mark (n bytes) in pos: the destination
 * is the last two characters, an 'x' before it when capturing, and at
 * most one disambiguation character before that; the destination holds
 * nothing without the 'x', an enemy piece but the king with it.  False
 * for anything else; else *to: the destination, *target: its piece (0 if
 * none), *k: the bytes before it and the 'x' (1 or 2). */
CHESS_HOT_INLINE bool piece_token(const Position *pos, const char *s, size_t n, int *to, int *target, size_t *k)
{
    if (n < 3)
        return false;
    unsigned tf = (unsigned)(unsigned char)s[n - 2] - 'a', tr = (unsigned)(unsigned char)s[n - 1] - '1';
    if (tf >= 8 || tr >= 8)
        return false;
    n -= 2;
    /* (the capture taken as a value, not a branch: a capture or not is
     * as good as random to the branch predictor) */
    bool capture = s[n - 1] == 'x';
    n -= capture;
    if (n > 2)
        return false;
    *k = n;
    *to = (int)(tr * 8 + tf);
    *target = pos->board[*to];
    return target_fits[pos->side << 1 | capture][*target];
}

/* The one of the legal origins the token names (k as piece_token says):
 * with a disambiguation character, only the canonical, needed one (PGN
 * 8.2.3.4: the file when it tells the pieces apart, else the rank).
 * Returns the origin's bit, 0 if none or more than one. */
CHESS_HOT_INLINE Bitboard piece_pick(Bitboard legal, const char *s, size_t k)
{
    Bitboard pick = legal;
    if (k == 2) {
        /* Nbd2 / R1e2 */
        if (!(legal & (legal - 1)))
            return 0;
        unsigned d = (unsigned char)s[1];
        if (d - 'a' < 8) {
            pick = legal & (0x0101010101010101ull << (d - 'a'));
        } else if (d - '1' < 8) {
            pick = legal & (0xFFull << (8 * (d - '1')));
            if (pick && !(legal & ~pick & (0x0101010101010101ull << (bb_lsb(pick) & 7))))
                return 0; /* the file alone would have told them apart */
        } else
            return 0;
    }
    if (!pick || (pick & (pick - 1)))
        return 0;
    return pick;
}

/* The kind of piece a token's first letter names (0: none). */
static const uint8_t piece_kind_of[256] = {['N'] = KNIGHT, ['B'] = BISHOP, ['R'] = ROOK, ['Q'] = QUEEN, ['K'] = KING};

/* san_fast's moves of a piece of type pt (KNIGHT..KING, the token's first
 * letter): whether the token names one legal move, and then *fm (the
 * callers build a move only when they need one).  One path for every kind
 * of piece, so that the kind is no branch: from move to move it is as
 * good as random to the branch predictor, and when each kind had its own
 * function, called through san_play_of on the letter, that call was
 * mispredicted about every other piece move.  The candidates are the
 * pieces of the kind that reach the destination on an empty board
 * (bb_reach_tab), each kept when nothing stands between (a leaper's
 * between is empty), so no kind has attack sets of its own.  The usual
 * one or two are taken as the lowest and highest bit without a loop;
 * three or more (promoted pieces) one by one.  It runs more
 * instructions than the per-kind functions did and takes less time
 * (tests/BENCH.md). */
CHESS_HOT_INLINE bool piece_resolve(const Position *pos, const char *s, size_t n, int pt, FastMove *fm)
{
    size_t k;
    int to, target;
    if (!piece_token(pos, s, n, &to, &target, &k))
        return false;
    Bitboard reach = pos->by_color[pos->side] & pos->by_type[pt] & bb_reach_tab[pt][to];
    if (!reach)
        return false;
    const Bitboard occ = pos->by_type[0];
    const Bitboard *btw = bb_between_tab[to];
    Bitboard cands = reach, rest = reach & (reach - 1);
    if (rest & (rest - 1)) {
        for (Bitboard r = reach; r;) {
            int c = bb_pop(&r);
            if (btw[c] & occ)
                cands ^= bb_sq(c);
        }
    } else {
        int a = bb_lsb(reach), b = 63 ^ __builtin_clzll(reach);
        if ((btw[a] | btw[b]) & occ) /* one is blocked (rare: rooks on one line, say) */
            cands = (bb_sq(a) & (0 - (Bitboard)((btw[a] & occ) == 0))) |
                    (bb_sq(b) & (0 - (Bitboard)((btw[b] & occ) == 0)));
    }
    if (!cands)
        return false;
    Bitboard legal = pt == KING ? san_legal_from(pos, cands, to, KING)
                                : san_legal_from(pos, cands, to, QUEEN); /* (any type but the king's) */
    if (!legal)
        return false;
    Bitboard pick = piece_pick(legal, s, k);
    if (!pick)
        return false;
    fm->from = bb_lsb(pick);
    fm->to = to;
    fm->captured = target;
    return true;
}

static Move san_fast_pawn(const Position *pos, const char *s, size_t n)
{
    FastMove fm;
    return pawn_resolve(pos, s, n, &fm) ? fm.move : 0;
}

static Move san_fast_piece(const Position *pos, const char *s, size_t n)
{
    FastMove fm;
    int pt = piece_kind_of[(unsigned char)s[0]];
    if (pt)
        return piece_resolve(pos, s, n, pt, &fm) ? move_new(fm.from, fm.to, MOVE_NORMAL, 0) : 0;
    return s[0] == 'O' ? castle_resolve(pos, s, n) : 0;
}

/* The san_play functions: san_fast's with the move made at once, by the
 * piece and capture they have found (see san.h). */
static uint32_t play_pawn(Position *pos, const char *s, size_t n)
{
    uint32_t mark = san_mark_of(s, &n);
    FastMove fm;
    if (!pawn_resolve(pos, s, n, &fm))
        return 0;
    /* The result made before the move: then only it, not the move and
     * the mark, is kept across the make. */
    uint32_t played = san_played(mark);
    if (move_type(fm.move) == MOVE_NORMAL && !pos_normal_is_rare(pos, fm.from, fm.to, PAWN, fm.captured))
        pos_do_normal(pos, fm.from, fm.to, PAWN, fm.captured, false);
    else
        pos_do(pos, fm.move); /* en passant, or a rare normal move */
    return played;
}

/* Any piece but a pawn (see piece_resolve), the move made with the
 * piece and capture found. */
static uint32_t play_piece(Position *pos, const char *s, size_t n)
{
    uint32_t mark = san_mark_of(s, &n);
    const int pt = piece_kind_of[(unsigned char)s[0]];
    FastMove fm;
    if (!piece_resolve(pos, s, n, pt, &fm))
        return 0;
    uint32_t played = san_played(mark); /* (see play_pawn) */
    if (pt == PAWN)
        __builtin_unreachable(); /* (so pos_do_normal leaves out the pawn's part) */
    pos_do_normal(pos, fm.from, fm.to, pt, fm.captured, true);
    return played;
}

static uint32_t play_castle(Position *pos, const char *s, size_t n)
{
    uint32_t mark = san_mark_of(s, &n);
    Move m = castle_resolve(pos, s, n);
    if (!m)
        return 0;
    pos_do_castle(pos, m);
    return san_played(mark);
}

/* san_fast with the move made: when the result is not 0, *pos is the
 * position after the move (as pos_do makes it), else *pos is unchanged.
 * Resolving and making in one function spares the make a call and a
 * second look at what the parse already knows: the piece, the squares,
 * the capture.  One function per first character of the token (NULL:
 * none of the fast shapes starts so): pawn moves, castling, and the
 * other pieces all by one function (san.c, piece_resolve: the kind of
 * piece, as good as random from move to move, is then no branch); the
 * first character chooses it with one load.  Each reads the mark itself
 * and returns it (san_played: san_played_mark reads it), so that the
 * caller keeps nothing across the call; the move is not in the result
 * (the caller has the position after it), which spares building it and
 * keeping its squares to the end.  The mark is in the low bits, where
 * the caller takes it with one operation.  The token must be
 * NUL-terminated (s[0] is read even when n is 0; a function is chosen
 * only for a letter, so then n >= 1). */
SanPlayFn *const san_play_of[256] = {
    ['a'] = play_pawn, ['b'] = play_pawn, ['c'] = play_pawn, ['d'] = play_pawn,
    ['e'] = play_pawn, ['f'] = play_pawn, ['g'] = play_pawn, ['h'] = play_pawn,
    ['N'] = play_piece, ['B'] = play_piece, ['R'] = play_piece, ['Q'] = play_piece,
    ['K'] = play_piece, ['O'] = play_castle,
};

enum { FORM_SAN = 0, FORM_LONG = 1, FORM_UCI = 2 };

typedef struct Parsed {
    int piece;          /* PAWN..KING */
    int from_file;      /* -1 if not given */
    int from_rank;      /* -1 if not given */
    int to;
    bool capture;       /* x written */
    bool separator;     /* - written (long algebraic) */
    int promo;          /* 0 none, else piece type (PAWN/KING are illegal choices) */
    bool promo_eq;
    bool promo_lower;
    int castle;         /* 0, 1 king side, 2 queen side */
    bool zeros;
    bool pawn_letter;
    bool piece_letter;
} Parsed;

static int piece_of_letter(char c)
{
    switch (c) {
    case 'N': return KNIGHT;
    case 'B': return BISHOP;
    case 'R': return ROOK;
    case 'Q': return QUEEN;
    case 'K': return KING;
    case 'P': return PAWN;
    default: return 0;
    }
}

static bool is_file(char c) { return c >= 'a' && c <= 'h'; }
static bool is_rank(char c) { return c >= '1' && c <= '8'; }

/* Strips suffix annotations, check marks and "e.p."; fills r->nag/mark/notes. */
static size_t strip_suffixes(const char *s, size_t n, SanResult *r)
{
    for (int round = 0; round < 2; round++) {
        /* Annotation glyphs: !, ?, !!, ??, !?, ?! (NAG 1-6). */
        size_t k = 0;
        while (k < n && k < 2 && (s[n - 1 - k] == '!' || s[n - 1 - k] == '?'))
            k++;
        if (k && !r->nag) {
            char a = s[n - k], b = k == 2 ? s[n - 1] : 0;
            int nag = 0;
            if (k == 1)
                nag = a == '!' ? 1 : 2;
            else if (a == '!' && b == '!')
                nag = 3;
            else if (a == '?' && b == '?')
                nag = 4;
            else if (a == '!' && b == '?')
                nag = 5;
            else
                nag = 6;
            r->nag = nag;
            r->notes |= SAN_NOTE_SUFFIX;
            n -= k;
        }
        if (n >= 4 && memcmp(s + n - 4, "e.p.", 4) == 0) {
            r->notes |= SAN_NOTE_EP_SUFFIX;
            n -= 4;
            while (n && s[n - 1] == ' ')
                n--;
        } else if (n >= 5 && s[n - 2] == 'e' && s[n - 1] == 'p' && is_rank(s[n - 3])) {
            r->notes |= SAN_NOTE_EP_SUFFIX; /* "dxc6ep": the same suffix without its periods */
            n -= 2;
        }
        if (n >= 2 && s[n - 1] == '+' && s[n - 2] == '+') {
            r->mark = 3;
            n -= 2;
        } else if (n >= 1 && (s[n - 1] == '+' || s[n - 1] == '#')) {
            r->mark = s[n - 1] == '+' ? 1 : 2;
            n -= 1;
        }
    }
    return n;
}

/* Grammar of the move proper (suffixes gone).  Returns false on syntax error. */
static bool parse_token(const char *s, size_t n, Parsed *p)
{
    memset(p, 0, sizeof *p);
    p->from_file = p->from_rank = -1;
    p->to = SQ_NONE;
    if ((n == 3 && memcmp(s, "O-O", 3) == 0) || (n == 5 && memcmp(s, "O-O-O", 5) == 0) ||
        (n == 3 && memcmp(s, "0-0", 3) == 0) || (n == 5 && memcmp(s, "0-0-0", 5) == 0)) {
        p->piece = KING;
        p->castle = n == 3 ? 1 : 2;
        p->zeros = s[0] == '0';
        return true;
    }
    size_t i = 0;
    if (n && piece_of_letter(s[0])) {
        p->piece = piece_of_letter(s[0]);
        p->pawn_letter = p->piece == PAWN;
        p->piece_letter = true;
        i = 1;
    } else
        p->piece = PAWN;
    /* Promotion suffix: [=]?[QRBNKPqrbnkp] after the destination rank. */
    size_t end = n;
    if (end >= 3 && !is_rank(s[end - 1])) {
        char c = s[end - 1];
        int pt = piece_of_letter(c);
        if (!pt && c >= 'a' && c <= 'z' && piece_of_letter((char)(c - 32))) {
            pt = piece_of_letter((char)(c - 32));
            p->promo_lower = true;
        }
        if (!pt || !is_rank(s[end - 2 - (s[end - 2] == '=')]))
            return false;
        p->promo = pt;
        end--;
        if (s[end - 1] == '=') {
            p->promo_eq = true;
            end--;
        }
    }
    if (end < i + 2 || !is_file(s[end - 2]) || !is_rank(s[end - 1]))
        return false;
    p->to = sq_make(s[end - 2] - 'a', s[end - 1] - '1');
    end -= 2;
    if (end > i && (s[end - 1] == 'x' || s[end - 1] == '-')) {
        if (s[end - 1] == 'x')
            p->capture = true;
        else
            p->separator = true;
        end--;
        if (end > i && (s[end - 1] == 'x' || s[end - 1] == '-')) {
            /* "-x" or "x-": only the long-algebraic capture "Ng1-xf3" style is refused. */
            return false;
        }
    }
    /* Disambiguation: [file]?[rank]? */
    if (end > i && is_file(s[i])) {
        p->from_file = s[i] - 'a';
        i++;
    }
    if (end > i && is_rank(s[i])) {
        p->from_rank = s[i] - '1';
        i++;
    }
    if (i != end)
        return false;
    if (p->separator && (p->from_file < 0 || p->from_rank < 0))
        return false; /* "N-f3", "e-e4": not a notation */
    if (p->promo && p->piece != PAWN)
        return false;
    return true;
}

static Bitboard attacks_of(int pt, int color, int sq, Bitboard occ)
{
    switch (pt) {
    case PAWN: return bb_pawn_attacks(color, sq);
    case KNIGHT: return bb_knight_attacks(sq);
    case BISHOP: return bb_bishop_attacks(sq, occ);
    case ROOK: return bb_rook_attacks(sq, occ);
    case QUEEN: return bb_bishop_attacks(sq, occ) | bb_rook_attacks(sq, occ);
    default: return bb_king_attacks(sq);
    }
}

static Bitboard file_bb(int f) { return 0x0101010101010101ull << f; }
static Bitboard rank_bb(int r) { return 0xFFull << (8 * r); }

/* The pinner of a piece on `sq` pinned to its king. */
static int pinner_of(const Position *pos, int sq)
{
    int us = piece_color(pos->board[sq]);
    int ksq = pos->king_sq[us];
    Bitboard line = bb_line(ksq, sq);
    Bitboard occ = pos->by_type[0] ^ bb_sq(sq);
    Bitboard sliders = pos->by_color[us ^ 1] & line &
                       ((bb_rook_attacks(ksq, occ) & (pos->by_type[ROOK] | pos->by_type[QUEEN])) |
                        (bb_bishop_attacks(ksq, occ) & (pos->by_type[BISHOP] | pos->by_type[QUEEN])));
    return sliders ? bb_lsb(sliders) : SQ_NONE;
}

/* Why the pseudo-legal move m is illegal (R15, R17). */
static void explain_illegal(const Position *pos, Move m, SanResult *r)
{
    int us = pos->side, from = move_from(m), to = move_to(m);
    r->sq = from;
    if (move_type(m) == MOVE_EN_PASSANT) {
        if (pos->checkers && !(pos->checkers & bb_sq(to + (us == WHITE ? -8 : 8)))) {
            r->reason = ILL_LEAVES_CHECK;
            r->sq2 = bb_lsb(pos->checkers);
        } else
            r->reason = ILL_EP_DISCOVERS;
        return;
    }
    if (from == pos->king_sq[us]) {
        Bitboard att = pos_attackers_to(pos, to, pos->by_type[0] ^ bb_sq(from)) & pos->by_color[us ^ 1];
        r->reason = ILL_KING_INTO_CHECK;
        r->sq2 = att ? bb_lsb(att) : SQ_NONE;
        return;
    }
    if ((pos_pinned(pos) & bb_sq(from)) && !(bb_line(pos->king_sq[us], from) & bb_sq(to))) {
        r->reason = ILL_PINNED;
        r->sq2 = pinner_of(pos, from);
        return;
    }
    r->reason = ILL_LEAVES_CHECK;
    r->sq2 = pos->checkers ? bb_lsb(pos->checkers) : SQ_NONE;
}

static SanStatus finish(SanResult *r, SanStatus st)
{
    r->status = st;
    return st;
}

static int castle_index(const Position *pos, int side_flag /* 1 king side, 2 queen side */)
{
    return pos->side * 2 + (side_flag == 1 ? 0 : 1);
}

static SanStatus resolve_castle(const Position *pos, int which, SanResult *r)
{
    int us = pos->side, idx = castle_index(pos, which);
    r->piece = KING;
    r->sq = pos->king_sq[us];
    if (!(pos->castling & (1 << idx))) {
        r->reason = ILL_CASTLE_NO_RIGHT;
        return finish(r, SAN_ILLEGAL);
    }
    int kfrom = pos->king_sq[us], rfrom = pos->castle_rook[idx];
    int back = us == WHITE ? 0 : 7;
    int kto = sq_make(which == 1 ? 6 : 2, back), rto = sq_make(which == 1 ? 5 : 3, back);
    Bitboard span = (bb_between(kfrom, kto) | bb_between(rfrom, rto) | bb_sq(kto) | bb_sq(rto)) &
                    ~(bb_sq(kfrom) | bb_sq(rfrom));
    if (span & pos->by_type[0]) {
        r->reason = ILL_CASTLE_BLOCKED;
        r->sq2 = bb_lsb(span & pos->by_type[0]);
        return finish(r, SAN_ILLEGAL);
    }
    if (pos->checkers) {
        r->reason = ILL_CASTLE_IN_CHECK;
        r->sq2 = bb_lsb(pos->checkers);
        return finish(r, SAN_ILLEGAL);
    }
    Move m = move_new(kfrom, rfrom, MOVE_CASTLING, 0);
    if (!gen_is_legal(pos, m)) {
        Bitboard occ = pos->by_type[0] ^ bb_sq(kfrom) ^ bb_sq(rfrom);
        Bitboard path = bb_between(kfrom, kto) | bb_sq(kto);
        r->reason = ILL_CASTLE_ATTACKED;
        while (path) {
            int s = bb_pop(&path);
            if (pos_square_attacked(pos, s, us ^ 1, occ)) {
                r->sq2 = s;
                break;
            }
        }
        return finish(r, SAN_ILLEGAL);
    }
    r->move = m;
    r->to = kto;
    return finish(r, SAN_OK);
}

/* A move given by origin and destination squares (UCI or long algebraic). */
static SanStatus resolve_from_to(const Position *pos, const Parsed *p, SanResult *r)
{
    int us = pos->side;
    int from = sq_make(p->from_file, p->from_rank), to = p->to;
    int pc = pos->board[from];
    r->sq = from;
    if (!pc || piece_color(pc) != us || (p->piece_letter && piece_type(pc) != p->piece)) {
        r->reason = ILL_NO_PIECE;
        return finish(r, SAN_ILLEGAL);
    }
    r->piece = piece_type(pc);
    if (piece_type(pc) == KING) {
        /* King two squares along its rank, or onto its own rook: castling. */
        int idx = -1;
        if (pos->board[to] == (us << 3 | ROOK)) {
            for (int i = us * 2; i < us * 2 + 2; i++)
                if ((pos->castling & (1 << i)) && pos->castle_rook[i] == to)
                    idx = i;
        } else if (!pos->chess960 && sq_rank(from) == sq_rank(to) && (from == 4 || from == 60) &&
                   (to - from == 2 || from - to == 2))
            idx = us * 2 + (to > from ? 0 : 1);
        if (idx >= 0)
            return resolve_castle(pos, (idx & 1) ? 2 : 1, r);
    }
    MoveList list;
    gen_legal(pos, &list);
    for (int i = 0; i < list.count; i++) {
        Move m = list.moves[i];
        if (move_from(m) != from || move_to(m) != to || move_type(m) == MOVE_CASTLING)
            continue;
        if (move_type(m) == MOVE_PROMOTION) {
            if (!p->promo) {
                r->reason = ILL_PROMO_MISSING;
                return finish(r, SAN_ILLEGAL);
            }
            if (move_promo(m) != p->promo)
                continue;
        } else if (p->promo) {
            r->reason = ILL_PROMO_RANK;
            return finish(r, SAN_ILLEGAL);
        }
        r->move = m;
        return finish(r, SAN_OK);
    }
    if (p->promo == KING || p->promo == PAWN) {
        r->reason = ILL_PROMO_PIECE;
        return finish(r, SAN_ILLEGAL);
    }
    /* Not legal: say why, through the pseudo-legal geometry. */
    if (pos->board[to] && piece_color(pos->board[to]) == us) {
        r->reason = ILL_OWN_PIECE;
        return finish(r, SAN_ILLEGAL);
    }
    Bitboard reach = piece_type(pc) == PAWN ? 0 : attacks_of(piece_type(pc), us, from, pos->by_type[0]);
    if (piece_type(pc) != PAWN && (reach & bb_sq(to))) {
        if (pos->board[to] == ((us ^ 1) << 3 | KING)) {
            r->reason = ILL_CAPTURES_KING;
            return finish(r, SAN_ILLEGAL);
        }
        explain_illegal(pos, move_new(from, to, MOVE_NORMAL, 0), r);
        return finish(r, SAN_ILLEGAL);
    }
    r->reason = ILL_NO_PIECE;
    return finish(r, SAN_ILLEGAL);
}

/* Out of line on purpose (see san.h). */
static Bitboard san_unpinned(const Position *pos, Bitboard test, int to)
{
    Bitboard ok = 0;
    while (test) {
        int from = bb_pop(&test);
        if (!pos_move_unpins(pos, from, to))
            ok |= bb_sq(from);
    }
    return ok;
}

/* Legal moves of piece type pt to `to` other than from `except`. */
static Bitboard same_kind_origins(const Position *pos, int pt, int to, int except, int promo)
{
    int us = pos->side;
    Bitboard origins = 0;
    Bitboard cands = attacks_of(pt, us ^ 1, to, pos->by_type[0]) & pos->by_color[us] & pos->by_type[pt];
    if (pt == PAWN)
        return 0;
    cands &= ~bb_sq(except);
    while (cands) {
        int f = bb_pop(&cands);
        if (gen_is_legal(pos, move_new(f, to, MOVE_NORMAL, 0)))
            origins |= bb_sq(f);
    }
    (void)promo;
    return origins;
}

/* Long algebraic (with - or x and a full origin) or UCI (bare squares). */
static SanStatus parse_long(const Position *pos, const Parsed *p, SanResult *r)
{
    bool uci = !p->separator && !p->capture && !p->piece_letter;
    if (uci) {
        r->notes |= SAN_NOTE_UCI;
        r->notes &= ~(unsigned)(SAN_NOTE_PROMO_NO_EQUALS | SAN_NOTE_PROMO_LOWERCASE);
    } else
        r->notes |= SAN_NOTE_LONG_ALGEBRAIC;
    SanStatus st = resolve_from_to(pos, p, r);
    if (st == SAN_OK && !uci && move_type(r->move) != MOVE_CASTLING) {
        bool is_cap = pos->board[move_to(r->move)] || move_type(r->move) == MOVE_EN_PASSANT;
        if (p->capture && !is_cap)
            r->notes |= SAN_NOTE_CAPTURE_SURPLUS;
    }
    if (st == SAN_OK && p->piece_letter && p->piece == PAWN)
        r->notes |= SAN_NOTE_PAWN_LETTER;
    return st;
}

/* A pawn capture's origin: from the adjacent file, one rank back (R12),
 * onto an enemy man or the en passant square (*ep).  0 after a finding. */
static Bitboard pawn_capture_origin(const Position *pos, const Parsed *p, int target, bool *ep, SanResult *r)
{
    int us = pos->side, to = p->to, up = us == WHITE ? 8 : -8;
    Bitboard own_kind = pos->by_color[us] & pos->by_type[PAWN];
    if (p->from_file != sq_file(to) - 1 && p->from_file != sq_file(to) + 1) {
        finish(r, SAN_SYNTAX);
        return 0;
    }
    int from = to - up + (p->from_file - sq_file(to));
    if (from < 0 || from > 63 || !(own_kind & bb_sq(from))) {
        r->reason = ILL_NO_PIECE;
        finish(r, SAN_ILLEGAL);
        return 0;
    }
    if (!target) {
        if (to == pos->ep && pos->ep != SQ_NONE) {
            *ep = true;
        } else {
            r->reason = ILL_NO_EP;
            r->sq = from;
            finish(r, SAN_ILLEGAL);
            return 0;
        }
    }
    if (!p->capture)
        r->notes |= SAN_NOTE_CAPTURE_MISSING;
    return bb_sq(from);
}

/* A pawn push's origin: one or two squares straight back over empty
 * squares (R11).  0 with r's status set after a finding, else 0 when no
 * pawn can go there. */
static Bitboard pawn_push_origin(const Position *pos, const Parsed *p, int target, SanResult *r)
{
    int us = pos->side, to = p->to, up = us == WHITE ? 8 : -8;
    Bitboard own_kind = pos->by_color[us] & pos->by_type[PAWN];
    if (p->capture || target) {
        r->reason = target ? ILL_PAWN_CAPTURE_FORWARD : ILL_NO_PIECE;
        r->sq = to;
        finish(r, SAN_ILLEGAL);
        return 0;
    }
    int from1 = to - up, from2 = to - 2 * up;
    Bitboard cands = 0;
    bool double_ok = from2 >= 0 && from2 < 64 && sq_rank(from2) == (us == WHITE ? 1 : 6) && (own_kind & bb_sq(from2));
    if (from1 >= 0 && from1 < 64 && (own_kind & bb_sq(from1)))
        cands = bb_sq(from1);
    else if (from1 >= 0 && from1 < 64 && !pos->board[from1] && double_ok)
        cands = bb_sq(from2);
    else if (from1 >= 0 && from1 < 64 && pos->board[from1] && double_ok) {
        r->reason = ILL_NO_PIECE; /* the double step is blocked */
        r->sq = from2;
        r->sq2 = from1;
        finish(r, SAN_ILLEGAL);
        return 0;
    }
    if (p->from_file >= 0)
        r->notes |= SAN_NOTE_OVERDISAMBIGUATED;
    return cands;
}

/* A pawn move in short algebraic. */
static SanStatus resolve_pawn(const Position *pos, const Parsed *p, int target, SanResult *r)
{
    int us = pos->side, to = p->to, last = us == WHITE ? 7 : 0;
    bool ep = false;
    Bitboard cands = p->from_file >= 0 && p->from_file != sq_file(to) ? pawn_capture_origin(pos, p, target, &ep, r)
                                                                        : pawn_push_origin(pos, p, target, r);
    if (r->status != SAN_OK)
        return r->status;
    if (!cands) {
        r->reason = ILL_NO_PIECE;
        return finish(r, SAN_ILLEGAL);
    }
    if (sq_rank(to) == last) {
        if (!p->promo) {
            r->reason = ILL_PROMO_MISSING; /* R13: a bare "a8" never becomes a8=Q */
            r->sq = bb_lsb(cands);
            return finish(r, SAN_ILLEGAL);
        }
        if (p->promo == KING || p->promo == PAWN) {
            r->reason = ILL_PROMO_PIECE;
            r->sq = bb_lsb(cands);
            return finish(r, SAN_ILLEGAL);
        }
    } else if (p->promo) {
        r->reason = ILL_PROMO_RANK;
        r->sq = bb_lsb(cands);
        return finish(r, SAN_ILLEGAL);
    }
    int from = bb_lsb(cands);
    Move m = ep ? move_new(from, to, MOVE_EN_PASSANT, 0)
                : p->promo ? move_new(from, to, MOVE_PROMOTION, p->promo) : move_new(from, to, MOVE_NORMAL, 0);
    if (!gen_is_legal(pos, m)) {
        explain_illegal(pos, m, r);
        return finish(r, SAN_ILLEGAL);
    }
    if (!ep && (r->notes & SAN_NOTE_EP_SUFFIX))
        r->notes &= ~(unsigned)SAN_NOTE_EP_SUFFIX; /* keep the note only when true */
    r->move = m;
    return finish(r, SAN_OK);
}

/* R7: more of the origin given than the legal moves of that kind to the
 * square need (or a rank where a file was needed). */
static void disambiguation_notes(const Position *pos, const Parsed *p, Move m, SanResult *r)
{
    Bitboard others = same_kind_origins(pos, p->piece, p->to, move_from(m), 0);
    int from = move_from(m);
    bool need_file = false, need_rank = false;
    if (others) {
        if (!(others & file_bb(sq_file(from))))
            need_file = true;
        else if (!(others & rank_bb(sq_rank(from))))
            need_rank = true;
        else
            need_file = need_rank = true;
    }
    bool gave_file = p->from_file >= 0, gave_rank = p->from_rank >= 0;
    if ((gave_file && !need_file && !(need_rank && !gave_rank)) || (gave_rank && !need_rank)) {
        if (gave_file && gave_rank)
            r->notes |= SAN_NOTE_LONG_ALGEBRAIC; /* Ng1f3: a full origin square, not needed */
        else if (gave_rank && !gave_file && need_file && !need_rank)
            r->notes |= SAN_NOTE_UNDERDISAMBIGUATED_FILE;
        else
            r->notes |= SAN_NOTE_OVERDISAMBIGUATED;
    }
}

/* A piece move in short algebraic: the pieces of the kind that reach the
 * square by geometry, then the legal ones among them. */
static SanStatus resolve_piece(const Position *pos, const Parsed *p, int target, SanResult *r)
{
    int us = pos->side, to = p->to;
    Bitboard cands = attacks_of(p->piece, us ^ 1, to, pos->by_type[0]) & pos->by_color[us] & pos->by_type[p->piece];
    if (p->from_file >= 0)
        cands &= file_bb(p->from_file);
    if (p->from_rank >= 0)
        cands &= rank_bb(p->from_rank);
    if (!cands) {
        r->reason = ILL_NO_PIECE;
        return finish(r, SAN_ILLEGAL);
    }
    Move legal[16];
    int nlegal = 0;
    Move first_illegal = MOVE_NONE;
    while (cands) {
        int from = bb_pop(&cands);
        Move m = move_new(from, to, MOVE_NORMAL, 0);
        if (gen_is_legal(pos, m)) {
            if (nlegal < 16)
                legal[nlegal] = m;
            nlegal++;
        } else if (first_illegal == MOVE_NONE)
            first_illegal = m;
    }
    if (nlegal == 0) {
        explain_illegal(pos, first_illegal, r);
        return finish(r, SAN_ILLEGAL);
    }
    if (nlegal > 1) {
        r->ncand = nlegal < 8 ? nlegal : 8;
        memcpy(r->cand, legal, (size_t)r->ncand * sizeof(Move));
        return finish(r, SAN_AMBIGUOUS);
    }
    Move m = legal[0];
    bool is_capture = target != 0;
    if (is_capture && !p->capture)
        r->notes |= SAN_NOTE_CAPTURE_MISSING;
    if (!is_capture && p->capture)
        r->notes |= SAN_NOTE_CAPTURE_SURPLUS;
    if (p->from_file >= 0 || p->from_rank >= 0)
        disambiguation_notes(pos, p, m, r);
    r->move = m;
    return finish(r, SAN_OK);
}

SanStatus san_parse(const Position *pos, const char *tok, size_t len, SanResult *r)
{
    r->status = SAN_OK;
    r->reason = ILL_NONE;
    r->move = MOVE_NONE;
    r->notes = 0;
    r->mark = 0;
    r->nag = 0;
    r->piece = NO_TYPE;
    r->ncand = 0;
    r->to = r->sq = r->sq2 = SQ_NONE;
    uint32_t fast = san_fast(pos, tok, len);
    if (fast) {
        r->move = san_fast_move(fast);
        r->mark = san_fast_mark(fast);
        r->to = move_to(r->move);
        r->piece = piece_type(pos->board[move_from(r->move)]);
        if (move_type(r->move) == MOVE_CASTLING) /* the king's destination, as resolve_castle says */
            r->to = sq_make(move_to(r->move) > move_from(r->move) ? 6 : 2, sq_rank(move_from(r->move)));
        return SAN_OK;
    }
    size_t n = strip_suffixes(tok, len, r);
    if ((n == 2 && memcmp(tok, "--", 2) == 0) || (n == 2 && memcmp(tok, "Z0", 2) == 0) ||
        (n == 4 && (memcmp(tok, "0000", 4) == 0 || memcmp(tok, "@@@@", 4) == 0)))
        return finish(r, SAN_NULL_MOVE);
    Parsed p;
    if (n == 0 || !parse_token(tok, n, &p))
        return finish(r, SAN_SYNTAX);
    if (p.castle) {
        if (p.zeros)
            r->notes |= SAN_NOTE_CASTLE_ZEROS;
        return resolve_castle(pos, p.castle, r);
    }
    int us = pos->side;
    int to = p.to;
    r->to = to;
    r->piece = p.piece;
    if (p.promo_lower)
        r->notes |= SAN_NOTE_PROMO_LOWERCASE;
    if (p.promo && !p.promo_eq)
        r->notes |= SAN_NOTE_PROMO_NO_EQUALS;
    if (p.pawn_letter)
        r->notes |= SAN_NOTE_PAWN_LETTER;

    if (p.from_file >= 0 && p.from_rank >= 0 && (p.separator || (!p.piece_letter && !p.capture)))
        return parse_long(pos, &p, r);
    if (p.piece == PAWN && p.from_rank >= 0) {
        /* "e4xd5" without a separator but with x: long algebraic pawn capture. */
        if (p.from_file < 0)
            return finish(r, SAN_SYNTAX);
        r->notes |= SAN_NOTE_LONG_ALGEBRAIC;
        return resolve_from_to(pos, &p, r);
    }

    /* R5 / R16: what stands on the destination. */
    int target = pos->board[to];
    if (target && piece_color(target) == us) {
        r->reason = ILL_OWN_PIECE;
        r->sq = to;
        return finish(r, SAN_ILLEGAL);
    }
    if (target == ((us ^ 1) << 3 | KING)) {
        r->reason = ILL_CAPTURES_KING;
        r->sq2 = to;
        return finish(r, SAN_ILLEGAL);
    }
    return p.piece == PAWN ? resolve_pawn(pos, &p, target, r) : resolve_piece(pos, &p, target, r);
}

size_t san_format_nomark(const Position *pos, Move m, char *buf)
{
    static const char letters[] = "  NBRQK";
    char *o = buf;
    int from = move_from(m), to = move_to(m);
    if (move_type(m) == MOVE_CASTLING) {
        memcpy(o, to > from ? "O-O" : "O-O-O", to > from ? 3 : 5);
        o += to > from ? 3 : 5;
        *o = '\0';
        return (size_t)(o - buf);
    }
    int pt = piece_type(pos->board[from]);
    bool capture = pos->board[to] || move_type(m) == MOVE_EN_PASSANT;
    if (pt == PAWN) {
        if (capture) {
            *o++ = (char)('a' + sq_file(from));
            *o++ = 'x';
        }
    } else {
        *o++ = letters[pt];
        Bitboard others = pt == KING ? 0 : same_kind_origins(pos, pt, to, from, 0);
        if (others) {
            if (!(others & file_bb(sq_file(from))))
                *o++ = (char)('a' + sq_file(from));
            else if (!(others & rank_bb(sq_rank(from))))
                *o++ = (char)('1' + sq_rank(from));
            else {
                *o++ = (char)('a' + sq_file(from));
                *o++ = (char)('1' + sq_rank(from));
            }
        }
        if (capture)
            *o++ = 'x';
    }
    *o++ = (char)('a' + sq_file(to));
    *o++ = (char)('1' + sq_rank(to));
    if (move_type(m) == MOVE_PROMOTION) {
        *o++ = '=';
        *o++ = letters[move_promo(m)];
    }
    *o = '\0';
    return (size_t)(o - buf);
}

size_t san_format(const Position *pos, Move m, char *buf)
{
    size_t n = san_format_nomark(pos, m, buf);
    Position next;
    pos_make(pos, m, &next);
    if (next.checkers) {
        buf[n++] = gen_has_legal_move(&next) ? '+' : '#';
        buf[n] = '\0';
    }
    return n;
}

size_t move_to_uci(const Position *pos, Move m, char *buf)
{
    int from = move_from(m), to = move_to(m);
    if (move_type(m) == MOVE_CASTLING && !pos->chess960)
        to = sq_make(to > from ? 6 : 2, sq_rank(from));
    buf[0] = (char)('a' + sq_file(from));
    buf[1] = (char)('1' + sq_rank(from));
    buf[2] = (char)('a' + sq_file(to));
    buf[3] = (char)('1' + sq_rank(to));
    size_t n = 4;
    if (move_type(m) == MOVE_PROMOTION)
        buf[n++] = "nbrq"[move_promo(m) - KNIGHT];
    buf[n] = '\0';
    return n;
}

const char *san_illegal_text(SanIllegal r)
{
    switch (r) {
    case ILL_NONE: return "legal";
    case ILL_NO_PIECE: return "no such piece can reach the square";
    case ILL_OWN_PIECE: return "the square is occupied by a piece of the mover's own colour";
    case ILL_CAPTURES_KING: return "a king is never captured";
    case ILL_PINNED: return "the piece is pinned to its king";
    case ILL_LEAVES_CHECK: return "the move does not answer the check";
    case ILL_KING_INTO_CHECK: return "the king would stand in check";
    case ILL_EP_DISCOVERS: return "the en passant capture would expose the king to check";
    case ILL_CASTLE_NO_RIGHT: return "the castling right is lost";
    case ILL_CASTLE_BLOCKED: return "a square between king and rook is occupied";
    case ILL_CASTLE_IN_CHECK: return "the king is in check";
    case ILL_CASTLE_ATTACKED: return "the king would cross or land on an attacked square";
    case ILL_NO_EP: return "there is nothing to capture there and no en passant is available";
    case ILL_PROMO_MISSING: return "a pawn reaching the last rank must promote (=Q, =R, =B or =N)";
    case ILL_PROMO_PIECE: return "a pawn promotes only to a queen, rook, bishop or knight";
    case ILL_PROMO_RANK: return "a promotion piece is given but the pawn does not reach the last rank";
    case ILL_PAWN_CAPTURE_FORWARD: return "a pawn cannot move straight onto an occupied square";
    }
    return "illegal";
}
