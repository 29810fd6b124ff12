/* curve.c: CURVE key pairs, key and allow-list files, and socket setup (the ZAP handler is in curve_auth.c). */
#include "curve.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zmq.h>

#include "hash.h"

enum { LINE_MAX_BYTES = 256, PATH_MAX_BYTES = 4096 };

static const char s_domain[] = "octad";

bool curve_available(void)
{
    return zmq_has("curve") != 0;
}

void curve_fingerprint(const char *public_z85, char out[CURVE_FINGERPRINT_MAX])
{
    snprintf(out, CURVE_FINGERPRINT_MAX, "%016llx", (unsigned long long)hash_fnv1a(public_z85));
}

bool curve_key_valid(const char *text)
{
    uint8_t bin[32];
    return text && strlen(text) == CURVE_Z85_LEN && zmq_z85_decode(bin, text) != NULL;
}

int curve_keys_generate(curve_keys_t *out, char *err, size_t errlen)
{
    if (zmq_curve_keypair(out->public_z85, out->secret_z85) != 0) {
        snprintf(err, errlen, "cannot make a CURVE key pair: %s", zmq_strerror(errno));
        return -1;
    }
    return 0;
}

/* Creates path exclusively with mode and writes text; -1 with err. */
static int s_write_new(const char *path, mode_t mode, const char *text, char *err, size_t errlen)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    size_t len = strlen(text);
    ssize_t n = write(fd, text, len);
    int rc = (n == (ssize_t)len && fchmod(fd, mode) == 0 && fsync(fd) == 0) ? 0 : -1;
    if (rc != 0)
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno ? errno : EIO));
    if (close(fd) != 0 && rc == 0) {
        snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        unlink(path);
    return rc;
}

int curve_keys_write(const char *prefix, const curve_keys_t *keys, char *err, size_t errlen)
{
    char key_path[PATH_MAX_BYTES], pub_path[PATH_MAX_BYTES], text[LINE_MAX_BYTES];
    if ((size_t)snprintf(key_path, sizeof key_path, "%s.key", prefix) >= sizeof key_path
        || (size_t)snprintf(pub_path, sizeof pub_path, "%s.pub", prefix) >= sizeof pub_path) {
        snprintf(err, errlen, "key file prefix too long");
        return -1;
    }
    if (!curve_key_valid(keys->public_z85) || !curve_key_valid(keys->secret_z85)) {
        snprintf(err, errlen, "%s: refusing to write an invalid key pair", key_path);
        return -1;
    }
    snprintf(text, sizeof text, "# octad-cluster CURVE secret key: keep private\n"
             "public-key = %s\nsecret-key = %s\n", keys->public_z85, keys->secret_z85);
    if (s_write_new(key_path, 0600, text, err, errlen) != 0)
        return -1;
    snprintf(text, sizeof text, "# octad-cluster CURVE public key\n%s\n", keys->public_z85);
    if (s_write_new(pub_path, 0644, text, err, errlen) != 0) {
        unlink(key_path);
        return -1;
    }
    return 0;
}

/* Trims spaces, tabs and CR/LF at both ends of line in place; returns the start. */
static char *s_trim(char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    size_t n = strlen(line);
    while (n > 0 && strchr(" \t\r\n", line[n - 1]))
        line[--n] = '\0';
    return line;
}

/* Opens path for reading; for secret files refuses group/other access. */
static FILE *s_open(const char *path, bool secret, char *err, size_t errlen)
{
    FILE *fp = fopen(path, "re");
    if (!fp) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", path);
        fclose(fp);
        return NULL;
    }
    if (secret && (st.st_mode & 077) != 0) {
        snprintf(err, errlen, "%s: secret key file has mode %03o; others may read it (chmod 600 %s)",
                 path, (unsigned)(st.st_mode & 0777), path);
        fclose(fp);
        return NULL;
    }
    return fp;
}

/* Reads "name = <key>" into dst; -1 with err if the key is invalid or given twice. */
static int s_key_field(const char *path, int line_no, const char *value, char *dst, char *err, size_t errlen)
{
    if (dst[0] != '\0') {
        snprintf(err, errlen, "%s:%d: key given twice", path, line_no);
        return -1;
    }
    if (!curve_key_valid(value)) {
        snprintf(err, errlen, "%s:%d: not a 40-character Z85 key", path, line_no);
        return -1;
    }
    memcpy(dst, value, CURVE_Z85_MAX);
    return 0;
}

/* Parses one line of a secret key file. */
static int s_key_line(const char *path, int line_no, char *line, curve_keys_t *out, char *err, size_t errlen)
{
    char *text = s_trim(line);
    if (*text == '\0' || *text == '#')
        return 0;
    char *eq = strchr(text, '=');
    if (!eq) {
        snprintf(err, errlen, "%s:%d: expected \"public-key = ...\" or \"secret-key = ...\"", path, line_no);
        return -1;
    }
    *eq = '\0';
    const char *name = s_trim(text), *value = s_trim(eq + 1);
    if (strcmp(name, "public-key") == 0)
        return s_key_field(path, line_no, value, out->public_z85, err, errlen);
    if (strcmp(name, "secret-key") == 0)
        return s_key_field(path, line_no, value, out->secret_z85, err, errlen);
    /* never echo the line: a bare secret key with a '=' in it would be half printed */
    snprintf(err, errlen, "%s:%d: unknown field (expected \"public-key = ...\" or \"secret-key = ...\"; "
             "the line is not shown, it may hold a key)", path, line_no);
    return -1;
}

