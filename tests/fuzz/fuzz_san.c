/* fuzz_san.c - libFuzzer target: SAN tokens against positions from a fixed table.
 *
 * The first byte picks a position; the rest is split at blanks into tokens,
 * each resolved with san_parse and, when it names a legal move, played, so
 * the fuzzer walks into new positions.  Invariants:
 *  - SAN_OK names a move of gen_legal; SAN_AMBIGUOUS lists >= 2 legal
 *    candidates; the status and reason are in range;
 *  - in every position reached, san_format of every legal move parses back
 *    to the same move without notation notes, its check mark agrees with
 *    gen_gives_check/mate, san_format_nomark is the same text without the
 *    mark, and the UCI text of the move parses back to the same move;
 *  - every position reached is self-consistent;
 *  - san_play (the fast path that resolves and makes in one) agrees with
 *    san_parse and pos_make: when it takes a token, san_parse names a move
 *    with the same mark and the position san_play leaves is the one
 *    pos_make makes of that move, field by field (san_play's result holds
 *    no move: the position tells it); when it does not, the position is
 *    untouched. */
#include "movegen.h"
#include "fuzz_common.h"
#include "san.h"

static const struct {
    const char *fen;
    bool c960;
} table[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", false},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false},
    {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false},
    {"4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2", false},
    {"4k3/1P6/8/8/8/8/6p1/4K2R w K - 0 1", false},
    {"6k1/5ppp/8/8/8/8/R7/1R5K w - - 0 1", false},
    {"2r1k2r/8/8/8/8/8/8/R3K2R w KQk - 0 1", false},
    {"k7/8/8/3N1N2/8/3N1N2/8/K7 w - - 0 1", false},
    {"k7/8/8/8/3Q1Q2/8/3Q1Q2/K7 w - - 0 1", false},
    {"4k3/8/8/8/8/8/8/R1R1K1R1 w - - 0 1", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    {"2r1kr2/8/8/8/8/8/8/1R2KR2 w FBfc - 0 1", true},
    {"rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1", true},
};
#define NTABLE (sizeof table / sizeof table[0])


/* san_play against san_parse + pos_make for one token (see the top). */
static void check_play(const Position *pos, const char *tok, size_t n, SanStatus st, const SanResult *r)
{
    char text[32];
    if (n >= sizeof text)
        return;
    memcpy(text, tok, n);
    text[n] = '\0'; /* san_play reads NUL-terminated tokens, as the reader stores them */
    Position q = *pos;
    uint32_t got = san_play(&q, text, n);
    if (!got) {
        FZ_CHECK(pos_equal(&q, pos), "san_play declined \"%s\" but changed the position", text);
        return;
    }
    FZ_CHECK(st == SAN_OK, "san_play took \"%s\", san_parse says %d", text, (int)st);
    FZ_CHECK(r->notes == 0, "san_play took \"%s\", which has notation notes", text);
    FZ_CHECK(san_played_mark(got) == r->mark, "san_play mark %d for \"%s\", san_parse %d",
             san_played_mark(got), text, r->mark);
    Position made;
    pos_make(pos, r->move, &made);
    FZ_CHECK(pos_equal(&q, &made), "san_play made \"%s\" differently from pos_make", text);
}

static void roundtrip(const Position *pos)
{
    MoveList ml;
    gen_legal(pos, &ml);
    for (int i = 0; i < ml.count; i++) {
        Move m = ml.moves[i];
        char buf[16], buf2[16], uci[8];
        memset(buf, 0, sizeof buf);
        size_t n = san_format(pos, m, buf);
        FZ_CHECK(n > 0 && n < 12 && strlen(buf) == n, "san_format length %zu", n);
        SanResult r;
        SanStatus st = san_parse(pos, buf, n, &r);
        FZ_CHECK(st == SAN_OK && r.move == m, "\"%s\" (move %04x) parses to status %d move %04x", buf, m, (int)st,
                 r.move);
        FZ_CHECK(r.notes == 0, "canonical \"%s\" has notes %#x", buf, r.notes);
        Position next;
        pos_make(pos, m, &next);
        bool check = pos_in_check(&next), mate = check && !gen_has_legal_move(&next);
        FZ_CHECK(gen_gives_check(pos, m) == check, "gen_gives_check wrong for \"%s\"", buf);
        int want = mate ? 2 : check ? 1 : 0;
        FZ_CHECK(r.mark == want, "\"%s\": mark %d, expected %d", buf, r.mark, want);
        size_t n2 = san_format_nomark(pos, m, buf2);
        FZ_CHECK(n2 == n - (want != 0) && memcmp(buf, buf2, n2) == 0, "nomark \"%s\" vs \"%s\"", buf2, buf);
        size_t u = move_to_uci(pos, m, uci);
        FZ_CHECK(u >= 4 && u <= 5 && strlen(uci) == u, "uci length %zu", u);
        st = san_parse(pos, uci, u, &r);
        FZ_CHECK(st == SAN_OK && r.move == m, "UCI \"%s\" of \"%s\" parses to status %d move %04x", uci, buf,
                 (int)st, r.move);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool init;
    if (!init) {
        chess_init();
        init = true;
    }
    if (size < 1 || size > 1024)
        return 0;
    Position pos;
    FenInfo fi = {0};
    size_t t = data[0] % NTABLE;
    FenError fe = pos_from_fen(&pos, table[t].fen, strlen(table[t].fen), table[t].c960, &fi);
    FZ_CHECK(fe == FEN_OK, "table FEN %zu rejected", t);
    roundtrip(&pos);
    int played = 0;
    size_t i = 1;
    while (i < size) {
        while (i < size && (data[i] == ' ' || data[i] == '\n'))
            i++;
        size_t s = i;
        while (i < size && data[i] != ' ' && data[i] != '\n')
            i++;
        if (i == s)
            break;
        SanResult r;
        memset(&r, 0xA5, sizeof r);
        SanStatus st = san_parse(&pos, (const char *)data + s, i - s, &r);
        FZ_CHECK(st == r.status && st >= SAN_OK && st <= SAN_ILLEGAL, "status %d / %d", (int)st, (int)r.status);
        check_play(&pos, (const char *)data + s, i - s, st, &r);
        MoveList ml;
        gen_legal(&pos, &ml);
        if (st == SAN_OK) {
            bool found = false;
            for (int k = 0; k < ml.count; k++)
                found |= ml.moves[k] == r.move;
            FZ_CHECK(found, "\"%.*s\" accepted as %04x, not a legal move", (int)(i - s), data + s, r.move);
            Position next;
            pos_make(&pos, r.move, &next);
            FZ_CHECK(pos_is_consistent(&next), "inconsistent after \"%.*s\"", (int)(i - s), data + s);
            pos = next;
            if (++played <= 16)
                roundtrip(&pos);
        } else if (st == SAN_AMBIGUOUS) {
            FZ_CHECK(r.ncand >= 2 && r.ncand <= 8, "ambiguous with %d candidates", r.ncand);
            for (int c = 0; c < r.ncand; c++) {
                bool found = false;
                for (int k = 0; k < ml.count; k++)
                    found |= ml.moves[k] == r.cand[c];
                FZ_CHECK(found, "ambiguity candidate %04x is not legal", r.cand[c]);
            }
        } else if (st == SAN_ILLEGAL) {
            FZ_CHECK(r.reason > ILL_NONE && r.reason <= ILL_PAWN_CAPTURE_FORWARD, "reason %d", (int)r.reason);
            FZ_CHECK(san_illegal_text(r.reason) != NULL, "no text for reason %d", (int)r.reason);
        }
    }
    return 0;
}
