/* cmd_perft_compare.c: `octad perft --compare COMMAND`: our perft against another engine's, to the first difference. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "perft_compare.h"
#include "perft_engine_opts.h"
#include "perft_report.h"


typedef perft_engine_opts_t s_opts_t;

static void s_print_json(const s_opts_t *o, const game_pos_t *pos, const perft_cmp_t *r)
{
    char text[GAME_TEXT_MAX];
    game_format(pos, text, sizeof text);
    fputs("{\"variant\":", stdout);
    json_write_string(stdout, game_variant_name(pos->variant));
    fputs(",\"root\":", stdout);
    json_write_string(stdout, text);
    fprintf(stdout, ",\"root_depth\":%d,\"engine\":", o->depth);
    json_write_string(stdout, o->command);
    fputs(",\"protocol\":", stdout);
    json_write_string(stdout, o->protocol);
    fputc(',', stdout);
    perft_report_json_members(stdout, r);
    fputs("}\n", stdout);
}

int cmd_perft_compare(int argc, char **argv)
{
    s_opts_t o;
    game_pos_t pos;
    perft_cmp_t *r;
    perft_engine_t *eng;
    char err[512], text[GAME_TEXT_MAX];
    int rc = perft_engine_opts_compare(argc, argv, &o);
    if (rc != 0)
        return rc == OPT_HELP ? EXIT_OK : rc;
    if (args_pos_resolve("perft", &o.pos, &pos) != 0)
        return EXIT_USAGE;
    r = malloc(sizeof *r);
    eng = r ? perft_engine_new(o.command, o.protocol, pos.variant, o.timeout_s * 1000, err, sizeof err) : NULL;
    if (eng == NULL || perft_compare(eng, &pos, o.depth, r, err, sizeof err) != 0) {
        args_error("perft", "%s", r ? err : "out of memory");
        perft_engine_destroy(&eng);
        free(r);
        return EXIT_FAIL;
    }
    perft_engine_destroy(&eng);
    if (o.json) {
        s_print_json(&o, &pos, r);
    } else {
        game_format(&pos, text, sizeof text);
        printf("engine     %s (%s)\nvariant    %s\nroot       %s\ndepth      %d\n", o.command, o.protocol,
               game_variant_name(pos.variant), text, o.depth);
        perft_report_text(stdout, r);
    }
    rc = r->equal ? EXIT_OK : EXIT_MISMATCH;
    free(r);
    return rc;
}
