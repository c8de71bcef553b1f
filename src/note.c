/* note.c - the notation of a move read (SAN notes, R42), and why a move is refused. */
#include "note.h"

#include <stdio.h>

#include "explain.h"
#include "movegen.h"
#include "say.h"

/* Over-disambiguation: name the canonical move, and the pinned piece that
 * made the writer think it was needed (PGN standard 8.2.3.4: only legal
 * moves are told apart). */
static void note_overdisambiguated(Ctx *c, const Position *pos, const SanResult *r, const PgnElem *e, uint32_t ply,
                                   const char *label)
{
    char msg[128];
    explain_overdisambiguated(pos, r, msg, sizeof msg);
    say_add(c, D_OVERDISAMBIGUATED, e->pos, ply, e->text, "%s%s", label, msg);
}

void note_notation(Ctx *c, const Position *pos, const SanResult *r, const PgnElem *e, uint32_t ply,
                   const char *label)
{
    static const struct {
        unsigned bit;
        DiagCode code;
        const char *text;
    } notes[] = {
        {SAN_NOTE_CASTLE_ZEROS, D_CASTLE_ZEROS, "castling is written with the letter O, not zeros"},
        {SAN_NOTE_PROMO_NO_EQUALS, D_PROMO_NO_EQUALS, "a promotion is written with = before the piece"},
        {SAN_NOTE_PROMO_LOWERCASE, D_PROMO_LOWERCASE, "the promotion piece letter should be upper case"},
        {SAN_NOTE_CAPTURE_MISSING, D_CAPTURE_MARK_MISSING, "the move captures but has no x"},
        {SAN_NOTE_CAPTURE_SURPLUS, D_CAPTURE_MARK_SURPLUS, "x written but the move captures nothing"},
        {SAN_NOTE_OVERDISAMBIGUATED, D_OVERDISAMBIGUATED, "more of the origin square is given than needed"},
        {SAN_NOTE_UNDERDISAMBIGUATED_FILE, D_OVERDISAMBIGUATED, "the origin rank is given where the file is the standard choice"},
        {SAN_NOTE_LONG_ALGEBRAIC, D_LONG_ALGEBRAIC, "long algebraic notation"},
        {SAN_NOTE_UCI, D_UCI_MOVE, "UCI coordinate notation"},
        {SAN_NOTE_SUFFIX, D_SUFFIX_ANNOTATION, "a suffix annotation is attached to the move"},
        {SAN_NOTE_EP_SUFFIX, D_EP_SUFFIX, "\"e.p.\" is not part of SAN"},
        {SAN_NOTE_PAWN_LETTER, D_PAWN_LETTER, "pawn moves are written without P"},
    };
    unsigned bits = r->notes;
    char san[24] = "";
    if (bits & (SAN_NOTE_LONG_ALGEBRAIC | SAN_NOTE_UCI)) {
        /* One mistake, one warning: a move not in SAN is said once, with
         * its SAN, mark included.  What writing it in SAN puts right (an
         * x, an =, a capital promotion letter, no P, the + or # that the
         * notation left out) is part of that warning, not a warning of
         * its own; a mark that says something false (x on a non-capture,
         * + on a non-check) still is one. */
        bits &= ~(unsigned)(SAN_NOTE_CAPTURE_MISSING | SAN_NOTE_PROMO_NO_EQUALS | SAN_NOTE_PROMO_LOWERCASE |
                            SAN_NOTE_PAWN_LETTER);
        size_t n = san_format_nomark(pos, r->move, san);
        Position after = *pos;
        pos_do(&after, r->move);
        if (after.checkers && n + 1 < sizeof san) {
            san[n] = gen_has_legal_move(&after) ? '+' : '#';
            san[n + 1] = '\0';
        }
        c->mark_in_note = r->mark == 0;
    }
    for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++)
        if (bits & notes[i].bit) {
            if (notes[i].bit == SAN_NOTE_OVERDISAMBIGUATED)
                note_overdisambiguated(c, pos, r, e, ply, label);
            else if (notes[i].bit & (SAN_NOTE_LONG_ALGEBRAIC | SAN_NOTE_UCI))
                say_add(c, notes[i].code, e->pos, ply, e->text, "%s: %s; in SAN: %s", label, notes[i].text, san);
            else
                say_add(c, notes[i].code, e->pos, ply, e->text, "%s: %s", label, notes[i].text);
        }
}

/* extra: said at the end of the message (the move number's disagreement,
 * see play), "" if nothing. */
void note_bad_move(Ctx *c, const Position *pos, const SanResult *r, const PgnElem *e, uint32_t ply,
                   const char *label, bool in_variation, const char *extra)
{
    /* A token too long to be a move: the reader has said so
     * (token-too-long, at the token): once is enough, unless that check
     * is turned off. */
    if (r->status == SAN_SYNTAX && e->truncated && c->opt->severity[D_TOKEN_TOO_LONG] != SEV_NONE)
        return;
    char msg[256];
    DiagCode code = explain_bad_move(pos, r, e->text, e->truncated, in_variation, msg, sizeof msg);
    /* One mistake, one error: SetUp "1" without its FEN (an error of its
     * own) leaves the standard position, where the main line's moves fail
     * for that reason; the failing move is told in that error. */
    bool fold = !in_variation && !c->fen_start && (code == D_ILLEGAL_MOVE || code == D_AMBIGUOUS_MOVE) &&
                c->opt->severity[code] != SEV_NONE &&
                c->opt->severity[D_SETUP_WITHOUT_FEN] >= c->opt->severity[code];
    if (fold && say_append(c, D_SETUP_WITHOUT_FEN, "; there %s (ply %u) cannot be played", label, (unsigned)ply))
        return;
    say_add(c, code, e->pos, ply, e->text, "%s%s%s", label, msg, extra);
}
