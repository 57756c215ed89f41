/*
 * tcpbench.c -- main: a DNS-over-TCP connection-rate generator for the
 * root-server capacity benchmarks. One new TCP (or, with --tls,
 * TLS: tls.h) connection per query (or per --queries-per-conn queries), open loop in absolute time, with the paper's self-check that
 * every connection started within a margin of its scheduled time, spread
 * over worker processes (worker.h) whose results are merged here.
 *
 * Exit status: 0 valid run, 1 error, 3 generator-limited (self-check
 * failed; results still written), 4 interrupted (results written).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "network.h"
#include "options.h"
#include "output.h"
#include "query.h"
#include "schedule.h"
#include "stats.h"
#include "tls.h"
#include "worker.h"

#define TCPB_EXIT_OK 0
#define TCPB_EXIT_ERROR 1
#define TCPB_EXIT_GENERATOR_LIMITED 3
#define TCPB_EXIT_INTERRUPTED 4

/* t0 this far ahead without --start-at: time for the workers to fork and
 * set up before their first connection is due. */
#define TCPB_LEAD_NS 50000000u

/* Raise RLIMIT_NOFILE to at least need; -1 with a message. */
static int
raise_nofile(uint64_t need, uint64_t *got, char *err, size_t errlen)
{
	struct rlimit rl;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		snprintf(err, errlen, "getrlimit: %s", strerror(errno));
		return -1;
	}
	if (rl.rlim_cur >= need) {
		*got = rl.rlim_cur;
		return 0;
	}
	rl.rlim_cur = need;
	if (rl.rlim_max < need)
		rl.rlim_max = need;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0) {
		snprintf(err, errlen, "rate x timeout needs %llu open files, and RLIMIT_NOFILE "
			"cannot be raised to that: %s (lower -r or -t, or raise the hard limit, "
			"e.g. ulimit -Hn, fs.nr_open)", (unsigned long long)need, strerror(errno));
		return -1;
	}
	*got = need;
	return 0;
}

static int
load_queries(const struct tcpb_options *o, struct tcpb_querylist *ql, char *err, size_t errlen)
{
	struct tcpb_query_defaults d = { o->edns_size, o->do_bit, o->rd };
	struct tcpb_query_spec spec;
	tcpb_querylist_init(ql);
	if (o->queryfile)
		return tcpb_querylist_load(ql, o->queryfile, &d, err, errlen);
	if (tcpb_query_parse_single(o->single, &d, &spec, err, errlen) < 0)
		return -1;
	return tcpb_querylist_add(ql, &spec, err, errlen);
}

/* t0 on CLOCK_MONOTONIC (and its CLOCK_REALTIME): now + TCPB_LEAD_NS, or
 * --start-at, which must be at most 1 s past and 1 hour ahead. */
static int
choose_t0(const struct tcpb_options *o, uint64_t *t0, long double *t0_real,
	char *err, size_t errlen)
{
	struct timespec rt;
	uint64_t mono = tcpb_now_ns();
	long double real, ahead;
	clock_gettime(CLOCK_REALTIME, &rt);
	real = (long double)rt.tv_sec + (long double)rt.tv_nsec / 1e9L;
	if (!o->has_start_at) {
		*t0 = mono + TCPB_LEAD_NS;
		*t0_real = real + (long double)TCPB_LEAD_NS / 1e9L;
		return 0;
	}
	ahead = o->start_at - real;
	if (ahead < -1.0L) {
		snprintf(err, errlen, "--start-at %.6Lf is %.3Lf s in the past (at most 1 s allowed)",
			o->start_at, -ahead);
		return -1;
	}
	if (ahead > 3600.0L) {
		snprintf(err, errlen, "--start-at %.6Lf is %.0Lf s ahead (at most 1 hour allowed)",
			o->start_at, ahead);
		return -1;
	}
	if (ahead >= 0)
		*t0 = mono + (uint64_t)llroundl(ahead * 1e9L);
	else
		*t0 = mono - (uint64_t)llroundl(-ahead * 1e9L);
	*t0_real = o->start_at;
	if (!o->quiet && ahead > 1.0L)
		fprintf(stderr, "tcpbench: waiting %.1Lf s for --start-at\n", ahead);
	return 0;
}

