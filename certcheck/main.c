/* main.c: certcheck, the octad certificate checker: `certcheck check FILE` proves the claim of a
 * certificate (docs/certificate.md) with its own rules; `certcheck perft SUITE DEPTH` tests them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "certfile.h"
#include "perft.h"
#include "prove.h"

static int s_usage(void)
{
    fprintf(stderr, "usage: certcheck check FILE\n"
                    "       certcheck perft SUITE.epd MAX_DEPTH\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "perft")) {
        char *end;
        long depth = strtol(argv[3], &end, 10);
        if (*end || depth < 1 || depth > 12) {
            fprintf(stderr, "certcheck perft: MAX_DEPTH must be a whole number from 1 to 12\n");
            return 2;
        }
        return cc_perft_suite(argv[2], (int)depth);
    }
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
