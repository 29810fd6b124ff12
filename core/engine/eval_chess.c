/* eval_chess.c: the chess and Chess960 static evaluation (eval.h). Every term
 * has a middlegame and an endgame value, blended by the phase (minor pieces
 * 1, rooks 2, queens 4; 24 at the start). The weights are
 * eval_chess_params.h's list (with the king-danger table) and the
 * piece-square values eval_chess_pst.h's table. */
#include "chess/bitboard.h"
#include "eval.h"
#include "eval_chess_params.h"
#include "eval_chess_pst.h"

typedef struct {
    int mg, eg;
} s_score_t;

#ifdef EVAL_CHESS_TUNABLE
#define S_WEIGHTS /* changeable */
#define EVAL_CHESS_NAME(name, value) #name,
const char *const eval_chess_names[EVAL_CHESS_NPARAMS] = { EVAL_CHESS_PARAMS(EVAL_CHESS_NAME) };
#else
#define S_WEIGHTS static const
#endif
#define EVAL_CHESS_VALUE(name, value) value,
S_WEIGHTS int eval_chess_w[EVAL_CHESS_NPARAMS] = { EVAL_CHESS_PARAMS(EVAL_CHESS_VALUE) };
S_WEIGHTS int eval_chess_pst[2][CHESS_PIECE_NB][64] = EVAL_CHESS_PST;
S_WEIGHTS int eval_chess_mob[2][4][EVAL_CHESS_MOB_N] = EVAL_CHESS_MOBILITY;
S_WEIGHTS int eval_chess_kd[2][EVAL_CHESS_KD_N] = EVAL_CHESS_KING_DANGER;
#ifdef EVAL_CHESS_TUNABLE
int eval_chess_used[EVAL_CHESS_USED_MAX];
int eval_chess_nused;
#define S_USE(entry) (eval_chess_used[eval_chess_nused++] = (entry))
#else
#define S_USE(entry) ((void)0)
#endif

#define W(name) eval_chess_w[EP_##name]
#define WS(name) ((s_score_t){ W(name##_mg), W(name##_eg) })

static const int S_PHASE[CHESS_PIECE_NB] = { 0, 1, 1, 2, 4, 0 };
static const int S_KING_ATTACK[CHESS_PIECE_NB] = { 0, 2, 2, 3, 5, 0 };

/* Material of a piece type. */
static s_score_t s_value(int t)
{
    switch (t) {
    case CHESS_PAWN: return WS(pawn);
    case CHESS_KNIGHT: return WS(knight);
    case CHESS_BISHOP: return WS(bishop);
    case CHESS_ROOK: return WS(rook);
    case CHESS_QUEEN: return WS(queen);
    default: return (s_score_t){ 0, 0 };
    }
}

/* Mobility of a piece of type t (knight to queen) that reaches n safe squares. */
static s_score_t s_mobility(int t, int n)
{
    if (n >= EVAL_CHESS_MOB_N)
        n = EVAL_CHESS_MOB_N - 1;
    S_USE(EVAL_CHESS_USED_MOB + (t - CHESS_KNIGHT) * EVAL_CHESS_MOB_N + n);
    return (s_score_t){ eval_chess_mob[0][t - CHESS_KNIGHT][n], eval_chess_mob[1][t - CHESS_KNIGHT][n] };
}

/* A passed pawn on relative rank r (1..6). */
static s_score_t s_passed(int r)
{
    switch (r) {
    case 1: return WS(passed1);
    case 2: return WS(passed2);
    case 3: return WS(passed3);
    case 4: return WS(passed4);
    case 5: return WS(passed5);
    case 6: return WS(passed6);
    default: return (s_score_t){ 0, 0 };
    }
}

static void s_add(s_score_t *s, s_score_t v, int times)
{
    s->mg += v.mg * times;
    s->eg += v.eg * times;
}

/* The piece-square value of a piece of type t of colour c on sq. */
static s_score_t s_psq(int t, int c, int sq)
{
    int rsq = c == CHESS_WHITE ? sq : sq ^ 56;
    return (s_score_t){ eval_chess_pst[0][t][rsq], eval_chess_pst[1][t][rsq] };
}

/* What each side attacks: everything, and by pawns, minor pieces, rooks. */
typedef struct {
    uint64_t all, pawn, minor, rook;
} s_att_t;

