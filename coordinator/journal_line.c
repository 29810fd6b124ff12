/* journal_line.c: encoding and checking one journal line (format in journal.h). */
#include "journal_line.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "count.h"

enum { STATS_FIELD_NB = 13 };

static const char s_magic[] = "OCTAD-JOURNAL";

/* CRC-32 one nibble at a time: a 16-entry table keeps it const and small. */
static const uint32_t s_crc_nibble[16] = {
    0x00000000u, 0x1DB71064u, 0x3B6E20C8u, 0x26D930ACu, 0x76DC4190u, 0x6B6B51F4u,
    0x4DB26158u, 0x5005713Cu, 0xEDB88320u, 0xF00F9344u, 0xD6D6A3E8u, 0xCB61B38Cu,
    0x9B64C2B0u, 0x86D3D2D4u, 0xA00AE278u, 0xBDBDF21Cu,
};

uint32_t jline_crc32(const void *data, size_t len)
{
    const uint8_t *p = data;
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        crc = (crc >> 4) ^ s_crc_nibble[crc & 15];
        crc = (crc >> 4) ^ s_crc_nibble[crc & 15];
    }
    return crc ^ 0xFFFFFFFFu;
}

size_t jline_escape(const char *src, char *dst, size_t cap)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = 0;
    for (const unsigned char *s = (const unsigned char *)src; *s; s++) {
        bool plain = *s >= 0x20 && *s != 0x7f && *s != '%';
        size_t need = plain ? 1 : 3;
        if (n + need >= cap)
            return SIZE_MAX;
        if (plain) {
            dst[n++] = (char)*s;
        } else {
            dst[n++] = '%';
            dst[n++] = hex[*s >> 4];
            dst[n++] = hex[*s & 15];
        }
    }
    if (n >= cap)
        return SIZE_MAX;
    dst[n] = '\0';
    return n;
}

/* Appends "\t<crc of buf[0..len)>\n"; returns the new length or 0. */
static size_t s_seal(char *buf, size_t len, size_t cap)
{
    uint32_t crc = jline_crc32(buf, len);
    int n = snprintf(buf + len, cap - len, "\t%08x\n", (unsigned)crc);
    if (n < 0 || (size_t)n >= cap - len)
        return 0;
    return len + (size_t)n;
}

size_t jline_format_header(const char *job_key, char *buf, size_t cap)
{
    int n = snprintf(buf, cap, "%s\t1\t", s_magic);
    if (n < 0 || (size_t)n >= cap)
        return 0;
    size_t k = jline_escape(job_key, buf + n, cap - (size_t)n);
    if (k == SIZE_MAX)
        return 0;
    return s_seal(buf, (size_t)n + k, cap);
}

/* Appends text at buf+*len; false if it does not fit. */
static bool s_put(char *buf, size_t *len, size_t cap, const char *text)
{
    size_t n = strlen(text);
    if (*len + n >= cap)
        return false;
    memcpy(buf + *len, text, n + 1);
    *len += n;
    return true;
}

static bool s_put_stats(char *buf, size_t *len, size_t cap, const perft_stats_t *st)
{
    const count_t v[STATS_FIELD_NB] = {
        st->nodes, st->captures, st->en_passant, st->castles,
        st->castle_kind[CASTLE_NEAR], st->castle_kind[CASTLE_CENTER], st->castle_kind[CASTLE_FAR],
        st->promotions, st->checks, st->mates, st->discovered_checks, st->double_checks, st->stalemates,
    };
    char text[COUNT_TEXT_MAX];
    for (int i = 0; i < STATS_FIELD_NB; i++) {
        if (i > 0 && !s_put(buf, len, cap, ","))
            return false;
        if (!s_put(buf, len, cap, count_format(v[i], text)))
            return false;
    }
    return true;
}

