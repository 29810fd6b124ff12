/* perft.c: counts the checker's legal-move tree and compares it with the suites in tests/data,
 * which are read as data (two other implementations of docs/rules.md made them). */
#include "perft.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t cc_perft(const cc_pos_t *p, int depth)
{
    cc_move_t moves[CC_MAX_MOVES];
    int n = cc_legal_moves(p, moves);
    if (depth <= 1)
        return depth == 1 ? (uint64_t)n : 1;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        cc_pos_t q = cc_play(p, moves[i]);
        total += cc_perft(&q, depth - 1);
    }
    return total;
}

/* Checks one suite line; -1 if it cannot be read, else the number of wrong counts. */
static int s_line(char *line, int lineno, int max_depth, int *checked)
{
    char *semi = strchr(line, ';'), err[160];
    if (!semi)
        return -1;
    *semi = '\0';
    for (char *e = semi - 1; e >= line && *e == ' '; e--)
        *e = '\0';
    cc_pos_t p;
    if (cc_parse_ofen(line, &p, err, sizeof err)) {
        printf("line %d: %s: %s\n", lineno, line, err);
        return -1;
    }
    int bad = 0;
    for (char *tok = semi + 1; tok; tok = strchr(tok, ';') ? strchr(tok, ';') + 1 : NULL) {
        int d;
        unsigned long long want;
        if (sscanf(tok, " D%d %llu", &d, &want) != 2)
            return -1;
        if (d > max_depth)
            continue;
        uint64_t got = cc_perft(&p, d);
        (*checked)++;
        if (got != want) {
            printf("line %d: %s depth %d: counted %llu, the suite says %llu\n", lineno, line, d,
                   (unsigned long long)got, want);
            bad++;
        }
    }
    return bad;
}

int cc_perft_suite(const char *path, int max_depth)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("%s: cannot open\n", path);
        return 2;
    }
    char line[512];
    int lineno = 0, bad = 0, checked = 0, lines = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        int r = s_line(line, lineno, max_depth, &checked);
        if (r < 0) {
            printf("%s line %d: not `OFEN ;D1 n ...`\n", path, lineno);
            fclose(f);
            return 2;
        }
        bad += r, lines++;
    }
    fclose(f);
    printf("%s: %d positions, %d counts to depth %d, %d wrong\n", path, lines, checked, max_depth, bad);
    return bad ? 1 : 0;
}