/* The files next to file f. */
static uint64_t s_adjacent_files(int f)
{
    return (f > 0 ? BB_FILE_A << (f - 1) : 0) | (f < 7 ? BB_FILE_A << (f + 1) : 0);
}

/* The ranks strictly ahead of rank r for colour c. */
static uint64_t s_ahead(int c, int r)
{
    return c == CHESS_WHITE ? (r < 7 ? ~0ULL << (8 * (r + 1)) : 0) : (r > 0 ? ~0ULL >> (8 * (8 - r)) : 0);
}

/* King distance (Chebyshev) between two squares. */
static int s_distance(int a, int b)
{
    int df = (a & 7) - (b & 7), dr = (a >> 3) - (b >> 3);
    df = df < 0 ? -df : df;
    dr = dr < 0 ? -dr : dr;
    return df > dr ? df : dr;
}

/* Endgame extras of colour c's passed pawn on sq at relative rank r (1..6):
 * the kings' distances to the square in front (the enemy's far, our own
 * near), and a free square in front that the enemy does not attack. */
static int s_passer_eg(const chess_pos_t *p, int c, int sq, int r, const s_att_t *att)
{
    int w = r >= 3 ? r - 2 : 0, stop = c == CHESS_WHITE ? sq + 8 : sq - 8;
    if (w == 0)
        return 0;
    int own_k = bb64_lsb(p->pieces[CHESS_KING] & p->colors[c]), opp_k = bb64_lsb(p->pieces[CHESS_KING] & p->colors[c ^ 1]);
    int v = W(passer_king_eg) * w * (2 * s_distance(opp_k, stop) - s_distance(own_k, stop)) / 2;
    uint64_t stop_bb = bb64_sq(stop);
    if (!((p->colors[0] | p->colors[1]) & stop_bb) && !(att[c ^ 1].all & stop_bb))
        v += W(passer_free_eg) * w;
    return v;
}

/* Pawn structure of colour c: doubled, isolated, passed. */
static s_score_t s_pawns(const chess_pos_t *p, int c, const s_att_t *att)
{
    s_score_t s = { 0, 0 };
    uint64_t own = p->pieces[CHESS_PAWN] & p->colors[c], opp = p->pieces[CHESS_PAWN] & p->colors[c ^ 1];
    for (int f = 0; f < 8; f++) {
        int n = bb64_count(own & (BB_FILE_A << f));
        if (n > 1)
            s_add(&s, WS(doubled), n - 1);
        if (n && !(own & s_adjacent_files(f)))
            s_add(&s, WS(isolated), n);
    }
    for (uint64_t b = own; b;) {
        int sq = bb64_pop(&b), f = sq & 7, r = sq >> 3, rel = c == CHESS_WHITE ? r : 7 - r;
        uint64_t files = (BB_FILE_A << f) | s_adjacent_files(f);
        if (!(opp & files & s_ahead(c, r))) {
            s_add(&s, s_passed(rel), 1);
            s.eg += s_passer_eg(p, c, sq, rel, att);
        }
    }
    return s;
}

/* Threats of colour c: its pawns attacking pieces, its minor pieces attacking
 * rooks and queens, its rooks attacking queens, and enemy pieces (not the
 * king) it attacks that nothing defends. */
static s_score_t s_threats(const chess_pos_t *p, int c, const s_att_t *att)
{
    s_score_t s = { 0, 0 };
    uint64_t opp = p->colors[c ^ 1], pieces = opp & ~p->pieces[CHESS_PAWN] & ~p->pieces[CHESS_KING];
    s_add(&s, WS(threat_pawn), bb64_count(att[c].pawn & pieces));
    s_add(&s, WS(threat_minor), bb64_count(att[c].minor & opp & (p->pieces[CHESS_ROOK] | p->pieces[CHESS_QUEEN])));
    s_add(&s, WS(threat_rook), bb64_count(att[c].rook & opp & p->pieces[CHESS_QUEEN]));
    s_add(&s, WS(hanging), bb64_count(att[c].all & opp & ~p->pieces[CHESS_KING] & ~att[c ^ 1].all));
    return s;
}

/* Outposts: colour c's knight or bishop on sq, on relative rank 4-6, guarded
 * by an own pawn, where no enemy pawn can ever attack it. */
