/* fuzz_msg_corpus.c: writes every sample message, encoded, into a folder as the fuzz seed corpus. */
#include <stdio.h>
#include <stdlib.h>

#include "msg.h"
#include "msg_samples.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <corpus-dir>\n", argv[0]);
        return 2;
    }
    unsigned char *buf = malloc(MSG_MAX_BYTES);
    msg_bulk_store_t *store = malloc(sizeof *store);
    if (buf == NULL || store == NULL) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    int written = 0;
    for (int t = MSG_NONE + 1; t < MSG_TYPE_NB; t++) {
        for (int which = 0; which < MSG_SAMPLES_PER_TYPE; which++) {
            msg_t msg;
            char err[256], path[4096];
            size_t len = 0;
            msg_sample((msg_type_t)t, which, &msg, store);
            if (msg_encode(&msg, buf, MSG_MAX_BYTES, &len, err, sizeof(err)) != 0) {
                fprintf(stderr, "%s sample %d: %s\n", msg_type_name((msg_type_t)t), which, err);
                return 1;
            }
            snprintf(path, sizeof(path), "%s/%s-%d", argv[1], msg_type_name((msg_type_t)t), which);
            FILE *f = fopen(path, "wb");
            if (f == NULL || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
                perror(path);
                return 1;
            }
            written++;
        }
    }
    printf("%d seed messages written to %s\n", written, argv[1]);
    free(store);
    free(buf);
    return 0;
}
