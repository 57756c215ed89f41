/*
 * output.c -- JSON and text results; see output.h and docs/tcpbench.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "output.h"
#include "../analysis/lib/json.h"
#include "../analysis/lib/outfile.h"

#define REASONS_MAX 4

/* Why the run is not valid: up to REASONS_MAX sentences; their count. */
static int
report_reasons(const struct tcpb_report *r, char reasons[REASONS_MAX][256])
{
	const struct tcpb_stats *s = r->s;
	int n = 0;
	if (s->burst_deferrals)
		snprintf(reasons[n++], 256, "burst: %llu connections due at one wake-up > "
			"--max-burst %u (%llu wake-ups deferred starts)",
			(unsigned long long)s->max_due, r->o->max_burst,
			(unsigned long long)s->burst_deferrals);
	if (s->late_starts)
		snprintf(reasons[n++], 256, "late starts: %llu connections started more than "
			"%.0f us after their scheduled time (latest %llu us)",
			(unsigned long long)s->late_starts, r->margin_us,
			(unsigned long long)(s->max_lateness_ns / 1000));
	if (s->late_timeouts)
		snprintf(reasons[n++], 256, "late timeouts: %llu timeouts handled more than "
			"%.0f us after they were due (latest %llu us)",
			(unsigned long long)s->late_timeouts, r->margin_us,
			(unsigned long long)(s->max_timer_lateness_ns / 1000));
	if (s->pool_exhausted)
		snprintf(reasons[n++], 256, "pool exhausted: %llu starts found no free "
			"connection slot", (unsigned long long)s->pool_exhausted);
	return n;
}

void
tcpb_output_hist(FILE *f, const struct tcpb_hist *h)
{
	size_t i;
	int first = 1;
	fprintf(f, "{\"count\": %llu, \"mean\": %.1f, \"sum\": %.0Lf, \"min\": %llu, "
		"\"p50\": %llu, \"p90\": %llu, \"p99\": %llu, \"p999\": %llu, \"max\": %llu, "
		"\"buckets\": [",
		(unsigned long long)h->count, tcpb_hist_mean(h), h->sum,
		(unsigned long long)(h->count ? h->min : 0),
		(unsigned long long)tcpb_hist_quantile(h, 0.50),
		(unsigned long long)tcpb_hist_quantile(h, 0.90),
		(unsigned long long)tcpb_hist_quantile(h, 0.99),
		(unsigned long long)tcpb_hist_quantile(h, 0.999),
		(unsigned long long)h->max);
	for (i = 0; i < TCPB_HIST_BUCKETS; i++) {
		if (!h->buckets[i])
			continue;
		fprintf(f, "%s[%llu, %llu, %llu]", first ? "" : ", ",
			(unsigned long long)tcpb_hist_bucket_low(i),
			(unsigned long long)tcpb_hist_bucket_high(i),
			(unsigned long long)h->buckets[i]);
		first = 0;
	}
	fprintf(f, "]}");
}

static void
json_hist(FILE *f, const char *name, const struct tcpb_hist *h)
{
	fprintf(f, "  \"%s\": ", name);
	tcpb_output_hist(f, h);
	fprintf(f, ",\n");
}

static double
cpu_per_conn_us(const struct tcpb_report *r)
{
	return r->s->attempted ? (r->cpu_user_s + r->cpu_sys_s) * 1e6 / (double)r->s->attempted : 0;
}

static void
json_workers(FILE *f, const struct tcpb_report *r)
{
	unsigned k;
	fprintf(f, "  \"workers\": [");
	for (k = 0; k < r->ws->n; k++) {
		const struct tcpb_worker *w = &r->ws->w[k];
		const struct tcpb_stats *s = &w->stats;
		fprintf(f, "%s\n    {\"worker\": %u, \"pid\": %ld, \"cpu\": ", k ? "," : "", k,
			(long)w->pid);
		if (w->cpu >= 0)
			fprintf(f, "%d", w->cpu);
		else
			fprintf(f, "null");
		fprintf(f, ", \"scheduled\": %llu, \"attempted\": %llu, \"succeeded\": %llu, "
			"\"failed\": %llu, \"valid\": %s, \"interrupted\": %s, \"max_burst\": %llu, "
			"\"max_due\": %llu, \"burst_deferrals\": %llu, \"late_starts\": %llu, "
			"\"max_lateness_us\": %llu, \"max_in_flight\": %llu, "
			"\"cpu_user_s\": %.3f, \"cpu_sys_s\": %.3f}",
			(unsigned long long)w->scheduled, (unsigned long long)s->attempted,
			(unsigned long long)s->succeeded, (unsigned long long)s->failed,
			tcpb_stats_valid(s) ? "true" : "false", w->interrupted ? "true" : "false",
			(unsigned long long)s->max_burst, (unsigned long long)s->max_due,
			(unsigned long long)s->burst_deferrals, (unsigned long long)s->late_starts,
			(unsigned long long)(s->max_lateness_ns / 1000),
			(unsigned long long)s->max_in_flight, w->cpu_user_s, w->cpu_sys_s);
	}
	fprintf(f, "\n  ],\n");
}

