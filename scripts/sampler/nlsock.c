/*
 * nlsock.c -- netlink sockets and dumps; see nlsock.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/rtnetlink.h>
#include "nlsock.h"

#define RBS_NL_BUFSIZE (64 * 1024)

int
rbs_nl_open(struct rbs_nl *nl, int proto, char *err, size_t errlen)
{
	struct sockaddr_nl sa;
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, proto);
	if (nl->fd < 0) {
		snprintf(err, errlen, "netlink socket (protocol %d): %s", proto, strerror(errno));
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		snprintf(err, errlen, "netlink bind: %s", strerror(errno));
		close(nl->fd);
		nl->fd = -1;
		return -1;
	}
	/* Errors come back with the request only, not its copy. */
	(void)setsockopt(nl->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->bufsize = RBS_NL_BUFSIZE;
	if (!(nl->buf = malloc(nl->bufsize))) {
		snprintf(err, errlen, "netlink buffer: %s", strerror(errno));
		close(nl->fd);
		nl->fd = -1;
		return -1;
	}
	return 0;
}

void
rbs_nl_close(struct rbs_nl *nl)
{
	if (nl->fd >= 0)
		close(nl->fd);
	free(nl->buf);
	nl->fd = -1;
	nl->buf = NULL;
}

int
rbs_nl_dump(struct rbs_nl *nl, struct nlmsghdr *req, rbs_nl_cb cb, void *arg,
	char *err, size_t errlen)
{
	struct sockaddr_nl sa;
	uint32_t seq = ++nl->seq;
	int rc = 0, done = 0;

	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	req->nlmsg_seq = seq;
	if (sendto(nl->fd, req, req->nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		snprintf(err, errlen, "netlink send: %s", strerror(errno));
		return -1;
	}
	while (!done) {
		ssize_t n = recv(nl->fd, nl->buf, nl->bufsize, 0);
		struct nlmsghdr *h;
		size_t len;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "netlink recv: %s", strerror(errno));
			return -1;
		}
		if (n == 0) {
			snprintf(err, errlen, "netlink recv: end of file");
			return -1;
		}
		len = (size_t)n;
		for (h = (struct nlmsghdr *)nl->buf; NLMSG_OK(h, len); h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_seq != seq)
				continue;   /* an answer to an earlier, abandoned dump */
			if (h->nlmsg_type == NLMSG_DONE) {
				done = 1;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);
				if (e->error == 0)
					continue;
				snprintf(err, errlen, "netlink dump: %s", strerror(-e->error));
				rc = -1;
				done = 1;
				break;
			}
			if (rc == 0 && cb(h, arg, err, errlen) != 0)
				rc = -1;   /* keep reading to the end of the dump */
			if (!(h->nlmsg_flags & NLM_F_MULTI)) {
				done = 1;   /* the one answer to a request that is no dump */
				break;
			}
		}
	}
	return rc;
}

void
rbs_nl_parse_attrs(const struct rtattr **tb, int max, const void *attrs, size_t len)
{
	const struct rtattr *a = attrs;
	unsigned int l = (unsigned int)len;
	memset(tb, 0, sizeof(*tb) * (size_t)(max + 1));
	for (; RTA_OK(a, l); a = RTA_NEXT(a, l)) {
		int type = a->rta_type & NLA_TYPE_MASK;
		if (type <= max)
			tb[type] = a;
	}
}
