/*
 * diag.c -- TCP listeners and their accept queues over sock_diag; see diag.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/inet_diag.h>
#include <linux/sock_diag.h>
#include "diag.h"

static int
listen_cb(const struct nlmsghdr *h, void *arg, char *err, size_t errlen)
{
	struct rbs_listenlist *l = arg;
	const struct inet_diag_msg *m = NLMSG_DATA(h);
	struct rbs_listener *k;

	if (h->nlmsg_type != SOCK_DIAG_BY_FAMILY || h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)))
		return 0;
	if (m->idiag_state != TCP_LISTEN)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct rbs_listener *v = realloc(l->v, cap * sizeof(*v));
		if (!v) {
			snprintf(err, errlen, "listener list: %s", strerror(errno));
			return -1;
		}
		l->v = v;
		l->cap = cap;
	}
	k = &l->v[l->n++];
	memset(k, 0, sizeof(*k));
	if (!inet_ntop(m->idiag_family, m->id.idiag_src, k->addr, sizeof(k->addr)))
		snprintf(k->addr, sizeof(k->addr), "?");
	k->port = ntohs(m->id.idiag_sport);
	k->queue = m->idiag_rqueue;
	k->limit = m->idiag_wqueue;
	return 0;
}

int
rbs_diag_listeners(struct rbs_nl *nl, struct rbs_listenlist *l, char *err, size_t errlen)
{
	static const int families[] = { AF_INET, AF_INET6 };
	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} req;
	size_t i;

	l->n = 0;
	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
		memset(&req, 0, sizeof(req));
		req.h.nlmsg_len = sizeof(req);
		req.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
		req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
		req.r.sdiag_family = (uint8_t)families[i];
		req.r.sdiag_protocol = IPPROTO_TCP;
		req.r.idiag_states = 1u << TCP_LISTEN;
		if (rbs_nl_dump(nl, &req.h, listen_cb, l, err, errlen) < 0)
			return -1;
	}
	return 0;
}

void
rbs_listenlist_free(struct rbs_listenlist *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
