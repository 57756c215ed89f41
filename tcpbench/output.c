/*
 * output.c -- JSON and text results; see output.h and docs/tcpbench.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "output.h"
#include "../analysis/json.h"

static void
json_hist(FILE *f, const char *name, const struct tcpb_hist *h)
{
	fprintf(f, "  \"%s\": {\"count\": %llu, \"mean\": %.1f, \"p50\": %llu, \"p90\": %llu, "
		"\"p99\": %llu, \"p999\": %llu, \"max\": %llu},\n", name,
		(unsigned long long)h->count, tcpb_hist_mean(h),
		(unsigned long long)tcpb_hist_quantile(h, 0.50),
		(unsigned long long)tcpb_hist_quantile(h, 0.90),
		(unsigned long long)tcpb_hist_quantile(h, 0.99),
		(unsigned long long)tcpb_hist_quantile(h, 0.999),
		(unsigned long long)h->max);
}

static double
cpu_per_conn_us(const struct tcpb_report *r)
{
	return r->s->attempted ? (r->cpu_user_s + r->cpu_sys_s) * 1e6 / (double)r->s->attempted : 0;
}

void
tcpb_output_json(FILE *f, const struct tcpb_report *r)
{
	const struct tcpb_stats *s = r->s;
	const struct tcpb_options *o = r->o;
	size_t i;
	int first;

	fprintf(f, "{\n  \"schema\": \"rootbench.tcpbench/1\",\n  \"server\": ");
	ds_json_string(f, o->server);
	fprintf(f, ",\n  \"port\": %u,\n", o->port);
	fprintf(f, "  \"query_source\": ");
	ds_json_string(f, o->queryfile ? o->queryfile : o->single);
	fprintf(f, ",\n  \"queries\": %zu,\n  \"unknown_query_tokens\": %llu,\n",
		r->nqueries, (unsigned long long)r->unknown_tokens);
	fprintf(f, "  \"sources\": %zu,\n  \"rst_close\": %s,\n", r->nsources,
		o->rst_close ? "true" : "false");
	fprintf(f, "  \"target_rate\": %.6g,\n  \"duration_s\": %.6g,\n  \"timeout_ms\": %u,\n",
		o->rate, o->duration_s, o->timeout_ms);
	fprintf(f, "  \"margin_pct\": %.6g,\n  \"margin_us\": %.0f,\n", o->margin_pct, r->margin_us);
	fprintf(f, "  \"scheduled\": %llu,\n  \"attempted\": %llu,\n  \"succeeded\": %llu,\n",
		(unsigned long long)r->scheduled, (unsigned long long)s->attempted,
		(unsigned long long)s->succeeded);
	fprintf(f, "  \"failed\": {\"total\": %llu", (unsigned long long)s->failed);
	for (i = 0; i < TCPB_CAUSE_N; i++)
		fprintf(f, ", \"%s\": %llu", tcpb_cause_name((enum tcpb_cause)i),
			(unsigned long long)s->cause[i]);
	fprintf(f, "},\n  \"errors\": {");
	first = 1;
	for (i = 1; i < TCPB_ERRNO_MAX; i++) {
		const char *name;
		if (!s->errnos[i])
			continue;
		name = strerrorname_np((int)i);
		fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", name ? name : "?",
			(unsigned long long)s->errnos[i]);
		first = 0;
	}
	fprintf(f, "},\n");
	fprintf(f, "  \"valid\": %s,\n  \"generator_limited\": %s,\n  \"late_starts\": %llu,\n"
		"  \"late_timeouts\": %llu,\n  \"pool_exhausted\": %llu,\n  \"interrupted\": %s,\n",
		r->valid ? "true" : "false", r->valid ? "false" : "true",
		(unsigned long long)s->late_starts, (unsigned long long)s->late_timeouts,
		(unsigned long long)s->pool_exhausted, r->interrupted ? "true" : "false");
	fprintf(f, "  \"max_lateness_us\": %llu,\n", (unsigned long long)(s->max_lateness_ns / 1000));
	fprintf(f, "  \"max_timer_lateness_us\": %llu,\n",
		(unsigned long long)(s->max_timer_lateness_ns / 1000));
	json_hist(f, "lateness_us", &s->lateness_us);
	json_hist(f, "latency_us", &s->latency_us);
	json_hist(f, "connect_latency_us", &s->connect_us);
	fprintf(f, "  \"elapsed_s\": %.6f,\n", r->elapsed_s);
	fprintf(f, "  \"offered_rate\": %.1f,\n",
		r->last_start_s > 0 && s->attempted > 1 ? (double)(s->attempted - 1) / r->last_start_s : 0.0);
	fprintf(f, "  \"succeeded_per_s\": %.1f,\n",
		o->duration_s > 0 ? (double)s->succeeded / o->duration_s : 0.0);
	fprintf(f, "  \"max_in_flight\": %llu,\n  \"rlimit_nofile\": %llu,\n",
		(unsigned long long)r->max_inflight, (unsigned long long)r->rlimit_nofile);
	fprintf(f, "  \"cpu\": {\"user_s\": %.3f, \"sys_s\": %.3f, \"per_connection_us\": %.2f},\n",
		r->cpu_user_s, r->cpu_sys_s, cpu_per_conn_us(r));
	fprintf(f, "  \"series\": [");
	for (i = 0; i < s->nsec; i++)
		fprintf(f, "%s\n    {\"t\": %zu, \"attempted\": %llu, \"succeeded\": %llu, "
			"\"failed\": %llu, \"max_lateness_us\": %llu}", i ? "," : "", i,
			(unsigned long long)s->sec[i].attempted,
			(unsigned long long)s->sec[i].succeeded,
			(unsigned long long)s->sec[i].failed,
			(unsigned long long)s->sec[i].max_lateness_us);
	fprintf(f, "\n  ]\n}\n");
}

int
tcpb_output_json_path(const char *path, const struct tcpb_report *r, char *err, size_t errlen)
{
	char *tmp;
	FILE *f;
	int bad;
	if (strcmp(path, "-") == 0) {
		tcpb_output_json(stdout, r);
		if (fflush(stdout) != 0) {
			snprintf(err, errlen, "stdout: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	if (asprintf(&tmp, "%s.tmp.%ld", path, (long)getpid()) < 0) {
		snprintf(err, errlen, "asprintf: %s", strerror(errno));
		return -1;
	}
	f = fopen(tmp, "w");
	if (!f) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	tcpb_output_json(f, r);
	bad = ferror(f);
	if (fclose(f) != 0 || bad) {
		snprintf(err, errlen, "%s: write failed: %s", tmp, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (rename(tmp, path) < 0) {
		snprintf(err, errlen, "rename %s to %s: %s", tmp, path, strerror(errno));
		unlink(tmp);
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

void
tcpb_output_text(FILE *f, const struct tcpb_report *r)
{
	const struct tcpb_stats *s = r->s;
	size_t i;
	fprintf(f, "tcpbench: %s port %u, %g conn/s for %gs, timeout %ums%s\n",
		r->o->server, r->o->port, r->o->rate, r->o->duration_s, r->o->timeout_ms,
		r->interrupted ? " (INTERRUPTED)" : "");
	fprintf(f, "  attempted %llu of %llu scheduled, succeeded %llu, failed %llu",
		(unsigned long long)s->attempted, (unsigned long long)r->scheduled,
		(unsigned long long)s->succeeded, (unsigned long long)s->failed);
	for (i = 0; i < TCPB_CAUSE_N; i++)
		if (s->cause[i])
			fprintf(f, " %s=%llu", tcpb_cause_name((enum tcpb_cause)i),
				(unsigned long long)s->cause[i]);
	fprintf(f, "\n  latency from scheduled start (us): p50 %llu p90 %llu p99 %llu p99.9 %llu max %llu\n",
		(unsigned long long)tcpb_hist_quantile(&s->latency_us, 0.5),
		(unsigned long long)tcpb_hist_quantile(&s->latency_us, 0.9),
		(unsigned long long)tcpb_hist_quantile(&s->latency_us, 0.99),
		(unsigned long long)tcpb_hist_quantile(&s->latency_us, 0.999),
		(unsigned long long)s->latency_us.max);
	fprintf(f, "  start lateness (us): p50 %llu p99 %llu max %llu; margin %.0f\n",
		(unsigned long long)tcpb_hist_quantile(&s->lateness_us, 0.5),
		(unsigned long long)tcpb_hist_quantile(&s->lateness_us, 0.99),
		(unsigned long long)(s->max_lateness_ns / 1000), r->margin_us);
	fprintf(f, "  cpu %.3fs user %.3fs sys, %.2f us per connection\n",
		r->cpu_user_s, r->cpu_sys_s, cpu_per_conn_us(r));
	if (r->valid)
		fprintf(f, "  self-check: valid (every start within the margin)\n");
	else
		fprintf(f, "  self-check: GENERATOR-LIMITED: %llu starts and %llu timeouts later "
			"than %.0f us, %llu starts without a free slot; the offered load was "
			"not the target\n", (unsigned long long)s->late_starts,
			(unsigned long long)s->late_timeouts, r->margin_us,
			(unsigned long long)s->pool_exhausted);
}
