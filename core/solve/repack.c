/* repack.c: version-1 table files rewritten as version 2. */
#include "repack.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "index.h"
#include "sig.h"
#include "tbfile.h"

static uint64_t s_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

/* Rewrites one file (table `table`, at `path`, version 1). */
static int s_repack(const char *dir, const char *path, int table, char *err, size_t errlen)
{
    tbfile_t old, check;
    if (tbfile_read(dir, table, &old, err, errlen) < 0)
        return -1;
    /* The new file is written beside the old one, under a name a reader skips. */
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/.repack.%d", dir, (int)getpid());
    if (mkdir(sub, 0755) < 0) {
        snprintf(err, errlen, "%s: cannot create: directory exists or is not writable", sub);
        tbfile_close(&old);
        return -1;
    }
    tbfile_info_t info;
    int rc = tbfile_write(sub, &old.layout, old.recs, &info, err, errlen);
    if (rc == 0 && (rc = tbfile_read(sub, table, &check, err, errlen)) == 0) {
        if (check.info.crc != old.info.crc || check.info.nrecords != old.info.nrecords
            || memcmp(check.info.counts, old.info.counts, sizeof old.info.counts) != 0) {
            snprintf(err, errlen, "%s: the rewritten file does not read back the same records", path);
            rc = -1;
        }
        tbfile_close(&check);
    }
    char name[64], fresh[4300];
    tbfile_name(table, name, sizeof name);
    snprintf(fresh, sizeof fresh, "%s/%s", sub, name);
    if (rc == 0 && rename(fresh, path) < 0) {
        snprintf(err, errlen, "%s: cannot replace", path);
        rc = -1;
    }
    unlink(fresh);
    rmdir(sub);
    tbfile_close(&old);
    return rc;
}

int repack_dir(const char *dir, repack_progress_fn progress, void *ctx, repack_stats_t *st, char *err,
               size_t errlen)
{
    memset(st, 0, sizeof *st);
    index_init();
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "%s: cannot open the table directory", dir);
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l <= 4 || strcmp(e->d_name + l - 4, ".otb") != 0)
            continue;
        char path[4200], name[64], why[256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(name, sizeof name, "%.*s", (int)(l - 4), e->d_name);
        tbfile_info_t info;
        int table;
        if (sig_table_parse(name, &table, why, sizeof why) < 0 || tbfile_read_info(path, &info, why, sizeof why) < 0) {
            snprintf(err, errlen, "%s: %s", path, why);
            rc = -1;
            break;
        }
        st->files++;
        if (info.version == TBFILE_VERSION)
            continue;
        uint64_t before = s_size(path);
        if ((rc = s_repack(dir, path, table, err, errlen)) < 0)
            break;
        uint64_t after = s_size(path);
        st->repacked++;
        st->bytes_before += before;
        st->bytes_after += after;
        if (progress)
            progress(ctx, e->d_name, before, after);
    }
    closedir(d);
    return rc;
}
