/* cmd_tables.c: `octad tables manifest|check`: the SHA-256 and size of every
 * table file, written down and checked (tables_manifest.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "tables_manifest.h"

#define DEFAULT_TABLES "octad-tables"

static void s_help(void)
{
    printf("usage: octad tables manifest [--tables DIR]\n"
           "       octad tables check [--tables DIR]\n"
           "manifest writes DIR/MANIFEST: the SHA-256 and size of every table file and of\n"
           "SUMMARY, one line each (\"SHA256 SIZE NAME\"), and prints the SHA-256 of the\n"
           "manifest itself, to publish. check verifies DIR against DIR/MANIFEST: every file\n"
           "listed there with its size and SHA-256, and no table file unlisted; it prints\n"
           "each problem and exits 1 if there is any.\n\n"
           "  --tables DIR     table directory (default: $OCTAD_TABLES or ./" DEFAULT_TABLES ")\n"
           "  --help           this text\n");
}

static void s_report(void *ctx, const char *problem)
{
    (void)ctx;
    printf("%s\n", problem);
}

int cmd_tables(int argc, char **argv)
{
    const char *env = getenv("OCTAD_TABLES"), *dir = env && *env ? env : DEFAULT_TABLES, *action = NULL;
    for (int i = 0; i < argc; i++) {
        const char *v;
        int rc = args_value("tables", argc, argv, &i, "--tables", &v);
        if (rc < 0)
            return EXIT_USAGE;
        if (rc > 0) {
            dir = v;
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            s_help();
            return EXIT_OK;
        } else if (!action && (strcmp(argv[i], "manifest") == 0 || strcmp(argv[i], "check") == 0)) {
            action = argv[i];
        } else {
            args_error("tables", "unknown argument '%.40s' (see octad tables --help)", argv[i]);
            return EXIT_USAGE;
        }
    }
    if (!action) {
        args_error("tables", "say manifest or check (see octad tables --help)");
        return EXIT_USAGE;
    }
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