size_t jline_format_entry(uint64_t task_id, const char *task_key, count_t nodes,
                          const perft_stats_t *stats, char *buf, size_t cap)
{
    char text[COUNT_TEXT_MAX];
    int n = snprintf(buf, cap, "T\t%llu\t%s\t", (unsigned long long)task_id, count_format(nodes, text));
    if (n < 0 || (size_t)n >= cap)
        return 0;
    size_t len = (size_t)n;
    bool ok = stats ? s_put_stats(buf, &len, cap, stats) : s_put(buf, &len, cap, "-");
    if (!ok || !s_put(buf, &len, cap, "\t"))
        return 0;
    size_t k = jline_escape(task_key, buf + len, cap - len);
    if (k == SIZE_MAX)
        return 0;
    return s_seal(buf, len + k, cap);
}

/* Checks and strips the trailing "\t<8 hex crc>"; -1 with err on mismatch. */
static int s_unseal(char *line, char *err, size_t errlen)
{
    char *tab = strrchr(line, '\t');
    if (!tab) {
        snprintf(err, errlen, "no checksum field");
        return -1;
    }
    const char *crc_text = tab + 1;
    if (strlen(crc_text) != 8 || strspn(crc_text, "0123456789abcdef") != 8) {
        snprintf(err, errlen, "checksum field \"%.16s\" is not 8 lower-case hex digits", crc_text);
        return -1;
    }
    unsigned long want = strtoul(crc_text, NULL, 16);
    uint32_t got = jline_crc32(line, (size_t)(tab - line));
    if (got != (uint32_t)want) {
        snprintf(err, errlen, "checksum mismatch (line says %s, content gives %08x): corrupt line",
                 crc_text, (unsigned)got);
        return -1;
    }
    *tab = '\0';
    return 0;
}

/* Splits line at TABs into at most max fields; returns the field count. */
static int s_split(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        fields[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab)
            return n;
        *tab = '\0';
        p = tab + 1;
    }
    return max + 1; /* more fields than expected */
}

int jline_parse_header(char *line, const char **job_key, char *err, size_t errlen)
{
    if (s_unseal(line, err, errlen) != 0)
        return -1;
    char *f[3];
    int n = s_split(line, f, 3);
    if (n != 3 || strcmp(f[0], s_magic) != 0) {
        snprintf(err, errlen, "header: not an octad journal (expected \"%s<TAB>1<TAB>job key\")", s_magic);
        return -1;
    }
    if (strcmp(f[1], "1") != 0) {
        snprintf(err, errlen, "header: format version \"%.16s\" not supported (this build reads 1)", f[1]);
        return -1;
    }
    *job_key = f[2];
    return 0;
}

