/*
 * stall.c -- classification of probe stalls; see stall.h.
 */
#include <string.h>
#include "stall.h"

const char *
rbs_stall_kind_name(enum rbs_stall_kind k)
{
	return k == RBS_STALL_KERNEL ? "softirq/kernel" : "process";
}

void
rbs_stalltrack_init(struct rbs_stalltrack *t, int cpu, int64_t tolerance_ns)
{
	memset(t, 0, sizeof(*t));
	t->cpu = cpu;
	t->tolerance_ns = tolerance_ns;
}

void
rbs_stalltrack_add(struct rbs_stalltrack *t, int fifo, const struct rbs_stall_ev *ev, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		if (fifo && t->nfifo < RBS_STALLTRACK_MAX) {
			t->fifo_used[t->nfifo] = 0;
			t->fifo[t->nfifo++] = ev[i];
		} else if (!fifo && t->nother < RBS_STALLTRACK_MAX) {
			t->other[t->nother++] = ev[i];
		} else {
			t->lost++;
		}
	}
}

static int
overlaps(const struct rbs_stall_ev *a, const struct rbs_stall_ev *b, int64_t tol)
{
	return a->start_ns <= b->start_ns + b->len_ns + tol
	    && b->start_ns <= a->start_ns + a->len_ns + tol;
}

static int64_t
end_of(const struct rbs_stall_ev *e)
{
	return e->start_ns + e->len_ns;
}

static void
emit(struct rbs_stall *out, size_t outcap, size_t *n, uint64_t *dropped, const struct rbs_stall *s)
{
	if (*n < outcap)
		out[(*n)++] = *s;
	else if (dropped)
		(*dropped)++;
}

size_t
rbs_stalltrack_flush(struct rbs_stalltrack *t, int64_t before_ns, int64_t guard_ns,
	struct rbs_stall *out, size_t outcap, uint64_t *dropped)
{
	size_t n = 0, i, j, keep;
	int64_t fifo_before = before_ns == INT64_MAX ? INT64_MAX : before_ns - guard_ns;

	/* OTHER wake-ups, classified against every FIFO one known. */
	for (i = 0, keep = 0; i < t->nother; i++) {
		const struct rbs_stall_ev *o = &t->other[i];
		struct rbs_stall s;
		if (end_of(o) >= before_ns) {
			t->other[keep++] = *o;
			continue;
		}
		s.cpu = t->cpu;
		s.start_ns = o->start_ns;
		s.len_ns = o->len_ns;
		s.other_ns = o->len_ns;
		s.fifo_ns = 0;
		s.kind = RBS_STALL_PROCESS;
		for (j = 0; j < t->nfifo; j++) {
			if (!overlaps(o, &t->fifo[j], t->tolerance_ns))
				continue;
			s.kind = RBS_STALL_KERNEL;
			t->fifo_used[j] = 1;
			if (t->fifo[j].len_ns > s.fifo_ns)
				s.fifo_ns = t->fifo[j].len_ns;
		}
		emit(out, outcap, &n, dropped, &s);
	}
	t->nother = keep;

	/* FIFO wake-ups: matched ones are done once old enough; unmatched
	 * ones are stalls of their own. */
	for (j = 0, keep = 0; j < t->nfifo; j++) {
		const struct rbs_stall_ev *f = &t->fifo[j];
		if (end_of(f) >= fifo_before) {
			t->fifo_used[keep] = t->fifo_used[j];
			t->fifo[keep++] = *f;
			continue;
		}
		if (!t->fifo_used[j]) {
			struct rbs_stall s = { t->cpu, f->start_ns, f->len_ns, f->len_ns, 0,
				RBS_STALL_KERNEL };
			emit(out, outcap, &n, dropped, &s);
		}
	}
	t->nfifo = keep;
	return n;
}
