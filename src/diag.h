/* diag.h - the one table of diagnostic codes: stable slug, default severity, meaning.
 * Slugs are an API for JSON/TSV users: never rename or renumber them; add at
 * the end of a block. */
#ifndef PGNCHECK_DIAG_H
#define PGNCHECK_DIAG_H

#include <stdint.h>

typedef enum Severity { SEV_NONE = 0, SEV_NOTE = 1, SEV_WARNING = 2, SEV_ERROR = 3 } Severity;

/* X(ID, "slug", default severity, "one-line meaning") */
#define DIAG_READER_TABLE(X) \
    X(BAD_BYTE, "bad-byte", SEV_WARNING, "a byte that is neither valid UTF-8 nor printable Latin-1") \
    X(UNTERMINATED_STRING, "unterminated-string", SEV_ERROR, "a string is not closed before the end of its line") \
    X(BAD_ESCAPE, "bad-escape", SEV_WARNING, "a backslash in a string not followed by \" or \\") \
    X(UNTERMINATED_COMMENT, "unterminated-comment", SEV_ERROR, "a { comment is not closed before the next game or the end of input") \
    X(RESERVED_TOKEN, "reserved-token", SEV_ERROR, "the reserved characters < and > in movetext") \
    X(UNEXPECTED_CHAR, "unexpected-char", SEV_ERROR, "a character that cannot start any PGN token") \
    X(BAD_TAG, "bad-tag", SEV_ERROR, "a malformed tag pair") \
    X(DUPLICATE_TAG, "duplicate-tag", SEV_WARNING, "the same tag name appears twice in one game") \
    X(MISSING_TERMINATION, "missing-termination", SEV_ERROR, "the game has no termination marker (1-0, 0-1, 1/2-1/2, *)") \
    X(UNBALANCED_VARIATION, "unbalanced-variation", SEV_ERROR, "a ( without its ) or a ) without its (") \
    X(BAD_NAG, "bad-nag", SEV_ERROR, "a NAG outside $0-$255") \
    X(NON_GAME_TEXT, "non-game-text", SEV_WARNING, "text between games that is not part of a game") \
    X(TAG_TOO_LONG, "tag-too-long", SEV_ERROR, "a tag value longer than the reader's cap") \
    X(TOO_MANY_TAGS, "too-many-tags", SEV_ERROR, "more tag pairs in one game than the reader's cap") \
    X(VARIATION_TOO_DEEP, "variation-too-deep", SEV_ERROR, "variations nested deeper than the reader's cap") \
    X(GAME_TOO_LONG, "game-too-long", SEV_ERROR, "more movetext elements in one game than the reader's cap") \
    X(TOKEN_TOO_LONG, "token-too-long", SEV_ERROR, "a symbol longer than any move") \
    X(SYNTAX, "syntax", SEV_ERROR, "movetext that breaks the PGN grammar") \
    X(BAD_CLOCK, "bad-clock", SEV_WARNING, "a [%clk] or [%emt] comment command with an unreadable time") \
    X(READ_ERROR, "read-error", SEV_ERROR, "the input could not be read") \
    X(EMPTY_GAME, "empty-game", SEV_NOTE, "a game with tags but no moves") \
    X(TOO_MANY_DIAGNOSTICS, "too-many-diagnostics", SEV_NOTE, "further diagnostics of this game were dropped") \
    X(NO_GAMES, "no-games", SEV_WARNING, "an input with no game: empty, or only blank lines, comments or text that is not a game") \
    X(OPEN_ERROR, "open-error", SEV_ERROR, "the input could not be opened: missing, unreadable, or a directory without -r")

