/* laws.h - the laws pgncheck enforces, and which Laws judge a game by its date.
 * Each law comes with what a user can look up:
 * the article of the FIDE Laws of Chess in force from 1 January 2023
 * (handbook.fide.com, E012023) or the section of the PGN standard
 * (Edwards, 1994-03-12).  The ids R1-R45 are the project's names for the
 * laws (the tests are named by them, the man page's LAWS section is keyed by
 * them); messages cite the article, pasted in as LAW_Rn, so that the text a
 * user reads and this table cannot drift apart.
 *
 * Numbers are those of the 2023 text: its 9.2.3 (same position) was 9.2.2
 * in 2018, and its 9.6.1 still says "as in 9.2.2".  The FIDE Laws make the
 * check marks optional (Appendix C.13); the PGN standard asks for them. */
#ifndef PGNCHECK_LAWS_H
#define PGNCHECK_LAWS_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"

#define LAW_R1  "FIDE 2.1, C.5, C.6"
#define LAW_R2  "FIDE 1.2, 2.3"
#define LAW_R3  "PGN 9.7; FIDE 3.10.3"
#define LAW_R4  "FIDE 1.2"
#define LAW_R5  "FIDE 3.1"
#define LAW_R6  "FIDE 3.8.1"
#define LAW_R7  "FIDE 3.3, 3.5"
#define LAW_R8  "FIDE 3.2, 3.5"
#define LAW_R9  "FIDE 3.4, 3.5"
#define LAW_R10 "FIDE 3.6"
#define LAW_R11 "FIDE 3.7"
#define LAW_R12 "FIDE 3.7.3.1, 3.7.3.2"
#define LAW_R13 "FIDE 3.7.3.3, 3.7.3.4"
#define LAW_R14 "FIDE 3.8.2"
#define LAW_R15 "FIDE 3.9.2"
#define LAW_R16 "FIDE 1.4.1"
#define LAW_R17 "FIDE 3.9.2"
#define LAW_R20 "FIDE 5.1.1"
#define LAW_R21 "FIDE 5.2.1"
#define LAW_R22 "FIDE 5.2.2"
#define LAW_R23 "FIDE 9.6.1"
#define LAW_R24 "FIDE 9.6.2"
#define LAW_R25 "FIDE 5.1.2"
#define LAW_R26 "FIDE 9.2.3"
#define LAW_R27 "FIDE 9.2, 9.3"
#define LAW_R28 "FIDE 5.2.3"
#define LAW_R29 "FIDE 6.9"
#define LAW_R30 "FIDE 3.10.3"
#define LAW_R31 "FIDE 3.7, 3.10.3"
#define LAW_R32 "FIDE 3.9.2, 3.10.3"
#define LAW_R33 "FIDE 3.8.2.1; PGN 16.1.3.3"
#define LAW_R34 "FIDE 3.7.3.1; PGN 16.1.3.4"
#define LAW_R35 "PGN 16.1.3.5, 16.1.3.6"
#define LAW_R40 "PGN 8.1.1.7, 8.2.6"
#define LAW_R41 "FIDE 5.1.1, 5.2.1, 5.2.2, 9.6"
#define LAW_R42 "PGN 8.2.3.5"
#define LAW_R43 "FIDE 6.9; PGN 9.8.1"
#define LAW_R44 "PGN 9.9.3"
#define LAW_R45 "FIDE 9.6"

