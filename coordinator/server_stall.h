/* server_stall.h: what a job that no connected worker can advance waits for (private to server*.c). */
#pragma once

#include <stdint.h>

typedef struct server_s server_t;

/* Called from the timers. When tasks are queued and none is in progress for a
 * while, says why (disputed verify tasks, tasks refused by every connected
 * worker, a lone verify worker, or no worker at all), again every 30 s; after
 * --stall-timeout with tasks held back, ends the job (server_run returns
 * SERVER_DISPUTED when verify results disagree, else 1). */
void server_stall_check(server_t *self, int64_t now);
