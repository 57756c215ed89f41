/*
 * answer-server.c -- test helper for tcpbench's answer check: a TCP DNS
 * "server" that reads each length-prefixed query and answers it in one
 * of several ways, one connection at a time:
 *
 *   good   the query echoed with QR set (a well-formed answer: same ID)
 *   short  the length prefix of the whole answer, half of it, then close
 *   badid  a whole answer with the ID changed
 *   noqr   a whole answer with QR clear
 *   tiny   a whole "answer" of 5 bytes, shorter than a DNS header
 *   rst    no answer: the connection is closed at once with SO_LINGER 0,
 *          so the client sees a RST after the handshake ("reset")
 *   notls  a plain DNS server to a TLS client: reads what the client sends
 *          first (a ClientHello), answers a length-prefixed DNS FORMERR
 *          header, plain bytes, not TLS, and closes (tcpbench --tls counts
 *          a handshake failure)
 *
 *   answer-server ADDR PORT SECONDS MODE
 *
 * Prints "ready" on stdout once listening; exits after SECONDS (a bound,
 * so a forgotten helper cannot linger), printing how many connections it
 * answered on stderr.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum mode { MODE_GOOD, MODE_SHORT, MODE_BADID, MODE_NOQR, MODE_TINY, MODE_RST, MODE_NOTLS };

static int
read_full(int fd, uint8_t *buf, size_t len)
{
	size_t got = 0;
	ssize_t n;
	while (got < len) {
		n = read(fd, buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

static int
write_full(int fd, const uint8_t *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;
	while (done < len) {
		n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		done += (size_t)n;
	}
	return 0;
}

/* Read one query from c and answer it as mode says; 0 when answered. */
static int
answer_one(int c, enum mode mode)
{
	uint8_t msg[2 + 65535];
	size_t len, send_len;
	if (read_full(c, msg, 2) < 0)
		return -1;
	len = ((size_t)msg[0] << 8) | msg[1];
	if (len < 12 || read_full(c, msg + 2, len) < 0)
		return -1;
	msg[4] |= 0x80;                 /* QR */
	send_len = 2 + len;
	switch (mode) {
	case MODE_GOOD:
		break;
	case MODE_SHORT:
		send_len = 2 + len / 2;  /* prefix says len, half follows */
		break;
	case MODE_BADID:
		msg[3] ^= 0x01;
		break;
	case MODE_NOQR:
		msg[4] &= 0x7f;
		break;
	case MODE_TINY:
		msg[0] = 0;
		msg[1] = 5;
		send_len = 2 + 5;
		break;
	case MODE_RST:
	case MODE_NOTLS:          /* handled at accept: never reads a query */
		return -1;
	}
	return write_full(c, msg, send_len);
}

int
main(int argc, char **argv)
{
	static const char *names[] = { "good", "short", "badid", "noqr", "tiny", "rst", "notls" };
	struct linger lg = { 1, 0 };
	struct sockaddr_in sa;
	struct timeval tv = { 1, 0 };
	enum mode mode = MODE_GOOD;
	int fd, c, one = 1;
	size_t i;
	time_t end;
	long answered = 0, failed = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: answer-server ADDR PORT SECONDS good|short|badid|noqr|tiny|rst|notls\n");
		return 1;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(argv[4], names[i]) == 0)
			break;
	if (i == sizeof(names) / sizeof(names[0])) {
		fprintf(stderr, "answer-server: unknown mode %s\n", argv[4]);
		return 1;
	}
	mode = (enum mode)i;
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)atoi(argv[2]));
	if (inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1) {
		fprintf(stderr, "answer-server: bad address %s\n", argv[1]);
		return 1;
	}
	end = time(NULL) + atoi(argv[3]);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0
	    || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 1024) < 0) {
		fprintf(stderr, "answer-server: %s\n", strerror(errno));
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	while (time(NULL) < end) {
		struct pollfd p = { fd, POLLIN, 0 };
		if (poll(&p, 1, 200) <= 0)
			continue;
		c = accept(fd, NULL, NULL);
		if (c < 0)
			continue;
		if (mode == MODE_RST) {
			setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
			close(c);
			answered++;
			continue;
		}
		/* A client that sends nothing cannot hold the helper for long. */
		setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(c, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (mode == MODE_NOTLS) {
			/* ID 0, QR set, RCODE FORMERR, no records. */
			static const uint8_t formerr[] = { 0, 12, 0, 0, 0x80, 1, 0, 0, 0, 0, 0, 0, 0, 0 };
			uint8_t hello[4096];
			if (recv(c, hello, sizeof(hello), 0) > 0
			    && write_full(c, formerr, sizeof(formerr)) == 0)
				answered++;
			else
				failed++;
			close(c);
			continue;
		}
		if (answer_one(c, mode) == 0)
			answered++;
		else
			failed++;
		close(c);
	}
	fprintf(stderr, "answer-server: %s: answered %ld connections, %ld failed\n",
		names[mode], answered, failed);
	return 0;
}
