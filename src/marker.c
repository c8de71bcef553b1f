/* marker.c - the termination marker --fix-results writes where a game has none, or one written wrongly. */
#include "marker.h"

#include <string.h>

#include "game_tags.h"

/* A marker written wrongly that the reader took for the game's last token
 * ("1/2", "1:0", "+--"; its missing-termination is at it): its length, and
 * in *meant the result it names (PGN_RES_NONE for a forfeit mark); 0 if the
 * raw text at pos is no such token. */
static size_t wrong_marker_at(const PgnGame *g, PgnPos pos, PgnResult *meant)
{
    static const struct { const char *text; PgnResult r; } forms[] = {
        {"1/2:1/2", PGN_RES_DRAW}, {"1/2", PGN_RES_DRAW}, {"1:0", PGN_RES_WHITE},
        {"0:1", PGN_RES_BLACK},    {"+--", PGN_RES_NONE}, {"--+", PGN_RES_NONE},
    };
    if (!g->raw || pos.offset < g->start.offset || pos.offset - g->start.offset >= g->raw_len)
        return 0;
    size_t at = (size_t)(pos.offset - g->start.offset), left = g->raw_len - at;
    for (size_t k = 0; k < sizeof forms / sizeof forms[0]; k++) {
        size_t n = strlen(forms[k].text);
        if (n <= left && memcmp(g->raw + at, forms[k].text, n) == 0 &&
            (n == left || strchr(" \t\r\n{;", g->raw[at + n]))) {
            *meant = forms[k].r;
            return n;
        }
    }
    return 0;
}

/* (See marker.h.) */
void marker_fix(const PgnGame *g, GameReport *rep)
{
    rep->marker = PGN_RES_NONE;
    rep->marker_pos = g->start;
    rep->marker_len = 0;
    rep->marker_proven = false;
    rep->tags_only = g->nelems == 0;
    if (g->result != PGN_RES_NONE || g->syntax_error || rep->reason == REASON_INVALID)
        return;
    for (size_t i = 0; i < g->ndiags; i++) {
        if (g->diags[i].code == D_UNBALANCED_VARIATION)
            return;
        if (g->diags[i].code == D_MISSING_TERMINATION)
            rep->marker_pos = g->diags[i].pos;
    }
    PgnResult tag = game_tags_parse_result(rep->result_tag);
    PgnResult proven = rep->fixed;
    if (proven == PGN_RES_NONE && rep->outcome_known && rep->reason <= REASON_SEVENTY_FIVE)
        proven = rep->outcome;   /* (checkmate ... 75 moves: the game ended on the board) */
    rep->marker_proven = proven != PGN_RES_NONE;
    PgnResult meant = PGN_RES_NONE;
    size_t wrong = wrong_marker_at(g, rep->marker_pos, &meant);
    if (!wrong) {
        rep->marker = proven != PGN_RES_NONE ? proven : tag != PGN_RES_NONE ? tag : PGN_RES_UNKNOWN;
        return;
    }
    rep->marker_len = (uint8_t)wrong;
    if (proven != PGN_RES_NONE)
        rep->marker = proven;
    else if (meant != PGN_RES_NONE && (tag == PGN_RES_NONE || tag == meant))
        rep->marker = meant;
    else if (meant == PGN_RES_NONE && tag != PGN_RES_NONE && tag != PGN_RES_UNKNOWN)
        rep->marker = tag;
}
