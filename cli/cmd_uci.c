/* cmd_uci.c: `octad uci`: the engine's UCI loop on standard input and output. */
#include <stdio.h>

#include "args.h"
#include "cmd.h"
#include "tables_probe.h"
#include "uci.h"

static const char s_usage[] =
    "usage: octad uci\n"
    "Speaks the UCI protocol on stdin/stdout (send 'uci' first). Variants through\n"
    "'setoption name UCI_Variant value octad|chess|chess960' or UCI_Chess960;\n"
    "octad positions are OFEN in 'position fen'. 'go perft N' prints a divide.\n"
    "'setoption name OctadTables value DIR' reads the octad solver's tables in DIR\n"
    "(made by 'octad solve --tables DIR'): exact play where they cover the position.\n\n";

/* No options but --help: the engine's options are UCI's setoption. */
static const opt_spec_t s_spec = {.prog = "octad uci", .usage = s_usage};

int cmd_uci(int argc, char **argv)
{
    char none;
    int rc = opt_parse(&s_spec, argc, argv, &none);
    if (rc != 0)
        return rc == OPT_HELP ? EXIT_OK : rc;
    return uci_run(stdin, stdout, &tables_uci) == 0 ? EXIT_OK : EXIT_FAIL;
}
