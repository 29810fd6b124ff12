/* perft_engine.c: another program's perft divide over UCI or the perftree convention (perft_engine.h). */
#include "perft_engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "child.h"
#include "count.h"
#include "err.h"

/* One protocol: how it starts and how it asks one question. */
typedef struct {
    const char *name;
    int (*open)(perft_engine_t *self, char *err, size_t errlen);
    int (*divide)(perft_engine_t *self, const char *root, const char *const *moves, int nmoves, int depth,
                  perft_divide_t *out, char *err, size_t errlen);
} s_proto_t;

struct perft_engine {
    const s_proto_t *proto;
    char *command;
    variant_t variant;
    int timeout_ms;
    child_t *proc; /* uci: the one process */
};

enum { S_LINE_MAX = 1024 };

/* Writes "the engine stopped (how)" or the timeout into err for a read that failed. */
static int s_read_failed(perft_engine_t *self, child_t *proc, child_read_t rc, const char *waiting_for,
                         char *err, size_t errlen)
{
    char how[128];
    if (rc == CHILD_TIMEOUT) {
        child_stop(proc, 0, NULL, 0);
        return err_printf(err, errlen, "engine '%.60s': no answer within %.1f s while waiting for %s",
                          self->command, self->timeout_ms / 1000.0, waiting_for);
    }
    child_stop(proc, self->timeout_ms, how, sizeof how);
    return err_printf(err, errlen, "engine '%.60s' stopped (%s) while we waited for %s", self->command, how,
                      waiting_for);
}

/* Reads lines until one is `word` (or starts with `word `), skipping the rest. */
static int s_wait_for(perft_engine_t *self, const char *word, char *err, size_t errlen)
{
    char line[S_LINE_MAX], what[64];
    long deadline = child_now_ms() + self->timeout_ms;
    size_t n = strlen(word);
    child_read_t rc;
    while ((rc = child_read_line(self->proc, line, sizeof line, deadline)) == CHILD_LINE)
        if (strncmp(line, word, n) == 0 && (line[n] == '\0' || line[n] == ' '))
            return 0;
    snprintf(what, sizeof what, "'%s'", word);
    return s_read_failed(self, self->proc, rc, what, err, errlen);
}

/* A move token as engines write them: two squares (file letter, rank digits), maybe a piece letter. */
static bool s_move_token(const char *t, size_t n)
{
    size_t i = 0;
    for (int sq = 0; sq < 2; sq++) {
        if (i >= n || t[i] < 'a' || t[i] > 'z')
            return false;
        i++;
        if (i >= n || t[i] < '1' || t[i] > '9')
            return false;
        while (i < n && t[i] >= '0' && t[i] <= '9')
            i++;
    }
    return i == n || (i + 1 == n && strchr("qrbnkQRBNK", t[i]) != NULL);
}

/* Parses `move: count` or `move count` into out; 0, or -1 if the line is neither. */
static int s_divide_line(const char *line, perft_divide_t *out, char *err, size_t errlen)
{
    size_t n = strcspn(line, ": \t");
    const char *p = line + n;
    char digits[COUNT_TEXT_MAX + 1];
    if (!s_move_token(line, n) || n >= MOVE_TEXT_MAX)
        return -1;
    if (*p == ':')
        p++;
    p += strspn(p, " \t");
    size_t d = strspn(p, "0123456789");
    if (d == 0 || d > COUNT_TEXT_MAX - 1 || p[d + strspn(p + d, " \t")] != '\0')
        return -1;
    memcpy(digits, p, d);
    digits[d] = '\0';
    if (out->nb == PERFT_DIVIDE_MAX)
        return err_printf(err, errlen, "more than %d moves in one divide", PERFT_DIVIDE_MAX);
    if (count_parse(digits, &out->nodes[out->nb]) != 0)
        return -1;
    memcpy(out->move[out->nb], line, n);
    out->move[out->nb][n] = '\0';
    out->nb++;
    return 0;
}

/* Quotes an unreadable line into err. */
static int s_bad_line(perft_engine_t *self, const char *line, const char *why, char *err, size_t errlen)
{
    return err_printf(err, errlen, "engine '%.60s': cannot read its line '%.120s'%s (expected 'move: count'%s)",
                      self->command, line, strlen(line) > 120 ? "..." : "", why);
}

