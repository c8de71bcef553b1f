/* laws.c - the law table, the citation of each diagnostic code, and the laws by date (see laws.h). */
#include "laws.h"

#include <stddef.h>
#include <stdint.h>

const LawInfo law_info[LAW_COUNT] = {
#define LAW_ROW(id, article, text) {#id, article, text},
    LAW_TABLE(LAW_ROW)
#undef LAW_ROW
};

/* Beside the diagnostic table (diag.h): a code added there without a line
 * here cites nothing until one is written. */
static const char *const cite[D_COUNT] = {
    [D_BAD_BYTE] = "PGN 4.1",
    [D_UNTERMINATED_STRING] = "PGN 7",
    [D_BAD_ESCAPE] = "PGN 7",
    [D_UNTERMINATED_COMMENT] = "PGN 5",
    [D_RESERVED_TOKEN] = "PGN 7",
    [D_UNEXPECTED_CHAR] = "PGN 7",
    [D_BAD_TAG] = "PGN 8.1",
    [D_DUPLICATE_TAG] = "PGN 8.1",
    [D_MISSING_TERMINATION] = "PGN 8.2.6",
    [D_UNBALANCED_VARIATION] = "PGN 8.2.5",
    [D_BAD_NAG] = "PGN 8.2.4",
    [D_SYNTAX] = "PGN 18",

    [D_ILLEGAL_MOVE] = "FIDE 3.10.2",
    [D_AMBIGUOUS_MOVE] = "PGN 8.2.3.4",
    [D_BAD_MOVE] = "PGN 8.2.3",
    [D_NULL_MOVE] = LAW_R4,
    [D_MOVES_AFTER_END] = "FIDE 5, 9.6",
    [D_WRONG_RESULT] = "FIDE 5, 6.9, 9.6",
    [D_RESULT_MISMATCH] = LAW_R40,
    [D_BAD_FEN] = "FIDE 3.10.3; PGN 16.1",
    [D_FEN_WARNING] = LAW_R35,
    [D_SETUP_WITHOUT_FEN] = "PGN 9.7.1",
    [D_FEN_WITHOUT_SETUP] = "PGN 9.7.1",
    [D_MISSING_TAG] = "PGN 8.1.1",
    [D_BAD_RESULT_TAG] = "PGN 8.1.1.7",
    [D_PLYCOUNT] = LAW_R44,
    [D_CHECK_MARK_MISSING] = LAW_R42,
    [D_CHECK_MARK_WRONG] = LAW_R42,
    [D_MATE_MARK_MISSING] = LAW_R42,
    [D_MATE_MARK_WRONG] = LAW_R42,
    [D_CASTLE_ZEROS] = "PGN 8.2.3.3",
    [D_PROMO_NO_EQUALS] = "PGN 8.2.3.3",
    [D_PROMO_LOWERCASE] = "PGN 8.2.3.3",
    [D_CAPTURE_MARK_MISSING] = "PGN 8.2.3.3",
    [D_CAPTURE_MARK_SURPLUS] = "PGN 8.2.3.3",
    [D_OVERDISAMBIGUATED] = "PGN 8.2.3.4",
    [D_LONG_ALGEBRAIC] = "PGN 8.2.3.7",
    [D_UCI_MOVE] = "PGN 8.2.3.7",
    [D_SUFFIX_ANNOTATION] = "PGN 8.2.3.8",
    [D_EP_SUFFIX] = "PGN 8.2.3.3",
    [D_PAWN_LETTER] = "PGN 8.2.3.2",
    [D_MOVE_NUMBER] = "PGN 8.2.2",
    [D_DECISIVE_NO_MATERIAL] = "FIDE 5.1.2, 6.9",
    [D_UNFINISHED_DECIDED] = "FIDE 5, 9.6",
    [D_THREEFOLD] = "FIDE 9.2",
    [D_FIFTY_MOVES] = "FIDE 9.3",
    [D_LAWS_2014_ENDING] = LAW_R45,

    [D_EXPORT_TAG_ORDER] = "PGN 8.1.1",
    [D_EXPORT_TAG_SORT] = "PGN 8.1.1",
    [D_EXPORT_BLANK_LINE] = "PGN 8.1, 8.2.1",
    [D_EXPORT_MOVE_NUMBER] = "PGN 8.2.2.2",
    [D_EXPORT_LINE_LENGTH] = "PGN 8.2.1",
    [D_EXPORT_ESCAPE_LINE] = "PGN 6, 8",
    [D_EXPORT_SEMICOLON] = "PGN 5, 8",

    [D_TIME_CONTROL_UNREAD] = "PGN 9.6.1",
    [D_TIME_CONTROL_FORM] = "PGN 9.6.1",
    [D_TIME_CONTROL_CONTRADICTED] = "PGN 9.6.1",
    [D_CLOCK_NEGATIVE] = "FIDE 6.1, 6.9",
    [D_CLOCK_PERIOD_MISPLACED] = "FIDE 6.3; PGN 9.6.1",
    [D_FLAG_WRONG_SIDE] = "FIDE 6.2.1, 6.9",
    [D_CLOCK_RISE] = "FIDE 7.5.5",
    [D_FLAG_UNMARKED] = "FIDE 6.9; PGN 9.8.1",
};

