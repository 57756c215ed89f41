/*
 * rtnl.c -- interface and qdisc statistics over rtnetlink; see rtnl.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include "rtnl.h"

const char *const rbs_dev_names[RBS_DEV_N] = {
	"rx_packets", "tx_packets", "rx_bytes", "tx_bytes",
	"rx_dropped", "tx_dropped", "rx_errors", "tx_errors",
	"rx_missed_errors", "rx_over_errors", "rx_fifo_errors", "rx_nohandler"
};
const char *const rbs_qdisc_names[RBS_Q_N] = {
	"packets", "bytes", "drops", "overlimits", "requeues"
};
const char *const rbs_qdisc_gauge_names[RBS_QG_N] = { "backlog", "qlen" };

/* Grow an array of elements of size sz to hold n + 1. */
static void *
grow(void *v, size_t *cap, size_t n, size_t sz)
{
	if (n < *cap)
		return v;
	size_t c = *cap ? *cap * 2 : 16;
	void *nv = realloc(v, c * sz);
	if (nv)
		*cap = c;
	return nv;
}

static int
link_cb(const struct nlmsghdr *h, void *arg, char *err, size_t errlen)
{
	struct rbs_linklist *l = arg;
	const struct ifinfomsg *ifi = NLMSG_DATA(h);
	const struct rtattr *tb[IFLA_MAX + 1];
	struct rtnl_link_stats64 st;
	struct rbs_link *k;
	void *nv;

	if (h->nlmsg_type != RTM_NEWLINK || h->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)))
		return 0;
	rbs_nl_parse_attrs(tb, IFLA_MAX, IFLA_RTA(ifi), IFLA_PAYLOAD(h));
	if (!tb[IFLA_IFNAME])
		return 0;
	if (!(nv = grow(l->v, &l->cap, l->n, sizeof(*l->v)))) {
		snprintf(err, errlen, "interface list: %s", strerror(errno));
		return -1;
	}
	l->v = nv;
	k = &l->v[l->n];
	memset(k, 0, sizeof(*k));
	k->ifindex = ifi->ifi_index;
	snprintf(k->name, sizeof(k->name), "%.*s", (int)RTA_PAYLOAD(tb[IFLA_IFNAME]),
		(const char *)RTA_DATA(tb[IFLA_IFNAME]));
	memset(&st, 0, sizeof(st));
	if (tb[IFLA_STATS64]) {
		size_t n = RTA_PAYLOAD(tb[IFLA_STATS64]);
		memcpy(&st, RTA_DATA(tb[IFLA_STATS64]), n < sizeof(st) ? n : sizeof(st));
	}
	k->v[RBS_DEV_RX_PACKETS] = st.rx_packets;
	k->v[RBS_DEV_TX_PACKETS] = st.tx_packets;
	k->v[RBS_DEV_RX_BYTES] = st.rx_bytes;
	k->v[RBS_DEV_TX_BYTES] = st.tx_bytes;
	k->v[RBS_DEV_RX_DROPPED] = st.rx_dropped;
	k->v[RBS_DEV_TX_DROPPED] = st.tx_dropped;
	k->v[RBS_DEV_RX_ERRORS] = st.rx_errors;
	k->v[RBS_DEV_TX_ERRORS] = st.tx_errors;
	k->v[RBS_DEV_RX_MISSED_ERRORS] = st.rx_missed_errors;
	k->v[RBS_DEV_RX_OVER_ERRORS] = st.rx_over_errors;
	k->v[RBS_DEV_RX_FIFO_ERRORS] = st.rx_fifo_errors;
	k->v[RBS_DEV_RX_NOHANDLER] = st.rx_nohandler;
	l->n++;
	return 0;
}

int
rbs_rtnl_links(struct rbs_nl *nl, struct rbs_linklist *l, char *err, size_t errlen)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg ifi;
	} req;
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	req.h.nlmsg_type = RTM_GETLINK;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.ifi.ifi_family = AF_UNSPEC;
	l->n = 0;
	return rbs_nl_dump(nl, &req.h, link_cb, l, err, errlen);
}

