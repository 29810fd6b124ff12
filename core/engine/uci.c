/* uci.c: the UCI loop (uci.h): reading lines, `uci`, `isready`, `setoption`,
 * `ucinewgame`, `position`, and handing `go`/`stop`/`ponderhit` to uci_go.c.
 * Unknown commands and tokens are ignored; every answer is flushed. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "uci.h"
#include "uci_priv.h"

enum { S_HASH_DEFAULT_MB = 16, S_HASH_MAX_MB = 4096, S_OVERHEAD_DEFAULT = 30 };

void uci_send(uci_t *u, const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&u->out_lock);
    va_start(ap, fmt);
    vfprintf(u->out, fmt, ap);
    va_end(ap);
    fputc('\n', u->out);
    fflush(u->out);
    pthread_mutex_unlock(&u->out_lock);
}

variant_t uci_variant(const uci_t *u)
{
    if (u->variant_option == VARIANT_CHESS && u->chess960)
        return VARIANT_CHESS960;
    return u->variant_option;
}

static void s_reset_game(uci_t *u)
{
    game_pos_t pos;
    variant_t v = uci_variant(u);
    game_parse(v, game_start_text(v), &pos, NULL, 0);
    engine_game_reset(&u->game, &pos);
}

static void s_uci(uci_t *u)
{
    uci_send(u, "id name octad-engine 0.1.0");
    uci_send(u, "id author the octad-cluster developers");
    uci_send(u, "option name Hash type spin default %d min 1 max %d", S_HASH_DEFAULT_MB, S_HASH_MAX_MB);
    uci_send(u, "option name Threads type spin default 1 min 1 max %d", ENGINE_THREADS_MAX);
    uci_send(u, "option name MultiPV type spin default 1 min 1 max %d", GAME_MOVES_MAX);
    uci_send(u, "option name Ponder type check default false");
    uci_send(u, "option name Move Overhead type spin default %d min 0 max 5000", S_OVERHEAD_DEFAULT);
    uci_send(u, "option name Clear Hash type button");
    uci_send(u, "option name UCI_Chess960 type check default false");
    uci_send(u, "option name UCI_Variant type combo default chess var chess var chess960 var octad");
    if (u->tables != NULL)
        uci_send(u, "option name OctadTables type string default <empty>");
    uci_send(u, "uciok");
}

/* Joins tok[from..to-1] with spaces into buf. */
static void s_join(char **tok, int from, int to, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = from; i < to && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i > from ? " " : "", tok[i]);
}

/* `OctadTables DIR`: closes the tables in use and opens DIR's (empty or
 * <empty>: none). The search probes them in octad positions. */
static void s_tables(uci_t *u, const char *dir)
{
    char err[256] = "";
    engine_set_probe(u->eng, NULL, NULL);
    if (u->tables_ctx != NULL)
        u->tables->close(u->tables_ctx);
    u->tables_ctx = NULL;
    if (dir == NULL || dir[0] == '\0' || strcmp(dir, "<empty>") == 0)
        return;
    u->tables_ctx = u->tables->open(dir, err, sizeof err);
    if (u->tables_ctx == NULL) {
        uci_send(u, "info string OctadTables: %s", err);
        return;
    }
    engine_set_probe(u->eng, u->tables->probe, u->tables_ctx);
    uci_send(u, "info string OctadTables: reading the octad tables in %s", dir);
}

/* Applies one option; the name and value may contain spaces. */
static void s_option(uci_t *u, const char *name, const char *value)
{
    long n = value ? strtol(value, NULL, 10) : 0;
    if (strcasecmp(name, "Hash") == 0 && value) {
        n = n < 1 ? 1 : n > S_HASH_MAX_MB ? S_HASH_MAX_MB : n;
        if (engine_set_hash(u->eng, (size_t)n << 20) != 0)
            uci_send(u, "info string Hash: out of memory, table unchanged");
    } else if (strcasecmp(name, "Threads") == 0 && value) {
        engine_set_threads(u->eng, (int)(n < 1 ? 1 : n > ENGINE_THREADS_MAX ? ENGINE_THREADS_MAX : n));
    } else if (strcasecmp(name, "MultiPV") == 0 && value) {
        u->multipv = n < 1 ? 1 : n > GAME_MOVES_MAX ? GAME_MOVES_MAX : (int)n;
    } else if (strcasecmp(name, "Move Overhead") == 0 && value) {
        u->overhead_ms = n < 0 ? 0 : n > 5000 ? 5000 : n;
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        engine_clear(u->eng);
    } else if (strcasecmp(name, "OctadTables") == 0 && u->tables != NULL) {
        s_tables(u, value);
    } else if (strcasecmp(name, "UCI_Chess960") == 0 && value) {
        u->chess960 = strcasecmp(value, "true") == 0;
        s_reset_game(u);
    } else if (strcasecmp(name, "UCI_Variant") == 0 && value) {
        variant_t v;
        if (game_variant_parse(value, &v) == 0) {
            u->variant_option = v;
            s_reset_game(u);
        } else {
            uci_send(u, "info string UCI_Variant: unknown variant '%.40s' (chess, chess960, octad)", value);
        }
    }
}