/* "tls": what the handshakes did (null without --tls). */
static void
json_tls(FILE *f, const struct tcpb_report *r)
{
	const struct tcpb_stats *s = r->s;
	const struct tcpb_options *o = r->o;
	if (!o->tls) {
		fprintf(f, "  \"tls\": null,\n");
		return;
	}
	fprintf(f, "  \"tls\": {\"verify\": %s, \"ca_file\": ", o->tls_ca ? "true" : "false");
	rb_json_string(f, o->tls_ca ? o->tls_ca : "");
	fprintf(f, ", \"name\": ");
	rb_json_string(f, o->tls_name ? o->tls_name : o->server);
	fprintf(f, ", \"resume\": %s, \"handshakes\": %llu, \"resumed\": %llu, "
		"\"offered\": %llu, \"full\": %llu, \"handshake_timeouts\": %llu, "
		"\"failed_handshake\": %llu, \"failed_certificate\": %llu, \"version\": ",
		o->tls_resume ? "true" : "false",
		(unsigned long long)s->tls_handshakes, (unsigned long long)s->tls_resumed,
		(unsigned long long)s->tls_offered,
		(unsigned long long)(s->tls_handshakes - s->tls_resumed),
		(unsigned long long)s->tls_handshake_timeouts,
		(unsigned long long)s->cause[TCPB_CAUSE_HANDSHAKE],
		(unsigned long long)s->cause[TCPB_CAUSE_CERTIFICATE]);
	rb_json_string(f, s->tls_version);
	fprintf(f, ", \"cipher\": ");
	rb_json_string(f, s->tls_cipher);
	fprintf(f, ", \"first_error\": ");
	rb_json_string(f, s->tls_error);
	fprintf(f, ",\n    \"handshake_us\": ");
	tcpb_output_hist(f, &s->handshake_us);
	fprintf(f, "},\n");
}