static int
qdisc_cb(const struct nlmsghdr *h, void *arg, char *err, size_t errlen)
{
	struct rbs_qdisclist *l = arg;
	const struct tcmsg *tcm = NLMSG_DATA(h);
	const struct rtattr *tb[TCA_MAX + 1], *st[TCA_STATS_MAX + 1];
	struct rbs_qdisc *q;
	void *nv;

	if (h->nlmsg_type != RTM_NEWQDISC || h->nlmsg_len < NLMSG_LENGTH(sizeof(*tcm)))
		return 0;
	rbs_nl_parse_attrs(tb, TCA_MAX, TCA_RTA(tcm), TCA_PAYLOAD(h));
	if (!(nv = grow(l->v, &l->cap, l->n, sizeof(*l->v)))) {
		snprintf(err, errlen, "qdisc list: %s", strerror(errno));
		return -1;
	}
	l->v = nv;
	q = &l->v[l->n];
	memset(q, 0, sizeof(*q));
	q->ifindex = tcm->tcm_ifindex;
	q->handle = tcm->tcm_handle;
	q->parent = tcm->tcm_parent;
	if (tb[TCA_KIND])
		snprintf(q->kind, sizeof(q->kind), "%.*s", (int)RTA_PAYLOAD(tb[TCA_KIND]),
			(const char *)RTA_DATA(tb[TCA_KIND]));
	if (tb[TCA_STATS2]) {
		rbs_nl_parse_attrs(st, TCA_STATS_MAX, RTA_DATA(tb[TCA_STATS2]),
			RTA_PAYLOAD(tb[TCA_STATS2]));
		if (st[TCA_STATS_BASIC] && RTA_PAYLOAD(st[TCA_STATS_BASIC]) >= 12) {
			uint64_t bytes;
			uint32_t packets;
			memcpy(&bytes, RTA_DATA(st[TCA_STATS_BASIC]), 8);
			memcpy(&packets, (const char *)RTA_DATA(st[TCA_STATS_BASIC]) + 8, 4);
			q->v[RBS_Q_BYTES] = bytes;
			q->v[RBS_Q_PACKETS] = packets;
		}
		if (st[TCA_STATS_PKT64] && RTA_PAYLOAD(st[TCA_STATS_PKT64]) >= 8)
			memcpy(&q->v[RBS_Q_PACKETS], RTA_DATA(st[TCA_STATS_PKT64]), 8);
		if (st[TCA_STATS_QUEUE]
		    && RTA_PAYLOAD(st[TCA_STATS_QUEUE]) >= sizeof(struct gnet_stats_queue)) {
			struct gnet_stats_queue gq;
			memcpy(&gq, RTA_DATA(st[TCA_STATS_QUEUE]), sizeof(gq));
			q->v[RBS_Q_DROPS] = gq.drops;
			q->v[RBS_Q_OVERLIMITS] = gq.overlimits;
			q->v[RBS_Q_REQUEUES] = gq.requeues;
			q->g[RBS_QG_BACKLOG] = gq.backlog;
			q->g[RBS_QG_QLEN] = gq.qlen;
		}
	} else if (tb[TCA_STATS] && RTA_PAYLOAD(tb[TCA_STATS]) >= sizeof(struct tc_stats)) {
		struct tc_stats ts;
		memcpy(&ts, RTA_DATA(tb[TCA_STATS]), sizeof(ts));
		q->v[RBS_Q_BYTES] = ts.bytes;
		q->v[RBS_Q_PACKETS] = ts.packets;
		q->v[RBS_Q_DROPS] = ts.drops;
		q->v[RBS_Q_OVERLIMITS] = ts.overlimits;
		q->g[RBS_QG_BACKLOG] = ts.backlog;
		q->g[RBS_QG_QLEN] = ts.qlen;
	}
	l->n++;
	return 0;
}

int
rbs_rtnl_qdiscs(struct rbs_nl *nl, struct rbs_qdisclist *l, char *err, size_t errlen)
{
	struct {
		struct nlmsghdr h;
		struct tcmsg tcm;
	} req;
	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.tcm));
	req.h.nlmsg_type = RTM_GETQDISC;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.tcm.tcm_family = AF_UNSPEC;
	l->n = 0;
	return rbs_nl_dump(nl, &req.h, qdisc_cb, l, err, errlen);
}

const char *
rbs_linklist_name(const struct rbs_linklist *l, int ifindex)
{
	size_t i;
	for (i = 0; i < l->n; i++)
		if (l->v[i].ifindex == ifindex)
			return l->v[i].name;
	return NULL;
}

void
rbs_qdisc_key(const struct rbs_qdisc *q, const char *ifname, char *out, size_t outlen)
{
	char ifbuf[24];
	unsigned maj = q->handle >> 16, min = q->handle & 0xffff;
	if (!ifname) {
		snprintf(ifbuf, sizeof(ifbuf), "if%d", q->ifindex);
		ifname = ifbuf;
	}
	if (q->parent == TC_H_ROOT)
		snprintf(out, outlen, "%s", ifname);
	else if (min)
		snprintf(out, outlen, "%s/%x:%x", ifname, maj, min);
	else
		snprintf(out, outlen, "%s/%x:", ifname, maj);
}
