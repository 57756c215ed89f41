/*
 * arrivals.c -- the switch ports toward the servers read every period;
 * see arrivals.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include "arrivals.h"
#include "nlsock.h"
#include "probe.h"
#include "../../analysis/lib/json.h"
#include "../../analysis/lib/outfile.h"

/* A series longer than this many periods keeps only its first ones (an
 * hour at 1 ms): the run says how many it dropped. */
#define RBS_ARRIVALS_MAX_BINS (3600u * 1000u)

struct rbs_arrport {
	struct rbs_arrivals_port p;
	int ifindex;
	uint64_t tx0, drop0;           /* the baseline read */
	uint64_t tx, drop;             /* the last read */
	int32_t *offered, *dropped;    /* per period; -1 = not read (slept through) */
	int sockfd;                    /* the server's /proc file, or -1 */
	uint64_t sock0, sock;          /* its counter: baseline, last read */
	int32_t *refused;              /* per period, the socket's count; NULL without */
};

struct rbs_arrivals {
	struct rbs_arrport port[RBS_ARRIVALS_MAX];
	int nports;
	struct rbs_nl nl;
	int64_t period_ns, epoch_ns;
	size_t nbins, capbins;
	uint64_t bins_dropped;         /* periods past RBS_ARRIVALS_MAX_BINS */
	uint64_t reads, late_reads;
	int64_t max_gap_ns;
	int64_t cpu_ns;
	enum rbs_arrivals_proto proto;
	char buf[16384];               /* a /proc file's text */
	pthread_t thr;
	int started;
	atomic_int stop;
	char error[512];
};

struct one_link {
	int ifindex;
	int found;
	uint64_t tx, drop;
};

static int
stats_cb(const struct nlmsghdr *h, void *arg, char *err, size_t errlen)
{
	struct one_link *l = arg;
	const struct if_stats_msg *ifs = NLMSG_DATA(h);
	const struct rtattr *tb[IFLA_STATS_MAX + 1];
	struct rtnl_link_stats64 st;

	(void)err;
	(void)errlen;
	if (h->nlmsg_type != RTM_NEWSTATS || h->nlmsg_len < NLMSG_LENGTH(sizeof(*ifs))
	    || (int)ifs->ifindex != l->ifindex)
		return 0;
	rbs_nl_parse_attrs(tb, IFLA_STATS_MAX, (const char *)ifs + NLMSG_ALIGN(sizeof(*ifs)),
		h->nlmsg_len - NLMSG_LENGTH(sizeof(*ifs)));
	if (!tb[IFLA_STATS_LINK_64])
		return 0;
	memset(&st, 0, sizeof(st));
	size_t n = RTA_PAYLOAD(tb[IFLA_STATS_LINK_64]);
	memcpy(&st, RTA_DATA(tb[IFLA_STATS_LINK_64]), n < sizeof(st) ? n : sizeof(st));
	l->tx = st.tx_packets;
	l->drop = st.tx_dropped;
	l->found = 1;
	return 0;
}

/* One interface's tx counters: RTM_GETSTATS for its ifindex and the 64-bit
 * link statistics alone (a tenth of what RTM_GETLINK builds). */
static int
read_port(struct rbs_nl *nl, struct rbs_arrport *p, uint64_t *tx, uint64_t *drop,
	char *err, size_t errlen)
{
	struct {
		struct nlmsghdr h;
		struct if_stats_msg ifs;
	} req;
	struct one_link l = { p->ifindex, 0, 0, 0 };

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifs));
	req.h.nlmsg_type = RTM_GETSTATS;
	req.h.nlmsg_flags = NLM_F_REQUEST;
	req.ifs.family = AF_UNSPEC;
	req.ifs.ifindex = (uint32_t)p->ifindex;
	req.ifs.filter_mask = IFLA_STATS_FILTER_BIT(IFLA_STATS_LINK_64);
	if (rbs_nl_dump(nl, &req.h, stats_cb, &l, err, errlen) < 0)
		return -1;
	if (!l.found) {
		snprintf(err, errlen, "%s: no statistics for %s", p->p.role, p->p.dev);
		return -1;
	}
	*tx = l.tx;
	*drop = l.drop;
	return 0;
}

static const struct {
	const char *name, *file, *table, *field;
} protos[] = {
	[RBS_ARR_NONE] = { "none", NULL, NULL, NULL },
	[RBS_ARR_UDP] = { "udp", "/proc/thread-self/net/snmp", "Udp:", "RcvbufErrors" },
	[RBS_ARR_UDP6] = { "udp6", "/proc/thread-self/net/snmp6", NULL, "Udp6RcvbufErrors" },
	[RBS_ARR_TCP] = { "tcp", "/proc/thread-self/net/netstat", "TcpExt:", "ListenOverflows" },
};

