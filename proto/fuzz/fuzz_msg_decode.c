/* fuzz_msg_decode.c: libFuzzer target for msg_decode; a decoded message must re-encode, and decode to the same encoding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Everything one input needs, on the stack (about 130 KiB): the message's
 * bulk fields and its re-encoding, twice. Encoded bytes are compared rather
 * than structs, because a decoded msg_t points into its own bulk storage. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    msg_t msg, again;
    msg_bulk_store_t store, store2;
    msg_bulk_t bulk = msg_bulk_of(&store), bulk2 = msg_bulk_of(&store2);
    uint8_t buf[MSG_MAX_BYTES], buf2[MSG_MAX_BYTES];
    char err[256];
    if (msg_decode(data, size, &msg, &bulk, err, sizeof(err)) != MSG_OK) {
        if (msg.type != MSG_NONE || strlen(err) == 0)
            abort(); /* a failure must say why and leave no half message */
        return 0;
    }
    size_t len = 0, len2 = 0;
    if (msg_encode(&msg, buf, sizeof(buf), &len, err, sizeof(err)) != 0)
        abort(); /* everything the decoder accepts is encodable */
    if (msg_decode(buf, len, &again, &bulk2, err, sizeof(err)) != MSG_OK || again.type != msg.type ||
        again.version != msg.version || msg_encode(&again, buf2, sizeof(buf2), &len2, err, sizeof(err)) != 0 ||
        len2 != len || memcmp(buf, buf2, len) != 0)
        abort(); /* and survives a round trip unchanged */
    return 0;
}
