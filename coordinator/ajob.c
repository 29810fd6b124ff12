/* ajob.c: the analyse job: tasks, checks, results and journal records (see ajob.h). */
#include "ajob.h"

#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "hash.h"
#include "split_move.h"

/* Splits the space-separated moves into self->moves; 0, or -1 with a message. */
static int s_moves(ajob_t *self, const char *moves, char *err, size_t errlen)
{
    for (const char *p = moves ? moves : ""; *p;) {
        size_t n = strcspn(p, " \t");
        if (n == 0) {
            p++;
            continue;
        }
        if (self->n_moves == MSG_GAME_MOVES_MAX || n >= MSG_MOVE_MAX) {
            snprintf(err, errlen, "--moves: %s", n >= MSG_MOVE_MAX ? "a move of more than 7 characters"
                                                                   : "more than 1024 moves");
            return -1;
        }
        memcpy(self->moves[self->n_moves], p, n);
        self->moves[self->n_moves++][n] = '\0';
        p += n;
    }
    return 0;
}

/* The job key: everything a task's result depends on (PROTOCOL.md 12.6). */
static void s_key(ajob_t *self)
{
    char pos[GAME_TEXT_MAX];
    uint64_t h = HASH_JOB_BASIS;
    for (int k = 0; k < self->n_moves; k++)
        h = hash_fnv1a_text(hash_fnv1a_text(h, self->moves[k]), " ");
    game_format(&self->game.pos, pos, sizeof pos);
    snprintf(self->job_key, sizeof self->job_key,
             "octad-cluster analyse v1; variant=%s; start=%s; moves=%d/%016llx; position=%s; depth=%d; "
             "hash_mb=%u; tasks=%zu%s",
             game_variant_name(self->variant), self->start, self->n_moves, (unsigned long long)h, pos, self->depth,
             self->hash_mb, self->task_nb, self->verify ? "; verify" : "");
    self->job_id = hash_job_id(self->job_key);
}

ajob_t *ajob_new(variant_t v, const char *start, const char *moves, int depth, uint32_t hash_mb, bool verify,
                 char *err, size_t errlen)
{
    ajob_t *self = calloc(1, sizeof *self);
    game_child_t *kids = malloc(GAME_MOVES_MAX * sizeof *kids);
    if (self == NULL || kids == NULL) {
        snprintf(err, errlen, "out of memory");
        goto fail;
    }
    *self = (ajob_t){.variant = v, .depth = depth, .hash_mb = hash_mb, .verify = verify};
    snprintf(self->start, sizeof self->start, "%s", start);
    if (s_moves(self, moves, err, errlen) != 0 ||
        engine_split_game(&self->game, v, start, self->moves[0], MSG_MOVE_MAX, self->n_moves, err, errlen) != 0)
        goto fail;
    int n = game_children(&self->game.pos, kids);
    if (n == 0) {
        snprintf(err, errlen, "the position has no legal move (mate or stalemate): nothing to analyse");
        goto fail;
    }
    self->task_nb = (size_t)n;
    for (int i = 0; i < n; i++)
        snprintf(self->root[i], sizeof self->root[i], "%.7s", kids[i].uoi);
    free(kids);
    s_key(self);
    return self;
fail:
    free(kids);
    free(self);
    return NULL;
}

void ajob_destroy(ajob_t **self_p)
{
    free(*self_p);
    *self_p = NULL;
}

void ajob_task_msg(const ajob_t *self, size_t i, uint64_t task_id, uint32_t lease_ms, msg_t *m)
{
    msg_init(m, MSG_ANALYSE);
    msg_analyse_t *a = &m->u.analyse;
    a->task_id = task_id;
    a->job_id = self->job_id;
    snprintf(a->variant, sizeof a->variant, "%s", game_variant_name(self->variant));
    snprintf(a->position, sizeof a->position, "%s", self->start);
    a->n_moves = (uint32_t)self->n_moves;
    a->moves = self->moves;
    memcpy(a->move, self->root[i], sizeof a->move);
    a->depth = (uint8_t)self->depth;
    a->hash_mb = self->hash_mb;
    a->lease_ms = lease_ms;
}

bool ajob_check(const ajob_t *self, size_t i, const msg_analysed_t *a, ajob_result_t *out, char *why, size_t len)
{
    game_pos_t pos = self->game.pos;
    memset(out, 0, sizeof *out);
    if (strcmp(a->move, self->root[i]) != 0 || a->n_pv < 1 || strcmp(a->pv[0], a->move) != 0) {
        snprintf(why, len, "move '%s' with PV starting '%s' answers the task of move %s", a->move,
                 a->n_pv ? a->pv[0] : "", self->root[i]);
        return false;
    }
    if (a->nodes == 0) {
        snprintf(why, len, "a search of no nodes");
        return false;
    }
    for (uint32_t k = 0; k < a->n_pv; k++) {
        engine_move_t m = engine_move_parse(&pos, a->pv[k]);
        if (m == ENGINE_MOVE_NONE) {
            snprintf(why, len, "PV move %u '%s' is not legal there", k + 1, a->pv[k]);
            return false;
        }
        out->pv[out->n_pv++] = m;
        engine_make(&pos, m, &pos);
    }
    out->score = a->score;
    out->bound = a->bound;
    out->seldepth = a->seldepth;
    out->nodes = a->nodes;
    return true;
}

