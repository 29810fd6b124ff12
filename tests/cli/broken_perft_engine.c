/* broken_perft_engine.c: a perft engine with one deliberate bug, for the tests of `octad perft --compare`.
 *
 * usage: broken_perft_engine BUG                      speaks UCI on stdin/stdout (go perft N)
 *        broken_perft_engine BUG DEPTH FEN [MOVES]    the perftree convention, one answer
 *
 * It counts with the library's legal move generator (the reference, checked against
 * Stockfish by the tests) and applies its bug at EVERY node of the tree, so its
 * divides and totals are consistent with the bug, as a real generator's would be:
 * a bug that drops a move drops it, and its whole subtree, wherever it occurs.
 * BUG is a row of s_bugs:
 *   none                   the reference itself
 *   ep                     no en-passant captures
 *   underpromotion         no promotions to knight, bishop or rook
 *   castle-through-check   (standard chess) also castles when the king passes over an
 *                          attacked square (never out of check, never into it)
 *   hang                   says uciok/readyok but never answers go perft
 *   crash                  dies of SIGSEGV at go perft
 *   garbage                writes one line no engine should write inside its divide
 *   plus-one               adds 1 to the first move's count of every divide (and to the total)
 *   bad-total              prints the right divide and a total 1 too high
 *   root-plus-one          plus-one, only when asked about a position with no moves after it
 *                          (inconsistent: its divide after that move sums to the right count)
 * Variants: chess by default; `setoption name UCI_Chess960 value true` or
 * `setoption name UCI_Variant value chess960|octad` switch (positions as FEN/OFEN). */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game.h"

enum { S_FILES_MAX = 8 };

/* A board read from a FEN/OFEN placement: board[rank][file], rank 0 = rank 1. */
typedef struct {
    char sq[S_FILES_MAX][S_FILES_MAX];
    int files, ranks;
    char fen[GAME_TEXT_MAX];
} s_board_t;

static void s_board(const game_pos_t *pos, s_board_t *b)
{
    int rank, file = 0;
    game_format(pos, b->fen, sizeof b->fen);
    memset(b->sq, '.', sizeof b->sq);
    b->ranks = 1;
    for (const char *p = b->fen; *p && *p != ' '; p++)
        b->ranks += *p == '/';
    rank = b->ranks - 1;
    for (const char *p = b->fen; *p && *p != ' '; p++) {
        if (*p == '/') {
            b->files = file;
            rank--, file = 0;
        } else if (*p >= '1' && *p <= '8') {
            file += *p - '0';
        } else if (file < S_FILES_MAX && rank >= 0) {
            b->sq[rank][file++] = *p;
        }
    }
}

static char s_at(const s_board_t *b, const char *square)
{
    return b->sq[square[1] - '1'][square[0] - 'a'];
}

/* ---- the bugs: which legal moves are dropped, which illegal ones added ---- */

static bool s_keep_all(const s_board_t *b, const game_child_t *c)
{
    (void)b, (void)c;
    return true;
}

/* An en-passant capture: a pawn moving diagonally onto an empty square. */
static bool s_keep_not_ep(const s_board_t *b, const game_child_t *c)
{
    char piece = s_at(b, c->uoi);
    return !((piece == 'P' || piece == 'p') && c->uoi[0] != c->uoi[2] && s_at(b, c->uoi + 2) == '.');
}

static bool s_keep_not_underpromotion(const s_board_t *b, const game_child_t *c)
{
    (void)b;
    return !(strlen(c->uoi) == 5 && strchr("nbr", c->uoi[4]) != NULL);
}

static int s_add_none(const game_pos_t *pos, const s_board_t *b, game_child_t *out, int nb)
{
    (void)pos, (void)b, (void)out;
    return nb;
}

/* Writes the FEN of b's board with the king and rook castled into fen (standard chess):
 * the other side to move, the mover's rights gone, no e.p. square. */
static void s_castled_fen(const s_board_t *b, bool white, bool king_side, char *fen, size_t len)
{
    char sq[S_FILES_MAX][S_FILES_MAX], rights[8] = "", side, rest[64];
    int r = white ? 0 : 7, n = 0, k = 0;
    const char *fields = strchr(b->fen, ' ');
    memcpy(sq, b->sq, sizeof sq);
    sq[r][4] = '.';
    sq[r][king_side ? 7 : 0] = '.';
    sq[r][king_side ? 6 : 2] = white ? 'K' : 'k';
    sq[r][king_side ? 5 : 3] = white ? 'R' : 'r';
    for (int rank = 7; rank >= 0; rank--) {
        for (int f = 0, empty = 0; f < 8; f++) {
            if (sq[rank][f] == '.')
                empty++;
            if (sq[rank][f] != '.' || f == 7) {
                if (empty)
                    n += snprintf(fen + n, len - (size_t)n, "%d", empty);
                if (sq[rank][f] != '.')
                    n += snprintf(fen + n, len - (size_t)n, "%c", sq[rank][f]);
                empty = 0;
            }
        }
        if (rank > 0)
            n += snprintf(fen + n, len - (size_t)n, "/");
    }
    char old[8] = "";
    sscanf(fields, " %c %7s %63[^\n]", &side, old, rest);
    for (const char *p = old; *p; p++)
        if (*p != '-' && (white ? (*p >= 'A' && *p <= 'Z') : (*p >= 'a' && *p <= 'z')) == false)
            rights[k++] = *p;
    rights[k] = '\0';
    snprintf(fen + n, len - (size_t)n, " %c %s - 0 1", white ? 'b' : 'w', k ? rights : "-");
}

