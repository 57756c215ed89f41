/*
 * sampler.h -- the sampler's state and its sampling step: per network
 * namespace (entered with setns) the MIB counters, socket gauges,
 * interface and qdisc statistics and TCP listeners; per CPU the idle
 * time, softirqs and stall probes; per cgroup the CPU usage. Every step
 * turns the readings into deltas and run totals; series.c writes a step
 * as one JSON line and summary.c writes the totals.
 */
#ifndef RBS_SAMPLER_H
#define RBS_SAMPLER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "arrivals.h"
#include "cgroup.h"
#include "cpustat.h"
#include "ctrset.h"
#include "diag.h"
#include "netns.h"
#include "nlsock.h"
#include "objtab.h"
#include "options.h"
#include "probe.h"
#include "procfile.h"
#include "procnet.h"
#include "rtnl.h"
#include "stall.h"
#include "../../analysis/lib/outfile.h"

/* Accept-queue peak of one port of a namespace. */
struct rbs_portpeak {
	unsigned port;
	uint32_t max_queue, limit;
	uint64_t samples_at_limit;   /* samples where a socket of the port had queue >= limit */
	size_t sockets_max;
};

struct rbs_nsstate {
	const struct rbs_nsarg *arg;
	struct rbs_netns ns;
	struct rbs_nl rtnl, diag;
	int lost;                     /* gone from /run/netns: no longer sampled */
	double lost_at;
	struct rbs_ctrset mib;        /* netstat + snmp + snmp6 */
	struct rbs_sockstat sock, sock_prev;
	struct rbs_linklist links;
	struct rbs_qdisclist qdiscs;
	struct rbs_objtab dev, qdisc;
	struct rbs_listenlist listeners;
	struct rbs_portpeak *peaks;
	size_t npeaks, cappeaks;
	int64_t tw_min, tw_max, tw_drop_max;
	double tw_drop_at;
};

extern const char *const rbs_softnet_names[3];

struct rbs_cpustate {
	int cpu;
	/* this sample */
	double wall_ms, busy_ms, steal_ms;
	uint64_t softirq_delta[RBS_MAX_SOFTIRQS];
	uint64_t softnet_delta[3];           /* processed, dropped, time_squeeze */
	int64_t fifo_max_ns, other_max_ns;   /* -1: probe did not wake */
	/* run totals */
	double wall_total_ms, busy_total_ms, steal_total_ms;
	uint64_t softirq_total[RBS_MAX_SOFTIRQS];
	uint64_t softnet_total[3];
	int64_t fifo_run_max_ns, other_run_max_ns;
	struct rbs_stalltrack *track;
};

struct rbs_cgstate {
	const struct rbs_cgarg *arg;
	struct rbs_cgstat prev;
	double usage_ms;                       /* this sample */
	double usage_total_ms, user_total_ms, system_total_ms;
};

struct rbs_sampler {
	const struct rbs_options *o;
	struct rbs_netns self;
	struct rbs_nsstate *ns;
	int nns;
	struct rbs_cpustate *cpu;
	int ncpus;
	struct rbs_cpustat *stat_prev, *stat_cur;
	struct rbs_softirqs *si_prev, *si_cur;
	long clk_tck;
	double all_busy_ms, all_busy_total_ms;   /* every online CPU, from idle */
	int all_ncpus;
	struct rbs_cgstate *cg;
	int ncg;
	double outside_ms, outside_total_ms;
	struct rbs_probeset *probes;
	struct rbs_arrivals *arrivals;   /* --arrivals, or NULL */
	int64_t stall_margin_ns;
	struct rbs_stall *stalls;
	size_t nstalls, capstalls;
	uint64_t stalls_dropped;
	int64_t t0, t_prev, t_now;
	unsigned long samples;        /* intervals recorded (series lines) */
	unsigned long late_samples;   /* taken more than one interval late */
	struct rbs_buf buf;
	struct rb_outfile series;     /* --series, renamed into place at the end */
	int64_t own_cpu_ns;           /* sampling thread's CPU time */
	int64_t probe_cpu_ns;
	uint64_t probe_wakeups, probe_lost;
	int interrupted;
	char error[1024];             /* why the run ended early, "" if it did not */
};

/* Open namespaces, cgroups and files, take the baseline sample and start
 * the probes. Returns 0, or -1 with a message (nothing is left running). */
int rbs_sampler_open(struct rbs_sampler *s, const struct rbs_options *o, char *err, size_t errlen);

/* Take one sample and write its series line. */
int rbs_sampler_sample(struct rbs_sampler *s, char *err, size_t errlen);

/* Stop the probes, classify the last stalls, write the summary and put
 * the series in place. */
int rbs_sampler_finish(struct rbs_sampler *s, char *err, size_t errlen);

/* Release everything; removes the series temp file if still there. */
void rbs_sampler_close(struct rbs_sampler *s);

/* Seconds since the start of ns (CLOCK_MONOTONIC). */
double rbs_sampler_t(const struct rbs_sampler *s, int64_t ns);

#endif /* RBS_SAMPLER_H */
