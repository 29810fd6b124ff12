/* curve.h: CURVE security for OCTP sockets: key files, socket setup, and the coordinator's ZAP allow-list authenticator. */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Key files (text, Z85 as in ZeroMQ RFC 32; a key is 40 Z85 characters):
 *
 *   PREFIX.key  (secret, mode 0600, refused when group or others have any access)
 *       # octad-cluster CURVE secret key: keep private
 *       public-key = <40 Z85 chars>
 *       secret-key = <40 Z85 chars>
 *
 *   PREFIX.pub  (public, mode 0644)
 *       # octad-cluster CURVE public key
 *       <40 Z85 chars>
 *
 * Public-key and allow-list files share one syntax: one key a line, blank
 * lines and lines starting with '#' ignored, spaces around a key ignored. So
 * `cat w1.pub w2.pub > allow.txt` makes an allow-list, and a single .pub
 * file is an allow-list of one. */

/* Z85 text of a 32-byte CURVE key, without and with its NUL. */
enum { CURVE_Z85_LEN = 40, CURVE_Z85_MAX = 41 };

/* A CURVE key pair as Z85 text (a game-value struct: no heap). */
typedef struct {
    char public_z85[CURVE_Z85_MAX];
    char secret_z85[CURVE_Z85_MAX];
} curve_keys_t;

/* A list of allowed public keys (Z85). Zero-initialise it; free with curve_allow_free. */
typedef struct {
    size_t nb;
    char (*keys)[CURVE_Z85_MAX];
} curve_allow_t;

typedef struct curve_auth_s curve_auth_t;

/* True if this libzmq was built with CURVE (zmq_has("curve")). */
bool curve_available(void);

/* A short, non-secret name of a public key for logs: 16 hex digits of a hash
 * of its Z85 text, plus NUL. Logs never show keys, only fingerprints. */
enum { CURVE_FINGERPRINT_MAX = 17 };
void curve_fingerprint(const char *public_z85, char out[CURVE_FINGERPRINT_MAX]);

/* True if text is exactly 40 Z85 characters that decode to a 32-byte key. */
bool curve_key_valid(const char *text);

/* Makes a new key pair. Returns 0, or -1 with err (libzmq without CURVE). */
int curve_keys_generate(curve_keys_t *out, char *err, size_t errlen);

/* Writes PREFIX.key (mode 0600) and PREFIX.pub. Refuses (-1, err) to
 * overwrite either file; on any failure neither file is left behind. */
int curve_keys_write(const char *prefix, const curve_keys_t *keys, char *err, size_t errlen);

/* Reads a secret key file into *out. Returns 0, or -1 with err naming the
 * file and the problem (unreadable, group/other access, missing or invalid
 * key, public key not derived from the secret key). */
int curve_keys_read(const char *path, curve_keys_t *out, char *err, size_t errlen);

/* Reads the single key of a public key file into out. Returns 0, or -1 with
 * err naming the file (and line) when it holds no key, several, or an invalid one. */
int curve_public_read(const char *path, char out[CURVE_Z85_MAX], char *err, size_t errlen);

/* Appends every key of an allow-list file (syntax above) to *allow. Returns
 * 0, or -1 with err naming file and line (nothing appended then). */
int curve_allow_read(curve_allow_t *allow, const char *path, char *err, size_t errlen);

/* Appends one Z85 public key to *allow. Returns 0, or -1 with err if invalid. */
int curve_allow_add(curve_allow_t *allow, const char *public_z85, char *err, size_t errlen);

/* Frees the keys of *allow and zeroes it. Idempotent. */
void curve_allow_free(curve_allow_t *allow);

/* Makes socket a CURVE server with server_keys' secret key and ZAP domain
 * "octad". Call before bind. Returns 0, or -1 with errno from zmq_setsockopt. */
int curve_server_setup(void *socket, const curve_keys_t *server_keys);

/* Makes socket a CURVE client of the server whose public key is
 * server_public_z85. Call before connect. Returns 0, or -1 with errno. */
int curve_client_setup(void *socket, const curve_keys_t *client_keys, const char *server_public_z85);

/* Starts a ZAP handler (RFC 27) on inproc://zeromq.zap.01 of zmq_ctx, in its
 * own thread, accepting only CURVE clients whose public key is in allow (the
 * list is copied). It is bound when this returns, so create it before binding
 * a server socket. Sets the ZAP User-Id to the client's Z85 public key.
 * Returns NULL with err if the endpoint is taken (one per context) or on
 * failure. Destroy it before terminating the context. */
curve_auth_t *curve_auth_new(void *zmq_ctx, const curve_allow_t *allow, char *err, size_t errlen);

/* Number of ZAP requests refused (unknown key, other mechanism, malformed request). */
size_t curve_auth_refused_nb(const curve_auth_t *self);

/* The fingerprints (curve_fingerprint) of the CURVE client keys refused since
 * the last call, oldest first, up to cap of them (the handler keeps the last
 * 16); returns how many were refused in all since the last call. For logs:
 * the main thread calls it, the handler thread fills it. */
size_t curve_auth_take_refused(curve_auth_t *self, char out[][CURVE_FINGERPRINT_MAX], size_t cap);

/* Number of ZAP requests accepted. */
size_t curve_auth_accepted_nb(const curve_auth_t *self);

/* Stops the handler thread, closes its sockets, frees it; NULLs *self_p. Idempotent. */
void curve_auth_destroy(curve_auth_t **self_p);