/* Adds the castles that pass over an attacked square: the right is held, the squares
 * between king and rook are empty, the king is not in check and does not end in
 * check (the resulting position parses), and the legal generator does not list it. */
static int s_add_castle_through_check(const game_pos_t *pos, const s_board_t *b, game_child_t *out, int nb)
{
    static const struct { char right; const char *uoi; const char *between; } rows[] = {
        {'K', "e1g1", "f1g1"}, {'Q', "e1c1", "b1c1d1"}, {'k', "e8g8", "f8g8"}, {'q', "e8c8", "b8c8d8"},
    };
    const char *fields = strchr(b->fen, ' ');
    bool white = fields[1] == 'w';
    if (pos->variant != VARIANT_CHESS || (game_status(pos) & GAME_IN_CHECK))
        return nb;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        bool empty = true, listed = false;
        if (((rows[i].right >= 'A' && rows[i].right <= 'Z') != white) || strchr(fields + 3, rows[i].right) == NULL
            || strchr(fields + 3, ' ') < strchr(fields + 3, rows[i].right))
            continue;
        char rook[3] = {rows[i].uoi[2] == 'g' ? 'h' : 'a', rows[i].uoi[1], '\0'};
        empty = s_at(b, rows[i].uoi) == (white ? 'K' : 'k') && s_at(b, rook) == (white ? 'R' : 'r');
        for (const char *s = rows[i].between; *s; s += 2)
            empty = empty && s_at(b, s) == '.';
        for (int k = 0; k < nb; k++)
            listed = listed || strcmp(out[k].uoi, rows[i].uoi) == 0;
        char fen[GAME_TEXT_MAX];
        s_castled_fen(b, white, rows[i].uoi[2] == 'g', fen, sizeof fen);
        if (empty && !listed && game_parse(VARIANT_CHESS, fen, &out[nb].child, NULL, 0) == 0) {
            snprintf(out[nb].uoi, sizeof out[nb].uoi, "%s", rows[i].uoi);
            nb++;
        }
    }
    return nb;
}

typedef enum { S_FAULT_NONE, S_FAULT_HANG, S_FAULT_CRASH, S_FAULT_GARBAGE, S_FAULT_PLUS_ONE, S_FAULT_TOTAL,
               S_FAULT_ROOT_PLUS_ONE } s_fault_t;

static const struct s_bug {
    const char *name;
    bool (*keep)(const s_board_t *b, const game_child_t *c);
    int (*add)(const game_pos_t *pos, const s_board_t *b, game_child_t *out, int nb);
    s_fault_t fault;
} s_bugs[] = {
    {"none", s_keep_all, s_add_none, S_FAULT_NONE},
    {"ep", s_keep_not_ep, s_add_none, S_FAULT_NONE},
    {"underpromotion", s_keep_not_underpromotion, s_add_none, S_FAULT_NONE},
    {"castle-through-check", s_keep_all, s_add_castle_through_check, S_FAULT_NONE},
    {"hang", s_keep_all, s_add_none, S_FAULT_HANG},
    {"crash", s_keep_all, s_add_none, S_FAULT_CRASH},
    {"garbage", s_keep_all, s_add_none, S_FAULT_GARBAGE},
    {"plus-one", s_keep_all, s_add_none, S_FAULT_PLUS_ONE},
    {"bad-total", s_keep_all, s_add_none, S_FAULT_TOTAL},
    {"root-plus-one", s_keep_all, s_add_none, S_FAULT_ROOT_PLUS_ONE},
};

static const struct s_bug *s_bug;
static bool s_at_root; /* the last position had no moves after it */

/* The buggy generator: the legal moves, less what the bug drops, plus what it adds. */
static int s_children(const game_pos_t *pos, game_child_t *out)
{
    s_board_t b;
    int n = game_children(pos, out), kept = 0;
    s_board(pos, &b);
    for (int i = 0; i < n; i++)
        if (s_bug->keep(&b, &out[i]))
            out[kept++] = out[i];
    return s_bug->add(pos, &b, out, kept);
}

static unsigned long long s_perft(const game_pos_t *pos, int depth)
{
    game_child_t *c;
    unsigned long long total = 0;
    int n;
    if (depth == 0)
        return 1;
    c = malloc(sizeof *c * (GAME_MOVES_MAX + 4));
    n = s_children(pos, c);
    for (int i = 0; i < n; i++)
        total += depth == 1 ? 1 : s_perft(&c[i].child, depth - 1);
    free(c);
    return total;
}

