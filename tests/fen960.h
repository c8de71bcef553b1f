/* fen960.h - test helper shared by tests/perft.c and tests/unit.c: does a
 * FEN describe a Chess960 position? */
#ifndef PGNCHECK_TESTS_FEN960_H
#define PGNCHECK_TESTS_FEN960_H

#include <stdbool.h>
#include <string.h>

#include "chess.h"

/* Decides whether a FEN is Chess960: Shredder letters in the castling field,
 * or a castling right whose king or outermost rook is off its standard square.
 * A malformed FEN answers false and is left for pos_from_fen to diagnose. */
static inline bool fen_looks_960(const char *fen)
{
    char board[64];
    memset(board, 0, sizeof board);
    const char *p = fen;
    while (*p == ' ')
        p++;
    int rank = 7, file = 0;
    for (; *p && *p != ' '; p++) {
        if (*p == '/') {
            rank--;
            file = 0;
        } else if (*p >= '1' && *p <= '8') {
            file += *p - '0';
        } else {
            if (rank < 0 || file > 7)
                return false;
            board[sq_make(file, rank)] = *p;
            file++;
        }
    }
    while (*p == ' ')
        p++;
    while (*p && *p != ' ')     /* side to move */
        p++;
    while (*p == ' ')
        p++;
    for (; *p && *p != ' '; p++) {
        switch (*p) {
        case '-':
            break;
        case 'K':
            if (board[4] != 'K' || board[7] != 'R')
                return true;
            break;
        case 'Q':
            if (board[4] != 'K' || board[0] != 'R')
                return true;
            break;
        case 'k':
            if (board[60] != 'k' || board[63] != 'r')
                return true;
            break;
        case 'q':
            if (board[60] != 'k' || board[56] != 'r')
                return true;
            break;
        default:
            return true;   /* Shredder-FEN file letter */
        }
    }
    return false;
}

#endif
