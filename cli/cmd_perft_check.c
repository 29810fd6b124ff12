/* cmd_perft_check.c: `octad perft --check-engine COMMAND --suite FILE`: every position of a
 * perft suite compared with another engine (perft_compare.h), pass or fail each, a summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"
#include "epd.h"
#include "json.h"
#include "perft_compare.h"
#include "perft_engine_opts.h"
#include "perft_report.h"

enum { S_FAILS_IN_A_ROW_MAX = 3 }; /* the help of perft_engine_opts.c says 3 */

typedef perft_engine_opts_t s_opts_t;

typedef enum { S_PASS, S_FAIL, S_ERROR } s_status_t;

static const char *const s_status_name[] = {"pass", "FAIL", "error"};
static const char *const s_status_json[] = {"pass", "fail", "error"};

/* One position's result, kept for the table and the failures' details. */
typedef struct {
    int line;
    char text[GAME_TEXT_MAX];
    int depth;
    bool has_suite_count;
    count_t suite_count;
    s_status_t status;
    perft_cmp_t cmp;
    char error[512];
} s_row_t;

/* Reads every position of the suite into rows (grown); the number, or -1 after an error naming the line. */
static int s_read_suite(const s_opts_t *o, s_row_t **rows)
{
    FILE *f = fopen(o->suite, "r");
    char line[1024], err[256];
    int nb = 0, cap = 0, lineno = 0;
    if (f == NULL) {
        args_error("perft", "--suite: cannot open '%.200s'", o->suite);
        return -1;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        epd_line_t epd;
        game_pos_t pos;
        int rc = epd_parse_line(line, &epd, err, sizeof err);
        lineno++;
        if (rc == 0)
            continue;
        if (rc < 0 || game_parse(o->pos.variant, epd.text, &pos, err, sizeof err) != 0) {
            args_error("perft", "--suite %.200s: line %d: %s (a %s suite? --variant says the suite's variant)",
                       o->suite, lineno, err, game_variant_name(o->pos.variant));
            fclose(f);
            return -1;
        }
        if (nb == cap) {
            s_row_t *more = realloc(*rows, sizeof **rows * (size_t)(cap = cap ? cap * 2 : 64));
            if (more == NULL) {
                fclose(f);
                args_error("perft", "out of memory");
                return -1;
            }
            *rows = more;
        }
        s_row_t *r = &(*rows)[nb++];
        memset(r, 0, sizeof *r);
        r->line = lineno;
        game_format(&pos, r->text, sizeof r->text);
        r->depth = epd.depth_max > 0 && epd.depth_max < o->max_depth ? epd.depth_max : o->max_depth;
        r->has_suite_count = epd.depth_max >= r->depth;
        r->suite_count = epd.nodes[r->depth];
    }
    fclose(f);
    if (nb == 0)
        args_error("perft", "--suite %.200s: no positions", o->suite);
    return nb > 0 ? nb : -1;
}

/* Compares one row; (re)starts the engine when it is not running. */
static void s_check_row(const s_opts_t *o, perft_engine_t **eng, s_row_t *r)
{
    game_pos_t pos;
    game_parse(o->pos.variant, r->text, &pos, NULL, 0);
    if (*eng == NULL)
        *eng = perft_engine_new(o->command, o->protocol, pos.variant, o->timeout_s * 1000, r->error,
                                sizeof r->error);
    if (*eng == NULL || perft_compare(*eng, &pos, r->depth, &r->cmp, r->error, sizeof r->error) != 0) {
        r->status = S_ERROR;
        perft_engine_destroy(eng); /* it may be dead or mid-answer: a fresh one for the next position */
        return;
    }
    r->status = r->cmp.equal ? S_PASS : S_FAIL;
}