#define DIAG_GAME_TABLE(X) \
    X(ILLEGAL_MOVE, "illegal-move", SEV_ERROR, "a move that is not legal in the position") \
    X(AMBIGUOUS_MOVE, "ambiguous-move", SEV_ERROR, "a move that matches several legal moves") \
    X(BAD_MOVE, "bad-move", SEV_ERROR, "a token in movetext that is not a move") \
    X(NULL_MOVE, "null-move", SEV_ERROR, "a null move (--, Z0, 0000) in the main line") \
    X(NULL_MOVE_VARIATION, "null-move-in-variation", SEV_WARNING, "a null move inside a variation (analysis convention, not chess)") \
    X(MOVES_AFTER_END, "moves-after-end", SEV_ERROR, "a move after the game was already over (a warning after an automatic draw in a game declared 1/2-1/2)") \
    X(WRONG_RESULT, "wrong-result", SEV_ERROR, "the board contradicts the declared result") \
    X(RESULT_MISMATCH, "result-mismatch", SEV_ERROR, "the Result tag and the termination marker disagree") \
    X(BAD_FEN, "bad-fen", SEV_ERROR, "the FEN tag does not describe a position a game can reach") \
    X(FEN_WARNING, "fen-counters", SEV_WARNING, "a FEN counter (halfmove clock, fullmove number) is missing or out of range") \
    X(SETUP_WITHOUT_FEN, "setup-without-fen", SEV_ERROR, "SetUp \"1\" without a FEN tag") \
    X(FEN_WITHOUT_SETUP, "fen-without-setup", SEV_WARNING, "a FEN tag without SetUp \"1\"") \
    X(VARIANT_SKIPPED, "variant-skipped", SEV_NOTE, "a variant this tool does not check; the game is skipped") \
    X(MISSING_TAG, "missing-tag", SEV_WARNING, "a tag of the Seven Tag Roster is missing") \
    X(BAD_RESULT_TAG, "bad-result-tag", SEV_ERROR, "the Result tag is not 1-0, 0-1, 1/2-1/2 or *") \
    X(PLYCOUNT, "plycount-mismatch", SEV_WARNING, "the PlyCount tag differs from the plies of the main line") \
    X(CHECK_MARK_MISSING, "check-mark-missing", SEV_WARNING, "a check without +") \
    X(CHECK_MARK_WRONG, "check-mark-wrong", SEV_WARNING, "a + or # on a move that gives no check") \
    X(MATE_MARK_MISSING, "mate-mark-missing", SEV_WARNING, "a checkmate marked + or not marked") \
    X(MATE_MARK_WRONG, "mate-mark-wrong", SEV_WARNING, "a # on a check that is not mate") \
    X(CASTLE_ZEROS, "castle-zeros", SEV_WARNING, "castling written with zeros (0-0)") \
    X(PROMO_NO_EQUALS, "promotion-without-equals", SEV_WARNING, "promotion written without = (e8Q)") \
    X(PROMO_LOWERCASE, "promotion-lowercase", SEV_WARNING, "promotion piece in lower case (e8=q)") \
    X(CAPTURE_MARK_MISSING, "capture-mark-missing", SEV_WARNING, "a capture written without x") \
    X(CAPTURE_MARK_SURPLUS, "capture-mark-surplus", SEV_WARNING, "x written on a move that captures nothing") \
    X(OVERDISAMBIGUATED, "over-disambiguated", SEV_WARNING, "more origin given than needed to name the move") \
    X(LONG_ALGEBRAIC, "long-algebraic", SEV_WARNING, "long algebraic notation (Ng1-f3)") \
    X(UCI_MOVE, "uci-move", SEV_WARNING, "a move in UCI coordinate notation (e2e4)") \
    X(SUFFIX_ANNOTATION, "suffix-annotation", SEV_NOTE, "!, ?, !!, ??, !? or ?! attached to a move (import format)") \
    X(EP_SUFFIX, "ep-suffix", SEV_WARNING, "e.p. written after an en passant capture") \
    X(PAWN_LETTER, "pawn-letter", SEV_WARNING, "a pawn move written with P") \
    X(MOVE_NUMBER, "move-number", SEV_WARNING, "a move number that disagrees with the position") \
    X(DECISIVE_NO_MATERIAL, "win-without-mating-material", SEV_WARNING, "a decisive result where the winner could never mate (legal only by resignation)") \
    X(UNFINISHED_DECIDED, "unfinished-but-decided", SEV_WARNING, "result * although the final position decides the game") \
    X(THREEFOLD, "threefold-available", SEV_NOTE, "a threefold repetition claim was available") \
    X(FIFTY_MOVES, "fifty-moves-available", SEV_NOTE, "a 50-move rule claim was available") \
    X(CHESS960_CASTLING, "chess960-castling", SEV_NOTE, "castling rights given with rook files") \
    X(TAG_NAME_CASE, "tag-name-case", SEV_WARNING, "a known tag name in the wrong case (fen for FEN): used unless the right case is given too") \
    X(GAME_FRAGMENT, "game-fragment", SEV_ERROR, "tagless movetext that starts after move 1: input starts inside a game") \
    X(LAWS_2014_ENDING, "laws-2014-ending", SEV_WARNING, "fivefold or 75 moves, an ending only from 2014-07-01, in a game the date does not place") \
    X(REPAIR_FOUND, "repair-found", SEV_NOTE, "a single edit after which the rest of a broken game replays legally to its result")

/* The export format of the PGN standard (section 8), checked under --strict
 * only (strict.c): each rule its own code, one finding per game. */
