/* main.c: certcheck, the octad certificate checker: `certcheck check FILE` proves the claim of a
 * certificate (docs/certificate.md) with its own rules; `certcheck perft SUITE DEPTH` tests them;
 * `certcheck stats OFEN DEPTH` counts by kind (a second opinion on `octad perft --stats`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certfile.h"
#include "perft.h"
#include "prove.h"
#include "stats.h"

static int s_usage(void)
{
    fprintf(stderr, "usage: certcheck check FILE\n"
                    "       certcheck perft SUITE.epd MAX_DEPTH\n"
                    "       certcheck stats OFEN DEPTH\n");
    return 2;
}

/* Reads argv[3] as a depth from lo to 12 into *depth; 0, or -1 with a message naming cmd's field. */
static int s_depth(char **argv, int lo, const char *field, int *depth)
{
    char *end;
    long v = strtol(argv[3], &end, 10);
    if (*end || end == argv[3] || v < lo || v > 12) {
        fprintf(stderr, "certcheck %s: %s must be a whole number from %d to 12\n", argv[1], field, lo);
        return -1;
    }
    *depth = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    int depth;
    if (argc == 4 && !strcmp(argv[1], "perft"))
        return s_depth(argv, 1, "MAX_DEPTH", &depth) ? 2 : cc_perft_suite(argv[2], depth);
    if (argc == 4 && !strcmp(argv[1], "stats"))
        return s_depth(argv, 0, "DEPTH", &depth) ? 2 : cc_stats_print(argv[2], depth);
    if (argc == 3 && !strcmp(argv[1], "check")) {
        cc_cert_t cert;
        char err[256];
        if (cc_cert_read(argv[2], &cert, err, sizeof err)) {
            printf("NOT proved: %s: %s\n", argv[2], err);
            return 2;
        }
        int rc = cc_prove(&cert);
        cc_cert_free(&cert);
        return rc;
    }
    return s_usage();
}