void
tcpb_output_json(FILE *f, const struct tcpb_report *r)
{
	const struct tcpb_stats *s = r->s;
	const struct tcpb_options *o = r->o;
	char reasons[REASONS_MAX][256];
	int nreasons = report_reasons(r, reasons);
	size_t i;
	int first;

	fprintf(f, "{\n  \"schema\": \"%s\",\n  \"server\": ", TCPB_SCHEMA);
	rb_json_string(f, o->server);
	fprintf(f, ",\n  \"port\": %u,\n", o->port);
	fprintf(f, "  \"query_source\": ");
	rb_json_string(f, o->queryfile ? o->queryfile : o->single);
	fprintf(f, ",\n  \"queries\": %zu,\n  \"unknown_query_tokens\": %llu,\n",
		r->nqueries, (unsigned long long)r->unknown_tokens);
	fprintf(f, "  \"transport\": \"%s\",\n  \"queries_per_conn\": %u,\n  \"pipeline\": %s,\n",
		o->tls ? "tls" : "tcp", o->queries_per_conn, o->pipeline ? "true" : "false");
	fprintf(f, "  \"sources\": %zu,\n  \"rst_close\": %s,\n", r->nsources,
		o->rst_close ? "true" : "false");
	fprintf(f, "  \"target_rate\": %.6g,\n  \"duration_s\": %.6g,\n  \"timeout_ms\": %u,\n",
		o->rate, o->duration_s, o->timeout_ms);
	fprintf(f, "  \"margin_pct\": %.6g,\n  \"margin_us\": %.0f,\n", o->margin_pct, r->margin_us);
	fprintf(f, "  \"tick_us\": %u,\n  \"burst_limit\": %u,\n  \"nworkers\": %u,\n",
		o->tick_us, o->max_burst, r->ws->n);
	if (o->has_start_at)
		fprintf(f, "  \"start_at\": %.6Lf,\n", o->start_at);
	else
		fprintf(f, "  \"start_at\": null,\n");
	fprintf(f, "  \"t0_realtime\": %.6Lf,\n", r->t0_realtime);
	/* When the sending began (the earliest connection's start), from t0
	 * and on this host's CLOCK_REALTIME: a player's start skew against
	 * --start-at. */
	if (s->has_first_start)
		fprintf(f, "  \"first_start_s\": %.6f,\n  \"first_start_realtime\": %.6Lf,\n",
			(double)s->first_start_ns / 1e9,
			r->t0_realtime + (long double)s->first_start_ns / 1e9L);
	else
		fprintf(f, "  \"first_start_s\": null,\n  \"first_start_realtime\": null,\n");
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
	fprintf(f, "  \"valid\": %s,\n  \"generator_limited\": %s,\n  \"invalid_reasons\": [",
		r->valid ? "true" : "false", r->valid ? "false" : "true");
	for (i = 0; i < (size_t)nreasons; i++) {
		fprintf(f, "%s", i ? ", " : "");
		rb_json_string(f, reasons[i]);
	}
	fprintf(f, "],\n  \"late_starts\": %llu,\n"
		"  \"late_timeouts\": %llu,\n  \"pool_exhausted\": %llu,\n  \"interrupted\": %s,\n",
		(unsigned long long)s->late_starts, (unsigned long long)s->late_timeouts,
		(unsigned long long)s->pool_exhausted, r->interrupted ? "true" : "false");
	fprintf(f, "  \"max_burst\": %llu,\n  \"max_due\": %llu,\n  \"burst_deferrals\": %llu,\n",
		(unsigned long long)s->max_burst, (unsigned long long)s->max_due,
		(unsigned long long)s->burst_deferrals);
	fprintf(f, "  \"max_lateness_us\": %llu,\n", (unsigned long long)(s->max_lateness_ns / 1000));
	fprintf(f, "  \"max_timer_lateness_us\": %llu,\n",
		(unsigned long long)(s->max_timer_lateness_ns / 1000));
	json_hist(f, "lateness_us", &s->lateness_us);
	json_hist(f, "latency_us", &s->latency_us);
	json_hist(f, "answered_latency_us", &s->answered_us);
	json_hist(f, "connect_latency_us", &s->connect_us);
	fprintf(f, "  \"queries_sent\": %llu,\n  \"answers\": %llu,\n",
		(unsigned long long)s->queries_sent, (unsigned long long)s->answers);
	json_hist(f, "query_latency_us", &s->query_us);
	json_tls(f, r);
	fprintf(f, "  \"elapsed_s\": %.6f,\n", r->elapsed_s);
	fprintf(f, "  \"offered_rate\": %.1f,\n",
		r->last_start_s > 0 && s->attempted > 1 ? (double)(s->attempted - 1) / r->last_start_s : 0.0);
	fprintf(f, "  \"succeeded_per_s\": %.1f,\n",
		o->duration_s > 0 ? (double)s->succeeded / o->duration_s : 0.0);
	fprintf(f, "  \"max_in_flight\": %llu,\n  \"rlimit_nofile\": %llu,\n",
		(unsigned long long)s->max_in_flight, (unsigned long long)r->rlimit_nofile);
	fprintf(f, "  \"cpu\": {\"user_s\": %.3f, \"sys_s\": %.3f, \"per_connection_us\": %.2f},\n",
		r->cpu_user_s, r->cpu_sys_s, cpu_per_conn_us(r));
	json_workers(f, r);
	fprintf(f, "  \"series_ms\": %u,\n  \"series\": [", o->series_ms);
	for (i = 0; i < s->nslot; i++) {
		const struct tcpb_slot *sl = &s->slot[i];
		fprintf(f, "%s\n    {\"t\": %.3f, \"attempted\": %llu, \"succeeded\": %llu, "
			"\"failed\": %llu, \"max_lateness_us\": %llu, \"max_burst\": %llu, "
			"\"max_in_flight\": %llu}", i ? "," : "",
			(double)i * (double)o->series_ms / 1000.0,
			(unsigned long long)sl->attempted, (unsigned long long)sl->succeeded,
			(unsigned long long)sl->failed, (unsigned long long)sl->max_lateness_us,
			(unsigned long long)sl->max_burst, (unsigned long long)sl->max_in_flight);
	}
	fprintf(f, "\n  ]\n}\n");
}

static void
output_json_write(FILE *f, const void *r)
{
	tcpb_output_json(f, r);
}

int
tcpb_output_json_path(const char *path, const struct tcpb_report *r, char *err, size_t errlen)
{
	return rb_outfile_write(path, output_json_write, r, err, errlen);
}

