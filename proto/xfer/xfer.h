/* xfer.h: table files between OCTP/2 peers (proto/PROTOCOL.md section 11.4):
 * a file's reference (size and CRC-32C of all its bytes), answering a FETCH,
 * receiving a file in checksummed chunks, and the shared-directory id.
 * Table files are opaque bytes here, except for the final header check
 * (tbfile_read_info) of a received file. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "msg.h"

enum {
    XFER_WINDOW = 8,       /* FETCHes outstanding per file */
    XFER_TRIES = 3,        /* rejected chunks of one piece before the transfer fails */
    XFER_PATH_MAX = 4096
};

#define XFER_FILE_MAX ((uint64_t)1 << 40) /* the largest table file accepted */

/* The name of the file holding the shared-directory id (section 11.5). */
#define XFER_DIR_ID_FILE ".octad-dir-id"

/* Fills *out with dir/NAME.otb's size and CRC-32C (out->name = name). Results
 * are cached by inode, size and modification time, so asking again for an
 * unchanged file reads nothing. 0, or -1 with a message naming the file. */
int xfer_file_ref(const char *dir, const char *name, msg_tableref_t *out, char *err, size_t errlen);

/* Whether a table name is one this build knows ("KQvK"); fills *table. */
bool xfer_table_name_ok(const char *name, int *table);

/* Answers FETCH f from dir: *chunk becomes the CHUNK (version 2), its data
 * read into data (MSG_CHUNK_MAX bytes, the caller's; the CHUNK points into it).
 * 0, or -1 with a message (the table's file is missing or unreadable). */
int xfer_serve(const char *dir, const msg_fetch_t *f, msg_t *chunk, uint8_t data[MSG_CHUNK_MAX], char *err,
               size_t errlen);

/* The id of directory dir into id (len >= MSG_TABLE_NAME_MAX): read from
 * dir/.octad-dir-id, or, with create, made there (random, 16 hex digits)
 * when absent. 0; 1 no id and !create (id is ""); -1 with a message. */
int xfer_dir_id(const char *dir, bool create, char *id, size_t len, char *err, size_t errlen);

/* What the last CHUNK did to a transfer. */
typedef enum { XFER_MORE, XFER_DONE, XFER_FAILED } xfer_status_t;

/* One file being received. */
typedef struct {
    char dir[XFER_PATH_MAX];
    char part[XFER_PATH_MAX + 64];  /* the temporary file */
    msg_tableref_t ref;              /* what the file must be */
    int table;
    int fd;
    bool resumable;                  /* keep the verified prefix when aborted */
    uint64_t next;                   /* next offset to ask for */
    uint32_t nout;
    uint64_t out[XFER_WINDOW];       /* offsets asked for and not yet received */
    uint8_t tries[XFER_WINDOW];      /* rejected chunks of each */
    uint64_t rejected;               /* chunks rejected in all */
} xfer_t;

/* Sends one message to the peer the file comes from; 0, or -1. */
typedef int (*xfer_send_fn)(void *ctx, const msg_t *m);

/* Starts receiving ref into dir (its part file continues a resumable earlier
 * attempt of the same name and CRC). 0, or -1 with a message (a name this
 * build does not know, a size above XFER_FILE_MAX or 0, an I/O error). */
int xfer_start(xfer_t *x, const char *dir, const msg_tableref_t *ref, bool resumable, char *err, size_t errlen);

/* Asks for pieces until XFER_WINDOW are outstanding or none are left. */
int xfer_pump(xfer_t *x, xfer_send_fn send, void *ctx);

/* Takes one CHUNK of this transfer (c->table == x->ref.name): a good one is
 * written and the window refilled; a bad one (CRC, size, length, offset) is
 * asked for again, and its third rejection fails the transfer. When every
 * byte is in, checks the whole file's size and CRC-32C and its header, and
 * renames it into place (fsync of file and directory). XFER_FAILED: err
 * says why, and the part file is gone (or, resumable, cut to its good
 * prefix). */
xfer_status_t xfer_on_chunk(xfer_t *x, const msg_chunk_t *c, xfer_send_fn send, void *ctx, char *err,
                            size_t errlen);

/* Stops a transfer: the part file is deleted, or (resumable) cut to the
 * prefix whose chunks all passed. Safe twice. */
void xfer_abort(xfer_t *x);
