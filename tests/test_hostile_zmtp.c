/* test_hostile_zmtp.c: a raw ZMTP 3.0 peer (plain TCP, NULL mechanism, no libzmq) that announces
 * one frame of 8 GiB and streams MB megabytes of it, to check that OCTP peers cap frame sizes.
 *
 * usage: test_hostile_zmtp connect HOST PORT MB   (plays a DEALER against a coordinator)
 *        test_hostile_zmtp listen PORTFILE MB     (plays the coordinator's ROUTER for a worker:
 *                                                  binds 127.0.0.1 on an ephemeral port, writes
 *                                                  tcp://127.0.0.1:PORT to PORTFILE, serves one peer)
 * Prints "sent N bytes, cut off by the peer: yes|no" and exits 0 (1 on a setup error). */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void s_die(const char *what)
{
    fprintf(stderr, "hostile-zmtp: %s: %s\n", what, strerror(errno));
    exit(1);
}

static int s_write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Greeting (64 bytes), a READY command naming the socket type, then a frame header of 8 GiB. */
static int s_handshake(int fd, const char *socket_type)
{
    unsigned char g[64] = {0xff, 0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 3, 0, 'N', 'U', 'L', 'L'};
    unsigned char ready[64];
    size_t tlen = strlen(socket_type), n = 0;
    ready[n++] = 0x04; /* short command */
    ready[n++] = (unsigned char)(1 + 5 + 1 + 11 + 4 + tlen);
    ready[n++] = 5;
    memcpy(ready + n, "READY", 5), n += 5;
    ready[n++] = 11;
    memcpy(ready + n, "Socket-Type", 11), n += 11;
    ready[n++] = 0, ready[n++] = 0, ready[n++] = 0, ready[n++] = (unsigned char)tlen;
    memcpy(ready + n, socket_type, tlen), n += tlen;
    unsigned char head[9] = {0x02, 0, 0, 0, 0x02, 0, 0, 0, 0}; /* long frame, 2^33 bytes */
    return s_write_all(fd, g, sizeof g) || s_write_all(fd, ready, n) || s_write_all(fd, head, sizeof head) ? -1 : 0;
}

static void s_stream(int fd, const char *socket_type, long mb)
{
    static char zeros[1 << 16];
    unsigned long long sent = 0;
    int cut = s_handshake(fd, socket_type) != 0;
    while (!cut && sent < (unsigned long long)mb << 20) {
        if (s_write_all(fd, zeros, sizeof zeros) != 0)
            cut = 1;
        else
            sent += sizeof zeros;
    }
    printf("sent %llu bytes, cut off by the peer: %s\n", sent, cut ? "yes" : "no");
    close(fd);
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    struct sockaddr_in a = {.sin_family = AF_INET};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        s_die("socket");
    if (argc == 5 && strcmp(argv[1], "connect") == 0) {
        a.sin_port = htons((uint16_t)atoi(argv[3]));
        if (inet_pton(AF_INET, argv[2], &a.sin_addr) != 1 || connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
            s_die("connect");
        s_stream(fd, "DEALER", atol(argv[4]));
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "listen") == 0) {
        socklen_t len = sizeof a;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        if (bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 1) != 0 ||
            getsockname(fd, (struct sockaddr *)&a, &len) != 0)
            s_die("bind");
        FILE *f = fopen(argv[2], "w");
        if (f == NULL)
            s_die(argv[2]);
        fprintf(f, "tcp://127.0.0.1:%d\n", ntohs(a.sin_port));
        fclose(f);
        int peer = accept(fd, NULL, NULL);
        if (peer < 0)
            s_die("accept");
        s_stream(peer, "ROUTER", atol(argv[3]));
        return 0;
    }
    fprintf(stderr, "usage: test_hostile_zmtp connect HOST PORT MB | listen PORTFILE MB\n");
    return 2;
}
