/*
 * probe.c -- the stall probe threads; see probe.h.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include "probe.h"

#define RBS_PROBE_RING 4096

struct rbs_probe {
	struct rbs_probeset *set;
	int cpu, kind;
	pthread_t thr;
	int started;
	_Atomic int64_t max_ns;        /* since the last take; -1 = no wake-up */
	_Atomic uint64_t wakeups;
	int64_t cpu_ns;                /* own CPU time, written at exit */
	pthread_mutex_t lock;
	struct rbs_stall_ev ring[RBS_PROBE_RING];
	size_t head, count;
	uint64_t lost;
};

struct rbs_probeset {
	int ncpus;
	int64_t period_ns, threshold_ns;
	int64_t epoch_ns;              /* the probes' common wake-up grid */
	atomic_int stop;
	struct rbs_probe *p;           /* [cpu index * 2 + kind] */
};

int64_t
rbs_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static struct timespec
ts_of(int64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000), (long)(ns % 1000000000) };
	return ts;
}

static void
record_event(struct rbs_probe *p, int64_t due, int64_t late)
{
	pthread_mutex_lock(&p->lock);
	if (p->count == RBS_PROBE_RING) {
		p->lost++;
	} else {
		struct rbs_stall_ev *e = &p->ring[(p->head + p->count) % RBS_PROBE_RING];
		e->start_ns = due;
		e->len_ns = late;
		p->count++;
	}
	pthread_mutex_unlock(&p->lock);
}

static void *
probe_main(void *arg)
{
	struct rbs_probe *p = arg;
	struct rbs_probeset *ps = p->set;
	struct timespec ts;
	int64_t next, now, late;

	if (p->kind == RBS_PROBE_OTHER)
		(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	/* Every probe wakes on the same grid (epoch + k * period): the two
	 * probes of a CPU share one timer interrupt instead of two. */
	next = ps->epoch_ns;
	while (!atomic_load_explicit(&ps->stop, memory_order_relaxed)) {
		next += ps->period_ns;
		ts = ts_of(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		now = rbs_now_ns();
		late = now - next;
		if (late < 0)
			late = 0;
		atomic_fetch_add_explicit(&p->wakeups, 1, memory_order_relaxed);
		int64_t cur = atomic_load_explicit(&p->max_ns, memory_order_relaxed);
		while (late > cur && !atomic_compare_exchange_weak(&p->max_ns, &cur, late))
			;
		if (late > ps->threshold_ns)
			record_event(p, next, late);
		if (late >= ps->period_ns) {
			/* One stall is one late wake-up, not a burst: on to the
			 * first grid point after now. */
			next += (late / ps->period_ns) * ps->period_ns;
		}
	}
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	p->cpu_ns = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return NULL;
}

struct rbs_probeset *
rbs_probes_start(const int *cpus, int ncpus, int64_t period_ns, int64_t threshold_ns,
	int fifo_prio, char *err, size_t errlen)
{
	struct rbs_probeset *ps = calloc(1, sizeof(*ps));
	int i, rc;

	if (!ps || !(ps->p = calloc((size_t)ncpus * RBS_PROBE_KINDS, sizeof(*ps->p)))) {
		snprintf(err, errlen, "probes: %s", strerror(errno));
		free(ps);
		return NULL;
	}
	ps->ncpus = ncpus;
	ps->period_ns = period_ns;
	ps->threshold_ns = threshold_ns;
	ps->epoch_ns = rbs_now_ns();
	atomic_init(&ps->stop, 0);
	for (i = 0; i < ncpus * RBS_PROBE_KINDS; i++) {
		struct rbs_probe *p = &ps->p[i];
		pthread_attr_t attr;
		cpu_set_t set;
		struct sched_param sp;

		p->set = ps;
		p->cpu = cpus[i / RBS_PROBE_KINDS];
		p->kind = i % RBS_PROBE_KINDS;
		atomic_init(&p->max_ns, -1);
		atomic_init(&p->wakeups, 0);
		pthread_mutex_init(&p->lock, NULL);
		pthread_attr_init(&attr);
		CPU_ZERO(&set);
		CPU_SET(p->cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
		if (p->kind == RBS_PROBE_FIFO) {
			memset(&sp, 0, sizeof(sp));
			sp.sched_priority = fifo_prio;
			pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
			pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
			pthread_attr_setschedparam(&attr, &sp);
		}
		rc = pthread_create(&p->thr, &attr, probe_main, p);
		pthread_attr_destroy(&attr);
		if (rc != 0) {
			snprintf(err, errlen, "starting the %s probe on CPU %d: %s%s",
				p->kind == RBS_PROBE_FIFO ? "SCHED_FIFO" : "SCHED_OTHER", p->cpu,
				strerror(rc), rc == EPERM ? " (needs root or CAP_SYS_NICE; "
				"--stall-ms 0 runs without probes)" : "");
			rbs_probes_stop(ps);
			rbs_probes_free(ps);
			return NULL;
		}
		p->started = 1;
	}
	return ps;
}

int64_t
rbs_probes_take_max(struct rbs_probeset *ps, int i, int kind)
{
	return atomic_exchange(&ps->p[i * RBS_PROBE_KINDS + kind].max_ns, -1);
}

size_t
rbs_probes_take_events(struct rbs_probeset *ps, int i, int kind, int64_t before_ns,
	struct rbs_stall_ev *out, size_t cap)
{
	struct rbs_probe *p = &ps->p[i * RBS_PROBE_KINDS + kind];
	size_t n = 0;
	pthread_mutex_lock(&p->lock);
	while (p->count && n < cap) {
		struct rbs_stall_ev *e = &p->ring[p->head];
		if (e->start_ns + e->len_ns >= before_ns)
			break;
		out[n++] = *e;
		p->head = (p->head + 1) % RBS_PROBE_RING;
		p->count--;
	}
	pthread_mutex_unlock(&p->lock);
	return n;
}

void
rbs_probes_stop(struct rbs_probeset *ps)
{
	int i;
	atomic_store(&ps->stop, 1);
	for (i = 0; i < ps->ncpus * RBS_PROBE_KINDS; i++) {
		if (ps->p[i].started)
			pthread_join(ps->p[i].thr, NULL);
		ps->p[i].started = 0;
	}
}

int64_t
rbs_probes_cpu_ns(const struct rbs_probeset *ps)
{
	int64_t s = 0;
	int i;
	for (i = 0; i < ps->ncpus * RBS_PROBE_KINDS; i++)
		s += ps->p[i].cpu_ns;
	return s;
}

uint64_t
rbs_probes_wakeups(const struct rbs_probeset *ps)
{
	uint64_t s = 0;
	int i;
	for (i = 0; i < ps->ncpus * RBS_PROBE_KINDS; i++)
		s += atomic_load(&ps->p[i].wakeups);
	return s;
}

uint64_t
rbs_probes_events_lost(const struct rbs_probeset *ps)
{
	uint64_t s = 0;
	int i;
	for (i = 0; i < ps->ncpus * RBS_PROBE_KINDS; i++)
		s += ps->p[i].lost;
	return s;
}

void
rbs_probes_free(struct rbs_probeset *ps)
{
	int i;
	if (!ps)
		return;
	for (i = 0; i < ps->ncpus * RBS_PROBE_KINDS; i++)
		pthread_mutex_destroy(&ps->p[i].lock);
	free(ps->p);
	free(ps);
}
