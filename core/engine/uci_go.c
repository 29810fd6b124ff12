/* uci_go.c: UCI `go`: its limits, the search thread, info and bestmove
 * lines, `stop`, `ponderhit`, and `go perft N` (a divide printed as
 * Stockfish prints it). */
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "uci_priv.h"

/* A number token; false (and *out untouched) if tok is missing or not a number. */
static bool s_number(char **tok, int ntok, int i, long long *out)
{
    if (i >= ntok)
        return false;
    char *end;
    long long v = strtoll(tok[i], &end, 10);
    if (end == tok[i] || *end != '\0')
        return false;
    *out = v;
    return true;
}

/* `searchmoves m1 m2 ...` from tok[i]: as many legal moves as follow; returns the next index. */
static int s_searchmoves(uci_t *u, char **tok, int ntok, int i, engine_limits_t *lim)
{
    for (; i < ntok && lim->nsearchmoves < GAME_MOVES_MAX; i++) {
        engine_move_t m = engine_move_parse(&u->game.pos, tok[i]);
        if (m == ENGINE_MOVE_NONE)
            break;
        lim->searchmoves[lim->nsearchmoves++] = m;
    }
    return i;
}

/* Reads the limits of `go`; *infinite and *ponder say how the search ends. */
static void s_parse_limits(uci_t *u, char **tok, int ntok, engine_limits_t *lim, bool *infinite, bool *ponder)
{
    static const char *const names[] = { "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes",
                                         "movetime", "mate" };
    *lim = (engine_limits_t){ .multipv = u->multipv, .overhead_ms = u->overhead_ms,
                              .time_ms = { -1, -1 } };
    for (int i = 0; i < ntok;) {
        long long v = 0;
        int k = -1;
        for (int j = 0; j < (int)(sizeof names / sizeof names[0]) && k < 0; j++)
            if (strcmp(tok[i], names[j]) == 0)
                k = j;
        if (strcmp(tok[i], "infinite") == 0) {
            *infinite = true;
        } else if (strcmp(tok[i], "ponder") == 0) {
            *ponder = true;
        } else if (strcmp(tok[i], "searchmoves") == 0) {
            i = s_searchmoves(u, tok, ntok, i + 1, lim);
            continue;
        } else if (k >= 0 && s_number(tok, ntok, i + 1, &v)) {
            i++;
            long long pos = v < 0 ? 0 : v;
            switch (k) {
            case 0: lim->time_ms[0] = v < 1 ? 1 : v; break;
            case 1: lim->time_ms[1] = v < 1 ? 1 : v; break;
            case 2: lim->inc_ms[0] = pos; break;
            case 3: lim->inc_ms[1] = pos; break;
            case 4: lim->movestogo = (int)(pos > 1000 ? 1000 : pos); break;
            case 5: lim->depth = (int)(pos < 1 ? 1 : pos > ENGINE_DEPTH_MAX ? ENGINE_DEPTH_MAX : pos); break;
            case 6: lim->nodes = (uint64_t)(pos < 1 ? 1 : pos); break;
            case 7: lim->movetime_ms = pos < 1 ? 1 : pos; break;
            default: lim->mate = (int)(pos < 1 ? 1 : pos > 100 ? 100 : pos); break;
            }
        }
        i++;
    }
}

static void s_info(void *ctx, const game_pos_t *root, const engine_info_t *info)
{
    static char line[FORMAT_INFO_MAX];
    uci_t *u = ctx;
    format_info(root, info, line, sizeof line);
    uci_send(u, "%s", line);
}

/* The search thread: search, wait for stop or ponderhit where UCI says so, bestmove. */
static void *s_thread(void *arg)
{
    uci_t *u = arg;
    static engine_result_t r;
    engine_history_t h = engine_game_history(&u->searched);
    engine_search(u->eng, &u->searched.pos, &h, &u->limits, &u->ctl, s_info, u, &r);
    pthread_mutex_lock(&u->wait_lock);
    while (!u->stop_requested && (u->wait_for_stop || atomic_load(&u->ctl.pondering)))
        pthread_cond_wait(&u->wait_cond, &u->wait_lock);
    pthread_mutex_unlock(&u->wait_lock);
    if (r.best == ENGINE_MOVE_NONE) {
        uci_send(u, "bestmove (none)");
        return NULL;
    }
    char best[MOVE_TEXT_MAX], ponder[MOVE_TEXT_MAX];
    engine_move_text(&u->searched.pos, r.best, best);
    if (r.ponder == ENGINE_MOVE_NONE) {
        uci_send(u, "bestmove %s", best);
        return NULL;
    }
    game_pos_t child;
    engine_make(&u->searched.pos, r.best, &child);
    engine_move_text(&child, r.ponder, ponder);
    uci_send(u, "bestmove %s ponder %s", best, ponder);
    return NULL;
}

/* `go perft N`: each root move's count, then the total, as Stockfish prints them. */
static void s_perft(uci_t *u, long long depth)
{
    if (depth < 1 || depth > 12) {
        uci_send(u, "info string perft depth must be 1 to 12");
        return;
    }
    game_child_t *children = malloc(sizeof *children * GAME_MOVES_MAX);
    game_tt_t *tt = depth > 2 ? game_tt_new(u->game.pos.variant, (size_t)32 << 20) : NULL;
    if (children == NULL) {
        uci_send(u, "info string perft: out of memory");
        return;
    }
    int n = game_children(&u->game.pos, children);
    count_t total = 0;
    for (int i = 0; i < n; i++) {
        count_t c = game_perft(&children[i].child, (int)depth - 1, tt);
        total += c;
        uci_send(u, "%s: %llu", children[i].uoi, (unsigned long long)c);
    }
    uci_send(u, "\nNodes searched: %llu\n", (unsigned long long)total);
    game_tt_destroy(&tt);
    free(children);
}

void uci_go(uci_t *u, char **tok, int ntok)
{
    long long depth;
    if (ntok >= 1 && strcmp(tok[0], "perft") == 0) {
        if (s_number(tok, ntok, 1, &depth))
            s_perft(u, depth);
        else
            uci_send(u, "info string go perft needs a depth");
        return;
    }
    uci_stop(u);
    bool infinite = false, ponder = false;
    s_parse_limits(u, tok, ntok, &u->limits, &infinite, &ponder);
    u->searched = u->game;
    u->wait_for_stop = infinite;
    u->stop_requested = false;
    atomic_store(&u->ctl.stop, false);
    atomic_store(&u->ctl.ponderhit_ms, 0);
    atomic_store(&u->ctl.pondering, ponder);
    if (pthread_create(&u->thread, NULL, s_thread, u) != 0) {
        uci_send(u, "info string cannot start the search thread");
        return;
    }
    u->running = true;
}

void uci_stop(uci_t *u)
{
    if (!u->running)
        return;
    pthread_mutex_lock(&u->wait_lock);
    u->stop_requested = true;
    atomic_store(&u->ctl.stop, true);
    pthread_cond_broadcast(&u->wait_cond);
    pthread_mutex_unlock(&u->wait_lock);
    pthread_join(u->thread, NULL);
    u->running = false;
}

void uci_ponderhit(uci_t *u)
{
    if (!u->running)
        return;
    pthread_mutex_lock(&u->wait_lock);
    atomic_store(&u->ctl.ponderhit_ms, engine_now_ms());
    atomic_store(&u->ctl.pondering, false);
    pthread_cond_broadcast(&u->wait_cond);
    pthread_mutex_unlock(&u->wait_lock);
}
