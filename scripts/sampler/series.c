/*
 * series.c -- the per-sample JSON lines; see series.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "sampler.h"
#include "series.h"
#include "../../analysis/lib/json.h"

/* Opens "key":{ lazily: only when the first member is written. */
struct lazy {
	FILE *f;
	int opened;
};

static void
lazy_open(struct lazy *z, const char *key)
{
	if (z->opened) {
		fputc(',', z->f);
		return;
	}
	fprintf(z->f, ",\"%s\":{", key);
	z->opened = 1;
}

static void
lazy_close(struct lazy *z)
{
	if (z->opened)
		fputc('}', z->f);
}

static void
write_mib(FILE *f, const struct rbs_sampler *s)
{
	struct lazy z = { f, 0 };
	int i;
	size_t k;
	for (i = 0; i < s->nns; i++) {
		const struct rbs_nsstate *n = &s->ns[i];
		int first = 1;
		if (n->lost)
			continue;
		for (k = 0; k < n->mib.n; k++) {
			const struct rbs_ctr *c = &n->mib.v[k];
			if (!c->delta || c->gen != n->mib.gen)
				continue;
			if (first) {
				lazy_open(&z, "ns");
				rb_json_string(f, n->arg->role);
				fputs(":{", f);
				first = 0;
			} else {
				fputc(',', f);
			}
			rb_json_string(f, c->name);
			fprintf(f, ":%" PRId64, c->delta);
		}
		if (!first)
			fputc('}', f);
	}
	lazy_close(&z);
}

static void
write_sock(FILE *f, const struct rbs_sampler *s)
{
	struct lazy z = { f, 0 };
	int i, j;
	for (i = 0; i < s->nns; i++) {
		const struct rbs_nsstate *n = &s->ns[i];
		int first = 1;
		if (n->lost)
			continue;
		for (j = 0; j < RBS_SOCKSTAT_N; j++) {
			int64_t v = rbs_sockstat_get(&n->sock, j);
			if (v == rbs_sockstat_get(&n->sock_prev, j) && s->samples > 1)
				continue;
			if (first) {
				lazy_open(&z, "sock");
				rb_json_string(f, n->arg->role);
				fputs(":{", f);
				first = 0;
			} else {
				fputc(',', f);
			}
			fprintf(f, "\"%s\":%" PRId64, rbs_sockstat_names[j], v);
		}
		if (!first)
			fputc('}', f);
	}
	lazy_close(&z);
}

static void
write_tw(FILE *f, const struct rbs_sampler *s)
{
	int i, first = 1;
	fputs(",\"tw\":{", f);
	for (i = 0; i < s->nns; i++) {
		const struct rbs_nsstate *n = &s->ns[i];
		if (n->lost)
			continue;
		if (!first)
			fputc(',', f);
		first = 0;
		rb_json_string(f, n->arg->role);
		fprintf(f, ":%" PRId64, n->sock.tcp_tw);
	}
	fputc('}', f);
}

/* "dev" or "qdisc": per role, per object, the non-zero deltas (and for
 * qdiscs the kind and the gauges). */
static void
write_objs(FILE *f, const struct rbs_sampler *s, int qdisc)
{
	struct lazy z = { f, 0 };
	int i, j;
	size_t k;
	for (i = 0; i < s->nns; i++) {
		const struct rbs_nsstate *n = &s->ns[i];
		const struct rbs_objtab *t = qdisc ? &n->qdisc : &n->dev;
		const char *const *names = qdisc ? rbs_qdisc_names : rbs_dev_names;
		int first = 1;
		if (n->lost)
			continue;
		for (k = 0; k < t->n; k++) {
			const struct rbs_obj *o = &t->v[k];
			int firstc = 1;
			if (!rbs_obj_changed(t, o))
				continue;
			if (first) {
				lazy_open(&z, qdisc ? "qdisc" : "dev");
				rb_json_string(f, n->arg->role);
				fputs(":{", f);
				first = 0;
			} else {
				fputc(',', f);
			}
			rb_json_string(f, o->key);
			fputs(":{", f);
			if (qdisc) {
				fputs("\"kind\":", f);
				rb_json_string(f, o->kind);
				firstc = 0;
			}
			for (j = 0; j < t->nc; j++) {
				if (!o->delta[j])
					continue;
				fprintf(f, "%s\"%s\":%" PRIu64, firstc ? "" : ",", names[j], o->delta[j]);
				firstc = 0;
			}
			for (j = 0; j < t->ng; j++)
				fprintf(f, ",\"%s\":%" PRIu64, rbs_qdisc_gauge_names[j], o->gauge[j]);
			fputc('}', f);
		}
		if (!first)
			fputc('}', f);
	}
	lazy_close(&z);
}