/* ---- uci ---- */

static int s_uci_open(perft_engine_t *self, char *err, size_t errlen)
{
    /* A write that fails (the engine has gone) is not checked: the next read says how it ended. */
    self->proc = child_new(self->command, NULL, 0, err, errlen);
    if (self->proc == NULL)
        return -1;
    child_send(self->proc, "uci\n");
    if (s_wait_for(self, "uciok", err, errlen) != 0)
        return -1;
    if (self->variant == VARIANT_CHESS960)
        child_send(self->proc, "setoption name UCI_Chess960 value true\n");
    if (self->variant == VARIANT_OCTAD)
        child_send(self->proc, "setoption name UCI_Variant value octad\n");
    child_send(self->proc, "isready\n");
    return s_wait_for(self, "readyok", err, errlen);
}

/* Sends `position fen ROOT [moves ...]`, syncs with isready, sends `go perft N`. */
static int s_uci_ask(perft_engine_t *self, const char *root, const char *const *moves, int nmoves, int depth,
                     char *err, size_t errlen)
{
    size_t cap = strlen(root) + 32 + (size_t)nmoves * MOVE_TEXT_MAX, n;
    char *cmd = malloc(cap), go[48];
    if (cmd == NULL)
        return err_printf(err, errlen, "out of memory");
    n = (size_t)snprintf(cmd, cap, "position fen %s%s", root, nmoves > 0 ? " moves" : "");
    for (int i = 0; i < nmoves; i++)
        n += (size_t)snprintf(cmd + n, cap - n, " %s", moves[i]);
    snprintf(cmd + n, cap - n, "\nisready\n");
    snprintf(go, sizeof go, "go perft %d\n", depth);
    child_send(self->proc, cmd); /* as in s_uci_open: a failed write shows in the next read */
    free(cmd);
    if (s_wait_for(self, "readyok", err, errlen) != 0)
        return -1;
    child_send(self->proc, go);
    return 0;
}

static int s_uci_divide(perft_engine_t *self, const char *root, const char *const *moves, int nmoves, int depth,
                        perft_divide_t *out, char *err, size_t errlen)
{
    static const char total[] = "Nodes searched:";
    char line[S_LINE_MAX];
    long deadline;
    child_read_t rc;
    out->nb = 0;
    if (s_uci_ask(self, root, moves, nmoves, depth, err, errlen) != 0)
        return -1;
    deadline = child_now_ms() + self->timeout_ms;
    while ((rc = child_read_line(self->proc, line, sizeof line, deadline)) == CHILD_LINE) {
        const char *p = line + strspn(line, " \t");
        if (*p == '\0' || strncmp(p, "info", 4) == 0)
            continue;
        if (strncmp(p, total, sizeof total - 1) == 0) {
            p += sizeof total - 1;
            p += strspn(p, " \t");
            if (count_parse(p, &out->total) != 0)
                return s_bad_line(self, line, ": not a count after 'Nodes searched:'", err, errlen);
            return 0;
        }
        if (s_divide_line(p, out, err, errlen) != 0)
            return out->nb == PERFT_DIVIDE_MAX ? -1 : s_bad_line(self, line, " or 'Nodes searched: N'", err, errlen);
    }
    return s_read_failed(self, self->proc, rc, "the answer to 'go perft' ('Nodes searched: N')", err, errlen);
}

/* ---- perftree ---- */

static int s_perftree_open(perft_engine_t *self, char *err, size_t errlen)
{
    /* the convention has no variant: a script that serves several reads it from here */
    if (setenv("OCTAD_VARIANT", game_variant_name(self->variant), 1) != 0)
        return err_printf(err, errlen, "setenv OCTAD_VARIANT: out of memory");
    return 0;
}

