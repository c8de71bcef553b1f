/* chess.h - core types and API of the pgncheck rules engine (pure C: no I/O, no allocation). */
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

/* One-time initialisation of attack tables and Zobrist keys.  Must be
 * called before any other function (it is idempotent but not thread-safe). */
void chess_init(void);

const char *fen_error_text(FenError e);
CHESS_NODISCARD FenError pos_from_fen(Position *pos, const char *fen, size_t len,
                                      bool chess960, FenInfo *info);
/* R3 for a game's start position (pos from pos_from_fen): FEN_ERR_PROMOTED
 * with the side's counts in *info when it has more promoted pieces than
 * pawns missing from eight (fen_promoted), else FEN_OK.  Kept apart from
 * pos_from_fen, which takes any position the rules can be played from:
 * public perft vectors hold Chess960 back ranks with both bishops on one
 * colour. */
CHESS_NODISCARD FenError pos_check_material(const Position *pos, FenInfo *info);
void pos_startpos(Position *pos);
/* A position from its board (a piece code a square, 0 empty), side to
 * move and en passant square (SQ_NONE, or kept only when the capture is
 * legal), without castling rights, clocks 0 and 1: for a caller that
 * stored the board itself (unwin.c) and knows it legal. */
void pos_from_board(Position *pos, const uint8_t board[64], int side, int ep);
/* Writes a NUL-terminated FEN (at most 100 bytes) and returns its length.
 * Castling is written as KQkq when unambiguous, Shredder letters otherwise. */
size_t pos_to_fen(const Position *pos, char *buf);

/* Copy-make: *out is the position after the legal move m. */
void pos_make(const Position *pos, Move m, Position *out);
/* The same in place: *pos becomes the position after the legal move m. */
void pos_do(Position *pos, Move m);
/* pos_do for a legal castling move m. */
void pos_do_castle(Position *pos, Move m);
/* Full recomputation check of every derived field (debug builds and tests). */
bool pos_is_consistent(const Position *pos);
/* Every field of a and b the same (the padding aside). */
bool pos_equal(const Position *a, const Position *b);

Bitboard pos_attackers_to(const Position *pos, int sq, Bitboard occupied);
bool pos_square_attacked(const Position *pos, int sq, int by_color, Bitboard occupied);
/* Pieces of the side to move pinned to its king (computed on demand: most
 * positions of a game never need it). */
Bitboard pos_pinned(const Position *pos);
/* pos_move_unpins() (below the attack tables): the per-move form of pos_pinned. */
static inline bool pos_in_check(const Position *pos) { return pos->checkers != 0; }

/* Legal move generation (movegen.c). */
void gen_legal(const Position *pos, MoveList *list);
bool pos_has_legal_move(const Position *pos);
bool pos_is_legal(const Position *pos, Move m);  /* m pseudo-legal by construction */
/* The castling of right idx (CASTLE_* index) for the side to move, which
 * has the right and is not in check: legal?  (pos_is_legal's own test,
 * for a caller that knows the right and the rook's square already.) */
bool pos_castle_ok(const Position *pos, int idx);
bool pos_move_is_legal(const Position *pos, Move m); /* any m: legal here? */
uint64_t perft(const Position *pos, int depth);
bool pos_gives_check(const Position *pos, Move m);

/* Rules queries (rules.c). */
bool pos_is_checkmate(const Position *pos);
bool pos_is_stalemate(const Position *pos);
/* R29 / FIDE 6.9: can this colour checkmate by any series of legal moves
 * (material helpmate rule: the opponent may cooperate). */
bool pos_can_mate(const Position *pos, int color);
/* R22: dead position by material (neither side can ever mate). */
bool pos_insufficient_material(const Position *pos);

/* Attack tables (bitboard.c), filled by chess_init(); the lookups are
 * inline because they are the innermost loop of everything.  Sliders use
 * hyperbola quintessence (the occupancy of one line, a subtraction each
 * way) and a 512-byte rank table: measured faster here than magic
 * bitboards, whose 800 KB of tables miss the cache while the reader
 * streams the input through it. */
