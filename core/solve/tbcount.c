/* tbcount.c: the game positions the tables stand for (tbcount.h). */
#include "tbcount.h"

#include <stdio.h>
#include <string.h>

#include "index.h"
#include "octad/legal.h"
#include "octad/octad.h"
#include "sig.h"

/* Whether the White-to-move placement in slot k of slice s is a position:
 * the side not to move is not in check (kings side by side included). */
static bool s_legal_slot(const layout_slice_t *s, uint32_t k)
{
    octad_pos_t p;
    index_decode(s, k, &p);
    bb_t occ = (bb_t)(p.color[0] | p.color[1]);
    return !legal_attackers_to(&p, p.ksq[1], occ, 0);
}

void count_table(const layout_table_t *t, const rec_t *recs, tbcount_t *out)
{
    out->tables++;
    for (int i = 0; i < t->nslices; i++) {
        const layout_slice_t *s = &t->slices[i];
        uint64_t legal = 0;
        for (uint32_t k = 0; k < s->size; k++)
            if (recs ? rec_wdl(recs[s->offset + k]) != REC_INVALID : s_legal_slot(s, k))
                legal++;
        /* A colour flip each; without rights on either side, a mirror too. */
        uint64_t each = s->castle == 0 ? 4 : 2;
        out->records += s->size;
        out->legal += legal;
        out->positions += legal * each;
    }
}

static void s_add(tbcount_t *to, const tbcount_t *c)
{
    to->tables += c->tables;
    to->records += c->records;
    to->legal += c->legal;
    to->positions += c->positions;
}

/* Counts table `table` (of pair `pair`) into *c. */
static int s_count_one(const char *dir, int pair, int table, tbcount_t *c, char *err, size_t errlen)
{
    if (!sig_table_dead(table)) {
        tbfile_t f;
        char why[400];
        if (tbfile_read(dir, table, &f, why, sizeof why) < 0) {
            snprintf(err, errlen, "%s (count fewer pieces with --max-pieces, or solve them first)", why);
            return -1;
        }
        count_table(&f.layout, f.recs, c);
        tbfile_close(&f);
        return 0;
    }
    layout_pair_t lp;
    if (layout_pair_build(pair, &lp) < 0) {
        snprintf(err, errlen, "out of memory building the layout of pair %d", pair);
        return -1;
    }
    for (int t = 0; t < lp.ntables; t++)
        if (lp.tables[t].table == table)
            count_table(&lp.tables[t], NULL, c);
    layout_pair_free(&lp);
    return 0;
}

int count_dir(const char *dir, int max_pieces, count_progress_fn progress, void *ctx, tbcount_t by_pieces[9],
              char *err, size_t errlen)
{
    memset(by_pieces, 0, 9 * sizeof *by_pieces);
    octad_init(); /* the attack tables of the legality test */
    index_init();
    for (int i = 0; i < sig_pair_nb(); i++) {
        int first = sig_pair_table(i);
        int tables[2] = {first, sig_table_flip(first)};
        for (int k = 0; k < (tables[1] == first ? 1 : 2); k++) {
            int pieces = sig_table_pieces(tables[k]);
            if (pieces > max_pieces)
                continue;
            tbcount_t c = {0};
            if (s_count_one(dir, i, tables[k], &c, err, errlen) < 0)
                return -1;
            s_add(&by_pieces[pieces], &c);
            if (progress) {
                char name[32];
                sig_table_name(tables[k], name, sizeof name);
                progress(ctx, name, pieces, !sig_table_dead(tables[k]), &c);
            }
        }
    }
    return 0;
}
