/* fuzz_msg_decode.c: libFuzzer target for msg_decode; a decoded message must re-encode and decode to itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static msg_t msg, again;
    static uint8_t buf[MSG_MAX_BYTES];
    char err[256];
    if (msg_decode(data, size, &msg, err, sizeof(err)) != MSG_OK) {
        if (msg.type != MSG_NONE || strlen(err) == 0)
            abort(); /* a failure must say why and leave no half message */
        return 0;
    }
    size_t len = 0;
    if (msg_encode(&msg, buf, sizeof(buf), &len, err, sizeof(err)) != 0)
        abort(); /* everything the decoder accepts is encodable */
    if (msg_decode(buf, len, &again, err, sizeof(err)) != MSG_OK || memcmp(&msg, &again, sizeof(msg)) != 0)
        abort(); /* and survives a round trip unchanged */
    return 0;
}
