/* record_moves.c: the --moves option of the game commands (record_moves.h). */
#include "record_moves.h"

#include <stdio.h>
#include <string.h>

#include "args.h"

int record_moves_play(const char *cmd, record_t *rec, const char *list)
{
    char buf[4096], err[256], *save = NULL;
    int ply = 0;
    if (list == NULL)
        return 0;
    if (strlen(list) >= sizeof buf) {
        args_error(cmd, "--moves: longer than %zu characters", sizeof buf - 1);
        return -1;
    }
    snprintf(buf, sizeof buf, "%s", list);
    for (char *m = strtok_r(buf, " \t", &save); m; m = strtok_r(NULL, " \t", &save)) {
        ply++;
        if (record_play_text(rec, m, err, sizeof err) != 0) {
            args_error(cmd, "--moves: move %d: %s", ply, err);
            return -1;
        }
    }
    return 0;
}
