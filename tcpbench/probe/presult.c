/*
 * presult.c -- the probe's counts and results; see presult.h.
 */
#include <errno.h>
#include <string.h>
#include "presult.h"
#include "../output.h"
#include "../../analysis/lib/json.h"
#include "../../analysis/lib/outfile.h"

static const char *const error_names[PROBE_ERR_N] = {
	"refused", "reset", "connect", "closed", "send", "recv"
};

void
presult_counts_init(struct probe_counts *c, double rate)
{
	memset(c, 0, sizeof(*c));
	c->rate = rate;
	tcpb_hist_init(&c->latency_us);
}

void
presult_answered(struct probe_counts *c, enum probe_verdict v, uint64_t latency_us)
{
	c->answered++;
	c->verdict[v]++;
	if (v != PROBE_CORRECT)
		c->incorrect++;
	tcpb_hist_record(&c->latency_us, latency_us);
}

void
presult_error(struct probe_counts *c, enum probe_error e)
{
	c->error[e]++;
	if (e == PROBE_ERR_REFUSED || e == PROBE_ERR_RESET || e == PROBE_ERR_CONNECT)
		c->connect_failures++;
}

uint64_t
presult_errors(const struct probe_counts *c)
{
	uint64_t n = 0;
	size_t i;
	for (i = 0; i < PROBE_ERR_N; i++)
		n += c->error[i];
	return n;
}

/* A ratio, or null when the denominator is 0. */
static void
json_ratio(FILE *f, uint64_t num, uint64_t den)
{
	if (den)
		fprintf(f, "%.6f", (double)num / (double)den);
	else
		fprintf(f, "null");
}

/* A latency in ms from the histogram (us), or null when nothing was answered. */
static void
json_ms(FILE *f, const struct tcpb_hist *h, double q)
{
	if (!h->count)
		fprintf(f, "null");
	else
		fprintf(f, "%.3f", (double)(q < 0 ? h->max : tcpb_hist_quantile(h, q)) / 1000.0);
}

static void
json_counts(FILE *f, const char *name, const struct probe_counts *c, int tcp)
{
	size_t i;
	fprintf(f, "  \"%s\": {\"rate\": %.6g, \"sent\": %llu, \"answered\": %llu, "
		"\"timeouts\": %llu, \"incorrect\": %llu, \"errors\": %llu, \"late\": %llu, "
		"\"abandoned\": %llu,", name, c->rate,
		(unsigned long long)c->sent, (unsigned long long)c->answered,
		(unsigned long long)c->timeouts, (unsigned long long)c->incorrect,
		(unsigned long long)presult_errors(c), (unsigned long long)c->late,
		(unsigned long long)c->abandoned);
	if (tcp)
		fprintf(f, " \"connect_failures\": %llu,", (unsigned long long)c->connect_failures);
	else
		fprintf(f, " \"stray\": %llu, \"icmp_errors\": %llu,",
			(unsigned long long)c->stray, (unsigned long long)c->icmp_errors);
	fprintf(f, "\n    \"availability\": ");
	json_ratio(f, c->answered, c->sent);
	fprintf(f, ", \"correct_fraction\": ");
	json_ratio(f, c->answered - c->incorrect, c->answered);
	fprintf(f, ",\n    \"errors_by_kind\": {");
	for (i = 0; i < PROBE_ERR_N; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "", error_names[i],
			(unsigned long long)c->error[i]);
	fprintf(f, "},\n    \"answers_by_verdict\": {");
	for (i = 0; i < PROBE_VERDICT_N; i++)
		fprintf(f, "%s\"%s\": %llu", i ? ", " : "", probe_verdict_name((enum probe_verdict)i),
			(unsigned long long)c->verdict[i]);
	fprintf(f, "},\n    \"latency_ms\": {\"p50\": ");
	json_ms(f, &c->latency_us, 0.50);
	fprintf(f, ", \"p90\": ");
	json_ms(f, &c->latency_us, 0.90);
	fprintf(f, ", \"p99\": ");
	json_ms(f, &c->latency_us, 0.99);
	fprintf(f, ", \"p999\": ");
	json_ms(f, &c->latency_us, 0.999);
	fprintf(f, ", \"max\": ");
	json_ms(f, &c->latency_us, -1);
	fprintf(f, "},\n    \"histogram\": ");
	tcpb_output_hist(f, &c->latency_us);
	fprintf(f, "}");
}

void
presult_json(FILE *f, const struct probe_report *r)
{
	const struct probe_options *o = r->o;
	fprintf(f, "{\n  \"schema\": \"rootbench.probe/1\",\n  \"server\": ");
	rb_json_string(f, o->server);
	fprintf(f, ",\n  \"port\": %lu,\n  \"qname\": ", o->port);
	rb_json_string(f, o->qname);
	fprintf(f, ",\n  \"qtype\": ");
	rb_json_string(f, o->qtype);
	fprintf(f, ",\n  \"edns\": %lu,\n  \"do\": %s", o->edns_size, o->do_bit ? "true" : "false");
	fprintf(f, ",\n  \"timeout_ms\": %lu,\n  \"expected_serial\": ", o->timeout_ms);
	if (o->has_serial)
		fprintf(f, "%lu", o->serial);
	else
		fprintf(f, "null");
	fprintf(f, ",\n  \"serial_checked\": %s,\n  \"source\": ", o->has_serial ? "true" : "false");
	rb_json_string(f, o->source);
	fprintf(f, ",\n  \"started\": %.6Lf,\n  \"duration_s\": %.3f,\n  \"interrupted\": %s,\n",
		r->started, r->duration_s, r->interrupted ? "true" : "false");
	fprintf(f, "  \"latency_from\": \"intended send time (TCP: before connect)\",\n"
		"  \"histogram_unit\": \"us\",\n");
	json_counts(f, "udp", &r->udp, 0);
	fprintf(f, ",\n");
	json_counts(f, "tcp", &r->tcp, 1);
	fprintf(f, "\n}\n");
}

static void
presult_json_write(FILE *f, const void *r)
{
	presult_json(f, r);
}

int
presult_json_path(const char *path, const struct probe_report *r, char *err, size_t errlen)
{
	return rb_outfile_write(path, presult_json_write, r, err, errlen);
}

static void
text_counts(FILE *f, const char *name, const struct probe_counts *c)
{
	if (c->rate == 0) {
		fprintf(f, "  %s: off\n", name);
		return;
	}
	fprintf(f, "  %s: %g/s sent %llu answered %llu (incorrect %llu) timeouts %llu "
		"errors %llu; latency ms p50 %.3f p99 %.3f max %.3f\n", name, c->rate,
		(unsigned long long)c->sent, (unsigned long long)c->answered,
		(unsigned long long)c->incorrect, (unsigned long long)c->timeouts,
		(unsigned long long)presult_errors(c),
		(double)tcpb_hist_quantile(&c->latency_us, 0.5) / 1000.0,
		(double)tcpb_hist_quantile(&c->latency_us, 0.99) / 1000.0,
		(double)c->latency_us.max / 1000.0);
}

void
presult_text(FILE *f, const struct probe_report *r)
{
	fprintf(f, "rbprobe: %s port %lu, %s %s, timeout %lu ms, %.1f s%s\n", r->o->server,
		r->o->port, r->o->qname, r->o->qtype, r->o->timeout_ms, r->duration_s,
		r->interrupted ? " (stopped by a signal)" : "");
	text_counts(f, "udp", &r->udp);
	text_counts(f, "tcp", &r->tcp);
}
