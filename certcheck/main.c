/* main.c: certcheck, the octad certificate checker: `certcheck check FILE` proves the claim of a
 * certificate (docs/certificate.md) with its own rules; `certcheck perft SUITE DEPTH` tests them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perft.h"

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
    return s_usage();
}
