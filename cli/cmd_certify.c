/* cmd_certify.c: `octad certify`, certificates of octad values from the tables
 * (core/cert/, docs/certificate.md), to be checked by the separate program certcheck. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cert_build.h"
#include "cmd.h"
#include "start.h"

#define DEFAULT_TABLES "octad-tables"

typedef struct {
    const char *dir, *out, *ofen;
    long start;
    bool all, plain;
} s_opts_t;

static const char s_usage[] =
    "usage: octad certify [--tables DIR] [--start N | --all | --ofen OFEN] --out DIR [--plain]\n"
    "Writes a certificate of an octad position's value from the tables\n"
    "(docs/certificate.md): for a draw, each side's strategy closure; for a win, a\n"
    "proof graph with ranks and clock bounds. Check it with `certcheck check FILE`,\n"
    "which shares no code with this program. One line per certificate: its file,\n"
    "claim, records, bytes, checksum and seconds. Default: the standard start (39).\n\n";

#define F(field) OPT_AT(s_opts_t, field)
static const opt_t s_rows[] = {
    {"--tables", 0, OPT_TEXT, "DIR", F(dir), "table directory (default: $OCTAD_TABLES or ./" DEFAULT_TABLES ")"},
    {"--start", 0, OPT_INT, "N", F(start), "deployed start N (0-143, as octad selfplay --start numbers them)\n"
     "into DIR/start-NNN.cert", .lo = 0, .hi = START_DEPLOYED_NB - 1},
    {"--all", 0, OPT_FLAG, NULL, F(all), "every deployed start, 0-143"},
    {"--ofen", 0, OPT_TEXT, "OFEN", F(ofen), "any position, into DIR/ with the OFEN as the name ('/' as '-',\n"
     "' ' as '_')"},
    {"--out", 0, OPT_TEXT, "DIR", F(out), "where certificates go (made if missing)"},
    {"--plain", 0, OPT_FLAG, NULL, F(plain), "the first value-keeping move everywhere instead of the small-\n"
     "certificate preferences (to measure what they save)"},
};
#undef F

static const opt_spec_t s_spec = {.prog = "octad certify", .usage = s_usage,
                                  .epilogue = "Exit status: 0 written, 1 a table missing or inconsistent, 2 bad usage.\n",
                                  .rows = s_rows, .row_nb = sizeof s_rows / sizeof s_rows[0]};

/* 0, OPT_HELP, or EXIT_USAGE after the message. */
static int s_parse(int argc, char **argv, s_opts_t *o)
{
    const char *env = getenv("OCTAD_TABLES");
    *o = (s_opts_t){.dir = env && *env ? env : DEFAULT_TABLES, .start = -1};
    int rc = opt_parse(&s_spec, argc, argv, o);
    if (rc != 0)
        return rc;
    if ((o->start >= 0) + o->all + (o->ofen != NULL) > 1)
        return opt_usage(s_spec.prog, "--start, --all and --ofen exclude each other");
    if (!o->out)
        return opt_usage(s_spec.prog, "--out DIR is required");
    return 0;
}

/* Certifies one position into path; prints its line. */
static int s_one(store_t *store, const char *ofen, const char *path, bool plain)
{
    game_pos_t g;
    char err[512];
    if (game_parse(VARIANT_OCTAD, ofen, &g, err, sizeof err) < 0) {
        args_error("certify", "--ofen: %s", err);
        return EXIT_USAGE;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cert_doc_t d;
    size_t bytes = 0;
    char hex[17];
    if (cert_build(store, &g.u.octad, plain, &d, err, sizeof err) < 0 || cert_write(path, &d, &bytes, hex, err, sizeof err) < 0) {
        args_error("certify", "%s: %s", ofen, err);
        cert_doc_free(&d);
        return EXIT_FAIL;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%s  %s  ", path, d.claim);
    for (int s = 0; s < d.nsections; s++)
        printf("%s %zu  ", d.name[s], d.count[s]);
    printf("%zu bytes  checksum %s  %.2f s\n", bytes, hex, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    fflush(stdout);
    cert_doc_free(&d);
    return EXIT_OK;
}

int cmd_certify(int argc, char **argv)
{
    s_opts_t o;
    int rc = s_parse(argc, argv, &o);
    if (rc != 0)
        return rc == OPT_HELP ? EXIT_OK : rc;
    if (mkdir(o.out, 0777) != 0 && access(o.out, W_OK) != 0) {
        args_error("certify", "--out %s: cannot make or write the directory", o.out);
        return EXIT_FAIL;
    }
    store_t *store = store_new(o.dir);
    if (!store) {
        args_error("certify", "out of memory");
        return EXIT_FAIL;
    }
    char ofen[GAME_TEXT_MAX], path[4096];
    long first = o.all ? 0 : o.start >= 0 ? o.start : 39, last = o.all ? START_DEPLOYED_NB - 1 : first;
    for (long n = first; n <= last && rc == 0; n++) {
        if (o.ofen) {
            char name[GAME_TEXT_MAX];
            snprintf(name, sizeof name, "%s", o.ofen);
            for (char *c = name; *c; c++)
                *c = *c == '/' ? '-' : *c == ' ' ? '_' : *c;
            snprintf(path, sizeof path, "%s/%s.cert", o.out, name);
            rc = s_one(store, o.ofen, path, o.plain);
            break;
        }
        start_deployed_ofen((int)n, ofen, sizeof ofen);
        snprintf(path, sizeof path, "%s/start-%03ld.cert", o.out, n);
        rc = s_one(store, ofen, path, o.plain);
    }
    store_destroy(&store);
    return rc;
}
