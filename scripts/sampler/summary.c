/*
 * summary.c -- the run's JSON summary; see summary.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "sampler.h"
#include "summary.h"
#include "../../analysis/lib/json.h"
#include "../../analysis/lib/outfile.h"

static void
write_header(FILE *f, const struct rbs_sampler *s)
{
	const struct rbs_options *o = s->o;
	int i, first;

	fprintf(f, "{\n  \"schema\": \"rootbench.sample/1\",\n");
	fprintf(f, "  \"interval_ms\": %u,\n  \"samples\": %lu,\n  \"duration_s\": %.3f,\n",
		o->interval_ms, s->samples, rbs_sampler_t(s, s->t_prev));
	fprintf(f, "  \"late_samples\": %lu,\n  \"interrupted\": %s,\n  \"error\": ",
		s->late_samples, s->interrupted ? "true" : "false");
	rb_json_string(f, s->error[0] ? s->error : NULL);
	fprintf(f, ",\n  \"stall_ms\": %g,\n  \"stall_threshold_ms\": %g,\n  \"fifo_prio\": %d,\n",
		o->stall_ms, o->stall_threshold_ms, o->fifo_prio);
	fputs("  \"namespaces\": {", f);
	for (i = 0; i < s->nns; i++) {
		fputs(i ? ", " : "", f);
		rb_json_string(f, s->ns[i].arg->role);
		fputs(": ", f);
		rb_json_string(f, s->ns[i].ns.name);
	}
	fputs("},\n  \"lost\": {", f);
	for (i = 0, first = 1; i < s->nns; i++) {
		if (!s->ns[i].lost)
			continue;
		fputs(first ? "" : ", ", f);
		rb_json_string(f, s->ns[i].arg->role);
		fprintf(f, ": %.3f", s->ns[i].lost_at);
		first = 0;
	}
	fputs("},\n", f);
}

static void
write_deltas(FILE *f, const struct rbs_sampler *s)
{
	int i;
	size_t k;
	fputs("  \"deltas\": {", f);
	for (i = 0; i < s->nns; i++) {
		const struct rbs_nsstate *n = &s->ns[i];
		int first = 1;
		fputs(i ? ",\n    " : "\n    ", f);
		rb_json_string(f, n->arg->role);
		fputs(": {", f);
		for (k = 0; k < n->mib.n; k++) {
			const struct rbs_ctr *c = &n->mib.v[k];
			if (!c->total)
				continue;
			fputs(first ? "" : ", ", f);
			rb_json_string(f, c->name);
			fprintf(f, ": %" PRId64, c->total);
			first = 0;
		}
		fputc('}', f);
	}
	fputs("},\n", f);
}

static void
write_objs(FILE *f, const struct rbs_sampler *s, int qdisc)
{
	int i, j;
	size_t k;
	fprintf(f, "  \"%s\": {", qdisc ? "qdisc" : "dev");
	for (i = 0; i < s->nns; i++) {
		const struct rbs_nsstate *n = &s->ns[i];
		const struct rbs_objtab *t = qdisc ? &n->qdisc : &n->dev;
		const char *const *names = qdisc ? rbs_qdisc_names : rbs_dev_names;
		int first = 1;
		fputs(i ? ",\n    " : "\n    ", f);
		rb_json_string(f, n->arg->role);
		fputs(": {", f);
		for (k = 0; k < t->n; k++) {
			const struct rbs_obj *o = &t->v[k];
			if (qdisc && strcmp(o->kind, "noqueue") == 0)
				continue;   /* no queue, no statistics */
			fputs(first ? "" : ", ", f);
			first = 0;
			rb_json_string(f, o->key);
			fputs(": {", f);
			if (qdisc) {
				fputs("\"kind\": ", f);
				rb_json_string(f, o->kind);
				fputs(", ", f);
			}
			for (j = 0; j < t->nc; j++)
				fprintf(f, "%s\"%s\": %" PRIu64, j ? ", " : "", names[j], o->total[j]);
			for (j = 0; j < t->ng; j++)
				fprintf(f, ", \"%s_max\": %" PRIu64, rbs_qdisc_gauge_names[j], o->gauge_max[j]);
			fprintf(f, ", \"resets\": %u}", o->resets);
		}
		fputc('}', f);
	}
	fputs("},\n", f);
}

static void
write_listen(FILE *f, const struct rbs_sampler *s)
{
	int i, first = 1;
	size_t k;
	fputs("  \"listen_peak\": {", f);
	for (i = 0; i < s->nns; i++) {
		const struct rbs_nsstate *n = &s->ns[i];
		if (!n->arg->listen)
			continue;
		fputs(first ? "\n    " : ",\n    ", f);
		first = 0;
		rb_json_string(f, n->arg->role);
		fputs(": {", f);
		for (k = 0; k < n->npeaks; k++) {
			const struct rbs_portpeak *p = &n->peaks[k];
			fprintf(f, "%s\"%u\": {\"max_queue\": %" PRIu32 ", \"limit\": %" PRIu32
				", \"samples_at_limit\": %" PRIu64 ", \"sockets\": %zu}", k ? ", " : "",
				p->port, p->max_queue, p->limit, p->samples_at_limit, p->sockets_max);
		}
		fputc('}', f);
	}
	fputs("},\n", f);
}