/* Plays `uoi` with the buggy generator (so an added castle can be played too). */
static int s_play(game_pos_t *pos, const char *uoi)
{
    game_child_t *c = malloc(sizeof *c * (GAME_MOVES_MAX + 4));
    int n = s_children(pos, c), rc = -1;
    for (int i = 0; i < n && rc != 0; i++)
        if (strcmp(c[i].uoi, uoi) == 0) {
            *pos = c[i].child;
            rc = 0;
        }
    free(c);
    return rc;
}

/* Prints the divide of pos to depth as Stockfish does (or as perftree wants). */
static void s_divide(const game_pos_t *pos, int depth, bool perftree)
{
    game_child_t *c = malloc(sizeof *c * (GAME_MOVES_MAX + 4));
    unsigned long long total = 0;
    int n = s_children(pos, c);
    if (s_bug->fault == S_FAULT_CRASH) {
        signal(SIGSEGV, SIG_DFL); /* a sanitizer's handler would turn the signal into an exit status */
        raise(SIGSEGV);
    }
    while (s_bug->fault == S_FAULT_HANG)
        pause();
    for (int i = 0; i < n; i++) {
        bool plus = s_bug->fault == S_FAULT_PLUS_ONE || (s_bug->fault == S_FAULT_ROOT_PLUS_ONE && s_at_root);
        unsigned long long k = s_perft(&c[i].child, depth - 1) + (i == 0 && plus);
        total += k;
        printf(perftree ? "%s %llu\n" : "%s: %llu\n", c[i].uoi, k);
        if (i == 0 && s_bug->fault == S_FAULT_GARBAGE)
            printf("Segmentation fault in movegen at ply %d\n", depth);
    }
    printf(perftree ? "\n%llu\n" : "\nNodes searched: %llu\n\n", total + (s_bug->fault == S_FAULT_TOTAL));
    fflush(stdout);
    free(c);
}

/* `position fen F... [moves m...]` or `position startpos [moves m...]`. */
static void s_position(char *args, variant_t v, game_pos_t *pos)
{
    char *moves = strstr(args, " moves");
    if (moves != NULL)
        *moves = '\0';
    if (strncmp(args, "startpos", 8) == 0)
        game_parse(v, game_start_text(v), pos, NULL, 0);
    else if (strncmp(args, "fen ", 4) == 0 && game_parse(v, args + 4, pos, NULL, 0) != 0)
        printf("info string bad fen\n");
    s_at_root = moves == NULL || moves[6 + strspn(moves + 6, " \n")] == '\0';
    if (moves == NULL)
        return;
    for (char *save = NULL, *m = strtok_r(moves + 6, " \n", &save); m; m = strtok_r(NULL, " \n", &save))
        if (s_play(pos, m) != 0)
            printf("info string illegal move %s\n", m);
}

static void s_uci(void)
{
    char line[4096];
    variant_t v = VARIANT_CHESS;
    game_pos_t pos;
    game_parse(v, game_start_text(v), &pos, NULL, 0);
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (strcmp(line, "uci") == 0)
            printf("id name broken_perft_engine %s\nuciok\n", s_bug->name);
        else if (strcmp(line, "isready") == 0)
            printf("readyok\n");
        else if (strcmp(line, "setoption name UCI_Chess960 value true") == 0)
            v = VARIANT_CHESS960;
        else if (strncmp(line, "setoption name UCI_Variant value ", 33) == 0)
            game_variant_parse(line + 33, &v);
        else if (strncmp(line, "position ", 9) == 0)
            s_position(line + 9, v, &pos);
        else if (strncmp(line, "go perft ", 9) == 0)
            s_divide(&pos, atoi(line + 9), false);
        else if (strcmp(line, "quit") == 0)
            break;
    }
}

int main(int argc, char **argv)
{
    for (size_t i = 0; argc >= 2 && i < sizeof s_bugs / sizeof s_bugs[0]; i++)
        if (strcmp(argv[1], s_bugs[i].name) == 0)
            s_bug = &s_bugs[i];
    if (s_bug == NULL) {
        fprintf(stderr, "usage: broken_perft_engine BUG [DEPTH FEN [MOVES]] (BUG: see the source)\n");
        return 2;
    }
    if (argc == 2) {
        s_uci();
        return 0;
    }
    /* perftree: DEPTH FEN [MOVES]; the variant from $OCTAD_VARIANT, which octad perft sets (default chess) */
    variant_t v = VARIANT_CHESS;
    game_pos_t pos;
    char buf[4096];
    const char *var = getenv("OCTAD_VARIANT");
    if (var != NULL)
        game_variant_parse(var, &v);
    snprintf(buf, sizeof buf, "fen %s%s%s", argc > 3 ? argv[3] : "", argc > 4 ? " moves " : "", argc > 4 ? argv[4] : "");
    s_position(buf, v, &pos);
    s_divide(&pos, atoi(argv[2]), true);
    return 0;
}