static void s_print_text(const s_opts_t *o, const s_row_t *rows, int nb, const int *totals)
{
    char a[COUNT_TEXT_MAX], b[COUNT_TEXT_MAX];
    printf("engine     %s (%s)\nsuite      %s (%s, %d positions, depth <= %d)\n\n", o->command, o->protocol,
           o->suite, game_variant_name(o->pos.variant), nb + totals[3], o->max_depth);
    printf("%-6s %-5s %-14s %-14s %s\n", "line", "depth", "ours", "theirs", "result");
    for (int i = 0; i < nb; i++) {
        const s_row_t *r = &rows[i];
        bool counted = r->status != S_ERROR;
        printf("%-6d %-5d %-14s %-14s %s\n", r->line, r->depth, counted ? count_format(r->cmp.ours, a) : "-",
               counted ? count_format(r->cmp.theirs, b) : "-", s_status_name[r->status]);
    }
    printf("\npassed %d, failed %d, engine errors %d, not run %d\n", totals[S_PASS], totals[S_FAIL],
           totals[S_ERROR], totals[3]);
    for (int i = 0; i < nb; i++) {
        const s_row_t *r = &rows[i];
        if (r->status == S_FAIL) {
            printf("\nline %d: %s (depth %d)\n", r->line, r->text, r->depth);
            perft_report_text(stdout, &r->cmp);
        } else if (r->status == S_ERROR) {
            printf("\nline %d: %s (depth %d)\nerror      %s\n", r->line, r->text, r->depth, r->error);
        }
    }
}

static void s_print_json(const s_opts_t *o, const s_row_t *rows, int nb, const int *totals)
{
    char a[COUNT_TEXT_MAX];
    fputs("{\"engine\":", stdout);
    json_write_string(stdout, o->command);
    fputs(",\"protocol\":", stdout);
    json_write_string(stdout, o->protocol);
    fputs(",\"suite\":", stdout);
    json_write_string(stdout, o->suite);
    printf(",\"variant\":\"%s\",\"max_depth\":%d,\"passed\":%d,\"failed\":%d,\"errors\":%d,\"not_run\":%d,"
           "\"positions\":[", game_variant_name(o->pos.variant), o->max_depth, totals[S_PASS], totals[S_FAIL],
           totals[S_ERROR], totals[3]);
    for (int i = 0; i < nb; i++) {
        const s_row_t *r = &rows[i];
        printf("%s{\"line\":%d,\"root\":", i ? "," : "", r->line);
        json_write_string(stdout, r->text);
        printf(",\"depth\":%d,\"suite_count\":%s,\"status\":\"%s\"", r->depth,
               r->has_suite_count ? count_format(r->suite_count, a) : "null", s_status_json[r->status]);
        if (r->status == S_ERROR) {
            fputs(",\"error\":", stdout);
            json_write_string(stdout, r->error);
        } else {
            fputc(',', stdout);
            perft_report_json_members(stdout, &r->cmp);
        }
        fputc('}', stdout);
    }
    fputs("]}\n", stdout);
}

int cmd_perft_check(int argc, char **argv)
{
    s_opts_t o;
    s_row_t *rows = NULL;
    perft_engine_t *eng = NULL;
    int totals[4] = {0}, nb, done = 0, in_a_row = 0;
    int rc = perft_engine_opts_check(argc, argv, &o);
    if (rc != 0)
        return rc == OPT_HELP ? EXIT_OK : rc;
    if ((nb = s_read_suite(&o, &rows)) < 0) {
        free(rows);
        return EXIT_USAGE;
    }
    for (; done < nb && in_a_row < S_FAILS_IN_A_ROW_MAX; done++) {
        s_row_t *r = &rows[done];
        char a[COUNT_TEXT_MAX];
        s_check_row(&o, &eng, r);
        totals[r->status]++;
        in_a_row = r->status == S_ERROR ? in_a_row + 1 : 0;
        fprintf(stderr, "[%d/%d] line %d depth %d: %s%s%s\n", done + 1, nb, r->line, r->depth,
                s_status_name[r->status], r->status == S_ERROR ? ": " : "",
                r->status == S_ERROR ? r->error : "");
        if (r->status != S_ERROR && r->has_suite_count && r->cmp.ours != r->suite_count)
            fprintf(stderr, "warning: line %d: our count %s differs from the suite's\n", r->line,
                    count_format(r->cmp.ours, a));
    }
    perft_engine_destroy(&eng);
    totals[3] = nb - done;
    if (done < nb)
        fprintf(stderr, "octad perft: the engine failed on %d positions in a row: stopped, %d not run\n",
                S_FAILS_IN_A_ROW_MAX, nb - done);
    if (o.json)
        s_print_json(&o, rows, done, totals);
    else
        s_print_text(&o, rows, done, totals);
    free(rows);
    return totals[S_FAIL] > 0 ? EXIT_MISMATCH : totals[S_ERROR] > 0 ? EXIT_FAIL : EXIT_OK;
}