static void
write_tw(FILE *f, const struct rbs_sampler *s)
{
	int i;
	fputs("  \"tw\": {", f);
	for (i = 0; i < s->nns; i++) {
		const struct rbs_nsstate *n = &s->ns[i];
		fputs(i ? ",\n    " : "\n    ", f);
		rb_json_string(f, n->arg->role);
		fprintf(f, ": {\"min\": %" PRId64 ", \"max\": %" PRId64
			", \"largest_drop_in_one_sample\": %" PRId64 ", \"at\": ",
			n->tw_min, n->tw_max, n->tw_drop_max);
		if (n->tw_drop_max > 0)
			fprintf(f, "%.3f}", n->tw_drop_at);
		else
			fputs("null}", f);
	}
	fputs("},\n", f);
}

static void
write_cpu(FILE *f, const struct rbs_sampler *s)
{
	int i, r;
	fputs("  \"cpu\": {", f);
	for (i = 0; i < s->ncpus; i++) {
		const struct rbs_cpustate *c = &s->cpu[i];
		fprintf(f, "%s\"cpu%d\": {\"busy_pct\": %.2f, \"busy_ms\": %.1f, \"wall_ms\": %.1f, "
			"\"steal_ms\": %.1f, \"softnet\": {", i ? ",\n    " : "\n    ", c->cpu,
			c->wall_total_ms > 0 ? 100.0 * c->busy_total_ms / c->wall_total_ms : 0.0,
			c->busy_total_ms, c->wall_total_ms, c->steal_total_ms);
		for (r = 0; r < 3; r++)
			fprintf(f, "%s\"%s\": %" PRIu64, r ? ", " : "", rbs_softnet_names[r],
				c->softnet_total[r]);
		fputs("}, \"softirqs\": {", f);
		for (r = 0; r < s->si_prev->nnames; r++) {
			fputs(r ? ", " : "", f);
			rb_json_string(f, s->si_prev->names[r]);
			fprintf(f, ": %" PRIu64, c->softirq_total[r]);
		}
		fputs("}}", f);
	}
	fprintf(f, "},\n  \"cpu_all\": {\"cpus\": %d, \"busy_ms\": %.1f},\n", s->all_ncpus,
		s->all_busy_total_ms);
}

static void
write_cgroup(FILE *f, const struct rbs_sampler *s)
{
	int i;
	fputs("  \"cgroup\": {", f);
	for (i = 0; i < s->ncg; i++) {
		rb_json_string(f, s->cg[i].arg->role);
		fprintf(f, ": %.3f, ", s->cg[i].usage_total_ms);
	}
	fprintf(f, "\"outside\": %.1f},\n  \"cgroup_detail\": {", s->outside_total_ms);
	for (i = 0; i < s->ncg; i++) {
		const struct rbs_cgstate *g = &s->cg[i];
		fputs(i ? ", " : "", f);
		rb_json_string(f, g->arg->role);
		fputs(": {\"dir\": ", f);
		rb_json_string(f, g->arg->dir);
		fprintf(f, ", \"usage_ms\": %.3f, \"user_ms\": %.3f, \"system_ms\": %.3f}",
			g->usage_total_ms, g->user_total_ms, g->system_total_ms);
	}
	fputs("},\n", f);
}

static void
write_stalls(FILE *f, const struct rbs_sampler *s)
{
	size_t k;
	int i;
	fputs("  \"stalls\": [", f);
	for (k = 0; k < s->nstalls; k++) {
		const struct rbs_stall *st = &s->stalls[k];
		fprintf(f, "%s{\"cpu\": \"cpu%d\", \"start\": %.4f, \"length_ms\": %.3f, \"kind\": \"%s\", "
			"\"fifo_ms\": %.3f, \"other_ms\": %.3f}", k ? ",\n    " : "\n    ", st->cpu,
			rbs_sampler_t(s, st->start_ns), (double)st->len_ns / 1e6,
			rbs_stall_kind_name(st->kind), (double)st->fifo_ns / 1e6,
			(double)st->other_ns / 1e6);
	}
	fprintf(f, "],\n  \"stalls_dropped\": %" PRIu64 ",\n  \"stall_max\": {",
		s->stalls_dropped + s->probe_lost);
	for (i = 0; s->o->stall_ms > 0 && i < s->ncpus; i++) {
		const struct rbs_cpustate *c = &s->cpu[i];
		fprintf(f, "%s\"cpu%d\": {\"fifo_us\": %" PRId64 ", \"other_us\": %" PRId64 "}",
			i ? ", " : "", c->cpu, c->fifo_run_max_ns < 0 ? 0 : c->fifo_run_max_ns / 1000,
			c->other_run_max_ns < 0 ? 0 : c->other_run_max_ns / 1000);
	}
	fprintf(f, "},\n  \"probe_cpu_ms\": %.3f,\n  \"probe_wakeups\": %" PRIu64 ",\n"
		"  \"sampler_cpu_ms\": %.3f,\n  \"arrivals\": ", (double)s->probe_cpu_ns / 1e6,
		s->probe_wakeups, (double)s->own_cpu_ns / 1e6);
	if (s->arrivals)
		rbs_arrivals_summary(f, s->arrivals, s->o->arrivals_out, s->t0);
	else
		fputs("null", f);
	fputs("\n}\n", f);
}

int
rbs_summary_write(const struct rbs_sampler *s, const char *path, char *err, size_t errlen)
{
	struct rb_outfile out;
	FILE *f;

	if (rb_outfile_begin(&out, path, 1, err, errlen) < 0)
		return -1;
	f = out.fp;
	write_header(f, s);
	write_deltas(f, s);
	write_objs(f, s, 1);
	write_objs(f, s, 0);
	write_listen(f, s);
	write_tw(f, s);
	write_cpu(f, s);
	write_cgroup(f, s);
	write_stalls(f, s);
	return rb_outfile_commit(&out, err, errlen);
}
