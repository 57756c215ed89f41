/*
 * tcpbench.c -- main: a DNS-over-TCP connection-rate generator for the
 * root-server capacity benchmarks (issue 8). One new TCP connection per
 * query, open loop in absolute time, with the paper's self-check that
 * every connection started within a margin of its scheduled time.
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
#include "engine.h"
#include "network.h"
#include "options.h"
#include "output.h"
#include "query.h"
#include "schedule.h"
#include "stats.h"

#define TCPB_EXIT_OK 0
#define TCPB_EXIT_ERROR 1
#define TCPB_EXIT_GENERATOR_LIMITED 3
#define TCPB_EXIT_INTERRUPTED 4

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

int
main(int argc, char **argv)
{
	struct tcpb_options o;
	struct tcpb_querylist ql;
	struct tcpb_sources src;
	struct tcpb_addr dst;
	struct tcpb_stats stats;
	struct tcpb_engine *e = NULL;
	struct tcpb_report r;
	struct rusage ru;
	char err[1024];
	uint64_t need, nofile = 0;
	int rc = TCPB_EXIT_ERROR, r_opt;

	memset(&src, 0, sizeof(src));
	tcpb_querylist_init(&ql);
	memset(&stats, 0, sizeof(stats));
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
	if (o.sources && tcpb_sources_parse(&src, o.sources, dst.sa.ss_family,
		o.sources_max, err, sizeof(err)) < 0)
		goto error;
	need = tcpb_schedule_max_inflight(o.rate, o.timeout_ms, o.margin_pct) + 32;
	if (raise_nofile(need, &nofile, err, sizeof(err)) < 0)
		goto error;
	if (tcpb_stats_init(&stats, (size_t)ceil(o.duration_s)) < 0) {
		snprintf(err, sizeof(err), "calloc: %s", strerror(errno));
		goto error;
	}
	e = tcpb_engine_create(&o, &ql, &src, &dst, &stats, err, sizeof(err));
	if (!e || tcpb_engine_run(e, err, sizeof(err)) < 0)
		goto error;
	getrusage(RUSAGE_SELF, &ru);

	memset(&r, 0, sizeof(r));
	r.o = &o;
	r.s = &stats;
	{
		struct tcpb_schedule sch;
		tcpb_schedule_init(&sch, o.rate, o.duration_s, 0);
		r.scheduled = sch.count;
	}
	r.valid = stats.late_starts == 0 && stats.late_timeouts == 0 && stats.pool_exhausted == 0;
	r.interrupted = tcpb_engine_interrupted(e);
	r.margin_us = (double)tcpb_schedule_margin_ns(o.timeout_ms, o.margin_pct) / 1000.0;
	r.elapsed_s = (double)tcpb_engine_elapsed_ns(e) / 1e9;
	r.last_start_s = (double)tcpb_engine_last_start_ns(e) / 1e9;
	r.cpu_user_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	r.cpu_sys_s = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	r.rlimit_nofile = nofile;
	r.max_inflight = tcpb_engine_max_inflight(e);
	r.nsources = src.n;
	r.nqueries = ql.n;
	r.unknown_tokens = ql.unknown_tokens;

	tcpb_output_text(o.json && strcmp(o.json, "-") == 0 ? stderr : stdout, &r);
	if (o.json && tcpb_output_json_path(o.json, &r, err, sizeof(err)) < 0)
		goto error;
	if (!r.valid)
		rc = TCPB_EXIT_GENERATOR_LIMITED;
	else if (r.interrupted)
		rc = TCPB_EXIT_INTERRUPTED;
	else
		rc = TCPB_EXIT_OK;
	goto out;
error:
	fprintf(stderr, "tcpbench: error: %s\n", err);
	rc = TCPB_EXIT_ERROR;
out:
	tcpb_engine_free(e);
	tcpb_stats_free(&stats);
	tcpb_sources_free(&src);
	tcpb_querylist_free(&ql);
	return rc;
}
