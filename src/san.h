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

/* A move and its mark (0, 1 for '+', 2 for '#') packed in one word, the
 * move in the low 16 bits: how a resolved move travels in a register. */
static inline Move san_fast_move(uint32_t f) { return (Move)f; }
static inline int san_fast_mark(uint32_t f) { return (int)(f >> 16); }

/* The usual move, resolved and made at once: when the result is not 0,
 * *pos is the position after the move (as pos_do makes it) and
 * san_played_mark(result) its mark (0, 1 for '+', 2 for '#'); else *pos
 * is unchanged and the token is for san_parse, which takes and diagnoses
 * every form.  Only the common, canonically written shapes (e4, exd5, Nf3,
 * Nxe5, Nbd2, R1xe2, O-O, O-O-O, each with + or #) are taken here,
 * straight from attack sets, with the make given the piece and capture
 * the parse found.  The token must be NUL-terminated (s[0] is read even
 * when n is 0). */
typedef uint32_t SanPlayFn(Position *pos, const char *s, size_t n);
/* The one of san.c's functions for a token's first character (NULL: none
 * of the fast shapes starts so; see san_play). */
extern SanPlayFn *const san_play_of[256];
/* Inline, so that the replay's loop calls the function for the token
 * straight, not through a function that only chooses it (a call and a
 * jump a ply). */
static inline uint32_t san_play(Position *pos, const char *s, size_t n)
{
    SanPlayFn *play = san_play_of[(unsigned char)s[0]];
    return play ? play(pos, s, n) : 0;
}
static inline uint32_t san_played(uint32_t mark) { return mark | 4; }
static inline int san_played_mark(uint32_t f) { return (int)(f & 3); }

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
