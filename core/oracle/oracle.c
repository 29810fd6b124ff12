/* oracle.c: the oracle object: its tables, their coverage and entity tag. */
#include "oracle_priv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32c.h"
#include "index.h"
#include "octad/octad.h"
#include "oracle_cover.h"
#include "tbfile.h"

/* The API's version, part of the entity tag: answers that change meaning
 * change their tag even over the same tables. */
#define ORACLE_API_VERSION "v1"

/* Finds the complete table files of dir and folds their checksums into the tag. */
static void s_scan(oracle_t *self, const char *dir)
{
    uint32_t crc = 0;
    for (int t = 0; t < SIG_TABLE_NB; t++) {
        char name[SIG_NAME_MAX + 8], path[4096], err[256];
        tbfile_info_t info;
        tbfile_name(t, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (!tbfile_complete(path, t) || tbfile_read_info(path, &info, err, sizeof err) < 0)
            continue;
        self->present[t] = true;
        self->files++;
        uint32_t pair[2] = {(uint32_t)t, info.crc};
        crc = crc32c(crc, pair, sizeof pair);
    }
    snprintf(self->etag, sizeof self->etag, "\"octad-%s-%d-%08x\"", ORACLE_API_VERSION, self->files, crc);
}

/* The largest N with every table of at most N pieces covered. */
static int s_max_pieces(const oracle_t *self)
{
    for (int k = 3; k <= 8; k++)
        for (int t = 0; t < SIG_TABLE_NB; t++)
            if (sig_table_pieces(t) == k && !self->covered[t])
                return k - 1;
    return 8;
}

oracle_t *oracle_new(const char *dir, size_t memory)
{
    octad_init();
    index_init();
    oracle_t *self = calloc(1, sizeof *self);
    if (!self)
        return NULL;
    if (!(self->store = store_new_bounded(dir, memory))) {
        free(self);
        return NULL;
    }
    s_scan(self, dir);
    oracle_cover_compute(self->present, self->covered);
    self->max_pieces = s_max_pieces(self);
    return self;
}

void oracle_destroy(oracle_t **self_p)
{
    if (!self_p || !*self_p)
        return;
    store_destroy(&(*self_p)->store);
    free(*self_p);
    *self_p = NULL;
}

void oracle_set_retry(oracle_t *self, double seconds) { store_set_retry(self->store, seconds); }

int oracle_retry_after(const oracle_t *self)
{
    int s = (int)(store_retry_in(self->store) + 0.999);
    return s > 0 ? s : 1;
}

bool oracle_memory(oracle_t *self, size_t *bytes, size_t *budget, unsigned long long *blocks,
                   unsigned long long *hits, unsigned long long *misses)
{
    blockcache_stats_t st;
    if (!store_memory(self->store, &st))
        return false;
    *bytes = st.bytes;
    *budget = st.budget;
    *blocks = st.blocks;
    *hits = st.hits;
    *misses = st.misses;
    return true;
}

void oracle_tables_open(oracle_t *self, int *open, size_t *bytes)
{
    store_tables_t t = store_tables(self->store);
    *open = t.open;
    *bytes = t.bytes;
}

const char *oracle_etag(const oracle_t *self) { return self->etag; }

int oracle_table_files(const oracle_t *self) { return self->files; }

int oracle_max_pieces(const oracle_t *self) { return self->max_pieces; }

bool oracle_covers(const oracle_t *self, const octad_pos_t *p)
{
    if ((octad_status(p) & (OCTAD_CHECKMATE | OCTAD_STALEMATE)) || octad_insufficient_material(p))
        return true;
    int t = oracle_cover_table_of(p);
    return t >= 0 && self->covered[t];
}

oracle_status_t oracle_parse(const char *ofen, octad_pos_t *p, char *err, size_t errlen)
{
    if (octad_parse(ofen, p, err, errlen) < 0)
        return ORACLE_BAD_INPUT;
    if (oracle_cover_table_of(p) < 0) {
        snprintf(err, errlen, "material: no octad game reaches it (a side has a king and, besides, at most "
                              "2 pawns, and its original knight and at most 2 - pawns promoted pieces)");
        return ORACLE_BAD_INPUT;
    }
    return ORACLE_OK;
}

int oracle_set(json_t *obj, const char *key, json_t *value)
{
    return value && json_object_set_new_nocheck(obj, key, value) == 0 ? 0 : -1;
}
