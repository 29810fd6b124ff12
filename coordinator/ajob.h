/* ajob.h: one `coordinator --analyse` job (proto/PROTOCOL.md section 12),
 * without sockets: the analysed position and its game, one task per legal
 * root move, the checks on an ANALYSED, the results each task received, the
 * journal records, and the final report.
 *
 * Task i (0-based; task id i + 1 on the wire) is the i-th legal move in the
 * order game_children lists them, the order `octad search --split` uses. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "msg.h"
#include "sched.h"
#include "types.h"

enum {
    AJOB_SEEN_MAX = 4,     /* distinct results kept per task (verify needs at most 3) */
    AJOB_KEY_MAX = 1024    /* job key and journal record text, as JOURNAL_KEY_MAX */
};

/* One root move's analysis, as a worker reported it and the coordinator checked it. */
typedef struct {
    int32_t score;          /* engine units from the side to move at the analysed position */
    uint8_t bound;          /* MSG_BOUND_* */
    uint8_t seldepth;
    uint64_t nodes;
    int n_pv;
    engine_move_t pv[MSG_PV_MAX];
} ajob_result_t;

typedef struct ajob_s {
    variant_t variant;
    char start[GAME_TEXT_MAX];             /* the game's start position */
    int n_moves;
    msg_move_t moves[MSG_GAME_MOVES_MAX];  /* the game from start to the analysed position */
    engine_game_t game;                    /* the analysed position and its history */
    int depth;
    uint32_t hash_mb;
    bool verify;
    size_t task_nb;                        /* legal root moves */
    char root[GAME_MOVES_MAX][MSG_MOVE_MAX];
    int n_seen[GAME_MOVES_MAX];
    ajob_result_t seen[GAME_MOVES_MAX][AJOB_SEEN_MAX]; /* distinct results received per task */
    char job_key[AJOB_KEY_MAX];
    uint64_t job_id;                       /* FNV-1a of job_key, never 0 */
} ajob_t;

/* A new job: start (OFEN/FEN of variant v), then the space-separated moves
 * (NULL: none), searched to depth with a table of hash_mb. NULL with a
 * message in err (a bad position or move, no legal move, out of memory). */
ajob_t *ajob_new(variant_t v, const char *start, const char *moves, int depth, uint32_t hash_mb, bool verify,
                 char *err, size_t errlen);

/* Frees *self_p and NULLs it; safe on NULL. */
void ajob_destroy(ajob_t **self_p);

/* The ANALYSE of task i; its moves point into self. */
void ajob_task_msg(const ajob_t *self, size_t i, uint64_t task_id, uint32_t lease_ms, msg_t *m);

/* Whether an ANALYSED can be task i's answer: its move is task i's, its PV
 * starts with it and is legal move after move from the analysed position,
 * and it searched at least one node. Fills *out; false with the reason in why. */
bool ajob_check(const ajob_t *self, size_t i, const msg_analysed_t *a, ajob_result_t *out, char *why, size_t len);

/* Result r of task i as the scheduler's answer (sched.h): its place among the
 * distinct results task i received, from 1, so equal for identical results only
 * (score, bound, seldepth, nodes and PV all compared: no hash in between). The
 * result is kept here; the scheduler only compares the numbers under --verify. */
sched_answer_t ajob_answer(ajob_t *self, size_t i, const ajob_result_t *r);

/* The result task i's answer `answer` (ajob_answer) stands for, or NULL. */
const ajob_result_t *ajob_seen(const ajob_t *self, size_t i, sched_answer_t answer);

/* The journal record of a result of task i: its task key text (printable
 * ASCII: "MOVE score S bound B seldepth D pv M1 M2 ...", PROTOCOL.md 12.6). */
void ajob_record(const ajob_t *self, size_t i, const ajob_result_t *r, char *buf, size_t len);

/* Reads a journal record of task i back (key text and nodes) and checks it
 * like an ANALYSED. 0, or -1 with the problem in why. */
int ajob_record_parse(const ajob_t *self, size_t i, const char *key, uint64_t nodes, ajob_result_t *out, char *why,
                      size_t len);

/* Opens the job's journal at path (journal_open_keys) into *out and marks
 * every task it records done in sched, after checking each record like an
 * ANALYSED (ajob_record_parse); *loaded is their number. 0; -1 with a
 * message in err when the file is not this job's journal (bad input); -2
 * when the disk fails (ENOSPC, EIO ...). */
struct journal_s;
int ajob_load_journal(ajob_t *self, const char *path, sched_t *sched, struct journal_s **out, size_t *loaded,
                      char *err, size_t errlen);

/* One root move's text line: "e2e4 cp 23 (exact) nodes N pv e2e4 e7e5". */
void ajob_result_text(const ajob_t *self, size_t i, const ajob_result_t *r, char *buf, size_t len);

/* Prints the final result on out: every move's `info` line, best first, as
 * `octad search --split` prints them (all: every move, else the best one),
 * then `bestmove M [ponder P]`; or with json one object. results[i] is task i's. */
void ajob_print(const ajob_t *self, const ajob_result_t *const *results, bool all, bool json, double seconds,
                FILE *out);
