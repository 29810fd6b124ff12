/* whello.h: the worker's side of opening a session and of the protocol-version
 * negotiation (proto/PROTOCOL.md sections 3, 5.1, 8, 11.1 and 12.1): the
 * messages it says and the step it takes on ERROR VERSION. No socket and no
 * state here: worker.c sends, logs and keeps the session's version. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "msg.h"

/* Fills *m with the HELLO of a worker in a version-`version` envelope: its
 * name (cut to MSG_NAME_MAX - 1 bytes), how many tasks it takes at once
 * (capacity: threads + prefetch), every variant of game.h by name, and its
 * hash size in MiB. */
void whello_hello(msg_t *m, uint32_t version, const char *name, uint32_t capacity, uint32_t hash_mb);

/* Raises m's envelope to the session's version, so that every message of a
 * session uses the HELLO's version (11.1); a type newer than the session
 * keeps its own version (the codec then refuses to send it). */
void whello_stamp(msg_t *m, uint32_t session_version);

/* The version to say HELLO again in after the coordinator's ERROR VERSION:
 * version - 1 while the HELLO awaits its WELCOME (hello_pending) and version
 * is above 1, so that an OCTP/3 worker meets an OCTP/2 or OCTP/1
 * coordinator (12.1). 0 when there is none (refused at version 1, or within
 * a session): the worker then stops with exit status 1. */
uint32_t whello_fallback(uint32_t version, bool hello_pending);

/* Fills *m with the ERROR VERSION that a worker speaking OCTP/MSG_VERSION_MIN
 * to OCTP/`version` sends back on a message of a version it does not speak
 * (section 8), before it stops; the text names that range. */
void whello_version_error(msg_t *m, uint32_t version);
