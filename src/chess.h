/* chess.h - the chess core's types and tiny inlines (pure C, no I/O; the core's
 * one allocation is rules.c's repetition table, through mem.h). */
#ifndef PGNCHECK_CHESS_H
#define PGNCHECK_CHESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define CHESS_NODISCARD __attribute__((warn_unused_result))
#define CHESS_HOT_INLINE static inline __attribute__((always_inline))
#define CHESS_NOINLINE __attribute__((noinline))
#else
#define CHESS_NODISCARD
#define CHESS_HOT_INLINE static inline
#define CHESS_NOINLINE
#endif

/* Debug builds (-DPGNCHECK_DEBUG: make check's sanitizer build) check a
 * shortcut against the longer way it replaces; other builds, nothing. */
#ifdef PGNCHECK_DEBUG
#include <assert.h>
#define CHESS_DEBUG_ASSERT(x) assert(x)
#else
#define CHESS_DEBUG_ASSERT(x) ((void)0)
#endif

typedef uint64_t Bitboard;

/* A move packs from (bits 0-5), to (6-11), type (12-13), promotion piece
 * (14-15: knight, bishop, rook, queen).  A castling move is encoded as
 * "king takes own rook" (from = king square, to = rook square), which is
 * unambiguous in Chess960 as well. */
typedef uint16_t Move;

enum { WHITE = 0, BLACK = 1 };
enum { NO_TYPE = 0, PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6 };
enum { MOVE_NORMAL = 0, MOVE_PROMOTION = 1, MOVE_EN_PASSANT = 2, MOVE_CASTLING = 3 };
/* Castling right bits and their index in Position.castle_rook. */
enum { CASTLE_WK = 1, CASTLE_WQ = 2, CASTLE_BK = 4, CASTLE_BQ = 8 };

#define SQ_NONE 64
#define MOVE_NONE ((Move)0)
#define MAX_MOVES 256

static inline int sq_file(int sq) { return sq & 7; }
static inline int sq_rank(int sq) { return sq >> 3; }
static inline int sq_make(int file, int rank) { return rank * 8 + file; }

static inline Move move_new(int from, int to, int type, int promo)
{
    return (Move)(from | (to << 6) | (type << 12) | ((promo ? promo - KNIGHT : 0) << 14));
}
static inline int move_from(Move m) { return m & 63; }
static inline int move_to(Move m) { return (m >> 6) & 63; }
static inline int move_type(Move m) { return (m >> 12) & 3; }
static inline int move_promo(Move m) { return ((m >> 14) & 3) + KNIGHT; }

/* Pieces are coded (colour << 3) | type; 0 is an empty square. */
static inline int piece_color(int pc) { return pc >> 3; }
static inline int piece_type(int pc) { return pc & 7; }

typedef struct Position {
    Bitboard by_color[2];
    Bitboard by_type[7];      /* [0] = all pieces */
    uint8_t board[64];
    uint8_t side;             /* WHITE or BLACK to move */
    uint8_t ep;               /* en passant square as recorded, SQ_NONE if none */
    uint8_t castling;         /* CASTLE_* bits */
    uint8_t castle_rook[4];   /* rook square of each right (index: WK, WQ, BK, BQ) */
    uint8_t king_sq[2];
    bool chess960;
    bool ep_legal;            /* an en passant capture is actually legal (R26) */
    uint32_t halfmove;
    uint32_t fullmove;
    uint64_t key;             /* Zobrist key: the position's identity (R26) */
    Bitboard checkers;        /* enemy pieces giving check to the side to move */
    /* The king's empty-board lines (rook's and bishop's, each whole) that
     * hold an enemy slider moving along them: only a piece on them can be
     * pinned.  Made with the checks (pos_move_end), where the same tests
     * are needed, so the next move's pin test is one load. */
    Bitboard pin_lines;
} Position;

typedef struct MoveList {
    int count;
    Move moves[MAX_MOVES];
} MoveList;

/* FEN parsing.  Errors are specific so a diagnostic can say what is wrong. */
typedef enum FenError {
    FEN_OK = 0,
    FEN_ERR_FIELDS,          /* not 4 to 6 space-separated fields */
    FEN_ERR_RANKS,           /* placement does not have 8 ranks */
    FEN_ERR_RANK_LENGTH,     /* a rank does not describe exactly 8 squares */
    FEN_ERR_PIECE_CHAR,      /* a character that is not a piece or digit 1-8 */
    FEN_ERR_SIDE,            /* side to move not 'w' or 'b' */
    FEN_ERR_CASTLING_SYNTAX, /* castling field malformed */
    FEN_ERR_EP_SYNTAX,       /* en passant field not '-' or a square */
    FEN_ERR_COUNTER_SYNTAX,  /* a counter that is not a non-negative integer (R35) */
    FEN_ERR_KING_COUNT,      /* R30: not exactly one king per side */
    FEN_ERR_KINGS_ADJACENT,  /* R30: kings on adjacent squares */
    FEN_ERR_PAWN_RANK,       /* R31: a pawn on rank 1 or 8 */
    FEN_ERR_TOO_MANY,        /* R3: more than 16 men or 8 pawns of one colour */
    FEN_ERR_OPPONENT_IN_CHECK, /* R32: the side not to move is in check */
    FEN_ERR_CASTLING_RIGHTS, /* R33: a right without king and rook in place */
    FEN_ERR_EP_SQUARE,       /* R34: impossible en passant square */
    FEN_ERR_PROMOTED,        /* R3: more promoted pieces than pawns missing from eight */
    FEN_ERR_COUNT
} FenError;

enum {
    FEN_WARN_NO_COUNTERS = 1,    /* halfmove and fullmove fields both missing (R35: warning) */
    FEN_WARN_FULLMOVE_ZERO = 2,  /* fullmove number 0 (R35: warning) */
    FEN_WARN_HALFMOVE_HIGH = 4,  /* halfmove clock larger than possible for the fullmove number */
    FEN_WARN_SHREDDER = 8,       /* Shredder-FEN castling letters in a standard game */
    FEN_WARN_NO_FULLMOVE = 16,   /* the fullmove field alone missing (R35: warning) */
};

typedef struct FenInfo {
    unsigned warnings;       /* FEN_WARN_* bits */
    int column;              /* 0-based byte offset in the FEN of the defect */
    /* FEN_ERR_TOO_MANY and FEN_ERR_PROMOTED: the side whose material no
     * game can reach, its men by type ([0]: all of them) and its bishops
     * on light and on dark squares, for a message that gives the counts. */
    uint8_t side;
    uint8_t men[7];
    uint8_t bishops[2];
    /* FEN_ERR_COUNTER_SYNTAX: 1 for the halfmove clock, 2 for the
     * fullmove number (column: where it starts) */
    uint8_t counter;
} FenInfo;

/* Pieces of one side a promotion must have made (R3): queens beyond one,
 * rooks or knights beyond two, bishops beyond one on a square colour. */
static inline int fen_promoted(const FenInfo *info)
{
    int q = info->men[QUEEN] - 1, r = info->men[ROOK] - 2, n = info->men[KNIGHT] - 2;
    int bl = info->bishops[0] - 1, bd = info->bishops[1] - 1;
    return (q > 0 ? q : 0) + (r > 0 ? r : 0) + (n > 0 ? n : 0) + (bl > 0 ? bl : 0) + (bd > 0 ? bd : 0);
}

/* One-time initialisation of the core's tables (bitboard.c's attack
 * tables, position.c's Zobrist keys; defined in position.c).  Must be
 * called before any other function of the core (it is idempotent but
 * not thread-safe). */
void chess_init(void);

#endif
