/* san.h - Standard Algebraic Notation: parse a token against a position, format a move. */
#ifndef PGNCHECK_SAN_H
#define PGNCHECK_SAN_H

#include "chess.h"

/* Outcome of resolving a move token. */
typedef enum SanStatus {
    SAN_OK = 0,        /* names exactly one legal move (perhaps with notes) */
    SAN_SYNTAX,        /* not a move token at all */
    SAN_NULL_MOVE,     /* "--", "Z0", "0000", "@@@@" (R4) */
    SAN_AMBIGUOUS,     /* several legal moves match: see cand[] */
    SAN_ILLEGAL,       /* no legal move matches: see reason */
} SanStatus;

/* Why no legal move matched (SAN_ILLEGAL). */
typedef enum SanIllegal {
    ILL_NONE = 0,
    ILL_NO_PIECE,         /* no piece of that kind can reach the square (R6-R11) */
    ILL_OWN_PIECE,        /* the destination holds one of the mover's pieces (R5) */
    ILL_CAPTURES_KING,    /* the move would capture the king (R16) */
    ILL_PINNED,           /* the only piece that could move is pinned (R15): sq, pinner */
    ILL_LEAVES_CHECK,     /* does not answer the check (R17): checker */
    ILL_KING_INTO_CHECK,  /* the king would stand on an attacked square (R15): attacker */
    ILL_EP_DISCOVERS,     /* en passant capture would uncover a check (R15) */
    ILL_CASTLE_NO_RIGHT,  /* castling right lost or never there (R14) */
    ILL_CASTLE_BLOCKED,   /* a square between king and rook is occupied (R14): blocker */
    ILL_CASTLE_IN_CHECK,  /* castling out of check (R14) */
    ILL_CASTLE_ATTACKED,  /* the king crosses or lands on an attacked square (R14): square */
    ILL_NO_EP,            /* a pawn capture to an empty square with no en passant available (R12) */
    ILL_PROMO_MISSING,    /* a pawn reaching the last rank without a promotion piece (R13) */
    ILL_PROMO_PIECE,      /* promotion to a king or pawn (R13) */
    ILL_PROMO_RANK,       /* promotion piece given for a move that does not reach the last rank */
    ILL_PAWN_CAPTURE_FORWARD, /* pawn "capture" straight ahead or a push onto a piece (R11) */
} SanIllegal;

/* Notation deviations of a token that still names exactly one legal move.
 * Each is its own diagnostic code in the game layer. */
enum {
    SAN_NOTE_CASTLE_ZEROS      = 1u << 0,  /* 0-0 / 0-0-0 */
    SAN_NOTE_PROMO_NO_EQUALS   = 1u << 1,  /* e8Q */
    SAN_NOTE_PROMO_LOWERCASE   = 1u << 2,  /* e8=q */
    SAN_NOTE_CAPTURE_MISSING   = 1u << 3,  /* Nf3 for a capture */
    SAN_NOTE_CAPTURE_SURPLUS   = 1u << 4,  /* Nxf3 for a non-capture */
    SAN_NOTE_OVERDISAMBIGUATED = 1u << 5,  /* Ngf3 where Nf3 is unique */
    SAN_NOTE_LONG_ALGEBRAIC    = 1u << 6,  /* Ng1-f3, e2-e4, Ng1f3 */
    SAN_NOTE_UCI               = 1u << 7,  /* e2e4, e1g1, e7e8q */
    SAN_NOTE_SUFFIX            = 1u << 8,  /* !, ?, !!, ??, !?, ?! appended */
    SAN_NOTE_EP_SUFFIX         = 1u << 9,  /* "e.p." appended */
    SAN_NOTE_PAWN_LETTER       = 1u << 10, /* Pe4 */
    SAN_NOTE_UNDERDISAMBIGUATED_FILE = 1u << 11, /* rank given where file suffices */
};

typedef struct SanResult {
    SanStatus status;
    SanIllegal reason;
    Move move;            /* the move (SAN_OK) */
    unsigned notes;       /* SAN_NOTE_* bits */
    int mark;             /* suffix written: 0 none, 1 '+', 2 '#', 3 '++' */
    int nag;              /* NAG value of a suffix annotation (1-6), 0 if none */
    int piece;            /* piece type the token names (KING for castling) */
    int to;               /* destination square named, SQ_NONE if none */
    int sq;               /* ILLEGAL: square of the piece concerned, or SQ_NONE */
    int sq2;              /* ILLEGAL: pinner / checker / attacker / blocker square */
    int ncand;            /* AMBIGUOUS: the matching legal moves */
    Move cand[8];
} SanResult;

