/*
 * diag.h -- the listening TCP sockets of one namespace over sock_diag
 * (NETLINK_SOCK_DIAG, inet_diag dump filtered on state LISTEN, IPv4 and
 * IPv6). The kernel walks only the listening hash for such a dump, not
 * the established/TIME-WAIT table, so it stays cheap in a namespace with
 * a million TIME-WAIT sockets. For a listener, the kernel reports the
 * accept queue length as rqueue and the backlog limit as wqueue.
 */
#ifndef RBS_DIAG_H
#define RBS_DIAG_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include "nlsock.h"

struct rbs_listener {
	char addr[INET6_ADDRSTRLEN];
	unsigned port;
	uint32_t queue;   /* sk_ack_backlog: connections waiting for accept() */
	uint32_t limit;   /* sk_max_ack_backlog: listen() backlog */
};

struct rbs_listenlist {
	struct rbs_listener *v;
	size_t n, cap;
};

/* Replace l with the namespace's TCP listeners (both families). */
int rbs_diag_listeners(struct rbs_nl *nl, struct rbs_listenlist *l, char *err, size_t errlen);
void rbs_listenlist_free(struct rbs_listenlist *l);

#endif /* RBS_DIAG_H */