int
rbs_arrivals_proto_parse(const char *s)
{
	int i;
	for (i = RBS_ARR_UDP; i <= RBS_ARR_TCP; i++)
		if (strcmp(s, protos[i].name) == 0)
			return i;
	return -1;
}

/* The value of field in a /proc/net text: in a "Table: names" line
 * followed by a "Table: values" line (snmp, netstat), or on a "field
 * value" line (snmp6). */
static int
find_counter(const char *text, const char *table, const char *field, uint64_t *v)
{
	size_t fl = strlen(field);
	const char *p = text;
	if (!table) {
		for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (strncmp(p, field, fl) == 0 && (p[fl] == ' ' || p[fl] == '\t')) {
				*v = strtoull(p + fl, NULL, 10);
				return 0;
			}
		return -1;
	}
	size_t tl = strlen(table);
	for (; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *names = p, *vals, *q;
		int col = 0, k;
		if (strncmp(p, table, tl) != 0)
			continue;
		if (!(vals = strchr(names, '\n')) || strncmp(++vals, table, tl) != 0)
			return -1;
		/* the column of field among the names */
		for (q = names + tl;;) {
			while (*q == ' ')
				q++;
			if (*q == '\n' || !*q)
				return -1;
			if (strncmp(q, field, fl) == 0 && (q[fl] == ' ' || q[fl] == '\n'))
				break;
			while (*q && *q != ' ' && *q != '\n')
				q++;
			col++;
		}
		for (q = vals + tl, k = 0;; k++) {
			char *end;
			unsigned long long x = strtoull(q, &end, 10);
			if (end == q)
				return -1;
			if (k == col) {
				*v = x;
				return 0;
			}
			q = end;
		}
	}
	return -1;
}

static int
read_socket(struct rbs_arrivals *a, struct rbs_arrport *p, uint64_t *v, char *err, size_t errlen)
{
	ssize_t n = pread(p->sockfd, a->buf, sizeof(a->buf) - 1, 0);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s: %s", p->p.role, protos[a->proto].file, strerror(errno));
		return -1;
	}
	a->buf[n] = '\0';
	if (find_counter(a->buf, protos[a->proto].table, protos[a->proto].field, v) < 0) {
		snprintf(err, errlen, "%s: no %s in %s", p->p.role, protos[a->proto].field,
			protos[a->proto].file);
		return -1;
	}
	return 0;
}

static int
grow_bins(struct rbs_arrivals *a, size_t want)
{
	size_t c = a->capbins ? a->capbins : 4096;
	int i;
	if (want <= a->capbins)
		return 0;
	while (c < want)
		c *= 2;
	for (i = 0; i < a->nports; i++) {
		int32_t *o = realloc(a->port[i].offered, c * sizeof(int32_t));
		if (!o)
			return -1;
		a->port[i].offered = o;
		int32_t *d = realloc(a->port[i].dropped, c * sizeof(int32_t));
		if (!d)
			return -1;
		a->port[i].dropped = d;
		if (a->port[i].sockfd >= 0) {
			int32_t *r = realloc(a->port[i].refused, c * sizeof(int32_t));
			if (!r)
				return -1;
			a->port[i].refused = r;
		}
	}
	a->capbins = c;
	return 0;
}

static int32_t
clamp32(uint64_t v)
{
	return v > INT32_MAX ? INT32_MAX : (int32_t)v;
}

/* The reads of period bin (0-based from the epoch); the periods since the
 * last read that were slept through are marked unknown. */
static int
record(struct rbs_arrivals *a, size_t bin)
{
	char e2[256];
	size_t k;
	int i;