extern Bitboard bb_pawn_att[2][64];
extern Bitboard bb_knight_att[64];
extern Bitboard bb_king_att[64];
extern Bitboard bb_between_tab[64][64];
extern Bitboard bb_line_tab[64][64];
extern Bitboard bb_file_mask[64];     /* the square's file, without the square */
extern Bitboard bb_diag_mask[64];     /* its a1-h8 diagonal, without the square */
extern Bitboard bb_anti_mask[64];     /* its h1-a8 diagonal, without the square */
extern uint8_t bb_rank_att[8][64];    /* rank attacks by file and inner occupancy */
extern Bitboard bb_rook_empty_tab[64];   /* rook attacks on an empty board */
extern Bitboard bb_bishop_empty_tab[64]; /* bishop attacks on an empty board */
extern Bitboard bb_queen_empty_tab[64];  /* both: the square's eight rays */
/* The squares a piece of each type (KNIGHT..KING) on an empty board
 * reaches from a square: a piece there reaches it on a board when no
 * piece stands between (bb_between: 0 for a leaper's squares). */
extern Bitboard bb_reach_tab[8][64];

static inline Bitboard bb_pawn_attacks(int color, int sq) { return bb_pawn_att[color][sq]; }
static inline Bitboard bb_knight_attacks(int sq) { return bb_knight_att[sq]; }
static inline Bitboard bb_king_attacks(int sq) { return bb_king_att[sq]; }
/* Squares strictly between a and b if they share a line, else 0. */
static inline Bitboard bb_between(int a, int b) { return bb_between_tab[a][b]; }
/* The whole line through a and b if they share one, else 0. */
static inline Bitboard bb_line(int a, int b) { return bb_line_tab[a][b]; }

/* Slider attacks along one line (mask) from sq, given the occupancy. */
CHESS_HOT_INLINE Bitboard bb_hq(Bitboard occ, Bitboard mask, int sq)
{
    Bitboard s = (Bitboard)1 << sq;
    Bitboard o = occ & mask;
    Bitboard fwd = o - 2 * s;
    Bitboard rev = __builtin_bswap64(__builtin_bswap64(o) - 2 * __builtin_bswap64(s));
    return (fwd ^ rev) & mask;
}
CHESS_HOT_INLINE Bitboard bb_bishop_attacks(int sq, Bitboard occ)
{
    return bb_hq(occ, bb_diag_mask[sq], sq) | bb_hq(occ, bb_anti_mask[sq], sq);
}
CHESS_HOT_INLINE Bitboard bb_rook_attacks(int sq, Bitboard occ)
{
    int r8 = sq & 56;
    return bb_hq(occ, bb_file_mask[sq], sq) | ((Bitboard)bb_rank_att[sq & 7][(occ >> (r8 + 1)) & 63] << r8);
}
/* For squares a and b on one line (rank, file or diagonal): are the
 * squares strictly between them empty in occ?  Arithmetic on the line
 * through b, not the 32 KB between table (cache misses while the reader
 * streams its input through the cache). */
static inline bool bb_path_clear(int a, int b, Bitboard occ)
{
    Bitboard x = (Bitboard)1 << a, y = (Bitboard)1 << b;
    Bitboard line = !((a ^ b) & 7)    ? bb_file_mask[b]
                  : !((a ^ b) & 56)   ? (Bitboard)0xFF << (b & 56)
                  : bb_diag_mask[b] & x ? bb_diag_mask[b]
                                        : bb_anti_mask[b];
    Bitboard span = x < y ? y - x : x - y; /* from the lower square up to below the higher */
    return !(span & line & occ & ~(x | y));
}

/* Empty-board slider attacks. */
static inline Bitboard bb_bishop_empty(int sq) { return bb_bishop_empty_tab[sq]; }
static inline Bitboard bb_rook_empty(int sq) { return bb_rook_empty_tab[sq]; }
static inline Bitboard bb_queen_empty(int sq) { return bb_queen_empty_tab[sq]; }

