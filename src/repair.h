/* repair.h - repair with proof (issue 35): for a main line that breaks at
 * ply k, the single edits at or before k after which the whole rest of the
 * game replays legally and ends as its result says, ranked. */
#ifndef PGNCHECK_REPAIR_H
#define PGNCHECK_REPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess.h"
#include "pgn.h"

/* The kinds of edit ("edit" in -f jsonl: a contract, grow only). */
typedef enum RepairEdit {
    REPAIR_PIECE_LETTER = 0,  /* Nd2 for Bd2 */
    REPAIR_LANGUAGE,          /* S/L/T/D for N/B/R/Q */
    REPAIR_DISAMBIGUATION,    /* Nfd7 for Nbd7, Nd7 for Nbd7 */
    REPAIR_DESTINATION,       /* Re1 for Rd1, Qh4 for Qh5 */
    REPAIR_PAWN_FILE,         /* cxd5 for exd5 */
    REPAIR_CASTLING,          /* O-O for O-O-O */
    REPAIR_PROMOTION,         /* e8 for e8=Q */
    REPAIR_TRANSPOSED,        /* two moves of one side swapped */
    REPAIR_MISSING_MOVE,      /* one ply left out */
    REPAIR_MISSING_PAIR,      /* a move of each side left out */
    REPAIR_WRITTEN_TWICE,     /* a move written twice */
    REPAIR_DGT_KING,          /* a DGT board's king move to the centre after the end */
    REPAIR_EDIT_COUNT
} RepairEdit;

const char *repair_edit_slug(RepairEdit e);

#ifndef REPAIR_MAX
#define REPAIR_MAX 24          /* candidates kept and reported ("repairs" in -f jsonl) */
#endif
#define REPAIR_SHOWN 3         /* candidates a note lists when none is applied */
#define REPAIR_TEXT 48         /* bytes of old / new text */

typedef struct Repair {
    RepairEdit edit;
    uint32_t ply;              /* the first ply the edit touches (1-based) */
    PgnPos pos;                /* where the edit goes: that ply's token, or where a move is put */
    uint32_t span;             /* main-line tokens the edit replaces (old), from ply */
    uint32_t tier;             /* the edit's cost: 0 likeliest (repair.c) */
    uint32_t score;            /* lower is likelier (the cost first) */
    uint32_t marks_off;        /* moves of the repaired line whose check mark disagrees */
    double share;              /* its part of the weight of every candidate proven (0..1; decide) */
    uint64_t line_key;         /* the repaired line's identity (same line, same repair) */
    char old_text[REPAIR_TEXT];/* the tokens replaced, as written, one space between */
    char new_text[REPAIR_TEXT];/* the tokens put in their place */
    char label[12];            /* the move number of ply: "23." or "23..." */
    /* --repair: the bytes of the game's text the edit rewrites, each
     * [at, at + len) of the input replaced by text; loose: a token taken
     * out with the move number and blanks before it */
    struct {
        uint64_t at;
        uint32_t len;
        uint8_t text;          /* its text: put_text + text */
        bool loose;
    } put[2];
    int nput;                  /* -1: a text too long to keep (never kept) */
    uint8_t put_used;
    char put_text[64];
} Repair;

typedef struct RepairSet {
    bool searched;             /* the main line broke and was searched */
    bool complete;             /* the search ran to its end within the budget */
    uint32_t searched_to;      /* the phases searched whole (repair.c; UINT32_MAX: all) */
    uint32_t ply;              /* the ply where the main line broke (1-based) */
    PgnPos pos;                /* that ply's token */
    uint32_t rest;             /* plies replayed after the best repair's edit */
    const char *result;        /* what the game ends in ("1-0", ..., "" none declared) */
    size_t n;                  /* candidates kept, best first */
    uint32_t found;            /* candidates proven (n is at most REPAIR_MAX) */
    double mass;               /* the weight of every candidate proven (repair.c) */
    bool unique;               /* one candidate stands alone (repair.c) */
    uint64_t nodes;            /* moves the search parsed (the budget's unit) */
    Repair r[REPAIR_MAX];
    /* working memory, kept from game to game */
    void *work;
} RepairSet;

/* Budget of the search, in moves parsed per broken game: deterministic,
 * so that the same input gives the same answer at any -j. */
#define REPAIR_BUDGET 150000u

void repair_set_free(RepairSet *rs);

/* Searches g's main line from start (the game's start position; result:
 * the declared result, PGN_RES_NONE if none).  Fills rs; rs->searched is
 * false when the main line replays (nothing to repair) or cannot be
 * searched.  False only when out of memory. */
bool repair_search(const PgnGame *g, const Position *start, PgnResult result, RepairSet *rs);

/* The one proven repair, or NULL: several, none, or a search cut by its budget. */
/* Makes the lines of rs's places the file's, for a piece read from
 * line 1 + by (pieces.c). */
static inline void repair_lines_shift(RepairSet *rs, uint32_t by)
{
    if (rs->pos.line)
        rs->pos.line += by;
    for (size_t i = 0; i < rs->n; i++)
        if (rs->r[i].pos.line)
            rs->r[i].pos.line += by;
}

static inline const Repair *repair_unique(const RepairSet *rs)
{
    return rs && rs->searched && rs->n && rs->unique ? &rs->r[0] : NULL;
}

/* Is the search worth a note?  A unique repair, no more candidates than
 * are kept, or a best one that carries at least half the weight: a longer
 * list without a leader (a game that lacks its opening moves, say) tells
 * nothing; -f jsonl still gives the first REPAIR_MAX on the error. */
static inline bool repair_noted(const RepairSet *rs)
{
    return repair_unique(rs) || (rs && (rs->found <= REPAIR_MAX || rs->r[0].share >= 0.5));
}

/* The message of the finding: "did you mean ..." (unique) or the best
 * REPAIR_SHOWN of the ranked list and how many more. */
void repair_message(const RepairSet *rs, char *buf, size_t cap);

#endif
