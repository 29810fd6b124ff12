/* tables_manifest.c: writing and checking DIR/MANIFEST (tables_manifest.h),
 * SHA-256 by libsodium. */
#include "tables_manifest.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <sodium.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { S_NAME_MAX = 64, S_FILES_MAX = 4096 };

typedef struct {
    char name[S_NAME_MAX];
} s_name_t;

/* Whether a directory entry belongs in the manifest. */
static bool s_listed(const char *name)
{
    size_t n = strlen(name);
    return n < S_NAME_MAX && (strcmp(name, "SUMMARY") == 0 || (n > 4 && strcmp(name + n - 4, ".otb") == 0));
}

static int s_cmp_name(const void *a, const void *b) { return strcmp(a, b); }

/* The names of the files that belong in the manifest, sorted. -1 + err. */
static int s_names(const char *dir, s_name_t *names, char *err, size_t errlen)
{
    DIR *d = opendir(dir);
    if (!d) {
        snprintf(err, errlen, "cannot open the table directory %s: %s", dir, strerror(errno));
        return -1;
    }
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (s_listed(e->d_name) && n < S_FILES_MAX)
            snprintf(names[n++].name, S_NAME_MAX, "%.63s", e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, s_cmp_name);
    return n;
}

/* SHA-256 (hex) and size of a file. 0, or -1 + err naming it. */
static int s_hash_file(const char *path, char hex[MANIFEST_SHA_HEX], uint64_t *size, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    crypto_hash_sha256_state st;
    crypto_hash_sha256_init(&st);
    static _Thread_local unsigned char buf[1 << 16];
    size_t got;
    *size = 0;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        crypto_hash_sha256_update(&st, buf, got);
        *size += got;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(err, errlen, "%s: read error", path);
        return -1;
    }
    unsigned char md[crypto_hash_sha256_BYTES];
    crypto_hash_sha256_final(&st, md);
    sodium_bin2hex(hex, MANIFEST_SHA_HEX, md, sizeof md);
    return 0;
}

int manifest_write(const char *dir, char self_sha[MANIFEST_SHA_HEX], char *err, size_t errlen)
{
    static s_name_t names[S_FILES_MAX];
    if (sodium_init() < 0) {
        snprintf(err, errlen, "libsodium cannot start");
        return -1;
    }
    int n = s_names(dir, names, err, errlen);
    if (n < 0)
        return -1;
    char tmp[4096], final[4096], path[4096], hex[MANIFEST_SHA_HEX];
    snprintf(tmp, sizeof tmp, "%s/MANIFEST.tmp", dir);
    snprintf(final, sizeof final, "%s/MANIFEST", dir);
    FILE *out = fopen(tmp, "w");
    if (!out) {
        snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++) {
        uint64_t size;
        snprintf(path, sizeof path, "%s/%.63s", dir, names[i].name);
        if (s_hash_file(path, hex, &size, err, errlen) < 0) {
            fclose(out);
            remove(tmp);
            return -1;
        }
        fprintf(out, "%s %" PRIu64 " %s\n", hex, size, names[i].name);
    }
    uint64_t size;
    if (fclose(out) != 0 || rename(tmp, final) != 0 || s_hash_file(final, self_sha, &size, err, errlen) < 0) {
        snprintf(err, errlen, "%s: cannot write it: %s", final, strerror(errno));
        remove(tmp);
        return -1;
    }
    return n;
}

/* Parses one MANIFEST line into its three fields; false if malformed. */
static bool s_parse_line(char *line, char hex[MANIFEST_SHA_HEX], uint64_t *size, char name[S_NAME_MAX])
{
    char sha[80], nm[S_NAME_MAX + 8], tail;
    if (sscanf(line, "%79s %" SCNu64 " %71s %c", sha, size, nm, &tail) != 3 || strlen(sha) != 64 ||
        strspn(sha, "0123456789abcdef") != 64 || !s_listed(nm) || strchr(nm, '/'))
        return false;
    memcpy(hex, sha, MANIFEST_SHA_HEX);
    snprintf(name, S_NAME_MAX, "%.63s", nm);
    return true;
}

/* Reports every table file of dir that the manifest's sorted names lack. */
static int s_unlisted(const char *dir, s_name_t *listed, int nlisted, void (*report)(void *, const char *), void *ctx,
                      char *err, size_t errlen)
{
    static s_name_t names[S_FILES_MAX];
    int n = s_names(dir, names, err, errlen), problems = 0;
    if (n < 0)
        return -1;
    qsort(listed, (size_t)nlisted, sizeof *listed, s_cmp_name);
    for (int i = 0; i < n; i++)
        if (!bsearch(names[i].name, listed, (size_t)nlisted, sizeof *listed, s_cmp_name)) {
            char msg[160];
            snprintf(msg, sizeof msg, "%.63s: not in the manifest", names[i].name);
            report(ctx, msg);
            problems++;
        }
    return problems;
}

int manifest_check(const char *dir, void (*report)(void *ctx, const char *problem), void *ctx, int *files,
                   char *err, size_t errlen)
{
    static s_name_t listed[S_FILES_MAX];
    char mpath[4096], path[4096], line[512], want[MANIFEST_SHA_HEX], got[MANIFEST_SHA_HEX], name[S_NAME_MAX],
        msg[400];
    if (sodium_init() < 0) {
        snprintf(err, errlen, "libsodium cannot start");
        return -1;
    }
    snprintf(mpath, sizeof mpath, "%s/MANIFEST", dir);
    FILE *f = fopen(mpath, "r");
    if (!f) {
        snprintf(err, errlen, "%s: %s (make it with: octad tables manifest --tables %s)", mpath, strerror(errno), dir);
        return -1;
    }
    int problems = 0, n = 0;
    for (int lineno = 1; fgets(line, sizeof line, f); lineno++) {
        uint64_t size, have;
        if (!s_parse_line(line, want, &size, name) || n == S_FILES_MAX) {
            snprintf(err, errlen, "%s line %d: not \"SHA256 SIZE NAME\" (64 hex digits, bytes, a table file name)",
                     mpath, lineno);
            fclose(f);
            return -1;
        }
        snprintf(listed[n++].name, S_NAME_MAX, "%.63s", name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        char why[300];
        if (s_hash_file(path, got, &have, why, sizeof why) < 0)
            snprintf(msg, sizeof msg, "%s: missing or unreadable (%s)", name, why);
        else if (have != size)
            snprintf(msg, sizeof msg, "%s: %" PRIu64 " bytes, the manifest says %" PRIu64, name, have, size);
        else if (strcmp(got, want) != 0)
            snprintf(msg, sizeof msg, "%s: SHA-256 %s, the manifest says %s", name, got, want);
        else
            continue;
        report(ctx, msg);
        problems++;
    }
    fclose(f);
    *files = n;
    int extra = s_unlisted(dir, listed, n, report, ctx, err, errlen);
    return extra < 0 ? -1 : problems + extra;
}