static bool s_same(const ajob_result_t *x, const ajob_result_t *y)
{
    return x->score == y->score && x->bound == y->bound && x->seldepth == y->seldepth && x->nodes == y->nodes &&
           x->n_pv == y->n_pv && memcmp(x->pv, y->pv, sizeof x->pv[0] * (size_t)x->n_pv) == 0;
}

sched_answer_t ajob_answer(ajob_t *self, size_t i, const ajob_result_t *r)
{
    int k = 0;
    while (k < self->n_seen[i] && !s_same(&self->seen[i][k], r))
        k++;
    if (k == self->n_seen[i] && k < AJOB_SEEN_MAX)
        self->seen[i][self->n_seen[i]++] = *r;
    return (sched_answer_t)(k + 1); /* beyond AJOB_SEEN_MAX: a number of its own, kept nowhere */
}

const ajob_result_t *ajob_seen(const ajob_t *self, size_t i, sched_answer_t answer)
{
    return answer >= 1 && answer <= (sched_answer_t)self->n_seen[i] ? &self->seen[i][(int)answer - 1] : NULL;
}

static const char *const s_bounds[] = {"exact", "lower", "upper"};

void ajob_record(const ajob_t *self, size_t i, const ajob_result_t *r, char *buf, size_t len)
{
    game_pos_t pos = self->game.pos;
    int n = snprintf(buf, len, "%s score %d bound %s seldepth %u pv", self->root[i], (int)r->score,
                     s_bounds[r->bound <= MSG_BOUND_UPPER ? r->bound : 0], r->seldepth);
    for (int k = 0; k < r->n_pv && n > 0 && (size_t)n < len; k++) {
        char m[MOVE_TEXT_MAX];
        engine_move_text(&pos, r->pv[k], m);
        engine_make(&pos, r->pv[k], &pos);
        n += snprintf(buf + n, len - (size_t)n, " %s", m);
    }
}

int ajob_record_parse(const ajob_t *self, size_t i, const char *key, uint64_t nodes, ajob_result_t *out, char *why,
                      size_t len)
{
    msg_analysed_t a = {0};
    msg_move_t pv[MSG_PV_MAX];
    char bound[8];
    int score, seldepth, used = 0;
    a.pv = pv;
    if (sscanf(key, "%7s score %d bound %7s seldepth %d pv%n", a.move, &score, bound, &seldepth, &used) != 4 ||
        used == 0 || score < -MSG_SCORE_MAX || score > MSG_SCORE_MAX || seldepth < 0 || seldepth > UINT8_MAX) {
        snprintf(why, len, "not an analysis record (\"MOVE score S bound B seldepth D pv ...\")");
        return -1;
    }
    a.score = score;
    a.seldepth = (uint8_t)seldepth;
    a.nodes = nodes;
    for (a.bound = 0; a.bound <= MSG_BOUND_UPPER && strcmp(bound, s_bounds[a.bound]) != 0; a.bound++)
        ;
    for (const char *p = key + used; *p;) {
        size_t n = strcspn(p, " ");
        if (n == 0) {
            p++;
            continue;
        }
        if (a.n_pv == MSG_PV_MAX || n >= MSG_MOVE_MAX) {
            snprintf(why, len, "PV too long or a move too long");
            return -1;
        }
        memcpy(pv[a.n_pv], p, n);
        pv[a.n_pv++][n] = '\0';
        p += n;
    }
    if (a.bound > MSG_BOUND_UPPER) {
        snprintf(why, len, "bound '%s' is not exact, lower or upper", bound);
        return -1;
    }
    return ajob_check(self, i, &a, out, why, len) ? 0 : -1;
}

void ajob_result_text(const ajob_t *self, size_t i, const ajob_result_t *r, char *buf, size_t len)
{
    char score[32], pv[MSG_PV_MAX * MOVE_TEXT_MAX];
    format_score(r->score, score, sizeof score);
    format_pv(&self->game.pos, r->pv, r->n_pv, pv, sizeof pv);
    snprintf(buf, len, "%s %s (%s) seldepth %u nodes %llu pv %.200s", self->root[i], score,
             s_bounds[r->bound <= MSG_BOUND_UPPER ? r->bound : 0], r->seldepth, (unsigned long long)r->nodes, pv);
}