/* Those of the origin squares `test` (pieces of the side to move on its
 * king's lines) whose move to `to` uncovers no check (san.c).  Out of
 * line: the slider attacks need registers that san_fast would otherwise
 * save and restore on every call. */
Bitboard san_unpinned(const Position *pos, Bitboard test, int to);

/* Is the move m (pseudo-legal by construction) legal?  The cheap form of
 * pos_is_legal for a move out of check by a piece other than the king. */
CHESS_HOT_INLINE bool san_quick_legal(const Position *pos, Move m)
{
    int from = move_from(m);
    if (!pos->checkers && move_type(m) == MOVE_NORMAL && from != pos->king_sq[pos->side]) {
        Bitboard f = bb_sq(from);
        return !pos_pin_suspects(pos, f) || san_unpinned(pos, f, move_to(m));
    }
    return pos_is_legal(pos, m);
}

/* The legal ones among the origin squares cands of a move (not a pawn's)
 * to `to`: out of check only the pieces on the king's lines need a pin test. */
CHESS_HOT_INLINE Bitboard san_legal_from(const Position *pos, Bitboard cands, int to, int pt)
{
    Bitboard legal = 0;
    if (pt == KING) /* one king: legal when its square is not attacked */
        return pos_square_attacked(pos, to, pos->side ^ 1, pos->by_type[0] ^ cands) ? 0 : cands;
    if (!pos->checkers) {
        Bitboard test = pos_pin_suspects(pos, cands);
        legal = cands & ~test;
        return test ? legal | san_unpinned(pos, test, to) : legal;
    }
    while (cands) {
        int from = bb_pop(&cands);
        if (pos_is_legal(pos, move_new(from, to, MOVE_NORMAL, 0)))
            legal |= bb_sq(from);
    }
    return legal;
}

/* The two parts of san_fast's result. */
static inline Move san_fast_move(uint32_t f) { return (Move)f; }
static inline int san_fast_mark(uint32_t f) { return (int)(f >> 16); }

/* The fast path of san_parse for the common, canonically written shapes
 * (e4, exd5, Nf3, Nxe5, Nbd2, R1xe2, O-O, O-O-O, each with + or #),
 * resolved straight from attack sets; inline because it runs once per
 * move of every game.  The result packs the move and its mark (0, 1 for
 * '+', 2 for '#') as san_fast_move() / san_fast_mark() read them, in a
 * register rather than through pointers so the caller's loop keeps it
 * there.  It is 0 (no move is 0: its from and to squares would be the
 * same) for anything but exactly one legal move — a notation deviation,
 * an illegal or ambiguous move, a promotion — which san_parse then
 * handles and diagnoses. */
