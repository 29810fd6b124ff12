/* attacks.c: builds the 4x4 attack tables (leapers, slider lookups, lines) once. */
#include "bb.h"
#include "octad.h"

bb_t bb_knight_att[OCTAD_SQ_NB + 1];
bb_t bb_home_dist2[OCTAD_SQ_NB];
bb_t bb_king_att[OCTAD_SQ_NB];
bb_t bb_pawn_att[OCTAD_COLOR_NB][OCTAD_SQ_NB + 1];
bb_t bb_between[OCTAD_SQ_NB][OCTAD_SQ_NB];
bb_t bb_line[OCTAD_SQ_NB][OCTAD_SQ_NB];
bb_t bb_evasion[OCTAD_SQ_NB][OCTAD_SQ_NB + 1];
bb_t bb_rook_mask[OCTAD_SQ_NB + 1];
bb_t bb_bishop_mask[OCTAD_SQ_NB + 1];
bb_t bb_rook_table[OCTAD_SQ_NB + 1][16];
uint32_t bb_rook_magic[OCTAD_SQ_NB + 1];
uint32_t bb_bishop_magic[OCTAD_SQ_NB + 1];
bb_t bb_bishop_table[OCTAD_SQ_NB + 1][4];
bb_t bb_rook_empty[OCTAD_SQ_NB];
bb_t bb_bishop_empty[OCTAD_SQ_NB];

static const int ROOK_DIRS[4][2] = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } };
static const int BISHOP_DIRS[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };

static int s_on_board(int f, int r) { return f >= 0 && f < 4 && r >= 0 && r < 4; }

/* Bitboard of the leaper targets from sq for the given offsets. */
static bb_t s_leaper(int sq, const int (*d)[2], int n)
{
    bb_t b = 0;
    for (int i = 0; i < n; i++) {
        int f = bb_file(sq) + d[i][0], r = bb_rank(sq) + d[i][1];
        if (s_on_board(f, r))
            b |= bb_sq(r * 4 + f);
    }
    return b;
}

/* Slider attacks from sq along dirs, stopping at (and including) blockers in occ. */
static bb_t s_slide(int sq, const int (*dirs)[2], bb_t occ)
{
    bb_t b = 0;
    for (int i = 0; i < 4; i++) {
        int f = bb_file(sq) + dirs[i][0], r = bb_rank(sq) + dirs[i][1];
        while (s_on_board(f, r)) {
            b |= bb_sq(r * 4 + f);
            if (occ & bb_sq(r * 4 + f))
                break;
            f += dirs[i][0];
            r += dirs[i][1];
        }
    }
    return b;
}

/* Relevant occupancy: the slider's empty-board rays without their last square. */
static bb_t s_mask(int sq, const int (*dirs)[2])
{
    bb_t b = 0;
    for (int i = 0; i < 4; i++) {
        int f = bb_file(sq) + dirs[i][0], r = bb_rank(sq) + dirs[i][1];
        while (s_on_board(f + dirs[i][0], r + dirs[i][1])) {
            b |= bb_sq(r * 4 + f);
            f += dirs[i][0];
            r += dirs[i][1];
        }
    }
    return b;
}

/* Inverse of pext: spreads the low bits of idx over mask. */
static bb_t s_deposit(unsigned idx, bb_t mask)
{
    bb_t b = 0;
    for (unsigned bit = 1; mask; bit <<= 1, mask &= (bb_t)(mask - 1))
        if (idx & bit)
            b |= (bb_t)(mask & -mask);
    return b;
}

/* Fills table (2^bits entries) with the attacks of every occupancy under mask,
 * at bb_slider_index(); returns 0, or -1 if magic makes two different attack
 * sets collide (never with PEXT). */
static int s_fill_slider(int sq, const int dirs[4][2], bb_t mask, uint32_t magic, int bits, bb_t *table)
{
    uint32_t used = 0;
    for (unsigned i = 0; i < (1u << bb_count(mask)); i++) {
        bb_t occ = s_deposit(i, mask), att = s_slide(sq, dirs, occ);
        unsigned idx = bb_slider_index(occ, mask, magic, bits);
        if ((used >> idx & 1u) && table[idx] != att)
            return -1;
        used |= 1u << idx;
        table[idx] = att;
    }
    return 0;
}

