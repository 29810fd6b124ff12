/* perft_report.c: a comparison's answer as text and JSON (perft_report.h). */
#include "perft_report.h"

#include "count.h"
#include "json.h"

static void s_list_text(FILE *out, const char *name, const char (*list)[MOVE_TEXT_MAX], int nb)
{
    fprintf(out, "%-10s", name);
    for (int i = 0; i < nb; i++)
        fprintf(out, " %s", list[i]);
    fputs(nb == 0 ? " (none)\n" : "\n", out);
}

void perft_report_text(FILE *out, const perft_cmp_t *r)
{
    char a[COUNT_TEXT_MAX], b[COUNT_TEXT_MAX];
    fprintf(out, "ours       %s\ntheirs     %s\n", count_format(r->ours, a), count_format(r->theirs, b));
    if (r->equal) {
        fputs("result     equal\n", out);
        return;
    }
    fputs("result     differ\n", out);
    s_list_text(out, "path", r->path, r->path_nb);
    fprintf(out, "position   %s\n", r->position);
    fprintf(out, "depth      %d (at that position)\n", r->depth);
    if (r->missing_nb > 0 || r->extra_nb > 0) {
        s_list_text(out, "missing", r->missing, r->missing_nb);
        s_list_text(out, "extra", r->extra, r->extra_nb);
        fputs("           (missing: legal moves the engine lacks; extra: moves it lists that are not legal)\n", out);
    }
    if (r->move[0] != '\0')
        fprintf(out, "move       %s: ours %s, theirs %s\n", r->move, count_format(r->move_ours, a),
                count_format(r->move_theirs, b));
    fprintf(out, "why        %s\n", r->note);
}

static void s_list_json(FILE *out, const char *name, const char (*list)[MOVE_TEXT_MAX], int nb)
{
    fprintf(out, ",\"%s\":[", name);
    for (int i = 0; i < nb; i++) {
        if (i > 0)
            fputc(',', out);
        json_write_string(out, list[i]);
    }
    fputc(']', out);
}

void perft_report_json_members(FILE *out, const perft_cmp_t *r)
{
    char a[COUNT_TEXT_MAX], b[COUNT_TEXT_MAX];
    fprintf(out, "\"equal\":%s,\"ours\":%s,\"theirs\":%s", r->equal ? "true" : "false", count_format(r->ours, a),
            count_format(r->theirs, b));
    if (r->equal) {
        fputs(",\"path\":[],\"position\":null,\"depth\":null,\"missing\":[],\"extra\":[],\"move\":null,"
              "\"note\":null", out);
        return;
    }
    s_list_json(out, "path", r->path, r->path_nb);
    fputs(",\"position\":", out);
    json_write_string(out, r->position);
    fprintf(out, ",\"depth\":%d", r->depth);
    s_list_json(out, "missing", r->missing, r->missing_nb);
    s_list_json(out, "extra", r->extra, r->extra_nb);
    if (r->move[0] != '\0') {
        fputs(",\"move\":", out);
        json_write_string(out, r->move);
        fprintf(out, ",\"move_ours\":%s,\"move_theirs\":%s", count_format(r->move_ours, a),
                count_format(r->move_theirs, b));
    } else {
        fputs(",\"move\":null", out);
    }
    fputs(",\"note\":", out);
    json_write_string(out, r->note);
}
