/* player_uci.c: a UCI engine as a player (player.h): a child process spoken to over pipes. */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "player.h"
#include "san.h"

typedef struct {
    pid_t pid;
    int to, from;   /* pipe ends: engine's stdin, engine's stdout */
    char buf[8192]; /* bytes read, not yet returned as lines */
    size_t len;
    char go[128];
    int timeout_ms;
    bool chess960_sent; /* the variant option was sent (Chess960 or octad) */
} s_uci_t;

static long s_now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

static int s_send(s_uci_t *u, const char *line)
{
    size_t n = strlen(line), done = 0;
    while (done < n) {
        ssize_t w = write(u->to, line + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        done += (size_t)w;
    }
    return 0;
}

/* Reads one line (without its newline) into line; 0, or -1 on end, error or timeout. */
static int s_line(s_uci_t *u, char *line, size_t cap, long deadline)
{
    for (;;) {
        char *nl = memchr(u->buf, '\n', u->len);
        if (nl != NULL) {
            size_t n = (size_t)(nl - u->buf), k = n < cap - 1 ? n : cap - 1;
            memcpy(line, u->buf, k);
            line[k] = '\0';
            if (k > 0 && line[k - 1] == '\r')
                line[k - 1] = '\0';
            memmove(u->buf, nl + 1, u->len - n - 1);
            u->len -= n + 1;
            return 0;
        }
        if (u->len == sizeof u->buf)
            u->len = 0; /* a line longer than the buffer: drop it */
        struct pollfd p = {.fd = u->from, .events = POLLIN};
        long left = deadline - s_now_ms();
        if (left <= 0 || poll(&p, 1, (int)left) <= 0)
            return -1;
        ssize_t r = read(u->from, u->buf + u->len, sizeof u->buf - u->len);
        if (r <= 0)
            return -1;
        u->len += (size_t)r;
    }
}

/* Reads lines until one starts with `word`; the line is left in line. 0 or -1. */
static int s_wait_for(s_uci_t *u, const char *word, char *line, size_t cap)
{
    long deadline = s_now_ms() + u->timeout_ms;
    size_t n = strlen(word);
    while (s_line(u, line, cap, deadline) == 0)
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
    if (u->to >= 0) {
        s_send(u, "quit\n");
        close(u->to);
    }
    if (u->from >= 0)
        close(u->from);
    if (u->pid > 0) {
        int status;
        long deadline = s_now_ms() + 1000;
        while (waitpid(u->pid, &status, WNOHANG) == 0) {
            if (s_now_ms() > deadline) {
                kill(u->pid, SIGKILL); /* our own child, by its id */
                waitpid(u->pid, &status, 0);
                break;
            }
            usleep(10000);
        }
    }
    free(u);
}

/* Starts `sh -c command` with its stdin and stdout on pipes. 0 or -1. */
static int s_spawn(s_uci_t *u, const char *command)
{
    int in[2], outp[2];
    if (pipe(in) != 0)
        return -1;
    if (pipe(outp) != 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    u->pid = fork();
    if (u->pid == 0) {
        dup2(in[0], 0);
        dup2(outp[1], 1);
        close(in[0]), close(in[1]), close(outp[0]), close(outp[1]);
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(outp[1]);
    u->to = in[1];
    u->from = outp[0];
    return u->pid > 0 ? 0 : -1;
}

player_t *player_uci_new(const char *arg, const player_opts_t *opts, char *err, size_t errlen)
{
    char line[1024];
    if (arg == NULL || arg[0] == '\0') {
        err_printf(err, errlen, "player 'uci': give the engine's command, e.g. uci:stockfish");
        return NULL;
    }
    signal(SIGPIPE, SIG_IGN); /* an engine that exits must not kill us on our next write */
    player_t *p = calloc(1, sizeof *p);
    s_uci_t *u = calloc(1, sizeof *u);
    if (p == NULL || u == NULL) {
        free(p);
        free(u);
        err_printf(err, errlen, "player: out of memory");
        return NULL;
    }
    u->to = u->from = -1;
    u->timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms : 30000;
    snprintf(u->go, sizeof u->go, "%s", opts->go ? opts->go : "movetime 100");
    snprintf(p->name, sizeof p->name, "%s", arg);
    p->choose_move = s_choose;
    p->release = s_release;
    p->state = u;
    if (s_spawn(u, arg) != 0 || s_send(u, "uci\n") != 0 || s_wait_for(u, "uciok", line, sizeof line) != 0
        || s_send(u, "isready\n") != 0 || s_wait_for(u, "readyok", line, sizeof line) != 0) {
        err_printf(err, errlen, "player 'uci:%.40s': the engine did not answer uci/isready", arg);
        player_destroy(&p);
        return NULL;
    }
    return p;
}
