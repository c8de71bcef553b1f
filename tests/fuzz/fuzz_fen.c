/* fuzz_fen.c - libFuzzer target: arbitrary bytes as a FEN, standard and Chess960.
 *
 * When the FEN is accepted: the position is self-consistent, pos_to_fen
 * re-parses to the same position (same key and board, same text again),
 * and every legal move leads to a self-consistent position. */
#include "movegen.h"
#include "fuzz_common.h"

static void check_fen(const uint8_t *data, size_t size, bool c960)
{
    Position pos, again;
    FenInfo info = {0};
    FenError e = pos_from_fen(&pos, (const char *)data, size, c960, &info);
    FZ_CHECK(e >= FEN_OK && e < FEN_ERR_COUNT, "error code %d out of range", (int)e);
    FZ_CHECK(pos_fen_error_text(e) != NULL, "no text for error %d", (int)e);
    if (e != FEN_OK)
        return;
    FZ_CHECK(pos_is_consistent(&pos), "accepted FEN gives an inconsistent position (chess960=%d)", c960);
    FenInfo m = {0};
    FenError em = pos_check_material(&pos, &m);
    FZ_CHECK(em == FEN_OK || (em == FEN_ERR_PROMOTED && m.men[PAWN] <= 8 && fen_promoted(&m) > 8 - m.men[PAWN]),
             "pos_check_material %d with %d promoted, %d pawns", (int)em, fen_promoted(&m), m.men[PAWN]);
    char fen[128], fen2[128];
    memset(fen, 0x55, sizeof fen);
    size_t n = pos_to_fen(&pos, fen);
    FZ_CHECK(n <= 100 && fen[n] == '\0' && strlen(fen) == n, "pos_to_fen length %zu", n);
    FenInfo info2 = {0};
    FenError e2 = pos_from_fen(&again, fen, n, c960, &info2);
    FZ_CHECK(e2 == FEN_OK, "pos_to_fen output \"%s\" rejected: %s", fen, pos_fen_error_text(e2));
    FZ_CHECK(again.key == pos.key, "key changed through \"%s\"", fen);
    FZ_CHECK(memcmp(again.board, pos.board, 64) == 0 && again.side == pos.side && again.castling == pos.castling &&
                 again.ep_legal == pos.ep_legal && again.halfmove == pos.halfmove && again.fullmove == pos.fullmove,
             "position changed through \"%s\"", fen);
    size_t n2 = pos_to_fen(&again, fen2);
    FZ_CHECK(n2 == n && memcmp(fen, fen2, n) == 0, "FEN not stable: \"%s\" then \"%s\"", fen, fen2);

    MoveList ml;
    gen_legal(&pos, &ml);
    FZ_CHECK(ml.count >= 0 && ml.count <= MAX_MOVES, "move count %d", ml.count);
    FZ_CHECK((ml.count > 0) == gen_has_legal_move(&pos), "gen_has_legal_move disagrees with gen_legal in \"%s\"", fen);
    for (int i = 0; i < ml.count; i++) {
        Position next;
        FZ_CHECK(gen_move_is_legal(&pos, ml.moves[i]), "generated move %04x not legal in \"%s\"", ml.moves[i], fen);
        pos_make(&pos, ml.moves[i], &next);
        FZ_CHECK(pos_is_consistent(&next), "move %04x from \"%s\" gives an inconsistent position", ml.moves[i], fen);
        FZ_CHECK(!pos_square_attacked(&next, next.king_sq[pos.side], next.side, next.by_type[0]),
                 "move %04x from \"%s\" leaves the king attacked", ml.moves[i], fen);
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
    if (size > 512)
        return 0;
    check_fen(data, size, false);
    check_fen(data, size, true);
    return 0;
}