#define DIAG_EXPORT_TABLE(X) \
    X(EXPORT_TAG_ORDER, "export-tag-order", SEV_WARNING, "--strict: the Seven Tag Roster not first or not in its order") \
    X(EXPORT_TAG_SORT, "export-tag-ascii-order", SEV_WARNING, "--strict: the tags after the roster not in ASCII order of name") \
    X(EXPORT_BLANK_LINE, "export-blank-line", SEV_WARNING, "--strict: not one empty line after the tags and between games") \
    X(EXPORT_MOVE_NUMBER, "export-move-number", SEV_WARNING, "--strict: a move number missing or written where export format has none") \
    X(EXPORT_LINE_LENGTH, "export-line-length", SEV_WARNING, "--strict: a movetext line of more than 80 characters") \
    X(EXPORT_ESCAPE_LINE, "export-escape-line", SEV_WARNING, "--strict: a % escape line, which export format does not have") \
    X(EXPORT_SEMICOLON, "export-semicolon-comment", SEV_WARNING, "--strict: a ; comment, which export format writes in braces")

/* --duplicates only (dup.c, decided in input order by run.c). */
#define DIAG_DUP_TABLE(X) \
    X(DUPLICATE_GAME, "duplicate-game", SEV_NOTE, "--duplicates: an earlier game has the same main line from the same start") \
    X(DUPLICATE_RESULT, "duplicate-result-differs", SEV_WARNING, "--duplicates: an earlier game has the same main line and another result") \
    X(SAME_MOVES, "same-moves", SEV_NOTE, "--duplicates: an earlier game by other players has the same short main line: another game, not a copy")

/* --export only (pgn_export.c, said by run.c where the game is written). */
#define DIAG_COPY_TABLE(X) \
    X(EXPORT_AS_READ, "export-as-read", SEV_NOTE, "--export: a game without error copied as read, its text being one the export does not rewrite") \
    X(REPAIRED, "repaired", SEV_NOTE, "--repair: the one proven repair applied to the copy, old and new text")

/* Clock forensics (clock.c): games with [%clk] or [%emt] comments only. */
#define DIAG_CLOCK_TABLE(X) \
    X(TIME_CONTROL_UNREAD, "time-control-unread", SEV_NOTE, "a TimeControl in no form read, of PGN 9.6.1, FIDE or free text: the clocks are not held to it") \
    X(TIME_CONTROL_FORM, "time-control-guessed", SEV_NOTE, "a TimeControl read by a guess: free text, or minutes where PGN 9.6.1 has seconds") \
    X(TIME_CONTROL_CONTRADICTED, "time-control-contradicted", SEV_WARNING, "a first clock above what the TimeControl gives (time plus increment)") \
    X(CLOCK_NEGATIVE, "clock-negative", SEV_WARNING, "a clock below zero, shown by [%clk] or rebuilt from [%emt]") \
    X(CLOCK_EMT_MISMATCH, "clock-emt-mismatch", SEV_WARNING, "a move's [%emt] and the clocks around it disagree") \
    X(CLOCK_PERIOD_MISPLACED, "clock-period-misplaced", SEV_WARNING, "a period's time added after another move than the one ending the period, or never") \
    X(FLAG_WRONG_SIDE, "flag-wrong-side", SEV_WARNING, "a loss on time by the side whose clock was not running") \
    X(CLOCK_RISE, "clock-rise", SEV_NOTE, "a clock rose by more than the increment (give time, lag compensation, an arbiter's award)") \
    X(CLOCK_BERSERK, "clock-berserk", SEV_NOTE, "a lichess side started with half the time (berserk)") \
    X(CLOCK_PARTIAL, "clock-partial", SEV_NOTE, "clock comments on only some moves of the main line") \
    X(FLAG_UNMARKED, "flag-unmarked", SEV_NOTE, "the loser was on move with no time left, and no Termination says so")

#define DIAG_TABLE(X) DIAG_READER_TABLE(X) DIAG_GAME_TABLE(X) DIAG_EXPORT_TABLE(X) DIAG_DUP_TABLE(X) DIAG_COPY_TABLE(X) \
    DIAG_CLOCK_TABLE(X)

typedef enum DiagCode {
#define DIAG_ENUM(id, slug, sev, text) D_##id,
    DIAG_TABLE(DIAG_ENUM)
#undef DIAG_ENUM
    D_COUNT
} DiagCode;

typedef struct DiagInfo {
    const char *slug;
    Severity severity;
    const char *meaning;
} DiagInfo;

extern const DiagInfo diag_info[D_COUNT];
const char *diag_severity_name(Severity s);
/* Looks a slug up; returns D_COUNT if unknown. */
DiagCode diag_lookup(const char *slug, unsigned long len);

#endif
