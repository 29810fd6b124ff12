/* sig.h: material signatures of octad: what one side has besides its king, the
 * 36 possible sides, the 1,296 tables (side to move's material first), and the
 * order in which tables can be solved (a capture or promotion only ever leads
 * to a table solved earlier).
 *
 * A side starts with a knight and two pawns. A pawn may promote to N, B, R or
 * Q, so a side holds p pawns (0-2), its original knight or not, and at most
 * 2 - p promoted pieces. Counted by piece type that gives 36 sides. */
#pragma once

#include <stdbool.h>

enum {
    SIG_SIDE_NB = 36,                      /* distinct materials of one side */
    SIG_TABLE_NB = SIG_SIDE_NB * SIG_SIDE_NB, /* ordered (side to move, other side) */
    SIG_NAME_MAX = 24                      /* "KQRNvKBNP" and the NUL, with room */
};

/* Non-king material of one side, by piece type (OCTAD_PAWN..OCTAD_QUEEN). */
typedef struct {
    unsigned char count[5]; /* pawns, knights, bishops, rooks, queens */
} sig_side_t;

/* Builds the side tables. Idempotent; call before anything else here. */
void sig_init(void);

/* The side with id 0..SIG_SIDE_NB-1 (ids ordered by piece count, then pawns). */
sig_side_t sig_side(int id);

/* Id of a side's material, or -1 if no octad side can hold it. */
int sig_side_id(const sig_side_t *s);

/* Pieces of a side besides the king (0-3), and its pawns. */
int sig_side_pieces(int id);
int sig_side_pawns(int id);

/* Table id of (side to move's material, other side's material), and back. */
static inline int sig_table(int stm, int opp) { return stm * SIG_SIDE_NB + opp; }
static inline int sig_table_stm(int table) { return table / SIG_SIDE_NB; }
static inline int sig_table_opp(int table) { return table % SIG_SIDE_NB; }

/* The same material with the other side to move. */
static inline int sig_table_flip(int table) { return sig_table(sig_table_opp(table), sig_table_stm(table)); }

/* Pieces on the board in a table, kings included (2-8). */
int sig_table_pieces(int table);

/* Whether every position of the table is drawn by insufficient material
 * whatever the squares (bishops on one colour are decided per position). */
bool sig_table_dead(int table);

/* Writes the table's name, side to move first: "KNPPvKNPP". */
void sig_table_name(int table, char *buf, unsigned len);

/* Parses a table name ("KNPvK", case-insensitive letters KQRBNP, the K first
 * on each side); returns the table id, or -1 with a message in err. */
int sig_table_parse(const char *name, int *table, char *err, unsigned errlen);

/* Solving order: a pair {X, Y} is solved together (both sides to move). Pairs
 * are ordered by pieces on the board, then pawns: every capture removes a piece
 * and every promotion a pawn, so each table's exits lie in earlier pairs.
 * sig_pair_nb() pairs; sig_pair_table(i) is the primary table of pair i (its
 * stm side id <= its opp side id); the other is sig_table_flip(). */
int sig_pair_nb(void);
int sig_pair_table(int i);

/* The pair index of a table (either orientation). */
int sig_pair_of(int table);
