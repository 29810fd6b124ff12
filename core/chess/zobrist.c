/* zobrist.c: the two Zobrist key sets and the from-scratch hash. */
#include "zobrist.h"

#include "bitboard.h"

uint64_t zob_piece[2][CHESS_COLOR_NB][CHESS_PIECE_NB][CHESS_SQ_NB];
uint64_t zob_castle[2][CHESS_SQ_NB];
uint64_t zob_ep[2][8];
uint64_t zob_side[2];
uint64_t zob_depth[2][64];

/* SplitMix64: every seed gives an equidistributed, independent-looking stream. */
static uint64_t s_splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

void zob_init(void)
{
    static const uint64_t seeds[2] = {0x0123456789ABCDEFULL, 0xF1E2D3C4B5A69788ULL};
    for (int k = 0; k < 2; k++) {
        uint64_t st = seeds[k];
        for (int c = 0; c < CHESS_COLOR_NB; c++)
            for (int p = 0; p < CHESS_PIECE_NB; p++)
                for (int sq = 0; sq < CHESS_SQ_NB; sq++)
                    zob_piece[k][c][p][sq] = s_splitmix(&st);
        for (int sq = 0; sq < CHESS_SQ_NB; sq++)
            zob_castle[k][sq] = s_splitmix(&st);
        for (int f = 0; f < 8; f++)
            zob_ep[k][f] = s_splitmix(&st);
        zob_side[k] = s_splitmix(&st);
        for (int d = 0; d < 64; d++)
            zob_depth[k][d] = s_splitmix(&st);
    }
}

void zob_compute(chess_pos_t *pos)
{
    for (int k = 0; k < 2; k++) {
        uint64_t key = 0;
        for (int c = 0; c < CHESS_COLOR_NB; c++) {
            for (int p = 0; p < CHESS_PIECE_NB; p++) {
                uint64_t b = pos->pieces[p] & pos->colors[c];
                while (b)
                    key ^= zob_piece[k][c][p][bb64_pop(&b)];
            }
        }
        uint64_t r = pos->castle_rooks;
        while (r)
            key ^= zob_castle[k][bb64_pop(&r)];
        if (zob_ep_hashed(pos))
            key ^= zob_ep[k][pos->ep & 7];
        if (pos->side == CHESS_BLACK)
            key ^= zob_side[k];
        pos->key[k] = key;
    }
}
