/* test_peers.c: the coordinator's session table (coordinator/peers.h) at the sizes of a swarm:
 * tens of thousands of sessions found by identity and principals found by text through their
 * hash indexes, checked against a plain scan of the table after every step of a random run of
 * joins and departures (identities claimed twice included), and the bounds of the table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "peers.h"
#include "rng.h"

static wire_peer_t s_id(uint32_t n)
{
    wire_peer_t id = {.len = 5};
    id.id[0] = 0; /* libzmq's generated identities start with a zero byte */
    memcpy(&id.id[1], &n, 4);
    return id;
}

static wire_meta_t s_meta(int fd, const char *key)
{
    wire_meta_t m = {.fd = fd};
    snprintf(m.user_id, sizeof m.user_id, "%s", key);
    return m;
}

/* The session of id as a plain scan finds it: the lowest slot in use with that identity. */
static peer_t *s_scan(peers_t *t, const wire_peer_t *id)
{
    for (size_t i = 0; i < peers_cap(t); i++) {
        peer_t *p = peers_at(t, i);
        if (p->used && p->id.len == id->len && memcmp(p->id.id, id->id, id->len) == 0)
            return p;
    }
    return NULL;
}

/* 20,000 sessions under 5,000 names join; every one is found; a quarter leave and others
 * join into their slots; pointers handed out earlier stay valid (blocks never move). */
static void test_many_sessions(void **state)
{
    (void)state;
    enum { N = 20000 };
    peers_t *t = peers_new();
    assert_non_null(t);
    peer_t **got = calloc(N, sizeof *got);
    assert_non_null(got);
    wire_meta_t meta = s_meta(7, "");
    for (uint32_t n = 0; n < N; n++) {
        char name[32];
        snprintf(name, sizeof name, "w%u", n % 5000);
        wire_peer_t id = s_id(n);
        got[n] = peers_add(t, &id, &meta, name, 1, 0);
        assert_non_null(got[n]);
        assert_int_equal(got[n]->serial, n + 1);
    }
    assert_int_equal(peers_count(t), N);
    assert_int_equal(peers_names_alive(t), 5000);
    for (uint32_t n = 0; n < N; n++) {
        wire_peer_t id = s_id(n);
        assert_ptr_equal(peers_find(t, &id), got[n]);
        assert_string_equal(peers_name_of(t, got[n]->name_id), got[n]->name);
    }
    assert_int_equal(got[0]->name_id, got[5000]->name_id); /* one principal per name */
    for (uint32_t n = 0; n < N; n += 4)
        peers_remove(t, got[n]);
    assert_int_equal(peers_count(t), N - N / 4);
    for (uint32_t n = 0; n < N; n++) {
        wire_peer_t id = s_id(n);
        assert_ptr_equal(peers_find(t, &id), n % 4 == 0 ? NULL : got[n]);
    }
    for (uint32_t n = N; n < N + N / 4; n++) {
        wire_peer_t id = s_id(n);
        peer_t *p = peers_add(t, &id, &meta, "late", 1, 0);
        assert_non_null(p);
        assert_ptr_equal(p, got[(n - N) * 4]); /* the lowest free slot first */
    }
    assert_int_equal(peers_cap(t), N);
    free(got);
    peers_destroy(&t);
    assert_null(t);
}

/* A random run of joins and departures, identities often claimed again by a new connection
 * (two sessions, one identity): after every step the index answers as the plain scan does. */
static void test_index_matches_scan(void **state)
{
    (void)state;
    peers_t *t = peers_new();
    assert_non_null(t);
    uint64_t rng = 20261205;
    wire_meta_t meta = s_meta(3, "");
    for (int step = 0; step < 60000; step++) {
        uint32_t n = (uint32_t)(rng_next(&rng) % 3000);
        wire_peer_t id = s_id(n);
        uint64_t r = rng_next(&rng) % 10;
        if (r < 5) {
            char name[16];
            snprintf(name, sizeof name, "n%u", (unsigned)(rng_next(&rng) % 700));
            meta.fd = (int)(rng_next(&rng) % 4);
            assert_non_null(peers_add(t, &id, &meta, name, 1, step));
        } else {
            peer_t *p = s_scan(t, &id);
            if (p != NULL)
                peers_remove(t, p);
        }
        uint32_t probe = (uint32_t)(rng_next(&rng) % 3000);
        wire_peer_t pid = s_id(probe);
        assert_ptr_equal(peers_find(t, &pid), s_scan(t, &pid));
    }
    size_t used = 0;
    for (size_t i = 0; i < peers_cap(t); i++)
        used += peers_at(t, i)->used;
    assert_int_equal(used, peers_count(t));
    peers_destroy(&t);
}

/* The table holds PEERS_MAX sessions and refuses the next; a CURVE key holds PEERS_PER_KEY_MAX. */
static void test_bounds(void **state)
{
    (void)state;
    peers_t *t = peers_new();
    assert_non_null(t);
    wire_meta_t plain = s_meta(1, "");
    for (uint32_t n = 0; n < PEERS_MAX; n++) {
        wire_peer_t id = s_id(n);
        assert_non_null(peers_add(t, &id, &plain, "same", 1, 0));
    }
    wire_peer_t extra = s_id(PEERS_MAX);
    assert_null(peers_add(t, &extra, &plain, "same", 1, 0));
    peers_remove(t, peers_at(t, 17));
    assert_non_null(peers_add(t, &extra, &plain, "same", 1, 0));
    assert_ptr_equal(peers_find(t, &extra), peers_at(t, 17));
    peers_destroy(&t);

    t = peers_new();
    wire_meta_t keyed = s_meta(1, "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7");
    for (uint32_t n = 0; n < PEERS_PER_KEY_MAX; n++) {
        wire_peer_t id = s_id(n);
        assert_non_null(peers_add(t, &id, &keyed, "k", 1, 0));
    }
    wire_peer_t one_more = s_id(PEERS_PER_KEY_MAX);
    assert_null(peers_add(t, &one_more, &keyed, "k", 1, 0));
    assert_int_equal(peers_names_alive(t), 1);
    assert_non_null(strstr(peers_name_of(t, peers_at(t, 0)->name_id), "[key "));
    peers_destroy(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_sessions),
        cmocka_unit_test(test_index_matches_scan),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