static s_score_t s_outpost(const chess_pos_t *p, int c, int t, int sq, uint64_t own_pawn_att)
{
    int r = sq >> 3, rel = c == CHESS_WHITE ? r : 7 - r;
    uint64_t opp = p->pieces[CHESS_PAWN] & p->colors[c ^ 1];
    if (rel < 3 || rel > 5 || !(own_pawn_att & bb64_sq(sq)) || (opp & s_adjacent_files(sq & 7) & s_ahead(c, r)))
        return (s_score_t){ 0, 0 };
    return t == CHESS_KNIGHT ? WS(outpost_knight) : WS(outpost_bishop);
}

/* Attacks of a piece of type t on sq with occupancy occ. */
static uint64_t s_attacks(int t, int sq, uint64_t occ)
{
    switch (t) {
    case CHESS_KNIGHT:
        return bb64_knight[sq];
    case CHESS_BISHOP:
        return bb64_bishop_attacks(sq, occ);
    case CHESS_ROOK:
        return bb64_rook_attacks(sq, occ);
    default:
        return bb64_bishop_attacks(sq, occ) | bb64_rook_attacks(sq, occ);
    }
}

/* Squares attacked by the pawns of colour c. */
static uint64_t s_pawn_attacks(const chess_pos_t *p, int c)
{
    uint64_t pw = p->pieces[CHESS_PAWN] & p->colors[c];
    if (c == CHESS_WHITE)
        return ((pw & ~BB_FILE_A) << 7) | ((pw & ~BB_FILE_H) << 9);
    return ((pw & ~BB_FILE_A) >> 9) | ((pw & ~BB_FILE_H) >> 7);
}

/* Rook files and ranks of colour c's rook on sq. */
static s_score_t s_rook(const chess_pos_t *p, int c, int sq)
{
    s_score_t s = { 0, 0 };
    uint64_t file = BB_FILE_A << (sq & 7);
    if (!(p->pieces[CHESS_PAWN] & file))
        s_add(&s, WS(rook_open), 1);
    else if (!(p->pieces[CHESS_PAWN] & p->colors[c] & file))
        s_add(&s, WS(rook_semi), 1);
    if ((c == CHESS_WHITE ? sq >> 3 : 7 - (sq >> 3)) == 6)
        s_add(&s, WS(rook_seventh), 1);
    return s;
}

/* Pieces of colour c: material, squares, mobility, outposts, attacks on the
 * enemy king's ring (counted into *king_attack); adds the phase into *phase
 * and fills *att with what colour c attacks. */
static s_score_t s_pieces(const chess_pos_t *p, int c, int *phase, int *king_attack, s_att_t *att)
{
    s_score_t s = { 0, 0 };
    uint64_t occ = p->colors[0] | p->colors[1], own = p->colors[c];
    uint64_t safe = ~own & ~s_pawn_attacks(p, c ^ 1);
    uint64_t ring = bb64_king[bb64_lsb(p->pieces[CHESS_KING] & p->colors[c ^ 1])];
    att->pawn = s_pawn_attacks(p, c);
    att->all = att->pawn | bb64_king[bb64_lsb(p->pieces[CHESS_KING] & own)];
    att->minor = att->rook = 0;
    for (int t = CHESS_PAWN; t <= CHESS_KING; t++) {
        for (uint64_t b = p->pieces[t] & own; b;) {
            int sq = bb64_pop(&b);
            s_add(&s, s_value(t), 1);
            s_add(&s, s_psq(t, c, sq), 1);
            *phase += S_PHASE[t];
            if (t == CHESS_PAWN || t == CHESS_KING)
                continue;
            uint64_t a = s_attacks(t, sq, occ);
            att->all |= a;
            s_add(&s, s_mobility(t, bb64_count(a & safe)), 1);
            *king_attack += S_KING_ATTACK[t] * bb64_count(a & ring);
            if (t == CHESS_KNIGHT || t == CHESS_BISHOP) {
                att->minor |= a;
                s_add(&s, s_outpost(p, c, t, sq, att->pawn), 1);
            }
            if (t == CHESS_ROOK) {
                att->rook |= a;
                s_add(&s, s_rook(p, c, sq), 1);
            }
        }
    }
    if (bb64_count(p->pieces[CHESS_BISHOP] & own) >= 2)
        s_add(&s, WS(bishop_pair), 1);
    return s;
}

