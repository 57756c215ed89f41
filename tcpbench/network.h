/*
 * network.h -- the network side of tcpbench: the target address, the set
 * of local source addresses connections are spread over, opening one
 * non-blocking TCP connection, and the mapping of socket errors to the
 * failure causes tcpbench counts.
 *
 * Sources (-b): a comma-separated list of addresses and prefixes, e.g.
 * "198.18.4.0/23" or "198.18.4.1,198.18.4.2". A prefix stands for every
 * address in it (at most TCPB_SOURCES_MAX). Spreading over many source
 * addresses multiplies the 4-tuples available, so ephemeral ports and
 * TIME-WAIT do not run out; the port is chosen at connect time
 * (IP_BIND_ADDRESS_NO_PORT), with the whole 4-tuple known.
 */
#ifndef TCPB_NETWORK_H
#define TCPB_NETWORK_H

#include <stddef.h>
#include <sys/socket.h>
#include "stats.h"

#define TCPB_SOURCES_MAX 65536

struct tcpb_addr {
	struct sockaddr_storage sa;
	socklen_t len;
};

struct tcpb_sources {
	struct tcpb_addr *a;
	size_t n;
	size_t next;            /* round robin */
	size_t step;            /* advance per connection (0: 1) */
};

/* Numeric address and port to a socket address; -1 with a message. */
int tcpb_addr_parse(struct tcpb_addr *out, const char *host, unsigned port,
	char *err, size_t errlen);
void tcpb_addr_format(const struct tcpb_addr *a, char *buf, size_t len);
/* Expand a -b argument; every source must be of the given family. */
int tcpb_sources_parse(struct tcpb_sources *s, const char *arg, int family,
	size_t max, char *err, size_t errlen);
/* Worker `first` of `stride`: connection i (of the whole schedule) uses
 * source i mod n, so this worker starts at source first and steps by
 * stride, as one process would have done. */
void tcpb_sources_set_class(struct tcpb_sources *s, size_t first, size_t stride);
/* The next source, round robin; NULL when there are none. */
const struct tcpb_addr *tcpb_sources_next(struct tcpb_sources *s);
void tcpb_sources_free(struct tcpb_sources *s);

/* Open a non-blocking TCP socket bound to src (may be NULL) and start the
 * connect to dst. Returns the fd with *in_progress set, or -1 with errno
 * set (the socket, if any, closed). rst_close: SO_LINGER 0, so close()
 * sends a RST and leaves no TIME-WAIT. */
int tcpb_conn_open(const struct tcpb_addr *dst, const struct tcpb_addr *src,
	int rst_close, int *in_progress);
/* The failure cause of a socket error. */
enum tcpb_cause tcpb_cause_of_errno(int err);

#endif