void
tcpb_output_text(FILE *f, const struct tcpb_report *r)
{
	const struct tcpb_stats *s = r->s;
	char reasons[REASONS_MAX][256];
	int nreasons = report_reasons(r, reasons), i;
	size_t c;
	unsigned k;
	fprintf(f, "tcpbench: %s%s port %u, %g conn/s for %gs, timeout %ums, %u worker%s%s\n",
		r->o->tls ? "TLS " : "", r->o->server, r->o->port, r->o->rate, r->o->duration_s, r->o->timeout_ms,
		r->ws->n, r->ws->n == 1 ? "" : "s", r->interrupted ? " (INTERRUPTED)" : "");
	fprintf(f, "  attempted %llu of %llu scheduled, succeeded %llu, failed %llu",
		(unsigned long long)s->attempted, (unsigned long long)r->scheduled,
		(unsigned long long)s->succeeded, (unsigned long long)s->failed);
	for (c = 0; c < TCPB_CAUSE_N; c++)
		if (s->cause[c])
			fprintf(f, " %s=%llu", tcpb_cause_name((enum tcpb_cause)c),
				(unsigned long long)s->cause[c]);
	fprintf(f, "\n  latency from scheduled start, all (us): p50 %llu p90 %llu p99 %llu "
		"p99.9 %llu max %llu\n",
		(unsigned long long)tcpb_hist_quantile(&s->latency_us, 0.5),
		(unsigned long long)tcpb_hist_quantile(&s->latency_us, 0.9),
		(unsigned long long)tcpb_hist_quantile(&s->latency_us, 0.99),
		(unsigned long long)tcpb_hist_quantile(&s->latency_us, 0.999),
		(unsigned long long)s->latency_us.max);
	fprintf(f, "  latency from scheduled start, answered (us): p50 %llu p99 %llu max %llu\n",
		(unsigned long long)tcpb_hist_quantile(&s->answered_us, 0.5),
		(unsigned long long)tcpb_hist_quantile(&s->answered_us, 0.99),
		(unsigned long long)s->answered_us.max);
	if (r->o->queries_per_conn > 1)
		fprintf(f, "  %u queries per connection%s: %llu sent, %llu answered; per query from "
			"its connection's scheduled start (us): p50 %llu p99 %llu\n",
			r->o->queries_per_conn, r->o->pipeline ? " (pipelined)" : "",
			(unsigned long long)s->queries_sent,
			(unsigned long long)s->answers,
			(unsigned long long)tcpb_hist_quantile(&s->query_us, 0.5),
			(unsigned long long)tcpb_hist_quantile(&s->query_us, 0.99));
	if (r->o->tls)
		fprintf(f, "  TLS %s %s: %llu handshakes, %llu resumed (%llu offered), %llu timed out "
			"in the handshake; handshake (us) p50 %llu p99 %llu%s%s\n",
			s->tls_version[0] ? s->tls_version : "-", s->tls_cipher,
			(unsigned long long)s->tls_handshakes, (unsigned long long)s->tls_resumed,
			(unsigned long long)s->tls_offered,
			(unsigned long long)s->tls_handshake_timeouts,
			(unsigned long long)tcpb_hist_quantile(&s->handshake_us, 0.5),
			(unsigned long long)tcpb_hist_quantile(&s->handshake_us, 0.99),
			s->tls_error[0] ? "; first failure: " : "", s->tls_error);
	fprintf(f, "  start lateness (us): p50 %llu p99 %llu max %llu; margin %.0f\n",
		(unsigned long long)tcpb_hist_quantile(&s->lateness_us, 0.5),
		(unsigned long long)tcpb_hist_quantile(&s->lateness_us, 0.99),
		(unsigned long long)(s->max_lateness_ns / 1000), r->margin_us);
	fprintf(f, "  wake-ups every %u us: at most %llu starts (limit %u), %llu due, "
		"%llu wake-ups deferred starts\n", r->o->tick_us,
		(unsigned long long)s->max_burst, r->o->max_burst,
		(unsigned long long)s->max_due, (unsigned long long)s->burst_deferrals);
	fprintf(f, "  cpu %.3fs user %.3fs sys, %.2f us per connection\n",
		r->cpu_user_s, r->cpu_sys_s, cpu_per_conn_us(r));
	if (r->ws->n > 1)
		for (k = 0; k < r->ws->n; k++) {
			const struct tcpb_worker *w = &r->ws->w[k];
			fprintf(f, "  worker %u (cpu %d): attempted %llu succeeded %llu, max burst %llu, "
				"max lateness %llu us, %s\n", k, w->cpu,
				(unsigned long long)w->stats.attempted,
				(unsigned long long)w->stats.succeeded,
				(unsigned long long)w->stats.max_burst,
				(unsigned long long)(w->stats.max_lateness_ns / 1000),
				tcpb_stats_valid(&w->stats) ? "valid" : "GENERATOR-LIMITED");
		}
	if (r->valid) {
		fprintf(f, "  self-check: valid (every start within the margin, no burst over the "
			"limit)\n");
		return;
	}
	fprintf(f, "  self-check: GENERATOR-LIMITED; the offered load was not the target:\n");
	for (i = 0; i < nreasons; i++)
		fprintf(f, "    %s\n", reasons[i]);
}