	if (bin >= RBS_ARRIVALS_MAX_BINS) {
		a->bins_dropped++;
		return 0;
	}
	if (grow_bins(a, bin + 1) < 0) {
		snprintf(a->error, sizeof(a->error), "arrivals: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < a->nports; i++) {
		struct rbs_arrport *p = &a->port[i];
		uint64_t tx, drop;
		if (read_port(&a->nl, p, &tx, &drop, e2, sizeof(e2)) < 0) {
			snprintf(a->error, sizeof(a->error), "arrivals: %s", e2);
			return -1;
		}
		for (k = a->nbins; k < bin; k++)
			p->offered[k] = p->dropped[k] = -1;
		p->offered[bin] = clamp32((tx - p->tx) + (drop - p->drop));
		p->dropped[bin] = clamp32(drop - p->drop);
		p->tx = tx;
		p->drop = drop;
		if (p->sockfd >= 0) {
			uint64_t v;
			if (read_socket(a, p, &v, e2, sizeof(e2)) < 0) {
				snprintf(a->error, sizeof(a->error), "arrivals: %s", e2);
				return -1;
			}
			for (k = a->nbins; k < bin; k++)
				p->refused[k] = -1;
			p->refused[bin] = clamp32(v - p->sock);
			p->sock = v;
		}
	}
	a->nbins = bin + 1;
	a->reads++;
	return 0;
}

static void *
arrivals_main(void *arg)
{
	struct rbs_arrivals *a = arg;
	struct timespec ts;
	int64_t next = a->epoch_ns, now, last = a->epoch_ns;

	while (!atomic_load_explicit(&a->stop, memory_order_relaxed)) {
		next += a->period_ns;
		ts.tv_sec = (time_t)(next / 1000000000);
		ts.tv_nsec = (long)(next % 1000000000);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = rbs_now_ns();
		if (now - next >= a->period_ns) {
			/* Woke a period or more late: the read belongs to the
			 * period it is taken in; the ones between are unknown. */
			a->late_reads++;
			next += ((now - next) / a->period_ns) * a->period_ns;
		}
		if (now - last > a->max_gap_ns)
			a->max_gap_ns = now - last;
		last = now;
		if (record(a, (size_t)((next - a->epoch_ns) / a->period_ns) - 1) < 0)
			break;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	a->cpu_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return NULL;
}

struct rbs_arrivals *
rbs_arrivals_open(const struct rbs_arrivals_port *ports, int nports, int64_t period_ns,
	char *err, size_t errlen)
{
	struct rbs_arrivals *a = calloc(1, sizeof(*a));
	char e2[256];
	int i;

	if (!a) {
		snprintf(err, errlen, "arrivals: %s", strerror(errno));
		return NULL;
	}
	a->nl.fd = -1;
	a->period_ns = period_ns;
	atomic_init(&a->stop, 0);
	if (nports > RBS_ARRIVALS_MAX) {
		snprintf(err, errlen, "more than %d --arrivals ports", RBS_ARRIVALS_MAX);
		goto fail;
	}
	if (rbs_nl_open(&a->nl, NETLINK_ROUTE, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "arrivals: %s", e2);
		goto fail;
	}
	for (i = 0; i < nports; i++)
		a->port[i].sockfd = -1;
	for (i = 0; i < nports; i++) {
		struct rbs_arrport *p = &a->port[i];
		p->p = ports[i];
		if (!(p->ifindex = (int)if_nametoindex(ports[i].dev))) {
			snprintf(err, errlen, "--arrivals %s=%s: no such interface in the "
				"switch's namespace", ports[i].role, ports[i].dev);
			goto fail;
		}
		a->nports++;
		/* a first read checks the port now; the baseline is taken at start */
		if (read_port(&a->nl, p, &p->tx0, &p->drop0, e2, sizeof(e2)) < 0) {
			snprintf(err, errlen, "--arrivals %s=%s: %s", ports[i].role, ports[i].dev, e2);
			goto fail;
		}
	}
	return a;
fail:
	rbs_arrivals_free(a);
	return NULL;
}

int
rbs_arrivals_open_socket(struct rbs_arrivals *a, int i, enum rbs_arrivals_proto proto,
	char *err, size_t errlen)
{
	struct rbs_arrport *p = &a->port[i];
	if (proto == RBS_ARR_NONE)
		return 0;
	a->proto = proto;
	if ((p->sockfd = open(protos[proto].file, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "%s: %s: %s", p->p.role, protos[proto].file, strerror(errno));
		return -1;
	}
	/* a first read checks the counter now; the baseline is taken at start */
	return read_socket(a, p, &p->sock0, err, errlen);
}

int
rbs_arrivals_start(struct rbs_arrivals *a, int fifo_prio, char *err, size_t errlen)
{
	pthread_attr_t attr;
	struct sched_param sp;
	int rc, i;

	/* The baseline is the read just before the grid starts. */
	for (i = 0; i < a->nports; i++) {
		char e2[256];
		struct rbs_arrport *p = &a->port[i];
		if (read_port(&a->nl, p, &p->tx, &p->drop, e2, sizeof(e2)) < 0) {
			snprintf(err, errlen, "arrivals: %s", e2);
			return -1;
		}
		p->tx0 = p->tx;
		p->drop0 = p->drop;
		if (p->sockfd >= 0) {
			if (read_socket(a, p, &p->sock, e2, sizeof(e2)) < 0) {
				snprintf(err, errlen, "arrivals: %s", e2);
				return -1;
			}
			p->sock0 = p->sock;
		}
	}
	a->epoch_ns = rbs_now_ns();
	pthread_attr_init(&attr);
	memset(&sp, 0, sizeof(sp));
	sp.sched_priority = fifo_prio;
	pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	pthread_attr_setschedparam(&attr, &sp);
	rc = pthread_create(&a->thr, &attr, arrivals_main, a);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		snprintf(err, errlen, "starting the SCHED_FIFO arrivals reader: %s%s", strerror(rc),
			rc == EPERM ? " (needs root or CAP_SYS_NICE)" : "");
		return -1;
	}
	a->started = 1;
	return 0;
}

void
rbs_arrivals_stop(struct rbs_arrivals *a)
{
	if (!a || !a->started)
		return;
	atomic_store(&a->stop, 1);
	pthread_join(a->thr, NULL);
	a->started = 0;
}

static void
write_array(FILE *f, const int32_t *v, size_t n)
{
	size_t k;
	fputc('[', f);
	for (k = 0; k < n; k++)
		fprintf(f, k ? ",%d" : "%d", v[k]);
	fputc(']', f);
}

int
rbs_arrivals_write(const struct rbs_arrivals *a, const char *path, int64_t t0_ns,
	char *err, size_t errlen)
{
	struct rb_outfile out;
	int i;

	if (a->error[0])
		return 0;   /* no half series: the summary carries the error */
	if (rb_outfile_begin(&out, path, 1, err, errlen) < 0)
		return -1;
	fprintf(out.fp, "{\"schema\": \"rootbench.arrivals/1\", \"period_ms\": %g, \"t0_s\": %.6f, "
		"\"bins\": %zu, \"refused_counter\": ", (double)a->period_ns / 1e6,
		(double)(a->epoch_ns - t0_ns) / 1e9, a->nbins);
	rb_json_string(out.fp, protos[a->proto].field);
	fputs(",\n \"ports\": {", out.fp);
	for (i = 0; i < a->nports; i++) {
		const struct rbs_arrport *p = &a->port[i];
		fputs(i ? ",\n  " : "\n  ", out.fp);
		rb_json_string(out.fp, p->p.role);
		fputs(": {\"dev\": ", out.fp);
		rb_json_string(out.fp, p->p.dev);
		fputs(",\n   \"offered\": ", out.fp);
		write_array(out.fp, p->offered, a->nbins);
		fputs(",\n   \"dropped\": ", out.fp);
		write_array(out.fp, p->dropped, a->nbins);
		if (p->sockfd >= 0) {
			fputs(",\n   \"refused\": ", out.fp);
			write_array(out.fp, p->refused, a->nbins);
		}
		fputc('}', out.fp);
	}
	fputs("}}\n", out.fp);
	return rb_outfile_commit(&out, err, errlen);
}

void
rbs_arrivals_summary(FILE *f, const struct rbs_arrivals *a, const char *path, int64_t t0_ns)
{
	int i;
	size_t k;

	fprintf(f, "{\"file\": ");
	rb_json_string(f, a->error[0] ? NULL : path);
	fprintf(f, ", \"period_ms\": %g, \"t0_s\": %.6f, \"bins\": %zu, \"bins_dropped\": %llu, "
		"\"reads\": %llu, \"late_reads\": %llu, \"max_gap_ms\": %.3f, \"cpu_ms\": %.3f, \"error\": ",
		(double)a->period_ns / 1e6, (double)(a->epoch_ns - t0_ns) / 1e9, a->nbins,
		(unsigned long long)a->bins_dropped, (unsigned long long)a->reads,
		(unsigned long long)a->late_reads, (double)a->max_gap_ns / 1e6, (double)a->cpu_ns / 1e6);
	rb_json_string(f, a->error[0] ? a->error : NULL);
	fputs(", \"ports\": {", f);
	for (i = 0; i < a->nports; i++) {
		const struct rbs_arrport *p = &a->port[i];
		int32_t peak = 0, peak_drop = 0;
		for (k = 0; k < a->nbins; k++) {
			if (p->offered[k] > peak)
				peak = p->offered[k];
			if (p->dropped[k] > peak_drop)
				peak_drop = p->dropped[k];
		}
		fputs(i ? ", " : "", f);
		rb_json_string(f, p->p.role);
		fputs(": {\"dev\": ", f);
		rb_json_string(f, p->p.dev);
		fprintf(f, ", \"offered\": %llu, \"dropped\": %llu, \"peak_offered\": %d, \"peak_dropped\": %d, "
			"\"refused\": ", (unsigned long long)((p->tx - p->tx0) + (p->drop - p->drop0)),
			(unsigned long long)(p->drop - p->drop0), peak, peak_drop);
		if (p->sockfd >= 0)
			fprintf(f, "%llu}", (unsigned long long)(p->sock - p->sock0));
		else
			fputs("null}", f);
	}
	fputs("}}", f);
}

void
rbs_arrivals_free(struct rbs_arrivals *a)
{
	int i;
	if (!a)
		return;
	rbs_arrivals_stop(a);
	rbs_nl_close(&a->nl);
	for (i = 0; i < a->nports; i++) {
		free(a->port[i].offered);
		free(a->port[i].dropped);
		free(a->port[i].refused);
		if (a->port[i].sockfd >= 0)
			close(a->port[i].sockfd);
	}
	free(a);
}