/* Checks that both keys were given and belong together. */
static int s_check_pair(const char *path, const curve_keys_t *keys, char *err, size_t errlen)
{
    char derived[CURVE_Z85_MAX];
    if (keys->public_z85[0] == '\0' || keys->secret_z85[0] == '\0') {
        snprintf(err, errlen, "%s: missing %s", path, keys->public_z85[0] ? "secret-key" : "public-key");
        return -1;
    }
    if (zmq_curve_public(derived, keys->secret_z85) != 0 || strcmp(derived, keys->public_z85) != 0) {
        snprintf(err, errlen, "%s: public-key does not belong to secret-key", path);
        return -1;
    }
    return 0;
}

int curve_keys_read(const char *path, curve_keys_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *fp = s_open(path, true, err, errlen);
    if (!fp)
        return -1;
    char line[LINE_MAX_BYTES];
    int rc = 0, line_no = 0;
    while (rc == 0 && fgets(line, sizeof line, fp))
        rc = s_key_line(path, ++line_no, line, out, err, errlen);
    fclose(fp);
    if (rc == 0)
        rc = s_check_pair(path, out, err, errlen);
    if (rc != 0)
        memset(out, 0, sizeof *out);
    return rc;
}

/* Reads every key of a public-key/allow-list file into *list (appending). */
static int s_read_keys(const char *path, curve_allow_t *list, char *err, size_t errlen)
{
    FILE *fp = s_open(path, false, err, errlen);
    if (!fp)
        return -1;
    char line[LINE_MAX_BYTES];
    int rc = 0, line_no = 0;
    while (rc == 0 && fgets(line, sizeof line, fp)) {
        line_no++;
        const char *text = s_trim(line);
        if (*text == '\0' || *text == '#')
            continue;
        if (!curve_key_valid(text)) {
            snprintf(err, errlen, "%s:%d: not a 40-character Z85 public key", path, line_no);
            rc = -1;
        } else {
            rc = curve_allow_add(list, text, err, errlen);
        }
    }
    fclose(fp);
    return rc;
}

int curve_public_read(const char *path, char out[CURVE_Z85_MAX], char *err, size_t errlen)
{
    curve_allow_t list = { 0 };
    int rc = s_read_keys(path, &list, err, errlen);
    if (rc == 0 && list.nb != 1) {
        snprintf(err, errlen, "%s: expected one public key, found %zu", path, list.nb);
        rc = -1;
    }
    if (rc == 0)
        memcpy(out, list.keys[0], CURVE_Z85_MAX);
    curve_allow_free(&list);
    return rc;
}

int curve_allow_read(curve_allow_t *allow, const char *path, char *err, size_t errlen)
{
    size_t before = allow->nb;
    int rc = s_read_keys(path, allow, err, errlen);
    if (rc != 0)
        allow->nb = before;
    return rc;
}

int curve_allow_add(curve_allow_t *allow, const char *public_z85, char *err, size_t errlen)
{
    if (!curve_key_valid(public_z85)) {
        snprintf(err, errlen, "not a 40-character Z85 public key");
        return -1;
    }
    char (*keys)[CURVE_Z85_MAX] = realloc(allow->keys, (allow->nb + 1) * sizeof *keys);
    if (!keys) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    allow->keys = keys;
    memcpy(allow->keys[allow->nb++], public_z85, CURVE_Z85_MAX);
    return 0;
}

void curve_allow_free(curve_allow_t *allow)
{
    free(allow->keys);
    allow->keys = NULL;
    allow->nb = 0;
}

int curve_server_setup(void *socket, const curve_keys_t *server_keys)
{
    int on = 1;
    if (zmq_setsockopt(socket, ZMQ_CURVE_SERVER, &on, sizeof on) != 0
        || zmq_setsockopt(socket, ZMQ_CURVE_SECRETKEY, server_keys->secret_z85, CURVE_Z85_LEN) != 0
        || zmq_setsockopt(socket, ZMQ_ZAP_DOMAIN, s_domain, strlen(s_domain)) != 0)
        return -1;
    return 0;
}

int curve_client_setup(void *socket, const curve_keys_t *client_keys, const char *server_public_z85)
{
    if (!curve_key_valid(server_public_z85))
        return errno = EINVAL, -1;
    if (zmq_setsockopt(socket, ZMQ_CURVE_SERVERKEY, server_public_z85, CURVE_Z85_LEN) != 0
        || zmq_setsockopt(socket, ZMQ_CURVE_PUBLICKEY, client_keys->public_z85, CURVE_Z85_LEN) != 0
        || zmq_setsockopt(socket, ZMQ_CURVE_SECRETKEY, client_keys->secret_z85, CURVE_Z85_LEN) != 0)
        return -1;
    return 0;
}