/* X(id, article, "one-line meaning"): every law, in the order of the rules. */
#define LAW_TABLE(X) \
    X(R1, LAW_R1, "the board is 8x8: files a-h from White's left, ranks 1-8 from White's side") \
    X(R2, LAW_R2, "the standard initial position; White moves first") \
    X(R3, LAW_R3, "another start only through SetUp \"1\" and a FEN of a legal position") \
    X(R4, LAW_R4, "the players move alternately, one move a turn: no pass, no null move") \
    X(R5, LAW_R5, "never onto a piece of one's own colour; a capture removes the piece") \
    X(R6, LAW_R6, "the king moves to an adjoining square") \
    X(R7, LAW_R7, "the rook moves along its rank or file, over no piece") \
    X(R8, LAW_R8, "the bishop moves along a diagonal, over no piece") \
    X(R9, LAW_R9, "the queen moves along a rank, file or diagonal, over no piece") \
    X(R10, LAW_R10, "the knight jumps to a nearest square not on its rank, file or diagonal") \
    X(R11, LAW_R11, "the pawn: one square ahead, two from its first square, captures diagonally") \
    X(R12, LAW_R12, "en passant: capture of a pawn that just advanced two squares, next move only") \
    X(R13, LAW_R13, "a pawn on the last rank becomes a queen, rook, bishop or knight, in the same move") \
    X(R14, LAW_R14, "castling: king and rook unmoved, nothing between, king not in, through or into check") \
    X(R15, LAW_R15, "no move may expose one's own king to check") \
    X(R16, LAW_R16, "the king is never captured") \
    X(R17, LAW_R17, "a king in check must be got out of it at once") \
    X(R20, LAW_R20, "checkmate wins and ends the game") \
    X(R21, LAW_R21, "stalemate: no legal move and not in check; a draw that ends the game") \
    X(R22, LAW_R22, "dead position: no series of legal moves mates; a draw that ends the game") \
    X(R23, LAW_R23, "the same position five times: a draw that ends the game (from 2014-07-01)") \
    X(R24, LAW_R24, "75 moves each without capture or pawn move: a draw (from 2014-07-01)") \
    X(R25, LAW_R25, "resignation loses, unless the opponent cannot mate: then a draw (2023)") \
    X(R26, LAW_R26, "same position: same side to move, pieces, castling rights, en passant capture") \
    X(R27, LAW_R27, "threefold repetition and 50 moves allow a draw claim; play may go on") \
    X(R28, LAW_R28, "a draw by agreement, in any position not already over") \
    X(R29, LAW_R29, "a flag fall loses, unless the opponent cannot mate by any legal moves: a draw") \
    X(R30, LAW_R30, "a FEN position has one king a side, the kings not adjacent") \
    X(R31, LAW_R31, "a FEN position has no pawn on the first or last rank") \
    X(R32, LAW_R32, "in a FEN position the side not to move is not in check") \
    X(R33, LAW_R33, "a FEN castling right needs its king and rook on their original squares") \
    X(R34, LAW_R34, "a FEN en passant square needs a pawn that just crossed it") \
    X(R35, LAW_R35, "FEN counters: halfmove clock 0 or more, fullmove number 1 or more") \
    X(R40, LAW_R40, "the Result tag and the termination marker agree") \
    X(R41, LAW_R41, "a result agrees with an ending the board proves, and no move follows it") \
    X(R42, LAW_R42, "+ marks a check and # a mate, on those moves only") \
    X(R43, LAW_R43, "a time forfeit where the winner cannot mate is a draw") \
    X(R44, LAW_R44, "the PlyCount tag (supplemental, not of the Seven Tag Roster) counts the plies") \
    X(R45, LAW_R45, "the Laws of the game's date: fivefold and 75 moves end games from 2014-07-01")

typedef enum LawId {
#define LAW_ENUM(id, article, text) LAW_ID_##id,
    LAW_TABLE(LAW_ENUM)
#undef LAW_ENUM
    LAW_COUNT
} LawId;

typedef struct LawInfo {
    const char *id;       /* "R6" */
    const char *article;  /* "FIDE 3.8.1" */
    const char *meaning;
} LawInfo;

extern const LawInfo law_info[LAW_COUNT];

/* The article or section a diagnostic code checks ("FIDE 3.10.2",
 * "PGN 8.2.3.5"), or NULL for a code no law or standard section states. */
const char *laws_cite(DiagCode code);

/* Which Laws of Chess judge a game (R45: FIDE 9.6; man page, THE LAWS BY
 * DATE).  The FIDE Laws in force from 1 July 2014 (adopted at the 84th
 * FIDE Congress, Tallinn; their article 9.6 a and b, now 9.6.1 and
 * 9.6.2) made fivefold repetition and the 75-move rule end the game at
 * once; under the earlier Laws those positions were claimable draws only (threefold, fifty moves: 9.2, 9.3)
 * and play could go on.  The other endings checked are in every edition
 * since 1974: checkmate, stalemate, and the dead positions of the material
 * list (the older Laws' article 10.4: K v K, K v K+B or K+N, K+B v K+B with
 * bishops on one colour).  The general dead-position rule (any position
 * from which no series of legal moves leads to mate) is in the Laws of 1997
 * (5.2 b) and after: LAWS_1997_FROM, for checks beyond that list. */
typedef enum Laws {
    LAWS_UNPROVEN = 0,   /* the date does not show which: the older laws, warned where 2014's differ */
    LAWS_1997,           /* a game played before 2014-07-01 */
    LAWS_2014,           /* a game played on or after 2014-07-01 */
} Laws;

/* --rules: by the game's date, or one set forced for every game. */
typedef enum RulesChoice { RULES_AUTO = 0, RULES_1997, RULES_2014 } RulesChoice;

#define LAWS_2014_FROM 20140701u /* YYYYMMDD: the first day of the 2014 Laws */
#define LAWS_1997_FROM 19970701u /* the first day of the 1997 Laws */

/* The laws for a game from its tags' dates: Date ("YYYY.MM.DD", any digit
 * may be '?'), else UTCDate; EventDate, the event's first day, can only
 * move the earliest possible day later.  NULL for a tag that is absent. */
Laws laws_for_dates(const char *date, const char *utc_date, const char *event_date);
/* The earliest and latest day (YYYYMMDD) a PGN date allows; false when it
 * is not a date (malformed, or a placeholder year below 1400). */
bool laws_date_bounds(const char *s, uint32_t *lo, uint32_t *hi);
/* laws_for_dates, and the earliest and latest day (YYYYMMDD) the dates
 * allow in *lo and *hi (0 and UINT32_MAX: unknown). */
Laws laws_date_range(const char *date, const char *utc_date, const char *event_date, uint32_t *lo, uint32_t *hi);
const char *laws_name(Laws l);  /* "2014", "1997" (the older laws, also for an unproven date) */

#endif