/* Would moving the piece on `from` (not the king, not en passant) to `to`
 * leave the king of the side to move attacked by an enemy slider?  For a
 * position out of check, or an evasion that already blocks or captures the
 * single checker: the cheap per-move form of pos_pinned.  Only a piece on
 * one of the king's lines can uncover it, and then the slider attacks of
 * that kind are taken from the king with the move made (a piece landing
 * on the line still shields; capturing the slider removes it). */
CHESS_HOT_INLINE bool pos_move_unpins(const Position *pos, int from, int to)
{
    int us = pos->side, ksq = pos->king_sq[us];
    Bitboard f = (Bitboard)1 << from, t = (Bitboard)1 << to;
    Bitboard them = pos->by_color[us ^ 1] & ~t;
    Bitboard occ = (pos->by_type[0] ^ f) | t;
    Bitboard rays = bb_rook_empty(ksq);
    if (rays & f) {
        Bitboard snipers = rays & them & (pos->by_type[ROOK] | pos->by_type[QUEEN]);
        return snipers && (bb_rook_attacks(ksq, occ) & snipers);
    }
    rays = bb_bishop_empty(ksq);
    if (rays & f) {
        Bitboard snipers = rays & them & (pos->by_type[BISHOP] | pos->by_type[QUEEN]);
        return snipers && (bb_bishop_attacks(ksq, occ) & snipers);
    }
    return false;
}

/* Those of the pieces (of the side to move, not its king) whose move
 * might uncover their king (not en passant): the ones on its empty-board
 * lines that hold an enemy slider moving along them (pos->pin_lines).
 * Pieces elsewhere need no pin test, which is most of them. */
CHESS_HOT_INLINE Bitboard pos_pin_suspects(const Position *pos, Bitboard pieces)
{
    return pos->pin_lines & pieces;
}

/* The pin_lines of a king on ksq whose enemy's sliders are diag
 * (bishops, queens) and orth (rooks, queens).  Without
 * branches: whether an enemy slider stands on the king's lines is as good
 * as random to the branch predictor, and a mispredicted branch costs more
 * than these few operations (-j1 about 6% faster, measured, when the pin
 * test computed this on every move).  Each line set is multiplied by its
 * test's 0 or 1: two instructions fewer than a mask made of the test
 * (callgrind on 20 MB of games: 579.9 M -> 577.3 M in all), and the
 * compiler makes branches of the plain conditional (?:). */
CHESS_HOT_INLINE Bitboard pos_pin_lines_of(int ksq, Bitboard diag, Bitboard orth)
{
    Bitboard be = bb_bishop_empty(ksq), re = bb_rook_empty(ksq);
    return be * ((be & diag) != 0) | re * ((re & orth) != 0);
}

/* The slider part of pos_square_attacked (diag, orth: the enemy's
 * sliders on the square's empty-board lines), out of line: it needs more
 * registers than the usual early answers, which then save none. */
bool pos_slider_attacks(int sq, Bitboard diag, Bitboard orth, Bitboard occ);

/* pos_square_attacked, inline for the king moves of the SAN fast path. */
CHESS_HOT_INLINE bool pos_square_attacked_inline(const Position *pos, int sq, int by, Bitboard occ)
{
    Bitboard them = pos->by_color[by];
    if (((bb_pawn_attacks(by ^ 1, sq) & pos->by_type[PAWN]) | (bb_knight_attacks(sq) & pos->by_type[KNIGHT]) |
         (bb_king_attacks(sq) & pos->by_type[KING])) & them)
        return true;
    /* Sliders: the attack sets are computed only for a line that holds one. */
    Bitboard diag = them & (pos->by_type[BISHOP] | pos->by_type[QUEEN]) & bb_bishop_empty(sq);
    Bitboard orth = them & (pos->by_type[ROOK] | pos->by_type[QUEEN]) & bb_rook_empty(sq);
    return (diag | orth) && pos_slider_attacks(sq, diag, orth, occ);
}

