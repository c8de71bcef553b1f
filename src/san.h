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

/* The legal ones among the origin squares cands of a move (not a pawn's)
 * to `to`: only the pieces on the king's lines need a pin test.  In check
 * (pos_is_legal's tests, once for all the candidates: they share `to`),
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

/* The two parts of san_fast's result. */
static inline Move san_fast_move(uint32_t f) { return (Move)f; }
static inline int san_fast_mark(uint32_t f) { return (int)(f >> 16); }

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
Move san_fast_pawn(const Position *pos, const char *s, size_t n);
Move san_fast_piece(const Position *pos, const char *s, size_t n);

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
typedef uint32_t SanPlayFn(Position *pos, const char *s, size_t n);
static inline uint32_t san_played(uint32_t mark) { return mark | 4; }
static inline int san_played_mark(uint32_t f) { return (int)(f & 3); }
extern SanPlayFn *const san_play_of[256];

static inline uint32_t san_play(Position *pos, const char *s, size_t n)
{
    SanPlayFn *play = san_play_of[(unsigned char)s[0]];
    return play ? play(pos, s, n) : 0;
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