/* Enemy pawns storming colour c's king on its first two ranks (rank r):
 * on the three files around it, one or two ranks ahead (near) or three
 * (far); and each of those files without a pawn of c's. */
static int s_storm(const chess_pos_t *p, int c, int f, int r)
{
    uint64_t own = p->pieces[CHESS_PAWN] & p->colors[c], enemy = p->pieces[CHESS_PAWN] & p->colors[c ^ 1];
    uint64_t near = c == CHESS_WHITE ? 0xFFFFULL << (8 * (r + 1)) : 0xFFFFULL << (8 * (r - 2));
    uint64_t far = c == CHESS_WHITE ? 0xFFULL << (8 * (r + 3)) : 0xFFULL << (8 * (r - 3));
    int v = 0;
    for (int g = f > 0 ? f - 1 : f; g <= f + 1 && g < 8; g++) {
        uint64_t file = BB_FILE_A << g;
        v += W(storm_near_mg) * bb64_count(enemy & file & near) + W(storm_far_mg) * bb64_count(enemy & file & far);
        v += (own & file) ? 0 : W(king_open_mg);
    }
    return v;
}

/* Middlegame shelter of colour c's king: own pawns on the three files around
 * it, one or two ranks ahead, and the enemy's storm (s_storm). */
static int s_shelter(const chess_pos_t *p, int c)
{
    int ksq = bb64_lsb(p->pieces[CHESS_KING] & p->colors[c]), f = ksq & 7, r = ksq >> 3;
    int rel = c == CHESS_WHITE ? r : 7 - r;
    if (rel > 1)
        return W(exposed_mg);
    uint64_t files = (BB_FILE_A << f) | (f > 0 ? BB_FILE_A << (f - 1) : 0) | (f < 7 ? BB_FILE_A << (f + 1) : 0);
    uint64_t ranks = c == CHESS_WHITE ? 0xFFFFULL << (8 * (r + 1)) : 0xFFFFULL << (8 * (r - 2));
    int n = bb64_count(p->pieces[CHESS_PAWN] & p->colors[c] & files & ranks);
    return W(shield_mg) * (n > 3 ? 3 : n) + s_storm(p, c, f, r);
}

/* Safety penalty for a king whose ring the enemy attacks with `units`: the
 * king-danger table. */
static int s_king_danger(int units, bool enemy_queen)
{
    int u = units < EVAL_CHESS_KD_N ? units : EVAL_CHESS_KD_N - 1;
    S_USE(enemy_queen * EVAL_CHESS_KD_N + u);
    return eval_chess_kd[enemy_queen][u];
}

int eval_chess(const chess_pos_t *p)
{
#ifdef EVAL_CHESS_TUNABLE
    eval_chess_nused = 0;
#endif
    int phase = 0, att[2] = { 0, 0 };
    s_att_t at[2];
    s_score_t w = s_pieces(p, CHESS_WHITE, &phase, &att[0], &at[0]);
    s_score_t b = s_pieces(p, CHESS_BLACK, &phase, &att[1], &at[1]);
    s_score_t pw = s_pawns(p, CHESS_WHITE, at), pb = s_pawns(p, CHESS_BLACK, at);
    s_score_t tw = s_threats(p, CHESS_WHITE, at), tb = s_threats(p, CHESS_BLACK, at);
    int mg = w.mg - b.mg + pw.mg - pb.mg + tw.mg - tb.mg, eg = w.eg - b.eg + pw.eg - pb.eg + tw.eg - tb.eg;
    mg += s_shelter(p, CHESS_WHITE) - s_shelter(p, CHESS_BLACK);
    mg -= s_king_danger(att[1], (p->pieces[CHESS_QUEEN] & p->colors[CHESS_BLACK]) != 0);
    mg += s_king_danger(att[0], (p->pieces[CHESS_QUEEN] & p->colors[CHESS_WHITE]) != 0);
    if (phase > 24)
        phase = 24;
    int score = (mg * phase + eg * (24 - phase)) / 24;
    return (p->side == CHESS_WHITE ? score : -score) + W(tempo);
}