const char *laws_cite(DiagCode code)
{
    return (unsigned)code < D_COUNT ? cite[code] : NULL;
}

/* ---- The laws by date (R45) ---- */

/* Reads n characters of a date field, each a digit or '?', as the least
 * and the greatest number they allow; false for any other character. */
static bool date_field(const char *s, int n, uint32_t *lo, uint32_t *hi)
{
    *lo = *hi = 0;
    for (int i = 0; i < n; i++) {
        char ch = s[i];
        if (ch >= '0' && ch <= '9') {
            *lo = *lo * 10 + (uint32_t)(ch - '0');
            *hi = *hi * 10 + (uint32_t)(ch - '0');
        } else if (ch == '?') {
            *lo = *lo * 10;
            *hi = *hi * 10 + 9;
        } else
            return false;
    }
    return true;
}

/* s[0..n) all digits. */
static bool digits(const char *s, int n)
{
    for (int i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

static uint32_t two_digits(const char *s)
{
    return (uint32_t)(s[0] - '0') * 10 + (uint32_t)(s[1] - '0');
}

bool laws_date_bounds(const char *s, uint32_t *lo, uint32_t *hi)
{
    if (!s)
        return false;
    /* The two forms of nearly every game, "YYYY.MM.DD" (a month and day
     * that exist: not 00) and "YYYY.??.??", from 1400 on, read at once:
     * the bounds the reading below gives them.  Any other form, or a
     * value it takes otherwise, goes the long way. */
    if (digits(s, 4) && s[4] == '.') {
        /* (each character looked at only after those before it: none
         * past the string's end) */
        bool known = digits(s + 5, 2);
        if ((known || (s[5] == '?' && s[6] == '?')) && s[7] == '.' &&
            (known ? digits(s + 8, 2) : s[8] == '?' && s[9] == '?') && !s[10]) {
            uint32_t y = (uint32_t)(s[0] - '0') * 1000 + (uint32_t)(s[1] - '0') * 100 + two_digits(s + 2);
            uint32_t m = known ? two_digits(s + 5) : 0, d = known ? two_digits(s + 8) : 0;
            if (y >= 1400 && !known) {
                *lo = (y * 100 + 1) * 100 + 1;
                *hi = (y * 100 + 12) * 100 + 31;
                return true;
            }
            if (y >= 1400 && m >= 1 && m <= 12 && d >= 1 && d <= 31) {
                *lo = *hi = (y * 100 + m) * 100 + d;
                return true;
            }
        }
    }
    uint32_t ylo, yhi, mlo = 1, mhi = 12, dlo = 1, dhi = 31;
    if (!date_field(s, 4, &ylo, &yhi))
        return false;
    s += 4;
    /* The standard's separator is '.'; '-' and '/' are read as well (a
     * date is a date), and the month and day may be left out. */
    char sep = *s;
    if (sep == '.' || sep == '-' || sep == '/') {
        uint32_t a, b;
        if (!date_field(s + 1, 2, &a, &b))
            return false;
        s += 3;
        /* "00" for an unknown month or day is common in old databases. */
        if (a || b) {
            if (a > 12 || (a == 0 && b < 1))
                return false;
            mlo = a < 1 ? 1 : a;
            mhi = b > 12 ? 12 : b;
        }
        if (*s == sep) {
            if (!date_field(s + 1, 2, &a, &b))
                return false;
            s += 3;
            if (a || b) {
                if (a > 31 || (a == 0 && b < 1))
                    return false;
                dlo = a < 1 ? 1 : a;
                dhi = b > 31 ? 31 : b;
            }
        }
    }
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s)
        return false;
    /* No game under the modern laws of movement is older than 1400: a year
     * such as 0000 holds the place of an unknown one. */
    if (yhi < 1400)
        return false;
    if (ylo < 1400)
        ylo = 1400;
    *lo = (ylo * 100 + mlo) * 100 + dlo;
    *hi = (yhi * 100 + mhi) * 100 + dhi;
    return true;
}

Laws laws_date_range(const char *date, const char *utc_date, const char *event_date, uint32_t *plo,
                     uint32_t *phi)
{
    uint32_t lo, hi;
    if (!laws_date_bounds(date ? date : utc_date, &lo, &hi)) {
        lo = 0;
        hi = UINT32_MAX;
    }
    /* A game is played on or after its event's first day. */
    uint32_t elo, ehi;
    if (laws_date_bounds(event_date, &elo, &ehi) && elo > lo)
        lo = elo;
    if (lo > hi) /* an event that starts after the game's date: no date is sure */
        lo = 0, hi = UINT32_MAX;
    *plo = lo;
    *phi = hi;
    if (hi < LAWS_2014_FROM)
        return LAWS_1997;
    if (lo >= LAWS_2014_FROM)
        return LAWS_2014;
    return LAWS_UNPROVEN;
}

Laws laws_for_dates(const char *date, const char *utc_date, const char *event_date)
{
    uint32_t lo, hi;
    return laws_date_range(date, utc_date, event_date, &lo, &hi);
}

const char *laws_name(Laws l) { return l == LAWS_2014 ? "2014" : "1997"; }
