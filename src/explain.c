/* explain.c - the English of diagnostics: a move's fault and a position's pieces in words. */
#include "explain.h"

#include <stdio.h>
#include <string.h>

#include "laws.h"
#include "movegen.h"

const char *explain_piece_name(int pt)
{
    static const char *const names[] = {"piece", "pawn", "knight", "bishop", "rook", "queen", "king"};
    return pt >= 0 && pt <= KING ? names[pt] : "piece";
}

const char *explain_color(int color) { return color == WHITE ? "White" : "Black"; }

void explain_square(int sq, char out[3])
{
    if (sq < 0 || sq >= 64) {
        out[0] = '?';
        out[1] = '?';
    } else {
        out[0] = (char)('a' + sq_file(sq));
        out[1] = (char)('1' + sq_rank(sq));
    }
    out[2] = '\0';
}

void explain_piece_on(const Position *pos, int sq, char *buf, size_t cap)
{
    char s[3];
    explain_square(sq, s);
    if (sq < 0 || sq >= 64 || !pos->board[sq])
        snprintf(buf, cap, "%s", s);
    else
        snprintf(buf, cap, "the %s on %s", explain_piece_name(piece_type(pos->board[sq])), s);
}

void explain_overdisambiguated(const Position *pos, const SanResult *r, char *msg, size_t cap)
{
    char canon[16], other[64] = "";
    san_format_nomark(pos, r->move, canon);
    int us = pos->side, from = move_from(r->move), to = move_to(r->move);
    int pt = piece_type(pos->board[from]);
    Bitboard att = 0;
    if (pt == KNIGHT)
        att = bb_knight_attacks(to);
    else if (pt == BISHOP || pt == QUEEN)
        att |= bb_bishop_attacks(to, pos->by_type[0]);
    if (pt == ROOK || pt == QUEEN)
        att |= bb_rook_attacks(to, pos->by_type[0]);
    Bitboard pinned = att & pos->by_color[us] & pos->by_type[pt] & pos_pinned(pos) & ~bb_sq(from);
    if (pinned) {
        char who[40];
        explain_piece_on(pos, bb_lsb(pinned), who, sizeof who);
        snprintf(other, sizeof other, " (%s is pinned)", who);
    }
    snprintf(msg, cap, ": more of the origin square is given than needed: %s%s", canon, other);
}

/* A hint for a token that is no move: what it looks like instead. */
static const char *syntax_hint(const char *text)
{
    char first = text[0];
    if (!strcmp(text, "1/2") || !strcmp(text, "0.5-0.5") || !strcmp(text, "1/2-1/2)") || !strcmp(text, "draw"))
        return " (a drawn game ends with the termination marker 1/2-1/2)";
    if (first == 'o' || first == 'O')
        return " (castling is O-O or O-O-O with capital letters O)";
    if (first == 'n' || first == 'r' || first == 'q' || first == 'k')
        return " (piece letters are upper case: K, Q, R, B, N)";
    if (first == 'S' || first == 'L' || first == 'T' || first == 'D' || first == 'C' || first == 'F')
        return " (SAN uses the English piece letters K, Q, R, B, N)";
    return "";
}

/* The law a piece's move breaks when no such piece can make it (R6-R11). */
static const char *no_piece_law(int piece)
{
    return piece == KNIGHT   ? " (" LAW_R10 ")"
           : piece == BISHOP ? " (" LAW_R8 ")"
           : piece == ROOK   ? " (" LAW_R7 ")"
           : piece == QUEEN  ? " (" LAW_R9 ")"
           : piece == KING   ? " (" LAW_R6 ")"
                             : " (" LAW_R11 ")";
}

/* An illegal move's reason (r->reason) in words, into msg; returns the
 * law it breaks, in parentheses ("" if none).  A flat dispatch: one case
 * a reason. */