static inline int bb_lsb(Bitboard b) { return __builtin_ctzll(b); }
static inline int bb_count(Bitboard b) { return __builtin_popcountll(b); }
static inline int bb_pop(Bitboard *b) { int s = __builtin_ctzll(*b); *b &= *b - 1; return s; }
static inline Bitboard bb_sq(int sq) { return (Bitboard)1 << sq; }

/* The in-place make (position.c), inline here so that a caller which
 * has just found a move (san.c's fast path) makes it with the piece and
 * the captured piece it already knows, without a call or a second look
 * at the board.  pos_do is the general entry. */
extern uint64_t zob_piece[16][64];   /* Zobrist keys, filled by chess_init() */
extern uint64_t zob_castle[16];
extern uint64_t zob_ep[8];
extern uint64_t zob_side;

/* Is an en passant capture onto pos->ep legal for the side to move? */
bool pos_ep_capture_legal(const Position *pos);
/* A rook that moves or is captured takes its castling right with it
 * (rooks with a right stand on the first or last rank). */
void pos_drop_rook_rights(Position *p, int from, int to);

/* The start of every move: the key loses the side to move and the en
 * passant file it had.  Returns the key so far (the clocks are the
 * caller's: a pawn move or capture resets the halfmove clock). */
CHESS_HOT_INLINE uint64_t pos_move_begin(const Position *p)
{
    uint64_t k = p->key ^ zob_side;
    if (p->ep_legal)
        k ^= zob_ep[sq_file(p->ep)];
    return k;
}

/* The end of every move, once the pieces stand where they go (us: the
 * side that moved; k: the key but for the en passant file; chk: its
 * pawn or knight check; moved: the squares the move emptied or filled;
 * ep: a double step's square, SQ_NONE if none). */
CHESS_HOT_INLINE void pos_move_end(Position *p, int us, uint64_t k, Bitboard chk, Bitboard moved, int ep)
{
    const int them = us ^ 1;
    p->by_type[0] = p->by_color[WHITE] | p->by_color[BLACK];
    p->side = (uint8_t)them;
    const int ksq = p->king_sq[them];
    /* Derived state for the side now to move: checks by sliders.  Before
     * the move the king was not in check, so a slider check is new: the
     * moved piece landing on one of the king's lines, or a line opened by
     * the square it left.  Only then, and only when one of the mover's
     * sliders of that kind also stands on such a line, are the sliders
     * looked at, and then as a whole, so the checkers are the same set a
     * full computation finds.  The conditions are combined without
     * branches into one test that is mostly false: each of them alone is
     * as good as random to the branch predictor (-j1 3-5% faster than a
     * first test of the moved squares alone, measured).  The lines with a
     * slider on them are the next move's pin_lines. */
    Bitboard mine = p->by_color[us];
    Bitboard diag = (p->by_type[BISHOP] | p->by_type[QUEEN]) & mine;
    Bitboard orth = (p->by_type[ROOK] | p->by_type[QUEEN]) & mine;
    Bitboard lines = pos_pin_lines_of(ksq, diag, orth);
    p->pin_lines = lines;
    if (lines & moved) {
        Bitboard occ = p->by_type[0];
        chk |= (bb_bishop_attacks(ksq, occ) & diag) | (bb_rook_attacks(ksq, occ) & orth);
    }
    p->checkers = chk;
    /* The en passant square is kept only when the capture is legal, and
     * then it enters the key (R26). */
    p->ep = SQ_NONE;
    p->ep_legal = false;
    if (ep != SQ_NONE) {
        p->ep = (uint8_t)ep;
        if (pos_ep_capture_legal(p)) {
            p->ep_legal = true;
            k ^= zob_ep[sq_file(ep)];
        } else
            p->ep = SQ_NONE;
    }
    p->key = k;
}

