/* ajob_journal.c: resuming an analyse job from its journal (PROTOCOL.md 12.6; see ajob.h). */
#include "ajob.h"

#include <errno.h>
#include <stdio.h>

#include "journal.h"
#include "sched.h"

int ajob_load_journal(ajob_t *self, const char *path, sched_t *sched, journal_t **out, size_t *loaded, char *err,
                      size_t errlen)
{
    char why[300];
    *loaded = 0;
    *out = journal_open_keys(path, "analyse", self->job_key, err, errlen);
    if (*out == NULL)
        return errno == ENOSPC || errno == EDQUOT || errno == EIO || errno == EFBIG ? -2 : -1;
    for (size_t k = 0; k < journal_done_nb(*out); k++) {
        uint64_t id = journal_task_id_at(*out, k);
        const char *key = journal_key_text(*out, id);
        count_t nodes = 0;
        ajob_result_t r;
        journal_lookup(*out, id, &nodes, NULL);
        if (id < 1 || id > self->task_nb || key == NULL || nodes > UINT64_MAX) {
            snprintf(why, sizeof why, "is not a task of this job (%zu root moves)", self->task_nb);
        } else if (ajob_record_parse(self, (size_t)id - 1, key, (uint64_t)nodes, &r, why, sizeof why) == 0) {
            sched_preload(sched, (size_t)id - 1, ajob_answer(self, (size_t)id - 1, &r), NULL);
            (*loaded)++;
            continue;
        }
        snprintf(err, errlen, "journal %s: the record of task %llu %s: the file was written by another job or "
                 "altered; use another journal file", path, (unsigned long long)id, why);
        journal_destroy(out);
        return -1;
    }
    return 0;
}
