/*
 * sampler.c -- opening what is sampled, one sampling step, and the end
 * of a run; see sampler.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sampler.h"
#include "series.h"
#include "summary.h"

#define RBS_STALLS_MAX 10000
#define RBS_EVBUF 256

const char *const rbs_softnet_names[3] = { "processed", "dropped", "time_squeeze" };

double
rbs_sampler_t(const struct rbs_sampler *s, int64_t ns)
{
	return (double)(ns - s->t0) / 1e9;
}

/* ------------------------------------------------------------ namespaces */

/* Read one /proc/thread-self/net file. Missing IPv6 files (IPv6 off) are
 * not an error when optional: *absent is set instead. */
static int
read_net_file(struct rbs_sampler *s, const char *file, int optional, int *absent,
	char *err, size_t errlen)
{
	char path[128];
	snprintf(path, sizeof(path), "/proc/thread-self/net/%s", file);
	if (absent)
		*absent = 0;
	if (rbs_procfile_read(AT_FDCWD, path, &s->buf, err, errlen) < 0) {
		if (optional && errno == ENOENT && absent) {
			*absent = 1;
			return 0;
		}
		return -1;
	}
	return 0;
}

static int
sample_mib(struct rbs_sampler *s, struct rbs_nsstate *n, char *err, size_t errlen)
{
	static const char *const pairs[] = { "snmp", "netstat" };
	char e2[512];
	size_t i;
	int absent;

	rbs_ctrset_begin(&n->mib);
	for (i = 0; i < 2; i++) {
		if (read_net_file(s, pairs[i], 0, NULL, err, errlen) < 0)
			return -1;
		if (rbs_procnet_parse_pairs(s->buf.p, &n->mib, e2, sizeof(e2)) < 0) {
			snprintf(err, errlen, "%s: /proc/net/%s: %s", n->arg->role, pairs[i], e2);
			return -1;
		}
	}
	if (read_net_file(s, "snmp6", 1, &absent, err, errlen) < 0)
		return -1;
	if (!absent && rbs_procnet_parse_snmp6(s->buf.p, &n->mib, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s: /proc/net/snmp6: %s", n->arg->role, e2);
		return -1;
	}
	rbs_ctrset_end(&n->mib);

	n->sock_prev = n->sock;
	memset(&n->sock, 0, sizeof(n->sock));
	if (read_net_file(s, "sockstat", 0, NULL, err, errlen) < 0)
		return -1;
	if (rbs_procnet_parse_sockstat(s->buf.p, &n->sock, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s: /proc/net/sockstat: %s", n->arg->role, e2);
		return -1;
	}
	if (read_net_file(s, "sockstat6", 1, &absent, err, errlen) < 0)
		return -1;
	if (!absent && rbs_procnet_parse_sockstat(s->buf.p, &n->sock, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s: /proc/net/sockstat6: %s", n->arg->role, e2);
		return -1;
	}
	return 0;
}

static int
sample_links(struct rbs_nsstate *n, char *err, size_t errlen)
{
	char e2[512], key[64];
	size_t i;

	if (rbs_rtnl_links(&n->rtnl, &n->links, e2, sizeof(e2)) < 0
	    || rbs_rtnl_qdiscs(&n->rtnl, &n->qdiscs, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s: %s", n->arg->role, e2);
		return -1;
	}
	rbs_objtab_begin(&n->dev);
	for (i = 0; i < n->links.n; i++) {
		const struct rbs_link *k = &n->links.v[i];
		if (rbs_objtab_update(&n->dev, k->name, NULL, k->ifindex, k->v, NULL, err, errlen) < 0)
			return -1;
	}
	rbs_objtab_begin(&n->qdisc);
	for (i = 0; i < n->qdiscs.n; i++) {
		const struct rbs_qdisc *q = &n->qdiscs.v[i];
		rbs_qdisc_key(q, rbs_linklist_name(&n->links, q->ifindex), key, sizeof(key));
		if (rbs_objtab_update(&n->qdisc, key, q->kind,
		    ((int64_t)q->ifindex << 32) | q->handle, q->v, q->g, err, errlen) < 0)
			return -1;
	}
	return 0;
}

static struct rbs_portpeak *
peak_of(struct rbs_nsstate *n, unsigned port)
{
	size_t i;
	for (i = 0; i < n->npeaks; i++)
		if (n->peaks[i].port == port)
			return &n->peaks[i];
	if (n->npeaks == n->cappeaks) {
		size_t cap = n->cappeaks ? n->cappeaks * 2 : 8;
		struct rbs_portpeak *v = realloc(n->peaks, cap * sizeof(*v));
		if (!v)
			return NULL;
		n->peaks = v;
		n->cappeaks = cap;
	}
	memset(&n->peaks[n->npeaks], 0, sizeof(n->peaks[0]));
	n->peaks[n->npeaks].port = port;
	return &n->peaks[n->npeaks++];
}

static int
sample_listeners(struct rbs_nsstate *n, char *err, size_t errlen)
{
	char e2[512];
	size_t i, j;

	if (rbs_diag_listeners(&n->diag, &n->listeners, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s: listeners: %s", n->arg->role, e2);
		return -1;
	}
	for (i = 0; i < n->listeners.n; i++) {
		const struct rbs_listener *l = &n->listeners.v[i];
		struct rbs_portpeak *p = peak_of(n, l->port);
		size_t sockets = 0;
		int at_limit = 0;
		if (!p) {
			snprintf(err, errlen, "listener table: %s", strerror(errno));
			return -1;
		}
		/* Count the port once per sample: at its first socket. */
		for (j = 0; j < i; j++)
			if (n->listeners.v[j].port == l->port)
				break;
		if (j < i)
			continue;
		for (j = i; j < n->listeners.n; j++) {
			const struct rbs_listener *m = &n->listeners.v[j];
			if (m->port != l->port)
				continue;
			sockets++;
			if (m->queue > p->max_queue)
				p->max_queue = m->queue;
			if (m->limit > p->limit)
				p->limit = m->limit;
			if (m->queue >= m->limit)
				at_limit = 1;
		}
		if (at_limit)
			p->samples_at_limit++;
		if (sockets > p->sockets_max)
			p->sockets_max = sockets;
	}
	return 0;
}

static void
track_tw(struct rbs_sampler *s, struct rbs_nsstate *n, int baseline)
{
	int64_t tw = n->sock.tcp_tw;
	if (baseline) {
		n->tw_min = n->tw_max = tw;
		return;
	}
	if (tw < n->tw_min)
		n->tw_min = tw;
	if (tw > n->tw_max)
		n->tw_max = tw;
	if (n->sock_prev.tcp_tw - tw > n->tw_drop_max) {
		n->tw_drop_max = n->sock_prev.tcp_tw - tw;
		n->tw_drop_at = rbs_sampler_t(s, s->t_now);
	}
}

static int
sample_namespaces(struct rbs_sampler *s, int baseline, char *err, size_t errlen)
{
	int i, rc = 0;

	for (i = 0; i < s->nns && rc == 0; i++) {
		struct rbs_nsstate *n = &s->ns[i];
		if (n->lost)
			continue;
		if (!rbs_netns_still_named(&n->ns)) {
			n->lost = 1;
			n->lost_at = rbs_sampler_t(s, s->t_now);
			fprintf(stderr, "rbsample: warning: namespace %s (%s) is gone or was re-created "
				"at t=%.1f s; no longer sampled\n", n->ns.name, n->arg->role, n->lost_at);
			/* Let go of it: our descriptors would keep a deleted namespace alive. */
			rbs_netns_close(&n->ns);
			rbs_nl_close(&n->rtnl);
			rbs_nl_close(&n->diag);
			continue;
		}
		if (rbs_netns_enter(&n->ns, err, errlen) < 0)
			rc = -1;
		else if (sample_mib(s, n, err, errlen) < 0 || sample_links(n, err, errlen) < 0)
			rc = -1;
		else if (n->arg->listen && sample_listeners(n, err, errlen) < 0)
			rc = -1;
		if (rc == 0)
			track_tw(s, n, baseline);
	}
	if (s->nns && rbs_netns_enter(&s->self, rc ? NULL : err, rc ? 0 : errlen) < 0 && rc == 0)
		rc = -1;
	return rc;
}

/* ------------------------------------------------------------ CPUs */

static double
ticks_ms(const struct rbs_sampler *s, int64_t ticks)
{
	return (double)ticks * 1000.0 / (double)s->clk_tck;
}

static int
sample_cpus(struct rbs_sampler *s, int baseline, char *err, size_t errlen)
{
	char e2[512];
	double wall_ms = (double)(s->t_now - s->t_prev) / 1e6;
	int i, c, r;
	void *tmp;

	if (rbs_procfile_read(AT_FDCWD, "/proc/stat", &s->buf, err, errlen) < 0)
		return -1;
	if (rbs_cpustat_parse(s->buf.p, s->stat_cur, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s", e2);
		return -1;
	}
	if (rbs_procfile_read(AT_FDCWD, "/proc/net/softnet_stat", &s->buf, err, errlen) < 0)
		return -1;
	if (rbs_softnet_parse(s->buf.p, s->stat_cur, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s", e2);
		return -1;
	}
	if (rbs_procfile_read(AT_FDCWD, "/proc/softirqs", &s->buf, err, errlen) < 0)
		return -1;
	if (rbs_softirqs_parse(s->buf.p, s->si_cur, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s", e2);
		return -1;
	}
	if (!baseline) {
		s->all_busy_ms = 0;
		s->all_ncpus = 0;
		for (c = 0; c <= s->stat_cur->max_cpu; c++) {
			const struct rbs_cputime *a = &s->stat_prev->cpu[c], *b = &s->stat_cur->cpu[c];
			if (!a->present || !b->present)
				continue;
			s->all_busy_ms += wall_ms - ticks_ms(s, (int64_t)(b->idle - a->idle)
				+ (int64_t)(b->iowait - a->iowait));
			s->all_ncpus++;
		}
		s->all_busy_total_ms += s->all_busy_ms;
		for (i = 0; i < s->ncpus; i++) {
			struct rbs_cpustate *cs = &s->cpu[i];
			const struct rbs_cputime *a = &s->stat_prev->cpu[cs->cpu];
			const struct rbs_cputime *b = &s->stat_cur->cpu[cs->cpu];
			cs->wall_ms = wall_ms;
			if (a->present && b->present) {
				cs->busy_ms = wall_ms - ticks_ms(s, (int64_t)(b->idle - a->idle)
					+ (int64_t)(b->iowait - a->iowait));
				cs->steal_ms = ticks_ms(s, (int64_t)(b->steal - a->steal));
			} else {
				cs->busy_ms = cs->steal_ms = 0;   /* offline: not counted */
			}
			cs->wall_total_ms += wall_ms;
			cs->busy_total_ms += cs->busy_ms;
			cs->steal_total_ms += cs->steal_ms;
			if (a->softnet && b->softnet) {
				cs->softnet_delta[0] = b->processed - a->processed;
				cs->softnet_delta[1] = b->dropped - a->dropped;
				cs->softnet_delta[2] = b->time_squeeze - a->time_squeeze;
			} else {
				memset(cs->softnet_delta, 0, sizeof(cs->softnet_delta));
			}
			for (r = 0; r < 3; r++)
				cs->softnet_total[r] += cs->softnet_delta[r];
			for (r = 0; r < s->si_cur->nnames && r < s->si_prev->nnames; r++) {
				cs->softirq_delta[r] = s->si_cur->v[r][cs->cpu] - s->si_prev->v[r][cs->cpu];
				cs->softirq_total[r] += cs->softirq_delta[r];
			}
		}
	}
	tmp = s->stat_prev; s->stat_prev = s->stat_cur; s->stat_cur = tmp;
	tmp = s->si_prev; s->si_prev = s->si_cur; s->si_cur = tmp;
	return 0;
}

/* ------------------------------------------------------------ cgroups */

static int
sample_cgroups(struct rbs_sampler *s, int baseline, char *err, size_t errlen)
{
	double sum = 0;
	int i;

	for (i = 0; i < s->ncg; i++) {
		struct rbs_cgstate *g = &s->cg[i];
		struct rbs_cgstat cur;
		if (rbs_cgroup_read(g->arg->dir, &s->buf, &cur, err, errlen) < 0)
			return -1;
		if (!baseline) {
			g->usage_ms = (double)(int64_t)(cur.usage_usec - g->prev.usage_usec) / 1000.0;
			g->usage_total_ms += g->usage_ms;
			g->user_total_ms += (double)(int64_t)(cur.user_usec - g->prev.user_usec) / 1000.0;
			g->system_total_ms +=
				(double)(int64_t)(cur.system_usec - g->prev.system_usec) / 1000.0;
			sum += g->usage_ms;
		}
		g->prev = cur;
	}
	if (!baseline) {
		s->outside_ms = s->all_busy_ms - sum;
		s->outside_total_ms += s->outside_ms;
	}
	return 0;
}

/* ------------------------------------------------------------ stalls */

static void
keep_stalls(struct rbs_sampler *s, const struct rbs_stall *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (s->nstalls == RBS_STALLS_MAX) {
			s->stalls_dropped++;
			continue;
		}
		if (s->nstalls == s->capstalls) {
			size_t cap = s->capstalls ? s->capstalls * 2 : 64;
			struct rbs_stall *nv = realloc(s->stalls, cap * sizeof(*nv));
			if (!nv) {
				s->stalls_dropped++;
				continue;
			}
			s->stalls = nv;
			s->capstalls = cap;
		}
		s->stalls[s->nstalls++] = v[i];
	}
}

/* Move the probes' late wake-ups into the trackers and classify those
 * old enough (all of them when final). */
static void
collect_stalls(struct rbs_sampler *s, int final)
{
	struct rbs_stall_ev ev[RBS_EVBUF];
	struct rbs_stall out[RBS_EVBUF];
	int i, kind;
	size_t n;

	for (i = 0; i < s->ncpus; i++) {
		struct rbs_cpustate *cs = &s->cpu[i];
		for (kind = 0; kind < RBS_PROBE_KINDS; kind++) {
			while ((n = rbs_probes_take_events(s->probes, i, kind, INT64_MAX, ev, RBS_EVBUF)))
				rbs_stalltrack_add(cs->track, kind == RBS_PROBE_FIFO, ev, n);
		}
		do {
			uint64_t over = 0;
			n = rbs_stalltrack_flush(cs->track, final ? INT64_MAX : s->t_now - s->stall_margin_ns,
				s->stall_margin_ns, out, RBS_EVBUF, &over);
			keep_stalls(s, out, n);
			s->stalls_dropped += over;
		} while (n == RBS_EVBUF);
	}
}

static void
sample_probes(struct rbs_sampler *s)
{
	int i;
	if (!s->probes)
		return;
	for (i = 0; i < s->ncpus; i++) {
		struct rbs_cpustate *cs = &s->cpu[i];
		cs->fifo_max_ns = rbs_probes_take_max(s->probes, i, RBS_PROBE_FIFO);
		cs->other_max_ns = rbs_probes_take_max(s->probes, i, RBS_PROBE_OTHER);
		if (cs->fifo_max_ns > cs->fifo_run_max_ns)
			cs->fifo_run_max_ns = cs->fifo_max_ns;
		if (cs->other_max_ns > cs->other_run_max_ns)
			cs->other_run_max_ns = cs->other_max_ns;
	}
	collect_stalls(s, 0);
}

/* ------------------------------------------------------------ steps */

static int
take_sample(struct rbs_sampler *s, int baseline, char *err, size_t errlen)
{
	s->t_now = rbs_now_ns();
	if (baseline)
		s->t0 = s->t_prev = s->t_now;
	if (sample_namespaces(s, baseline, err, errlen) < 0
	    || sample_cpus(s, baseline, err, errlen) < 0
	    || sample_cgroups(s, baseline, err, errlen) < 0)
		return -1;
	if (!baseline) {
		sample_probes(s);
		s->samples++;
		if (rbs_series_write(s, err, errlen) < 0)
			return -1;
	}
	s->t_prev = s->t_now;
	return 0;
}

int
rbs_sampler_sample(struct rbs_sampler *s, char *err, size_t errlen)
{
	return take_sample(s, 0, err, errlen);
}

/* ------------------------------------------------------------ opening */

static int
open_namespace(struct rbs_sampler *s, struct rbs_nsstate *n, const struct rbs_nsarg *a,
	char *err, size_t errlen)
{
	const char **names;
	char e2[512];
	size_t i;
	int rc;

	n->arg = a;
	n->ns.fd = -1;
	n->rtnl.fd = n->diag.fd = -1;
	rbs_ctrset_init(&n->mib);
	rbs_objtab_init(&n->dev, RBS_DEV_N, 0);
	rbs_objtab_init(&n->qdisc, RBS_Q_N, RBS_QG_N);
	if (rbs_netns_open(&n->ns, a->name, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "--ns %s=%s: %s", a->name, a->role, e2);
		return -1;
	}
	/* Now inside the namespace: its netlink sockets belong to it. */
	if (rbs_nl_open(&n->rtnl, NETLINK_ROUTE, e2, sizeof(e2)) < 0
	    || rbs_nl_open(&n->diag, NETLINK_SOCK_DIAG, e2, sizeof(e2)) < 0
	    || rbs_rtnl_links(&n->rtnl, &n->links, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s: %s", a->role, e2);
		return -1;
	}
	if (!(names = calloc(n->links.n + 1, sizeof(*names)))) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	for (i = 0; i < n->links.n; i++)
		names[i] = n->links.v[i].name;
	rc = rbs_netns_check_proc(names, n->links.n, e2, sizeof(e2));
	free(names);
	if (rc < 0) {
		snprintf(err, errlen, "%s (%s): %s", a->role, a->name, e2);
		return -1;
	}
	(void)s;
	return 0;
}

static int
open_cpus(struct rbs_sampler *s, const struct rbs_options *o, char *err, size_t errlen)
{
	char e2[512];
	int c, n = 0;

	if (rbs_procfile_read(AT_FDCWD, "/proc/stat", &s->buf, err, errlen) < 0)
		return -1;
	if (rbs_cpustat_parse(s->buf.p, s->stat_prev, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s", e2);
		return -1;
	}
	for (c = 0; c < RBS_MAX_CPUS; c++) {
		if (o->cpus_given && o->cpus[c] && (c > s->stat_prev->max_cpu
		    || !s->stat_prev->cpu[c].present)) {
			snprintf(err, errlen, "--cpus: CPU %d is not online", c);
			return -1;
		}
		if (c <= s->stat_prev->max_cpu && s->stat_prev->cpu[c].present
		    && (!o->cpus_given || o->cpus[c]))
			n++;
	}
	if (!(s->cpu = calloc((size_t)n, sizeof(*s->cpu)))) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	for (c = 0; c <= s->stat_prev->max_cpu; c++) {
		struct rbs_cpustate *cs;
		if (!s->stat_prev->cpu[c].present || (o->cpus_given && !o->cpus[c]))
			continue;
		cs = &s->cpu[s->ncpus++];
		cs->cpu = c;
		cs->fifo_max_ns = cs->other_max_ns = -1;
		cs->fifo_run_max_ns = cs->other_run_max_ns = -1;
		if (!(cs->track = malloc(sizeof(*cs->track)))) {
			snprintf(err, errlen, "%s", strerror(errno));
			return -1;
		}
		rbs_stalltrack_init(cs->track, c, (int64_t)(o->stall_ms * 1e6));
	}
	return 0;
}

/* Check that FILE's directory takes a temporary file now, rather than
 * after a long run. */
static int
check_writable(const char *path, char *err, size_t errlen)
{
	struct rb_outfile probe;
	if (rb_outfile_begin(&probe, path, 1, err, errlen) < 0)
		return -1;
	rb_outfile_abort(&probe);
	return 0;
}

int
rbs_sampler_open(struct rbs_sampler *s, const struct rbs_options *o, char *err, size_t errlen)
{
	char e2[512];
	sigset_t all, old;
	int i, rc;

	memset(s, 0, sizeof(*s));
	s->o = o;
	s->self.fd = -1;
	s->clk_tck = sysconf(_SC_CLK_TCK);
	s->stall_margin_ns = (int64_t)(o->interval_ms > 50 ? o->interval_ms : 50) * 1000000;
	if (s->clk_tck <= 0) {
		snprintf(err, errlen, "sysconf(_SC_CLK_TCK): %s", strerror(errno));
		return -1;
	}
	if (!(s->stat_prev = calloc(1, sizeof(*s->stat_prev)))
	    || !(s->stat_cur = calloc(1, sizeof(*s->stat_cur)))
	    || !(s->si_prev = calloc(1, sizeof(*s->si_prev)))
	    || !(s->si_cur = calloc(1, sizeof(*s->si_cur)))
	    || !(s->ns = calloc((size_t)o->nns + 1, sizeof(*s->ns)))
	    || !(s->cg = calloc((size_t)o->ncg + 1, sizeof(*s->cg)))) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	if (o->nns && rbs_netns_open_self(&s->self, err, errlen) < 0)
		return -1;
	for (i = 0; i < o->nns; i++) {
		s->nns++;
		rc = open_namespace(s, &s->ns[i], &o->ns[i], err, errlen);
		if (rbs_netns_enter(&s->self, e2, sizeof(e2)) < 0 && rc == 0) {
			snprintf(err, errlen, "back to own namespace: %s", e2);
			return -1;
		}
		if (rc < 0)
			return -1;
	}
	for (i = 0; i < o->ncg; i++) {
		struct rbs_cgstat st;
		s->cg[i].arg = &o->cg[i];
		s->ncg++;
		if (rbs_cgroup_read(o->cg[i].dir, &s->buf, &st, e2, sizeof(e2)) < 0) {
			snprintf(err, errlen, "--cgroup %s=%s: %s", o->cg[i].role, o->cg[i].dir, e2);
			return -1;
		}
	}
	for (i = 0; o->narrivals && i < s->nns; i++) {
		if (strcmp(s->ns[i].arg->role, o->arrivals_ns) != 0)
			continue;
		/* Its netlink socket belongs to the namespace it is opened in. */
		if (rbs_netns_enter(&s->ns[i].ns, err, errlen) < 0)
			return -1;
		s->arrivals = rbs_arrivals_open(o->arrivals, o->narrivals,
			(int64_t)(o->arrivals_ms * 1e6), err, errlen);
		if (rbs_netns_enter(&s->self, e2, sizeof(e2)) < 0 && s->arrivals) {
			snprintf(err, errlen, "back to own namespace: %s", e2);
			return -1;
		}
		if (!s->arrivals)
			return -1;
	}
	for (i = 0; s->arrivals && o->arrivals_proto && i < o->narrivals; i++) {
		int k;
		for (k = 0; k < s->nns && strcmp(s->ns[k].arg->role, o->arrivals[i].role) != 0; k++)
			;
		if (rbs_netns_enter(&s->ns[k].ns, err, errlen) < 0)
			return -1;
		rc = rbs_arrivals_open_socket(s->arrivals, i, o->arrivals_proto, err, errlen);
		if (rbs_netns_enter(&s->self, e2, sizeof(e2)) < 0 && rc == 0) {
			snprintf(err, errlen, "back to own namespace: %s", e2);
			return -1;
		}
		if (rc < 0)
			return -1;
	}
	if (open_cpus(s, o, err, errlen) < 0)
		return -1;
	if (check_writable(o->summary, err, errlen) < 0)
		return -1;
	if (o->arrivals_out && check_writable(o->arrivals_out, err, errlen) < 0)
		return -1;
	if (rb_outfile_begin(&s->series, o->series, 1, err, errlen) < 0)
		return -1;
	if (take_sample(s, 1, err, errlen) < 0)
		return -1;
	if (o->stall_ms > 0) {
		int *cpus = calloc((size_t)s->ncpus + 1, sizeof(int));
		if (!cpus) {
			snprintf(err, errlen, "%s", strerror(errno));
			return -1;
		}
		for (i = 0; i < s->ncpus; i++)
			cpus[i] = s->cpu[i].cpu;
		/* The probes must not take the signals meant for the main loop. */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		s->probes = rbs_probes_start(cpus, s->ncpus, (int64_t)(o->stall_ms * 1e6),
			(int64_t)(o->stall_threshold_ms * 1e6), o->fifo_prio, err, errlen);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		free(cpus);
		if (!s->probes)
			return -1;
	}
	if (s->arrivals) {
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		rc = rbs_arrivals_start(s->arrivals, o->fifo_prio, err, errlen);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ the end */

static int
cmp_stall(const void *a, const void *b)
{
	const struct rbs_stall *x = a, *y = b;
	if (x->start_ns != y->start_ns)
		return x->start_ns < y->start_ns ? -1 : 1;
	return x->cpu - y->cpu;
}

int
rbs_sampler_finish(struct rbs_sampler *s, char *err, size_t errlen)
{
	struct timespec ts;

	if (s->probes) {
		rbs_probes_stop(s->probes);
		collect_stalls(s, 1);
		s->probe_cpu_ns = rbs_probes_cpu_ns(s->probes);
		s->probe_wakeups = rbs_probes_wakeups(s->probes);
		s->probe_lost = rbs_probes_events_lost(s->probes);
		rbs_probes_free(s->probes);
		s->probes = NULL;
	}
	if (s->nstalls)
		qsort(s->stalls, s->nstalls, sizeof(*s->stalls), cmp_stall);
	if (s->arrivals) {
		rbs_arrivals_stop(s->arrivals);
		if (rbs_arrivals_write(s->arrivals, s->o->arrivals_out, s->t0, err, errlen) < 0)
			return -1;
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	s->own_cpu_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	/* The series must be whole before the summary is written; it is put
	 * in place only when the summary is. */
	if (rb_outfile_close(&s->series, err, errlen) < 0)
		return -1;
	if (rbs_summary_write(s, s->o->summary, err, errlen) < 0)
		return -1;
	return rb_outfile_commit(&s->series, err, errlen);
}

void
rbs_sampler_close(struct rbs_sampler *s)
{
	int i;
	if (s->probes) {
		rbs_probes_stop(s->probes);
		rbs_probes_free(s->probes);
		s->probes = NULL;
	}
	rb_outfile_abort(&s->series);
	rbs_arrivals_free(s->arrivals);
	s->arrivals = NULL;
	for (i = 0; i < s->nns; i++) {
		struct rbs_nsstate *n = &s->ns[i];
		rbs_netns_close(&n->ns);
		rbs_nl_close(&n->rtnl);
		rbs_nl_close(&n->diag);
		rbs_ctrset_free(&n->mib);
		rbs_objtab_free(&n->dev);
		rbs_objtab_free(&n->qdisc);
		free(n->links.v);
		free(n->qdiscs.v);
		rbs_listenlist_free(&n->listeners);
		free(n->peaks);
	}
	if (s->self.fd >= 0)
		rbs_netns_close(&s->self);
	for (i = 0; i < s->ncpus; i++)
		free(s->cpu[i].track);
	free(s->cpu);
	free(s->ns);
	free(s->cg);
	free(s->stalls);
	free(s->stat_prev);
	free(s->stat_cur);
	free(s->si_prev);
	free(s->si_cur);
	rbs_buf_free(&s->buf);
	memset(s, 0, sizeof(*s));
}
