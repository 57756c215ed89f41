/*
 * rtnl.h -- rtnetlink dumps of one namespace: every interface's counters
 * (RTM_GETLINK, IFLA_STATS64: where veth and bridge drops show) and every
 * qdisc's statistics (RTM_GETQDISC, TCA_STATS2: where tbf shaping drops
 * show).
 */
#ifndef RBS_RTNL_H
#define RBS_RTNL_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>
#include "nlsock.h"

/* Interface counters reported, in this order (rtnl_link_stats64 names). */
enum {
	RBS_DEV_RX_PACKETS, RBS_DEV_TX_PACKETS, RBS_DEV_RX_BYTES, RBS_DEV_TX_BYTES,
	RBS_DEV_RX_DROPPED, RBS_DEV_TX_DROPPED, RBS_DEV_RX_ERRORS, RBS_DEV_TX_ERRORS,
	RBS_DEV_RX_MISSED_ERRORS, RBS_DEV_RX_OVER_ERRORS, RBS_DEV_RX_FIFO_ERRORS,
	RBS_DEV_RX_NOHANDLER,
	RBS_DEV_N
};
extern const char *const rbs_dev_names[RBS_DEV_N];

struct rbs_link {
	int ifindex;
	char name[IF_NAMESIZE];
	uint64_t v[RBS_DEV_N];
};

/* Qdisc counters (monotonic) and gauges. */
enum { RBS_Q_PACKETS, RBS_Q_BYTES, RBS_Q_DROPS, RBS_Q_OVERLIMITS, RBS_Q_REQUEUES, RBS_Q_N };
enum { RBS_QG_BACKLOG, RBS_QG_QLEN, RBS_QG_N };
extern const char *const rbs_qdisc_names[RBS_Q_N];
extern const char *const rbs_qdisc_gauge_names[RBS_QG_N];

struct rbs_qdisc {
	int ifindex;
	uint32_t handle, parent;
	char kind[32];
	uint64_t v[RBS_Q_N];
	uint64_t g[RBS_QG_N];
};

struct rbs_linklist {
	struct rbs_link *v;
	size_t n, cap;
};
struct rbs_qdisclist {
	struct rbs_qdisc *v;
	size_t n, cap;
};

/* Replace the list's contents with the namespace's interfaces / qdiscs. */
int rbs_rtnl_links(struct rbs_nl *nl, struct rbs_linklist *l, char *err, size_t errlen);
int rbs_rtnl_qdiscs(struct rbs_nl *nl, struct rbs_qdisclist *l, char *err, size_t errlen);

/* The name of ifindex in l, or NULL. */
const char *rbs_linklist_name(const struct rbs_linklist *l, int ifindex);

/* A qdisc's key: the interface name for a root qdisc, else
 * "IFNAME/HANDLE" with HANDLE as tc prints it ("8001:", "ffff:", "1:10"). */
void rbs_qdisc_key(const struct rbs_qdisc *q, const char *ifname, char *out, size_t outlen);

#endif /* RBS_RTNL_H */