static void
write_listen(FILE *f, const struct rbs_sampler *s)
{
	struct lazy z = { f, 0 };
	int i;
	size_t k;
	for (i = 0; i < s->nns; i++) {
		const struct rbs_nsstate *n = &s->ns[i];
		if (n->lost || !n->arg->listen)
			continue;
		lazy_open(&z, "listen");
		rb_json_string(f, n->arg->role);
		fputs(":[", f);
		for (k = 0; k < n->listeners.n; k++) {
			const struct rbs_listener *l = &n->listeners.v[k];
			fprintf(f, "%s{\"port\":%u,\"addr\":", k ? "," : "", l->port);
			rb_json_string(f, l->addr);
			fprintf(f, ",\"queue\":%" PRIu32 ",\"limit\":%" PRIu32 "}", l->queue, l->limit);
		}
		fputc(']', f);
	}
	lazy_close(&z);
}

/* x rounded to 0.1, without a "-0.0". */
static double
tenth(double x)
{
	double r = (double)(int64_t)(x * 10.0 + (x < 0 ? -0.5 : 0.5)) / 10.0;
	return r == 0 ? 0.0 : r;
}

static void
write_cpu(FILE *f, const struct rbs_sampler *s)
{
	int i, r;
	fputs(",\"cpu\":{", f);
	for (i = 0; i < s->ncpus; i++) {
		const struct rbs_cpustate *c = &s->cpu[i];
		int first = 1;
		fprintf(f, "%s\"cpu%d\":{\"busy_ms\":%.1f,\"wall_ms\":%.3f", i ? "," : "", c->cpu,
			tenth(c->busy_ms), c->wall_ms);
		if (c->steal_ms)
			fprintf(f, ",\"steal_ms\":%.1f", tenth(c->steal_ms));
		for (r = 0; r < 3; r++) {
			if (!c->softnet_delta[r])
				continue;
			fprintf(f, "%s\"%s\":%" PRIu64, first ? ",\"softnet\":{" : ",",
				rbs_softnet_names[r], c->softnet_delta[r]);
			first = 0;
		}
		if (!first)
			fputc('}', f);
		first = 1;
		fputs(",\"softirqs\":{", f);
		for (r = 0; r < s->si_prev->nnames; r++) {
			if (!c->softirq_delta[r])
				continue;
			fprintf(f, "%s", first ? "" : ",");
			rb_json_string(f, s->si_prev->names[r]);
			fprintf(f, ":%" PRIu64, c->softirq_delta[r]);
			first = 0;
		}
		fputs("}}", f);
	}
	fputc('}', f);
}

static void
write_cgroup(FILE *f, const struct rbs_sampler *s)
{
	int i;
	fputs(",\"cgroup\":{", f);
	for (i = 0; i < s->ncg; i++) {
		rb_json_string(f, s->cg[i].arg->role);
		fprintf(f, ":%.3f,", s->cg[i].usage_ms);
	}
	fprintf(f, "\"outside\":%.1f}", tenth(s->outside_ms));
}

static void
write_us(FILE *f, const char *key, int64_t ns)
{
	if (ns < 0)
		fprintf(f, "\"%s\":null", key);
	else
		fprintf(f, "\"%s\":%" PRId64, key, ns / 1000);
}

static void
write_stall(FILE *f, const struct rbs_sampler *s)
{
	int i;
	if (!s->o->stall_ms)
		return;
	fputs(",\"stall\":{", f);
	for (i = 0; i < s->ncpus; i++) {
		const struct rbs_cpustate *c = &s->cpu[i];
		fprintf(f, "%s\"cpu%d\":{", i ? "," : "", c->cpu);
		write_us(f, "fifo_max_us", c->fifo_max_ns);
		fputc(',', f);
		write_us(f, "other_max_us", c->other_max_ns);
		fputc('}', f);
	}
	fputc('}', f);
}

int
rbs_series_write(struct rbs_sampler *s, char *err, size_t errlen)
{
	FILE *f = s->series.fp;
	fprintf(f, "{\"t\":%.3f", rbs_sampler_t(s, s->t_now));
	write_mib(f, s);
	write_sock(f, s);
	write_tw(f, s);
	write_objs(f, s, 0);
	write_objs(f, s, 1);
	write_listen(f, s);
	write_cpu(f, s);
	write_cgroup(f, s);
	write_stall(f, s);
	fputs("}\n", f);
	if (fflush(f) != 0 || ferror(f)) {
		snprintf(err, errlen, "%s: write failed: %s", s->series.tmp, strerror(errno));
		return -1;
	}
	return 0;
}
