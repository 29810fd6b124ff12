/* cmd_tables.c: `octad tables manifest|check`: the SHA-256 and size of every
 * table file, written down and checked (tables_manifest.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "err.h"
#include "opt.h"
#include "tables_manifest.h"

#define DEFAULT_TABLES "octad-tables"

static const char s_usage[] =
    "usage: octad tables manifest [--tables DIR]\n"
    "       octad tables check [--tables DIR]\n"
    "manifest writes DIR/MANIFEST: the SHA-256 and size of every table file and of\n"
    "SUMMARY, one line each (\"SHA256 SIZE NAME\"), and prints the SHA-256 of the\n"
    "manifest itself, to publish. check verifies DIR against DIR/MANIFEST: every file\n"
    "listed there with its size and SHA-256, and no table file unlisted; it prints\n"
    "each problem and exits 1 if there is any.\n\n";

typedef struct {
    const char *dir, *action;
} s_opts_t;

/* The action: manifest or check, once. */
static int s_plain(const char *arg, void *base, char *err, size_t errlen)
{
    s_opts_t *o = base;
    if (o->action || (strcmp(arg, "manifest") != 0 && strcmp(arg, "check") != 0))
        return err_printf(err, errlen, "unknown argument '%.40s': say manifest or check, once", arg);
    o->action = arg;
    return 0;
}

static const opt_t s_rows[] = {
    {"--tables", 0, OPT_TEXT, "DIR", OPT_AT(s_opts_t, dir), "table directory (default: $OCTAD_TABLES or ./" DEFAULT_TABLES ")"},
};

static const opt_spec_t s_spec = {.prog = "octad tables", .usage = s_usage, .rows = s_rows,
                                  .row_nb = sizeof s_rows / sizeof s_rows[0], .plain = s_plain};

static void s_report(void *ctx, const char *problem)
{
    (void)ctx;
    printf("%s\n", problem);
}

int cmd_tables(int argc, char **argv)
{
    const char *env = getenv("OCTAD_TABLES");
    s_opts_t o = {.dir = env && *env ? env : DEFAULT_TABLES};
    int rc = opt_parse(&s_spec, argc, argv, &o);
    if (rc != 0)
        return rc == OPT_HELP ? EXIT_OK : rc;
    if (!o.action)
        return opt_usage("octad tables", "say manifest or check");
    const char *dir = o.dir, *action = o.action;
    char err[600], sha[MANIFEST_SHA_HEX];
    if (strcmp(action, "manifest") == 0) {
        int n = manifest_write(dir, sha, err, sizeof err);
        if (n < 0) {
            args_error("tables", "%s", err);
            return EXIT_FAIL;
        }
        printf("wrote %s/MANIFEST: %d files; SHA-256 of the manifest: %s\n", dir, n, sha);
        return EXIT_OK;
    }
    int files = 0, problems = manifest_check(dir, s_report, NULL, &files, err, sizeof err);
    if (problems < 0) {
        args_error("tables", "%s", err);
        return EXIT_FAIL;
    }
    if (problems == 0)
        printf("%s: all %d files match the manifest\n", dir, files);
    else
        printf("%s: %d problem%s (%d files listed)\n", dir, problems, problems == 1 ? "" : "s", files);
    return problems == 0 ? EXIT_OK : EXIT_FAIL;
}
