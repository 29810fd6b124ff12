/* player_uci.c: a UCI engine as a player (player.h): a child process spoken to over pipes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "err.h"
#include "player.h"
#include "san.h"

typedef struct {
    child_t *proc;
    char go[128];
    int timeout_ms;
    bool chess960_sent; /* the variant option was sent (Chess960 or octad) */
} s_uci_t;

static int s_send(s_uci_t *u, const char *line)
{
    return child_send(u->proc, line);
}

/* Reads lines until one starts with `word`; the line is left in line. 0 or -1. */
static int s_wait_for(s_uci_t *u, const char *word, char *line, size_t cap)
{
    long deadline = child_now_ms() + u->timeout_ms;
    size_t n = strlen(word);
    while (child_read_line(u->proc, line, cap, deadline) == CHILD_LINE)
        if (strncmp(line, word, n) == 0 && (line[n] == '\0' || line[n] == ' '))
            return 0;
    return -1;
}

/* Writes "position fen START moves M..." for the record into cmd. */
static int s_position(const record_t *rec, char **cmd)
{
    size_t cap = 64 + GAME_TEXT_MAX + (size_t)rec->ply_nb * 7;
    char *s = malloc(cap), fen[GAME_TEXT_MAX], uoi[MOVE_TEXT_MAX];
    if (s == NULL)
        return -1;
    game_format(record_pos_at(rec, 0), fen, sizeof fen);
    size_t n = (size_t)snprintf(s, cap, "position fen %s moves", fen);
    for (int k = 1; k <= rec->ply_nb; k++) {
        gmove_uoi(record_pos_at(rec, k - 1), rec->plies[k].move, uoi);
        n += (size_t)snprintf(s + n, cap - n, " %s", uoi);
    }
    snprintf(s + n, cap - n, "\n");
    *cmd = s;
    return 0;
}

static int s_choose(player_t *self, const record_t *rec, gmove_t *out, char *err, size_t errlen)
{
    s_uci_t *u = self->state;
    char line[1024], *cmd = NULL;
    if (record_pos(rec)->variant == VARIANT_CHESS960 && !u->chess960_sent) {
        s_send(u, "setoption name UCI_Chess960 value true\n");
        u->chess960_sent = true;
    }
    /* Octad over UCI (our own `octad uci`, and engines that follow it): the
     * variant is an option, positions are OFEN. */
    if (record_pos(rec)->variant == VARIANT_OCTAD && !u->chess960_sent) {
        s_send(u, "setoption name UCI_Variant value octad\n");
        u->chess960_sent = true;
    }
    if (s_position(rec, &cmd) != 0)
        return err_printf(err, errlen, "uci player: out of memory");
    int rc = s_send(u, cmd);
    free(cmd);
    snprintf(line, sizeof line, "go %s\n", u->go);
    if (rc != 0 || s_send(u, line) != 0 || s_wait_for(u, "bestmove", line, sizeof line) != 0)
        return err_printf(err, errlen, "uci player '%s': no bestmove (engine stopped or timed out)", self->name);
    char *move = line + 8;
    move += strspn(move, " ");
    move[strcspn(move, " ")] = '\0';
    char why[160];
    if (san_move(record_pos(rec), move, out, why, sizeof why) != SAN_OK)
        return err_printf(err, errlen, "uci player '%s': bestmove %.16s: %s", self->name, move, why);
    return 0;
}

static void s_release(player_t *self)
{
    s_uci_t *u = self->state;
    if (u == NULL)
        return;
    if (u->proc != NULL)
        s_send(u, "quit\n");
    child_destroy(&u->proc);
    free(u);
}

player_t *player_uci_new(const char *arg, const player_opts_t *opts, char *err, size_t errlen)
{
    char line[1024];
    if (arg == NULL || arg[0] == '\0') {
        err_printf(err, errlen, "player 'uci': give the engine's command, e.g. uci:stockfish");
        return NULL;
    }
    player_t *p = calloc(1, sizeof *p);
    s_uci_t *u = calloc(1, sizeof *u);
    if (p == NULL || u == NULL) {
        free(p);
        free(u);
        err_printf(err, errlen, "player: out of memory");
        return NULL;
    }
    u->timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : 30000;
    snprintf(u->go, sizeof u->go, "%s", opts->go ? opts->go : "movetime 100");
    snprintf(p->name, sizeof p->name, "%s", arg);
    p->choose_move = s_choose;
    p->release = s_release;
    p->state = u;
    u->proc = child_new(arg, NULL, 0, line, sizeof line);
    if (u->proc == NULL || s_send(u, "uci\n") != 0 || s_wait_for(u, "uciok", line, sizeof line) != 0
        || s_send(u, "isready\n") != 0 || s_wait_for(u, "readyok", line, sizeof line) != 0) {
        err_printf(err, errlen, "player 'uci:%.40s': the engine did not answer uci/isready", arg);
        player_destroy(&p);
        return NULL;
    }
    return p;
}
