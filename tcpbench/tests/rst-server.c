/*
 * rst-server.c -- test helper for tcpbench: a TCP listener that accepts
 * every connection and closes it at once with SO_LINGER 0, so the client
 * sees a RST after the handshake ("reset" in tcpbench's failure causes).
 *
 *   rst-server ADDR PORT SECONDS
 *
 * Prints "ready" on stdout once listening; exits after SECONDS (a bound,
 * so a forgotten helper cannot linger).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct sockaddr_in sa;
	struct linger lg = { 1, 0 };
	int fd, c, one = 1;
	time_t end;
	long accepted = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: rst-server ADDR PORT SECONDS\n");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)atoi(argv[2]));
	if (inet_pton(AF_INET, argv[1], &sa.sin_addr) != 1) {
		fprintf(stderr, "rst-server: bad address %s\n", argv[1]);
		return 1;
	}
	end = time(NULL) + atoi(argv[3]);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0
	    || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 1024) < 0) {
		fprintf(stderr, "rst-server: %s\n", strerror(errno));
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
		setsockopt(c, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(c);
		accepted++;
	}
	fprintf(stderr, "rst-server: reset %ld connections\n", accepted);
	return 0;
}
