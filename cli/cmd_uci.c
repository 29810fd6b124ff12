/* cmd_uci.c: `octad uci`: the engine's UCI loop on standard input and output. */
#include <stdio.h>
#include <string.h>

#include "args.h"
#include "cmd.h"
#include "tables_probe.h"
#include "uci.h"

int cmd_uci(int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            puts("usage: octad uci\n"
                 "Speaks the UCI protocol on stdin/stdout (send 'uci' first). Variants through\n"
                 "'setoption name UCI_Variant value octad|chess|chess960' or UCI_Chess960;\n"
                 "octad positions are OFEN in 'position fen'. 'go perft N' prints a divide.\n"
                 "'setoption name OctadTables value DIR' reads the octad solver's tables in DIR\n"
                 "(made by 'octad solve --tables DIR'): exact play where they cover the position.");
            return EXIT_OK;
        }
        args_error("uci", "unknown argument '%.40s' (octad uci takes none)", argv[i]);
        return EXIT_USAGE;
    }
    return uci_run(stdin, stdout, &tables_uci) == 0 ? EXIT_OK : EXIT_FAIL;
}