/* `setoption name N... [value V...]`. */
static void s_setoption(uci_t *u, char **tok, int ntok)
{
    char name[128], value[256];
    int v = -1;
    if (ntok < 2 || strcmp(tok[0], "name") != 0)
        return;
    for (int i = 1; i < ntok && v < 0; i++)
        if (strcmp(tok[i], "value") == 0)
            v = i;
    s_join(tok, 1, v < 0 ? ntok : v, name, sizeof name);
    if (v >= 0)
        s_join(tok, v + 1, ntok, value, sizeof value);
    uci_stop(u);
    s_option(u, name, v >= 0 ? value : NULL);
}

/* `position startpos|fen F... [moves m...]`: a bad FEN leaves the position
 * as it was; moves are played until one is not legal. */
static void s_position(uci_t *u, char **tok, int ntok)
{
    int m = ntok;
    for (int i = 0; i < ntok && m == ntok; i++)
        if (strcmp(tok[i], "moves") == 0)
            m = i;
    char fen[512], err[256];
    game_pos_t pos;
    variant_t v = uci_variant(u);
    if (ntok >= 1 && strcmp(tok[0], "startpos") == 0) {
        snprintf(fen, sizeof fen, "%s", game_start_text(v));
    } else if (ntok >= 2 && strcmp(tok[0], "fen") == 0) {
        s_join(tok, 1, m, fen, sizeof fen);
    } else {
        uci_send(u, "info string position: expected 'startpos' or 'fen ...'");
        return;
    }
    if (game_parse(v, fen, &pos, err, sizeof err) != 0) {
        uci_send(u, "info string position: %s", err);
        return;
    }
    engine_game_reset(&u->game, &pos);
    for (int i = m + 1; i < ntok; i++) {
        if (engine_game_play(&u->game, tok[i]) != 0) {
            uci_send(u, "info string position: move '%.16s' is not legal; moves after it ignored", tok[i]);
            return;
        }
    }
}

/* Splits line into whitespace-separated tokens (in place); returns how many. */
static int s_tokens(char *line, char **tok, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(line, " \t\r\n", &save); t && n < max; t = strtok_r(NULL, " \t\r\n", &save))
        tok[n++] = t;
    return n;
}

/* One command line; returns false on `quit`. */
static bool s_command(uci_t *u, char **tok, int ntok)
{
    const char *cmd = tok[0];
    if (strcmp(cmd, "uci") == 0)
        s_uci(u);
    else if (strcmp(cmd, "isready") == 0)
        uci_send(u, "readyok");
    else if (strcmp(cmd, "ucinewgame") == 0) {
        uci_stop(u);
        engine_clear(u->eng);
        s_reset_game(u);
    } else if (strcmp(cmd, "setoption") == 0)
        s_setoption(u, tok + 1, ntok - 1);
    else if (strcmp(cmd, "position") == 0)
        s_position(u, tok + 1, ntok - 1);
    else if (strcmp(cmd, "go") == 0)
        uci_go(u, tok + 1, ntok - 1);
    else if (strcmp(cmd, "stop") == 0)
        uci_stop(u);
    else if (strcmp(cmd, "ponderhit") == 0)
        uci_ponderhit(u);
    else if (strcmp(cmd, "quit") == 0)
        return false;
    return true; /* unknown commands (debug, register, anything) are ignored */
}

static int s_init(uci_t *u, FILE *out, const uci_tables_t *tables)
{
    memset(u, 0, sizeof *u);
    u->out = out;
    u->tables = tables;
    u->eng = engine_new((size_t)S_HASH_DEFAULT_MB << 20);
    if (u->eng == NULL)
        return -1;
    pthread_mutex_init(&u->out_lock, NULL);
    pthread_mutex_init(&u->wait_lock, NULL);
    pthread_cond_init(&u->wait_cond, NULL);
    u->variant_option = VARIANT_CHESS;
    u->multipv = 1;
    u->overhead_ms = S_OVERHEAD_DEFAULT;
    s_reset_game(u);
    return 0;
}

int uci_run(FILE *in, FILE *out, const uci_tables_t *tables)
{
    uci_t *u = malloc(sizeof *u);
    if (u == NULL || s_init(u, out, tables) != 0) {
        free(u);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    char **tok = NULL;
    bool more = true;
    while (more && getline(&line, &cap, in) >= 0) {
        size_t max = strlen(line) / 2 + 2;
        char **grown = realloc(tok, max * sizeof *tok);
        if (grown == NULL)
            break;
        tok = grown;
        int ntok = s_tokens(line, tok, (int)max);
        if (ntok > 0)
            more = s_command(u, tok, ntok);
    }
    uci_stop(u);
    if (u->tables_ctx != NULL)
        u->tables->close(u->tables_ctx);
    free(tok);
    free(line);
    engine_destroy(&u->eng);
    pthread_mutex_destroy(&u->out_lock);
    pthread_mutex_destroy(&u->wait_lock);
    pthread_cond_destroy(&u->wait_cond);
    free(u);
    return 0;
}