static int s_parse_u64(const char *text, uint64_t *out)
{
    count_t v;
    if (count_parse(text, &v) != 0 || v > UINT64_MAX)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

static int s_parse_stats(char *text, perft_stats_t *st, char *err, size_t errlen)
{
    count_t *dst[STATS_FIELD_NB] = {
        &st->nodes, &st->captures, &st->en_passant, &st->castles,
        &st->castle_kind[CASTLE_NEAR], &st->castle_kind[CASTLE_CENTER], &st->castle_kind[CASTLE_FAR],
        &st->promotions, &st->checks, &st->mates, &st->discovered_checks, &st->double_checks, &st->stalemates,
    };
    char *p = text;
    for (int i = 0; i < STATS_FIELD_NB; i++) {
        char *comma = strchr(p, ',');
        if ((i < STATS_FIELD_NB - 1) != (comma != NULL)) {
            snprintf(err, errlen, "stats: expected %d comma-separated counts", STATS_FIELD_NB);
            return -1;
        }
        if (comma)
            *comma = '\0';
        if (count_parse(p, dst[i]) != 0) {
            snprintf(err, errlen, "stats: count %d \"%.40s\" is not a decimal count", i + 1, p);
            return -1;
        }
        p = comma ? comma + 1 : p;
    }
    return 0;
}

int jline_parse_entry(char *line, jline_entry_t *out, char *err, size_t errlen)
{
    if (s_unseal(line, err, errlen) != 0)
        return -1;
    char *f[5];
    int n = s_split(line, f, 5);
    if (n != 5 || strcmp(f[0], "T") != 0) {
        snprintf(err, errlen, "not a task record (expected 5 TAB-separated fields starting with T)");
        return -1;
    }
    memset(out, 0, sizeof *out);
    if (s_parse_u64(f[1], &out->task_id) != 0) {
        snprintf(err, errlen, "task id \"%.40s\" is not a decimal 64-bit number", f[1]);
        return -1;
    }
    if (count_parse(f[2], &out->nodes) != 0) {
        snprintf(err, errlen, "nodes \"%.40s\" is not a decimal count", f[2]);
        return -1;
    }
    out->has_stats = strcmp(f[3], "-") != 0;
    if (out->has_stats && s_parse_stats(f[3], &out->stats, err, errlen) != 0)
        return -1;
    if (out->has_stats && out->stats.nodes != out->nodes) {
        snprintf(err, errlen, "stats: first count differs from nodes");
        return -1;
    }
    out->key = f[4];
    return 0;
}

size_t jline_format_credit(const journal_credit_t *c, char *buf, size_t cap)
{
    char amount[COUNT_TEXT_MAX], cpu[24] = "-", name[3 * JOURNAL_WORKER_MAX + 1];
    if (jline_escape(c->worker, name, sizeof name) == SIZE_MAX)
        return 0;
    if (c->cpu_ms >= 0)
        snprintf(cpu, sizeof cpu, "%lld", (long long)c->cpu_ms);
    int n = snprintf(buf, cap, "C\t%llu\t%s\t%s\t%s\t%llu", (unsigned long long)c->task_id, name,
                     count_format(c->amount, amount), cpu, (unsigned long long)c->wall_ms);
    if (n < 0 || (size_t)n >= cap)
        return 0;
    return s_seal(buf, (size_t)n, cap);
}

bool jline_is_credit(const char *line)
{
    return line[0] == 'C' && line[1] == '\t';
}

/* Undoes jline_escape into out (cap bytes); -1 on a bad %XX or when it does not fit. */
static int s_unescape(const char *in, char *out, size_t cap)
{
    size_t o = 0;
    for (; *in != '\0'; in++) {
        unsigned v = (unsigned char)*in;
        if (*in == '%') {
            if (!isxdigit((unsigned char)in[1]) || !isxdigit((unsigned char)in[2]) || sscanf(in + 1, "%2x", &v) != 1)
                return -1;
            in += 2;
        }
        if (o + 1 >= cap)
            return -1;
        out[o++] = (char)v;
    }
    out[o] = '\0';
    return 0;
}

int jline_parse_credit(char *line, journal_credit_t *out, char *err, size_t errlen)
{
    if (s_unseal(line, err, errlen) != 0)
        return -1;
    char *f[6];
    int n = s_split(line, f, 6);
    if (n != 6 || strcmp(f[0], "C") != 0) {
        snprintf(err, errlen, "not a credit record (expected 6 TAB-separated fields starting with C)");
        return -1;
    }
    memset(out, 0, sizeof *out);
    uint64_t cpu = 0;
    if (s_parse_u64(f[1], &out->task_id) != 0) {
        snprintf(err, errlen, "credit: task id \"%.40s\" is not a decimal 64-bit number", f[1]);
        return -1;
    }
    if (f[2][0] == '\0' || s_unescape(f[2], out->worker, sizeof out->worker) != 0) {
        snprintf(err, errlen, "credit: worker \"%.70s\" is empty, badly escaped or longer than %d bytes", f[2],
                 JOURNAL_WORKER_MAX - 1);
        return -1;
    }
    if (count_parse(f[3], &out->amount) != 0) {
        snprintf(err, errlen, "credit: amount \"%.40s\" is not a decimal count", f[3]);
        return -1;
    }
    if (strcmp(f[4], "-") != 0 && (s_parse_u64(f[4], &cpu) != 0 || cpu > INT64_MAX)) {
        snprintf(err, errlen, "credit: cpu_ms \"%.40s\" is neither '-' nor a decimal number", f[4]);
        return -1;
    }
    out->cpu_ms = strcmp(f[4], "-") != 0 ? (int64_t)cpu : -1;
    if (s_parse_u64(f[5], &out->wall_ms) != 0) {
        snprintf(err, errlen, "credit: wall_ms \"%.40s\" is not a decimal number", f[5]);
        return -1;
    }
    return 0;
}
