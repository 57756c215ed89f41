/*
 * probe.h -- the stall probes: per sampled CPU, two threads pinned to it
 * that sleep P ms in absolute time (clock_nanosleep TIMER_ABSTIME) and
 * measure how late they wake. One is SCHED_FIFO, the other SCHED_OTHER
 * (timer slack 1 ns). Each keeps the largest lateness since the sampler
 * last asked, and every wake-up later than the threshold as an event for
 * stall.h. All probes wake on one grid (start + k * P), so the two probes
 * of a CPU share a timer interrupt; after a late wake-up a probe goes on
 * to the next grid point after the time it woke, so one stall is one
 * event. The probes count their own
 * CPU time (CLOCK_THREAD_CPUTIME_ID) so their cost can be reported.
 */
#ifndef RBS_PROBE_H
#define RBS_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include "stall.h"

enum { RBS_PROBE_FIFO, RBS_PROBE_OTHER, RBS_PROBE_KINDS };

struct rbs_probeset;

/* Start 2 * ncpus probe threads. The calling thread's signal mask is
 * inherited: block SIGINT/SIGTERM around the call. Returns NULL with a
 * message (e.g. SCHED_FIFO not permitted). */
struct rbs_probeset *rbs_probes_start(const int *cpus, int ncpus, int64_t period_ns,
	int64_t threshold_ns, int fifo_prio, char *err, size_t errlen);

/* The largest lateness (ns) of probe kind on the i-th CPU since the last
 * call (reset to 0 by the call); -1 when it did not wake at all since. */
int64_t rbs_probes_take_max(struct rbs_probeset *ps, int i, int kind);

/* Move the late wake-ups of probe kind on the i-th CPU that ended before
 * before_ns (CLOCK_MONOTONIC) into out (at most cap). Returns the number. */
size_t rbs_probes_take_events(struct rbs_probeset *ps, int i, int kind, int64_t before_ns,
	struct rbs_stall_ev *out, size_t cap);

/* Stop and join every probe. Events stay to be taken. */
void rbs_probes_stop(struct rbs_probeset *ps);

/* After stop: CPU time of all probes (ns), wake-ups, events lost to a full ring. */
int64_t rbs_probes_cpu_ns(const struct rbs_probeset *ps);
uint64_t rbs_probes_wakeups(const struct rbs_probeset *ps);
uint64_t rbs_probes_events_lost(const struct rbs_probeset *ps);

void rbs_probes_free(struct rbs_probeset *ps);

/* CLOCK_MONOTONIC now, ns. */
int64_t rbs_now_ns(void);

#endif /* RBS_PROBE_H */
