/* bitboard.c: leaper, line and between tables, and the run-time choice of slider indexing. */
#include "bitboard.h"

#include <cpuid.h>
#include <stdlib.h>

uint64_t bb64_knight[CHESS_SQ_NB];
uint64_t bb64_king[CHESS_SQ_NB];
uint64_t bb64_pawn_attacks[CHESS_COLOR_NB][CHESS_SQ_NB];
uint64_t bb64_between[CHESS_SQ_NB][CHESS_SQ_NB];
uint64_t bb64_line[CHESS_SQ_NB][CHESS_SQ_NB];
uint64_t bb64_rook_rays[CHESS_SQ_NB];
uint64_t bb64_bishop_rays[CHESS_SQ_NB];
bool bb64_use_pext;

static bool s_ready;
static bb64_sliders_t s_method;

/* The set of squares reached from sq by the (file, rank) steps, one step each. */
static uint64_t s_leaper(int sq, const int (*steps)[2], int n)
{
    uint64_t b = 0;
    for (int i = 0; i < n; i++) {
        int f = (sq & 7) + steps[i][0], r = (sq >> 3) + steps[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8)
            b |= bb64_sq(8 * r + f);
    }
    return b;
}

static void s_init_leapers(void)
{
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int white_pawn[2][2] = {{-1, 1}, {1, 1}};
    static const int black_pawn[2][2] = {{-1, -1}, {1, -1}};
    for (int sq = 0; sq < CHESS_SQ_NB; sq++) {
        bb64_knight[sq] = s_leaper(sq, knight, 8);
        bb64_king[sq] = s_leaper(sq, king, 8);
        bb64_pawn_attacks[CHESS_WHITE][sq] = s_leaper(sq, white_pawn, 2);
        bb64_pawn_attacks[CHESS_BLACK][sq] = s_leaper(sq, black_pawn, 2);
    }
}

/* Needs the slider tables: between and line come from empty-board and mutual attacks. */
static void s_init_lines(void)
{
    for (int a = 0; a < CHESS_SQ_NB; a++) {
        bb64_rook_rays[a] = bb64_rook_attacks(a, 0);
        bb64_bishop_rays[a] = bb64_bishop_attacks(a, 0);
    }
    for (int a = 0; a < CHESS_SQ_NB; a++) {
        for (int b = 0; b < CHESS_SQ_NB; b++) {
            bb64_between[a][b] = bb64_line[a][b] = 0;
            if (a == b)
                continue;
            if (bb64_rook_rays[a] & bb64_sq(b)) {
                bb64_line[a][b] = (bb64_rook_rays[a] & bb64_rook_rays[b]) | bb64_sq(a) | bb64_sq(b);
                bb64_between[a][b] = bb64_rook_attacks(a, bb64_sq(b)) & bb64_rook_attacks(b, bb64_sq(a));
            } else if (bb64_bishop_rays[a] & bb64_sq(b)) {
                bb64_line[a][b] = (bb64_bishop_rays[a] & bb64_bishop_rays[b]) | bb64_sq(a) | bb64_sq(b);
                bb64_between[a][b] = bb64_bishop_attacks(a, bb64_sq(b)) & bb64_bishop_attacks(b, bb64_sq(a));
            }
        }
    }
}

bool bb64_cpu_has_pext(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("bmi2");
}

/* PEXT is microcoded (slow) on AMD families before Zen 3 (0x17 and older). */
static bool s_pext_is_fast(void)
{
    if (!bb64_cpu_has_pext())
        return false;
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(0, &eax, &ebx, &ecx, &edx))
        return false;
    bool amd = ebx == 0x68747541u; /* "Auth" of AuthenticAMD */
    if (!amd)
        return true;
    __get_cpuid(1, &eax, &ebx, &ecx, &edx);
    unsigned family = (eax >> 8) & 0xF;
    if (family == 0xF)
        family += (eax >> 20) & 0xFF;
    return family >= 0x19;
}

void bb64_select_sliders(bb64_sliders_t method)
{
    if (method == BB_SLIDERS_PEXT && !bb64_cpu_has_pext())
        method = BB_SLIDERS_MAGIC;
    slider_init(method);
    bb64_use_pext = method == BB_SLIDERS_PEXT;
    s_method = method;
}

bb64_sliders_t bb64_sliders(void)
{
    return s_method;
}

void bb64_init(void)
{
    if (s_ready)
        return;
    s_init_leapers();
    const char *force = getenv("OCTAD_CHESS_SLIDERS");
    bb64_sliders_t method = s_pext_is_fast() ? BB_SLIDERS_PEXT : BB_SLIDERS_MAGIC;
    if (force && force[0] == 'm')
        method = BB_SLIDERS_MAGIC;
    bb64_select_sliders(method);
    s_init_lines();
    s_ready = true;
}
