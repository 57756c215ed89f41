/*
 * nlsock.h -- a netlink socket and the request/dump loop shared by the
 * rtnetlink (links, qdiscs) and sock_diag (listeners) readers. A netlink
 * socket belongs to the network namespace it was created in, so one is
 * opened per namespace and used there without entering it again.
 */
#ifndef RBS_NLSOCK_H
#define RBS_NLSOCK_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

struct rbs_nl {
	int fd;
	uint32_t seq;
	char *buf;
	size_t bufsize;
};

/* A netlink socket of protocol proto (NETLINK_ROUTE, NETLINK_SOCK_DIAG)
 * in the caller's current network namespace. */
int rbs_nl_open(struct rbs_nl *nl, int proto, char *err, size_t errlen);
void rbs_nl_close(struct rbs_nl *nl);

/* Called for each message of a dump; non-zero stops the dump with that
 * return (a message in err). */
typedef int (*rbs_nl_cb)(const struct nlmsghdr *h, void *arg, char *err, size_t errlen);

/* Send req (a full message whose nlmsg_seq is set here) and feed every
 * answer to cb until NLMSG_DONE. Returns 0, or -1 with a message. */
int rbs_nl_dump(struct rbs_nl *nl, struct nlmsghdr *req, rbs_nl_cb cb, void *arg,
	char *err, size_t errlen);

/* Walk the rtattrs of [attrs, attrs+len): tb[type] = the attribute, for
 * type <= max (later ones of a type win). */
struct rtattr;
void rbs_nl_parse_attrs(const struct rtattr **tb, int max, const void *attrs, size_t len);

#endif /* RBS_NLSOCK_H */