static double
tv_seconds(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

int
main(int argc, char **argv)
{
	struct tcpb_options o;
	struct tcpb_querylist ql;
	struct tcpb_sources src;
	struct tcpb_addr dst;
	struct tcpb_schedule sch;
	struct tcpb_stats stats;
	struct tcpb_slot *slots = NULL;
	struct tcpb_workers ws;
	struct tcpb_report r;
	struct rusage self, children;
	struct tcpb_tls *tls = NULL;
	char err[1024];
	uint64_t need, nofile = 0, t0 = 0, end = 0, last = 0;
	long double t0_real = 0;
	size_t nslot;
	unsigned k;
	int rc = TCPB_EXIT_ERROR, r_opt, interrupted;

	memset(&src, 0, sizeof(src));
	memset(&ws, 0, sizeof(ws));
	tcpb_querylist_init(&ql);
	r_opt = tcpb_options_parse(&o, argc, argv, err, sizeof(err));
	if (r_opt == 1)
		return TCPB_EXIT_OK;
	if (r_opt < 0) {
		fprintf(stderr, "tcpbench: error: %s\n", err);
		tcpb_options_usage(stderr);
		return TCPB_EXIT_ERROR;
	}
	signal(SIGPIPE, SIG_IGN);
	if (load_queries(&o, &ql, err, sizeof(err)) < 0)
		goto error;
	if (ql.unknown_tokens)
		fprintf(stderr, "tcpbench: warning: %llu unknown flag tokens in %s ignored\n",
			(unsigned long long)ql.unknown_tokens, o.queryfile);
	if (tcpb_addr_parse(&dst, o.server, o.port, err, sizeof(err)) < 0)
		goto error;
	/* The target guard, before anything is sent. */
	if (rb_target_check_sockaddr(&o.target, (const struct sockaddr *)&dst.sa,
		err, sizeof(err)) < 0)
		goto error;
	/* The TLS context before any worker: a CA file that does not load
	 * is an error here, not a run of certificate failures. */
	if (o.tls && !(tls = tcpb_tls_create(o.tls_ca, o.tls_name, o.server, o.tls_resume,
		err, sizeof(err))))
		goto error;
	if (o.sources && tcpb_sources_parse(&src, o.sources, dst.sa.ss_family,
		o.sources_max, err, sizeof(err)) < 0)
		goto error;
	if (tcpb_schedule_init(&sch, o.rate, o.duration_s, 0) < 0) {
		snprintf(err, sizeof(err), "rate %g x duration %g gives no valid connection count",
			o.rate, o.duration_s);
		goto error;
	}
	/* Each worker has a file limit of its own (inherited from here). */
	need = tcpb_schedule_max_inflight(o.rate / o.workers, o.timeout_ms, o.margin_pct) + 32;
	if (raise_nofile(need, &nofile, err, sizeof(err)) < 0)
		goto error;
	nslot = tcpb_stats_nslots(o.duration_s, o.series_ms);
	slots = calloc(nslot, sizeof(*slots));
	if (!slots) {
		snprintf(err, sizeof(err), "calloc: %s", strerror(errno));
		goto error;
	}
	tcpb_stats_init(&stats, slots, nslot, o.series_ms);
	if (choose_t0(&o, &t0, &t0_real, err, sizeof(err)) < 0)
		goto error;
	if (tcpb_workers_run(&ws, &o, &ql, &src, &dst, tls, t0, err, sizeof(err)) < 0)
		goto error;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &children);

	interrupted = ws.interrupted;
	for (k = 0; k < ws.n; k++) {
		tcpb_stats_merge(&stats, &ws.w[k].stats);
		if (ws.w[k].end_ns > end)
			end = ws.w[k].end_ns;
		if (ws.w[k].last_start_ns > last)
			last = ws.w[k].last_start_ns;
		interrupted |= ws.w[k].interrupted;
	}
	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.s = &stats;
	r.ws = &ws;
	r.scheduled = sch.count;
	r.valid = tcpb_stats_valid(&stats);
	r.interrupted = interrupted;
	r.margin_us = (double)tcpb_schedule_margin_ns(o.timeout_ms, o.margin_pct) / 1000.0;
	r.elapsed_s = end > t0 ? (double)(end - t0) / 1e9 : 0;
	r.last_start_s = (double)last / 1e9;
	r.t0_realtime = t0_real;
	/* The whole generator: the parent and every worker. */
	r.cpu_user_s = tv_seconds(&self.ru_utime) + tv_seconds(&children.ru_utime);
	r.cpu_sys_s = tv_seconds(&self.ru_stime) + tv_seconds(&children.ru_stime);
	r.rlimit_nofile = nofile;
	r.nsources = src.n;
	r.nqueries = ql.n;
	r.unknown_tokens = ql.unknown_tokens;

	tcpb_output_text(o.json && strcmp(o.json, "-") == 0 ? stderr : stdout, &r);
	if (o.json && tcpb_output_json_path(o.json, &r, err, sizeof(err)) < 0)
		goto error;
	/* A stop the user asked for comes first: the self-check of a cut
	 * run is in the JSON's "valid", but the caller must learn it stopped. */
	if (r.interrupted)
		rc = TCPB_EXIT_INTERRUPTED;
	else if (!r.valid)
		rc = TCPB_EXIT_GENERATOR_LIMITED;
	else
		rc = TCPB_EXIT_OK;
	goto out;
error:
	fprintf(stderr, "tcpbench: error: %s\n", err);
	rc = TCPB_EXIT_ERROR;
out:
	tcpb_workers_free(&ws);
	tcpb_tls_free(tls);
	free(slots);
	tcpb_sources_free(&src);
	tcpb_querylist_free(&ql);
	return rc;
}