/* Reads a perftree script's whole answer: divide lines, a blank line, the total. */
static int s_perftree_read(perft_engine_t *self, child_t *proc, perft_divide_t *out, char *err, size_t errlen)
{
    char line[S_LINE_MAX];
    long deadline = child_now_ms() + self->timeout_ms;
    child_read_t rc;
    bool blank = false, have_total = false;
    while ((rc = child_read_line(proc, line, sizeof line, deadline)) == CHILD_LINE) {
        const char *p = line + strspn(line, " \t");
        if (*p == '\0') {
            blank = true;
        } else if (strncmp(p, "info", 4) == 0) {
            continue;
        } else if (blank && !have_total && count_parse(p, &out->total) == 0) {
            have_total = true;
        } else if (have_total || s_divide_line(p, out, err, errlen) != 0) {
            child_stop(proc, 0, NULL, 0);
            return out->nb == PERFT_DIVIDE_MAX ? -1 : s_bad_line(self, line, ", a blank line, then the total", err, errlen);
        }
    }
    if (rc == CHILD_TIMEOUT)
        return s_read_failed(self, proc, rc, "its answer", err, errlen);
    char how[128];
    int status = child_stop(proc, self->timeout_ms, how, sizeof how);
    if (status != 0)
        return err_printf(err, errlen, "engine '%.60s' %s", self->command, how);
    if (!have_total)
        return err_printf(err, errlen, "engine '%.60s' printed no total (a blank line, then the total)",
                          self->command);
    return 0;
}

static int s_perftree_divide(perft_engine_t *self, const char *root, const char *const *moves, int nmoves,
                             int depth, perft_divide_t *out, char *err, size_t errlen)
{
    size_t cap = 1 + (size_t)nmoves * MOVE_TEXT_MAX, n = 0;
    char *list = malloc(cap), dtext[16];
    const char *args[3];
    int rc;
    if (list == NULL)
        return err_printf(err, errlen, "out of memory");
    list[0] = '\0';
    for (int i = 0; i < nmoves; i++)
        n += (size_t)snprintf(list + n, cap - n, "%s%s", i ? " " : "", moves[i]);
    snprintf(dtext, sizeof dtext, "%d", depth);
    args[0] = dtext, args[1] = root, args[2] = list;
    out->nb = 0;
    child_t *proc = child_new(self->command, args, nmoves > 0 ? 3 : 2, err, errlen);
    free(list);
    if (proc == NULL)
        return -1;
    child_close_input(proc);
    rc = s_perftree_read(self, proc, out, err, errlen);
    child_destroy(&proc);
    return rc;
}

static const s_proto_t s_protos[] = {
    {"uci", s_uci_open, s_uci_divide},
    {"perftree", s_perftree_open, s_perftree_divide},
};

static const s_proto_t *s_proto(const char *name)
{
    for (size_t i = 0; i < sizeof s_protos / sizeof s_protos[0]; i++)
        if (strcmp(name, s_protos[i].name) == 0)
            return &s_protos[i];
    return NULL;
}

bool perft_engine_protocol_known(const char *protocol)
{
    return s_proto(protocol) != NULL;
}

perft_engine_t *perft_engine_new(const char *command, const char *protocol, variant_t v, int timeout_ms,
                                 char *err, size_t errlen)
{
    const s_proto_t *proto = s_proto(protocol);
    perft_engine_t *e;
    if (proto == NULL) {
        err_printf(err, errlen, "--protocol: unknown protocol '%.40s' (uci, perftree)", protocol);
        return NULL;
    }
    e = calloc(1, sizeof *e);
    if (e == NULL || (e->command = strdup(command)) == NULL) {
        free(e);
        err_printf(err, errlen, "out of memory");
        return NULL;
    }
    e->proto = proto;
    e->variant = v;
    e->timeout_ms = timeout_ms;
    if (proto->open(e, err, errlen) != 0)
        perft_engine_destroy(&e);
    return e;
}

int perft_engine_divide(perft_engine_t *self, const char *root, const char *const *moves, int nmoves, int depth,
                        perft_divide_t *out, char *err, size_t errlen)
{
    return self->proto->divide(self, root, moves, nmoves, depth, out, err, errlen);
}

void perft_engine_destroy(perft_engine_t **self_p)
{
    perft_engine_t *e;
    if (self_p == NULL || *self_p == NULL)
        return;
    e = *self_p;
    if (e->proc != NULL)
        child_send(e->proc, "quit\n");
    child_destroy(&e->proc);
    free(e->command);
    free(e);
    *self_p = NULL;
}