/* A normal move needs the rare ends of pos_do_normal (calls out of line)
 * only when it leaves an en passant square to test (a double step beside
 * an enemy pawn) or may take a castling right (a rook moved or taken). */
CHESS_HOT_INLINE bool pos_normal_is_rare(const Position *p, int from, int to, int pt, int captured)
{
    int us = p->side;
    if (pt == PAWN && (from ^ to) == 16 &&
        (bb_pawn_attacks(us, (from + to) / 2) & p->by_color[us ^ 1] & p->by_type[PAWN]))
        return true;
    return (pt == ROOK || piece_type(captured) == ROOK) && p->castling;
}

/* pos_do for a legal move of type MOVE_NORMAL from `from` to `to`, given
 * the type of the piece on from (pt) and the piece on to (captured, 0 if
 * none).  Inline with pt a constant in san.c's pawn and per-kind paths,
 * where each kind of piece then has only its own tests, and with pt a
 * value in its one path for every kind of piece but the pawn (which it
 * tells the compiler), where the kinds' parts cost no branch but the
 * king's; rare false (the move is known not pos_normal_is_rare) leaves
 * out the rare ends, so that the code has no call with values to keep
 * across it. */
CHESS_HOT_INLINE void pos_do_normal(Position *p, int from, int to, int pt, int captured, const bool rare)
{
    const int us = p->side, them = us ^ 1, pc = us << 3 | pt;
    /* The key's tables are read before the position is written: the
     * compiler cannot tell the tables from the position's words. */
    uint64_t k = zob_piece[pc][from] ^ zob_piece[pc][to] ^ pos_move_begin(p);
    int ep = SQ_NONE;
    /* Checks by a pawn or knight: before the move the side not to move is
     * never in check, so only the piece moved can give one of them. */
    Bitboard chk = 0;
    const Bitboard fromto = bb_sq(from) | bb_sq(to);
    p->fullmove += (uint32_t)us; /* after Black's move */
    if (captured) {
        k ^= zob_piece[captured][to];
        p->by_color[them] ^= bb_sq(to);
        p->by_type[piece_type(captured)] ^= bb_sq(to);
    }
    p->halfmove = pt == PAWN || captured ? 0 : p->halfmove + 1;
    p->by_color[us] ^= fromto;
    p->by_type[pt] ^= fromto;
    p->board[from] = 0;
    p->board[to] = (uint8_t)pc;
    if (pt == PAWN) {
        chk = bb_pawn_attacks(them, p->king_sq[them]) & bb_sq(to);
        /* A double step leaves an en passant square only when an
         * enemy pawn stands beside the pawn (pos_move_end then tests it). */
        if (rare && (from ^ to) == 16 &&
            (bb_pawn_attacks(us, (from + to) / 2) & p->by_color[them] & p->by_type[PAWN]))
            ep = (from + to) / 2;
    } else {
        /* A knight's check without a branch on the kind: pt is a constant
         * in the per-kind callers, which then keep only their own part,
         * and not in san.c's one path for every kind of piece. */
        chk = bb_knight_attacks(p->king_sq[them]) & bb_sq(to) & (0 - (Bitboard)(pt == KNIGHT));
    }
    if (pt == KING) {
        p->king_sq[us] = (uint8_t)to;
        unsigned mine = us == WHITE ? CASTLE_WK | CASTLE_WQ : CASTLE_BK | CASTLE_BQ;
        if (p->castling & mine) {
            k ^= zob_castle[p->castling];
            p->castling &= (uint8_t)~mine;
            k ^= zob_castle[p->castling];
        }
    }
    /* A right's square always holds its rook: only a rook move or
     * capture can take a right away. */
    if (rare && (pt == ROOK || piece_type(captured) == ROOK) && p->castling) {
        k ^= zob_castle[p->castling];
        pos_drop_rook_rights(p, from, to);
        k ^= zob_castle[p->castling];
    }
    pos_move_end(p, us, k, chk, fromto, ep);
}

#endif