static const char *illegal_text(const Position *pos, const SanResult *r, char *msg, size_t cap)
{
    char a[48], b[48], sq[3];
    int us = pos->side;
    switch (r->reason) {
    case ILL_NO_PIECE:
        explain_square(r->to, sq);
        if (r->piece == PAWN && r->sq2 != SQ_NONE) {
            explain_piece_on(pos, r->sq2, b, sizeof b);
            snprintf(msg, cap, "the pawn cannot advance two squares: %s is in the way", b);
        } else if (r->to != SQ_NONE)
            snprintf(msg, cap, "no %s %s can move to %s", us == WHITE ? "white" : "black",
                     explain_piece_name(r->piece), sq);
        else
            snprintf(msg, cap, "no %s piece stands on the origin square", us == WHITE ? "white" : "black");
        return no_piece_law(r->piece);
    case ILL_OWN_PIECE:
        explain_piece_on(pos, r->sq != SQ_NONE ? r->sq : r->to, a, sizeof a);
        snprintf(msg, cap, "%s is %s's own", a, explain_color(us));
        return " (" LAW_R5 ")";
    case ILL_CAPTURES_KING:
        snprintf(msg, cap, "it would capture the %s king, which is never captured", us == WHITE ? "black" : "white");
        return " (" LAW_R16 ")";
    case ILL_PINNED:
        explain_piece_on(pos, r->sq, a, sizeof a);
        explain_piece_on(pos, r->sq2, b, sizeof b);
        explain_square(pos->king_sq[us], sq);
        snprintf(msg, cap, "%s is pinned to the king on %s by %s", a, sq, b);
        return " (" LAW_R15 ")";
    case ILL_LEAVES_CHECK:
        explain_piece_on(pos, r->sq2, b, sizeof b);
        if (pos->checkers & (pos->checkers - 1))
            snprintf(msg, cap, "%s is in double check and only a king move answers it", explain_color(us));
        else
            snprintf(msg, cap, "%s is in check from %s and this move does not answer it", explain_color(us), b);
        return " (" LAW_R17 ")";
    case ILL_KING_INTO_CHECK:
        explain_square(r->to, sq);
        explain_piece_on(pos, r->sq2, b, sizeof b);
        snprintf(msg, cap, "the king would be in check on %s from %s", sq, b);
        return " (" LAW_R15 ")";
    case ILL_EP_DISCOVERS:
        snprintf(msg, cap, "the en passant capture would expose %s's king to check", explain_color(us));
        return " (" LAW_R15 ")";
    case ILL_CASTLE_NO_RIGHT:
        snprintf(msg, cap, "%s has no right to castle on that side any more (king or rook has moved)",
                 explain_color(us));
        return " (" LAW_R14 ")";
    case ILL_CASTLE_BLOCKED:
        explain_piece_on(pos, r->sq2, b, sizeof b);
        snprintf(msg, cap, "castling is blocked by %s", b);
        return " (" LAW_R14 ")";
    case ILL_CASTLE_IN_CHECK:
        explain_piece_on(pos, r->sq2, b, sizeof b);
        snprintf(msg, cap, "the king may not castle out of check (from %s)", b);
        return " (" LAW_R14 ")";
    case ILL_CASTLE_ATTACKED:
        explain_square(r->sq2, sq);
        snprintf(msg, cap, "the king would cross or land on %s, which is attacked", sq);
        return " (" LAW_R14 ")";
    case ILL_NO_EP:
        explain_square(r->to, sq);
        snprintf(msg, cap, "there is nothing to capture on %s and no en passant capture is possible", sq);
        return " (" LAW_R12 ")";
    case ILL_PROMO_MISSING:
        explain_square(r->to, sq);
        snprintf(msg, cap, "a pawn reaching the last rank must promote (%s=Q, =R, =B or =N)", sq);
        return " (" LAW_R13 ")";
    case ILL_PROMO_PIECE:
        snprintf(msg, cap, "a pawn promotes only to a queen, rook, bishop or knight");
        return " (" LAW_R13 ")";
    case ILL_PROMO_RANK:
        snprintf(msg, cap, "a promotion piece is given but the pawn does not reach the last rank");
        return " (" LAW_R13 ")";
    case ILL_PAWN_CAPTURE_FORWARD:
        explain_square(r->to, sq);
        snprintf(msg, cap, "a pawn cannot move straight onto the occupied square %s", sq);
        return " (" LAW_R11 ")";
    default:
        snprintf(msg, cap, "%s", san_illegal_text(r->reason));
        return "";
    }
}

DiagCode explain_bad_move(const Position *pos, const SanResult *r, const char *text, bool truncated,
                          bool in_variation, char *msg, size_t cap)
{
    switch (r->status) {
    case SAN_SYNTAX:
        if (truncated) {
            snprintf(msg, cap, "...: a token too long to be a move");
            return D_BAD_MOVE;
        }
        snprintf(msg, cap, ": not a move%s", syntax_hint(text));
        return D_BAD_MOVE;
    case SAN_NULL_MOVE:
        if (in_variation) {
            snprintf(msg, cap, ": a null move; the rest of this variation is not checked");
            return D_NULL_MOVE_VARIATION;
        }
        snprintf(msg, cap, ": a null move is not a legal move (" LAW_R4 ")");
        return D_NULL_MOVE;
    case SAN_AMBIGUOUS: {
        char list[96] = "";
        size_t used = 0;
        for (int i = 0; i < r->ncand; i++) {
            char san[16];
            san_format_nomark(pos, r->cand[i], san);
            int w = snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "", san);
            if (w < 0 || (size_t)w >= sizeof list - used)
                break;
            used += (size_t)w;
        }
        snprintf(msg, cap, " is ambiguous: it could be %s", list);
        return D_AMBIGUOUS_MOVE;
    }
    case SAN_ILLEGAL:
    default: {
        char why[128];
        const char *law = illegal_text(pos, r, why, sizeof why);
        snprintf(msg, cap, ": illegal: %s%s", why, law);
        return D_ILLEGAL_MOVE;
    }
    }
}
