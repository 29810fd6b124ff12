/* test_serve_cache.c: the answer cache of octad serve (serve/serve_cache.h):
 * hits give a copy of what was put, the least recently used answer goes
 * first, capacity 0 keeps nothing, a key put twice keeps the first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve_cache.h"

static bool s_has(serve_cache_t *c, const char *key, const char *want)
{
    char *body = NULL;
    size_t len = 0;
    if (!serve_cache_get(c, key, &body, &len))
        return false;
    bool same = len == strlen(want) && strcmp(body, want) == 0;
    free(body);
    assert_true(same);
    return true;
}

static void test_lru(void **state)
{
    (void)state;
    serve_cache_t *c = serve_cache_new(2);
    assert_non_null(c);
    assert_false(s_has(c, "a", ""));
    serve_cache_put(c, "a", "answer a", 8);
    serve_cache_put(c, "b", "answer b", 8);
    assert_true(s_has(c, "a", "answer a")); /* a is now the most recent */
    serve_cache_put(c, "c", "answer c", 8);  /* so b goes */
    assert_false(s_has(c, "b", ""));
    assert_true(s_has(c, "a", "answer a"));
    assert_true(s_has(c, "c", "answer c"));
    serve_cache_put(c, "c", "other", 5); /* the first answer stays */
    assert_true(s_has(c, "c", "answer c"));
    for (int i = 0; i < 1000; i++) { /* many keys through a small cache, and bucket collisions */
        char key[16];
        snprintf(key, sizeof key, "k%d", i);
        serve_cache_put(c, key, key, strlen(key));
        assert_true(s_has(c, key, key));
    }
    assert_true(s_has(c, "k999", "k999") && s_has(c, "k998", "k998"));
    assert_false(s_has(c, "k997", ""));
    serve_cache_destroy(&c);
    assert_null(c);
    serve_cache_destroy(&c);
}

static void test_none(void **state)
{
    (void)state;
    serve_cache_t *c = serve_cache_new(0);
    assert_non_null(c);
    serve_cache_put(c, "a", "answer a", 8);
    assert_false(s_has(c, "a", ""));
    serve_cache_destroy(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_lru), cmocka_unit_test(test_none)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
