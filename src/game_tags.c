/* game_tags.c - the tags a game's check reads: the roster, Result, SetUp and
 * FEN (the start position), Variant, PlyCount, names in the wrong case. */
#include "game_tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "laws.h"
#include "result.h"
#include "tags.h"

static void say(const GameTagsSink *out, DiagCode code, PgnPos pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void say(const GameTagsSink *out, DiagCode code, PgnPos pos, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    out->say(out->arg, code, pos, fmt, ap);
    va_end(ap);
}

/* The names, as the standard spells them, in the order of GAME_TAG_*:
 * the roster's (tags.h), then the others the checks read. */
_Static_assert((int)GAME_TAG_EVENT == (int)TAGS_EVENT && (int)GAME_TAG_RESULT == (int)TAGS_RESULT,
               "GAME_TAG_* begins with the roster, in its order");
static const char *const tag_more[GAME_TAG_N - TAGS_ROSTER_N] = {"FEN", "SetUp", "Variant", "Termination",
                                                                 "PlyCount"};

static inline const char *tag_name(int k)
{
    return k < TAGS_ROSTER_N ? tags_roster[k] : tag_more[k - TAGS_ROSTER_N];
}

/* Which known tag a name could be, from its first letters, any case; -1 if none. */
static inline int tag_kind(const char *n)
{
    switch (n[0] | 32) {
    case 'e': return GAME_TAG_EVENT;
    case 's': return (n[1] | 32) == 'i' ? GAME_TAG_SITE : GAME_TAG_SETUP;
    case 'd': return GAME_TAG_DATE;
    case 'r': return (n[1] | 32) == 'o' ? GAME_TAG_ROUND : GAME_TAG_RESULT;
    case 'w': return GAME_TAG_WHITE;
    case 'b': return GAME_TAG_BLACK;
    case 'f': return GAME_TAG_FEN;
    case 'v': return GAME_TAG_VARIANT;
    case 't': return (n[1] | 32) == 'e' ? GAME_TAG_TERMINATION : -1; /* (not TimeControl, in most games) */
    case 'p': return GAME_TAG_PLYCOUNT;
    default: return -1;
    }
}

/* Is n the name lit, byte for byte?  Inline, where strcmp was a call for
 * each of a game's seven roster tags; it stops at the first difference,
 * so nothing past n's NUL is read. */
static inline bool name_is(const char *n, const char *lit)
{
    while (*n && *n == *lit) {
        n++;
        lit++;
    }
    return *n == *lit;
}

/* Are a and b the same but for the case of ASCII letters? */
static inline bool ieq(const char *a, const char *b)
{
    return pgn_name_casecmp(a, b) == 0;
}

/* The tags named exactly as the standard spells them; returns whether a
 * name could be a known tag written in another case (then check_tag_case
 * looks at the tags again, fills in the names still missing and warns;
 * most games have none).  Of duplicates the first counts.  A miscased name
 * after the right one ([FEN] then [fen]) is not looked for here (that
 * would compare WhiteElo with White in every game): the reader says where
 * two names differ only in case (tag_case_twin). */
static bool collect_tags(const PgnGame *g, const PgnTag *found[GAME_TAG_N])
{
    bool other_case = g->tag_case_twin;
    unsigned exact = 0;
    for (int k = 0; k < GAME_TAG_N; k++)
        found[k] = NULL;
    for (size_t i = 0; i < g->ntags; i++) {
        const char *n = g->tags[i].name;
        int k = tag_kind(n);
        if (k < 0 || (exact >> k & 1))
            continue;
        if (name_is(n, tag_name(k))) {
            found[k] = &g->tags[i];
            exact |= 1u << k;
        } else if (!other_case && ieq(n, tag_name(k)))
            other_case = true; /* (TimeControl before Termination is not) */
    }
    return other_case;
}

/* Appends sep, name and, if over is given, " (over counts)" to list
 * (size bytes, cut short if it must be). */
static void list_add(char *list, size_t size, const char *sep, const char *name, const char *over)
{
    size_t len = strlen(list);
    if (len + 1 >= size)
        return;
    if (over)
        snprintf(list + len, size - len, "%s%.20s (%s counts)", sep, name, over);
    else
        snprintf(list + len, size - len, "%s%.20s", sep, name);
}

/* A known tag name in another case ([fen "..."], [result "1-0"]): tag
 * names are case-sensitive (PGN 8.1.1), but what such a tag means is
 * plain, and ignoring it does more harm (a FEN ignored turns a whole
 * problem database into illegal moves).  So it is used where no tag of
 * that name in the right case exists, the first such one if several; one
 * the right case or an earlier one overrides is ignored.  One warning a
 * game, at the first such tag, names them all (one fact: an exporter
 * that writes its names in lower case; 9 warnings a game were noise). */
static void check_tag_case(const PgnGame *g, const PgnTag *found[GAME_TAG_N], const GameTagsSink *out)
{
    char honoured[PGN_MSG] = "", ignored[PGN_MSG] = "";
    size_t nh = 0, ni = 0, n_all = 0;
    const PgnTag *first = NULL, *only_over = NULL;
    for (size_t i = 0; i < g->ntags; i++) {
        const PgnTag *t = &g->tags[i];
        const char *n = t->name;
        int k = tag_kind(n);
        if (k < 0 || !ieq(n, tag_name(k)) || name_is(n, tag_name(k)))
            continue;
        if (!first)
            first = t;
        n_all++;
        if (!found[k]) {
            found[k] = t;
            list_add(honoured, sizeof honoured, nh++ ? ", " : "", n, NULL);
        } else {
            only_over = found[k];
            char over[48];
            if (name_is(found[k]->name, tag_name(k)))
                snprintf(over, sizeof over, "%s", tag_name(k));
            else
                snprintf(over, sizeof over, "the earlier \"%.20s\"", found[k]->name);
            list_add(ignored, sizeof ignored, ni++ ? ", " : "", n, over);
        }
    }
    if (!first)
        return;
    int k = tag_kind(first->name);
    if (n_all == 1 && !only_over)
        say(out, D_TAG_NAME_CASE, first->pos,
            "tag \"%.20s\" is not \"%s\" (tag names are case-sensitive); it is honoured as %s", first->name,
            tag_name(k), tag_name(k));
    else if (n_all == 1 && name_is(only_over->name, tag_name(k)))
        say(out, D_TAG_NAME_CASE, first->pos,
            "tag \"%.20s\" is not \"%s\" (tag names are case-sensitive); it is ignored: the %s tag counts",
            first->name, tag_name(k), tag_name(k));
    else if (n_all == 1)
        say(out, D_TAG_NAME_CASE, first->pos,
            "tag \"%.20s\" is not \"%s\" (tag names are case-sensitive); it is ignored: the earlier \"%s\" counts",
            first->name, tag_name(k), only_over->name);
    else
        say(out, D_TAG_NAME_CASE, first->pos, "%zu tag names in the wrong case (tag names are case-sensitive)%s%s%s%s",
            n_all, nh ? "; honoured: " : "", honoured, ni ? "; ignored: " : "", ignored);
}

void game_tags_find(const PgnGame *g, GameTags *t, const GameTagsSink *out)
{
    if (collect_tags(g, t->tag))
        check_tag_case(g, t->tag, out);
    const PgnTag *rt = t->tag[GAME_TAG_RESULT];
    t->result = game_tags_parse_result(rt ? rt->value : NULL);
    if (rt && t->result == PGN_RES_NONE)
        say(out, D_BAD_RESULT_TAG, rt->value_pos, "Result \"%.40s\" is not 1-0, 0-1, 1/2-1/2 or *", rt->value);
}

void game_tags_roster(const PgnGame *g, const GameTags *t, const GameTagsSink *out)
{
    char missing[96] = "";
    size_t used = 0;
    for (int i = GAME_TAG_EVENT; i <= GAME_TAG_RESULT; i++)
        if (!t->tag[i]) {
            int w = snprintf(missing + used, sizeof missing - used, "%s%s", used ? ", " : "", tag_name(i));
            if (w > 0 && (size_t)w < sizeof missing - used)
                used += (size_t)w;
        }
    if (used)
        say(out, D_MISSING_TAG, g->start, "the Seven Tag Roster lacks %s", missing);
    if (g->result != PGN_RES_NONE && t->result != PGN_RES_NONE && g->result != t->result)
        say(out, D_RESULT_MISMATCH, g->result_pos,
            "the termination marker %s disagrees with the Result tag %s (" LAW_R40 ")", result_text(g->result),
            result_text(t->result));
}

/* Does a Termination tag's value (NULL: none) say the game was lost on
 * time?  The first letter first: most values ("normal") start with
 * neither of the two, and then no comparison is made. */
bool game_tags_time_forfeit(const char *term)
{
    if (!term)
        return false;
    if ((term[0] | 32) == 't')
        return ieq(term, "time forfeit") || ieq(term, "time-forfeit") || ieq(term, "timeforfeit") || ieq(term, "time");
    return (term[0] | 32) == 'l' && ieq(term, "lost on time");
}

int game_tags_variant(const GameTags *t)
{
    return tags_variant(game_tags_value(t, GAME_TAG_VARIANT));
}

PgnResult game_tags_parse_result(const char *v)
{
    if (!v)
        return PGN_RES_NONE;
    /* By the characters (every game has one): no library calls. */
    if (v[0] == '*')
        return v[1] ? PGN_RES_NONE : PGN_RES_UNKNOWN;
    if (v[0] == '1' && v[1] == '-' && v[2] == '0' && !v[3])
        return PGN_RES_WHITE;
    if (v[0] == '0' && v[1] == '-' && v[2] == '1' && !v[3])
        return PGN_RES_BLACK;
    if (v[0] == '1' && v[1] == '/' && v[2] == '2' && v[3] == '-' && v[4] == '1' && v[5] == '/' && v[6] == '2' && !v[7])
        return PGN_RES_DRAW;
    return PGN_RES_NONE;
}

/* What count of a FEN's material no game can reach (R3), from pos_from_fen's
 * counts: "White has 3 queens and 7 pawns in the FEN: 2 promoted pieces
 * need 2 missing pawns, 1 is missing (R3)". */
static void material_text(const FenInfo *m, char *buf, size_t cap)
{
    const char *side = m->side == WHITE ? "White" : "Black";
    int pawns = m->men[PAWN];
    if (pawns > 8) {
        snprintf(buf, cap, "%s has %d pawns in the FEN; a side has 8 at most (FIDE 3.10.3)", side, pawns);
        return;
    }
    if (m->men[0] > 16) {
        snprintf(buf, cap, "%s has %d men in the FEN; a side has 16 at most (FIDE 3.10.3)", side, m->men[0]);
        return;
    }
    /* the kinds beyond their number in the start position, then the pawns */
    static const char *const kind[] = {"queen", "rook", "knight", "light-squared bishop", "dark-squared bishop",
                                       "pawn"};
    const int have[] = {m->men[QUEEN], m->men[ROOK], m->men[KNIGHT], m->bishops[0], m->bishops[1], pawns};
    const int start[] = {1, 2, 2, 1, 1, -1};
    int nitems = 0;
    for (int k = 0; k < 6; k++)
        nitems += have[k] > start[k];
    char list[112] = "";
    size_t used = 0;
    for (int k = 0, i = 0; k < 6; k++) {
        if (have[k] <= start[k])
            continue;
        const char *sep = i == 0 ? "" : i == nitems - 1 ? " and " : ", ";
        int w = snprintf(list + used, sizeof list - used, "%s%d %s%s", sep, have[k], kind[k], have[k] == 1 ? "" : "s");
        if (w > 0 && (size_t)w < sizeof list - used)
            used += (size_t)w;
        i++;
    }
    int promoted = fen_promoted(m), missing = 8 - pawns;
    char gone[16];
    if (missing == 0)
        snprintf(gone, sizeof gone, "none is");
    else
        snprintf(gone, sizeof gone, "%d %s", missing, missing == 1 ? "is" : "are");
    snprintf(buf, cap, "%s has %s in the FEN: %d promoted piece%s need%s %d missing pawn%s, %s missing (FIDE 3.10.3)",
             side, list, promoted, promoted == 1 ? "" : "s", promoted == 1 ? "s" : "", promoted,
             promoted == 1 ? "" : "s", gone);
}

/* PGN 9.7.1: SetUp "1" goes with a FEN tag, SetUp "0" or none without one. */
static void check_setup(const GameTags *t, const GameTagsSink *out)
{
    const PgnTag *fen_tag = t->tag[GAME_TAG_FEN], *setup_tag = t->tag[GAME_TAG_SETUP];
    const char *fen = fen_tag ? fen_tag->value : NULL;
    const char *setup = setup_tag ? setup_tag->value : NULL;
    if (setup && strcmp(setup, "1") && strcmp(setup, "0"))
        say(out, D_SETUP_WITHOUT_FEN, setup_tag->value_pos, "SetUp \"%.20s\" is neither \"0\" nor \"1\"", setup);
    if (setup && !strcmp(setup, "1") && !fen) {
        say(out, D_SETUP_WITHOUT_FEN, setup_tag->value_pos,
            "SetUp \"1\" without a FEN tag: the game is replayed from the standard position");
    }
    if (fen && (!setup || strcmp(setup, "1")))
        say(out, D_FEN_WITHOUT_SETUP, fen_tag->pos, "a FEN tag without SetUp \"1\"; the FEN is used (PGN 9.7.1)");
}

/* The finding for a FEN that sets up no legal game, at the byte where
 * pos_from_fen stopped (at: the FEN tag's value). */
static void say_bad_fen(const char *fen, size_t lead, FenError fe, const FenInfo *info, PgnPos at,
                        const GameTagsSink *out)
{
    if (fe == FEN_ERR_TOO_MANY || fe == FEN_ERR_PROMOTED) {
        char what[PGN_MSG];
        material_text(info, what, sizeof what);
        say(out, D_BAD_FEN, at, "%s", what);
    } else if (fe == FEN_ERR_COUNTER_SYNTAX) {
        /* R35: say which counter, and show it (info->column counts
         * from the FEN's first non-blank byte, as at does) */
        const char *v = fen + lead + info->column;
        int n = 0;
        bool digits = true;
        while (v[n] && v[n] != ' ' && n < 20)
            digits &= v[n] >= '0' && v[n] <= '9', n++;
        const char *name = info->counter == 1 ? "halfmove clock" : "fullmove number";
        if (digits)
            say(out, D_BAD_FEN, at, "FEN \"%.60s\": the %s %.*s is out of range (PGN 16.1.3)", fen, name, n, v);
        else
            say(out, D_BAD_FEN, at, "FEN \"%.60s\": the %s \"%.*s\" is not a whole number of at least %d (PGN 16.1.3)",
                fen, name, n, v, info->counter == 1 ? 0 : 1);
    } else
        say(out, D_BAD_FEN, at, "FEN \"%.60s\": %s", fen, pos_fen_error_text(fe));
}

/* R35: which counter is missing or out of range (one at most:
 * pos_from_fen compares the clock only with a fullmove given). */
static void say_fen_counters(const char *fen, unsigned warnings, const Position *p0, PgnPos at, const GameTagsSink *out)
{
    if (warnings & FEN_WARN_NO_COUNTERS)
        say(out, D_FEN_WARNING, at,
            "FEN \"%.60s\": the halfmove clock and the fullmove number are missing; taken as 0 and 1 (PGN 16.1.3)",
            fen);
    else if (warnings & FEN_WARN_NO_FULLMOVE)
        say(out, D_FEN_WARNING, at, "FEN \"%.60s\": the fullmove number is missing; taken as 1 (PGN 16.1.3.6)", fen);
    else if (warnings & FEN_WARN_FULLMOVE_ZERO)
        say(out, D_FEN_WARNING, at,
            "FEN \"%.60s\": fullmove number 0 is out of range (it counts from 1); taken as 1 (PGN 16.1.3.6)", fen);
    else if (warnings & FEN_WARN_HALFMOVE_HIGH)
        say(out, D_FEN_WARNING, at,
            "FEN \"%.60s\": halfmove clock %u is more than the %u plies played before move %u (PGN 16.1.3.5)", fen,
            (unsigned)p0->halfmove, (unsigned)(2 * (p0->fullmove - 1) + (p0->side == BLACK)), (unsigned)p0->fullmove);
}

bool game_tags_start(const GameTags *t, bool chess960, Position *p, const GameTagsSink *out)
{
    check_setup(t, out);
    const PgnTag *fen_tag = t->tag[GAME_TAG_FEN];
    if (!fen_tag) {
        pos_startpos(p);
        p->chess960 = chess960;
        return true;
    }
    const char *fen = fen_tag->value;
    FenInfo info;
    FenError fe = pos_from_fen(p, fen, strlen(fen), chess960, &info);
    if (fe == FEN_OK)
        fe = pos_check_material(p, &info); /* (column 0: the placement) */
    if (fe != FEN_OK && !chess960 && fe == FEN_ERR_CASTLING_RIGHTS) {
        /* A standard game whose FEN castling only makes sense in Chess960. */
        Position tmp;
        if (pos_from_fen(&tmp, fen, strlen(fen), true, NULL) == FEN_OK)
            say(out, D_CHESS960_CASTLING, fen_tag->value_pos,
                "these castling rights are valid only in Chess960: is a Variant tag missing?");
    }
    PgnPos at = fen_tag->value_pos;
    size_t lead = strspn(fen, " \t"); /* pos_from_fen's columns start after them */
    if (fe != FEN_OK) {
        at.offset += (uint64_t)(lead + (size_t)info.column) + 1;
        at.col += (uint32_t)(lead + (size_t)info.column) + 1;
        say_bad_fen(fen, lead, fe, &info, at, out);
        return false;
    }
    say_fen_counters(fen, info.warnings, p, at, out);
    return true;
}

void game_tags_plycount(const GameTags *t, uint32_t plies, const GameTagsSink *out)
{
    const PgnTag *pc_tag = t->tag[GAME_TAG_PLYCOUNT];
    if (!pc_tag)
        return;
    const char *plycount = pc_tag->value;
    char *end;
    long v = strtol(plycount, &end, 10);
    if (end == plycount || *end || v < 0 || (uint32_t)v != plies)
        say(out, D_PLYCOUNT, pc_tag->value_pos, "PlyCount \"%.20s\" but the main line has %u plies (" LAW_R44 ")",
            plycount, (unsigned)plies);
}