static inline uint32_t san_fast(const Position *pos, const char *s, size_t n)
{
    if (n < 2)
        return 0;
    uint32_t mark = 0;
    if (s[n - 1] == '+' || s[n - 1] == '#') {
        mark = s[n - 1] == '+' ? 1u << 16 : 2u << 16;
        n--;
    }
    int us = pos->side;
    unsigned f0 = (unsigned)(unsigned char)s[0] - 'a';
    Move m;
    if (f0 < 8) {
        /* Pawn moves; promotions go the general way. */
        int up = 8 - 16 * us;
        int to, from, pawn = us << 3 | PAWN;
        unsigned r8;
        if (n == 2) {
            r8 = (unsigned)(unsigned char)s[1] - '1';
            if (r8 - 1 >= 6)
                return 0;
            to = (int)(r8 * 8 + f0);
            if (pos->board[to])
                return 0;
            from = to - up;
            if (pos->board[from] != pawn) {
                if (pos->board[from] || r8 != (us == WHITE ? 3u : 4u) || pos->board[from - up] != pawn)
                    return 0;
                from -= up;
            }
            m = move_new(from, to, MOVE_NORMAL, 0);
        } else if (n == 4 && s[1] == 'x') {
            unsigned f2 = (unsigned)(unsigned char)s[2] - 'a';
            r8 = (unsigned)(unsigned char)s[3] - '1';
            if (f2 >= 8 || r8 - 1 >= 6 || (f0 != f2 + 1 && f2 != f0 + 1))
                return 0;
            to = (int)(r8 * 8 + f2);
            from = to - up + (int)f0 - (int)f2;
            if (pos->board[from] != pawn)
                return 0;
            int target = pos->board[to];
            if (target) {
                if (piece_color(target) == us || piece_type(target) == KING)
                    return 0;
                m = move_new(from, to, MOVE_NORMAL, 0);
            } else if (to == pos->ep)
                m = move_new(from, to, MOVE_EN_PASSANT, 0);
            else
                return 0;
        } else
            return 0;
        if (!san_quick_legal(pos, m))
            return 0;
        return m | mark;
    }
    /* Piece letters B to R: a table, cheaper than a switch's jump. */
    static const uint8_t letter_type[17] = {
        ['B' - 'B'] = BISHOP, ['K' - 'B'] = KING, ['N' - 'B'] = KNIGHT, ['Q' - 'B'] = QUEEN, ['R' - 'B'] = ROOK,
    };
    unsigned li = (unsigned)(unsigned char)s[0] - 'B';
    int pt = li < 17 ? letter_type[li] : 0;
    if (!pt) {
        if (s[0] != 'O')
            return 0;
        /* O-O and O-O-O: the king takes its own rook (chess.h). */
        if ((n == 3 && s[1] == '-' && s[2] == 'O') || (n == 5 && s[1] == '-' && s[2] == 'O' && s[3] == '-' && s[4] == 'O')) {
            int idx = us * 2 + (n == 3 ? 0 : 1);
            if (!(pos->castling & (1 << idx)))
                return 0;
            m = move_new(pos->king_sq[us], pos->castle_rook[idx], MOVE_CASTLING, 0);
            if (!pos_is_legal(pos, m))
                return 0;
            return m | mark;
        }
        return 0;
    }
    /* Piece moves: the destination is the last two characters, an 'x'
     * before it when capturing, and one disambiguation character before. */
    size_t k = n;
    if (k < 3)
        return 0;
    unsigned tf = (unsigned)(unsigned char)s[k - 2] - 'a', tr = (unsigned)(unsigned char)s[k - 1] - '1';
    if (tf >= 8 || tr >= 8)
        return 0;
    k -= 2;
    bool capture = s[k - 1] == 'x';
    if (capture)
        k--;
    if (k > 2)
        return 0;
    int to = (int)(tr * 8 + tf);
    int target = pos->board[to];
    if ((target != 0) != capture)
        return 0;
    if (target && (piece_color(target) == us || piece_type(target) == KING))
        return 0;
    Bitboard mine = pos->by_color[us] & pos->by_type[pt], cands;
    if (pt == KNIGHT)
        cands = bb_knight_attacks(to) & mine;
    else if (pt == KING)
        cands = bb_king_attacks(to) & mine;
    else if (pt == BISHOP)
        cands = bb_bishop_attacks(to, pos->by_type[0]) & mine;
    else if (pt == ROOK)
        cands = bb_rook_attacks(to, pos->by_type[0]) & mine;
    else {
        /* Queens: the ones on the destination's lines (mostly one) whose
         * path is clear, cheaper than the attack sets of both kinds. */
        Bitboard on = (bb_rook_empty(to) | bb_bishop_empty(to)) & mine;
        cands = 0;
        while (on) {
            int from = bb_pop(&on);
            if (bb_path_clear(from, to, pos->by_type[0]))
                cands |= bb_sq(from);
        }
    }
    if (!cands)
        return 0;
    Bitboard legal = san_legal_from(pos, cands, to, pt);
    if (!legal)
        return 0;
    Bitboard pick = legal;
    if (k == 2) {
        /* Nbd2 / R1e2: only the canonical, needed disambiguation (PGN 8.2.3.4:
         * the file when it tells the pieces apart, else the rank). */
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
    return move_new(bb_lsb(pick), to, MOVE_NORMAL, 0) | mark;
}

/* Resolves the token (len bytes, no NUL needed) in pos.  Returns r->status. */
SanStatus san_parse(const Position *pos, const char *tok, size_t len, SanResult *r);
/* Canonical SAN of the legal move m, with '+' or '#'; returns length
 * (buf needs 12 bytes).  Chess960 castling is O-O / O-O-O. */
size_t san_format(const Position *pos, Move m, char *buf);
/* Canonical SAN without the check mark (cheaper: no make). */
size_t san_format_nomark(const Position *pos, Move m, char *buf);
/* UCI text of a move (e2e4, e7e8q; castling as king to its destination
 * in standard chess, king takes rook in Chess960). buf needs 6 bytes. */
size_t move_to_uci(const Position *pos, Move m, char *buf);
const char *san_illegal_text(SanIllegal r);

#endif