/* Finds a multiplier that indexes mask's occupancies without harmful
 * collisions (a few random trials for <= 4 bits), and fills the table. */
static uint32_t s_find_magic(int sq, const int dirs[4][2], bb_t mask, int bits, bb_t *table)
{
    uint32_t x = 0x9E3779B9u ^ (uint32_t)sq;
    for (;;) {
        uint32_t r[3];
        for (int k = 0; k < 3; k++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            r[k] = x;
        }
        uint32_t magic = r[0] & r[1] & r[2];
        if (s_fill_slider(sq, dirs, mask, magic, bits, table) == 0)
            return magic;
    }
}

static void s_init_sliders(int sq)
{
    bb_rook_mask[sq] = s_mask(sq, ROOK_DIRS);
    bb_bishop_mask[sq] = s_mask(sq, BISHOP_DIRS);
    bb_rook_magic[sq] = s_find_magic(sq, ROOK_DIRS, bb_rook_mask[sq], 4, bb_rook_table[sq]);
    bb_bishop_magic[sq] = s_find_magic(sq, BISHOP_DIRS, bb_bishop_mask[sq], 2, bb_bishop_table[sq]);
    bb_rook_empty[sq] = s_slide(sq, ROOK_DIRS, 0);
    bb_bishop_empty[sq] = s_slide(sq, BISHOP_DIRS, 0);
}

static void s_init_lines(int a)
{
    for (int b = 0; b < OCTAD_SQ_NB; b++) {
        bb_between[a][b] = 0;
        bb_line[a][b] = 0;
        if (a == b)
            continue;
        if (bb_rook_empty[a] & bb_sq(b)) {
            bb_between[a][b] = s_slide(a, ROOK_DIRS, bb_sq(b)) & s_slide(b, ROOK_DIRS, bb_sq(a));
            bb_line[a][b] = (bb_t)((bb_rook_empty[a] & bb_rook_empty[b]) | bb_sq(a) | bb_sq(b));
        } else if (bb_bishop_empty[a] & bb_sq(b)) {
            bb_between[a][b] = s_slide(a, BISHOP_DIRS, bb_sq(b)) & s_slide(b, BISHOP_DIRS, bb_sq(a));
            bb_line[a][b] = (bb_t)((bb_bishop_empty[a] & bb_bishop_empty[b]) | bb_sq(a) | bb_sq(b));
        }
    }
}

void octad_init(void)
{
    static const int KNIGHT_D[8][2] = { { 1, 2 }, { 2, 1 }, { 2, -1 }, { 1, -2 },
                                        { -1, -2 }, { -2, -1 }, { -2, 1 }, { -1, 2 } };
    static const int KING_D[8][2] = { { 1, 0 }, { 1, 1 }, { 0, 1 }, { -1, 1 },
                                      { -1, 0 }, { -1, -1 }, { 0, -1 }, { 1, -1 } };
    static const int DIST2_D[2][2] = { { -2, 0 }, { 2, 0 } };
    static const int WPAWN_D[2][2] = { { -1, 1 }, { 1, 1 } };
    static const int BPAWN_D[2][2] = { { -1, -1 }, { 1, -1 } };
    static int done;
    if (done)
        return;
    for (int sq = 0; sq < OCTAD_SQ_NB; sq++) {
        bb_knight_att[sq] = s_leaper(sq, KNIGHT_D, 8);
        bb_king_att[sq] = s_leaper(sq, KING_D, 8);
        bb_home_dist2[sq] = s_leaper(sq, DIST2_D, 2);
        bb_pawn_att[OCTAD_WHITE][sq] = s_leaper(sq, WPAWN_D, 2);
        bb_pawn_att[OCTAD_BLACK][sq] = s_leaper(sq, BPAWN_D, 2);
        s_init_sliders(sq);
    }
    for (int sq = 0; sq < OCTAD_SQ_NB; sq++)
        s_init_lines(sq);
    for (int k = 0; k < OCTAD_SQ_NB; k++) {
        for (int c = 0; c < OCTAD_SQ_NB; c++)
            bb_evasion[k][c] = (bb_t)(bb_between[k][c] | bb_sq(c));
        bb_evasion[k][OCTAD_SQ_NONE] = 0xFFFF;
    }
    done = 1;
}
