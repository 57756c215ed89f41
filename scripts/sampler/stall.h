/*
 * stall.h -- turning the stall probes' late wake-ups into stall events.
 * Each CPU has two probes (see probe.h): a SCHED_FIFO one, delayed only by
 * interrupts, softirqs, non-preemptible kernel work (and by real-time
 * tasks of its priority or above), and a SCHED_OTHER one, delayed by all
 * of that and by other processes. A late wake-up of the OTHER probe is a
 * stall of kind "softirq/kernel" when the FIFO probe was late at the same
 * time (their intervals overlap, within a tolerance of one probe period),
 * else of kind "process". A late FIFO wake-up that no OTHER one overlaps
 * is reported as "softirq/kernel" too.
 *
 * The two probes report independently and at slightly different times,
 * so late wake-ups are kept per CPU in a tracker and classified only
 * once both probes have had time to report (rbs_stalltrack_flush).
 */
#ifndef RBS_STALL_H
#define RBS_STALL_H

#include <stddef.h>
#include <stdint.h>

/* One late wake-up of a probe: due at start_ns, woke len_ns later. */
struct rbs_stall_ev {
	int64_t start_ns;
	int64_t len_ns;
};

enum rbs_stall_kind { RBS_STALL_PROCESS, RBS_STALL_KERNEL };

struct rbs_stall {
	int cpu;
	int64_t start_ns, len_ns;   /* of the OTHER probe's late wake-up, else the FIFO one's */
	int64_t fifo_ns, other_ns;  /* each probe's lateness in it (0: not late) */
	enum rbs_stall_kind kind;
};

const char *rbs_stall_kind_name(enum rbs_stall_kind k);

#define RBS_STALLTRACK_MAX 4096

struct rbs_stalltrack {
	int cpu;
	int64_t tolerance_ns;   /* overlap slack: one probe period */
	struct rbs_stall_ev other[RBS_STALLTRACK_MAX];
	size_t nother;
	struct rbs_stall_ev fifo[RBS_STALLTRACK_MAX];
	unsigned char fifo_used[RBS_STALLTRACK_MAX];
	size_t nfifo;
	uint64_t lost;          /* wake-ups dropped: tracker full */
};

void rbs_stalltrack_init(struct rbs_stalltrack *t, int cpu, int64_t tolerance_ns);

/* Add late wake-ups of one probe (fifo: 1 for the FIFO probe). */
void rbs_stalltrack_add(struct rbs_stalltrack *t, int fifo, const struct rbs_stall_ev *ev, size_t n);

/* Classify into out (at most outcap; the number produced is returned,
 * events beyond outcap are counted in *dropped) every OTHER wake-up that
 * ended before before_ns, and every FIFO wake-up no OTHER one matched
 * that ended before before_ns - guard_ns (the OTHER probe wakes after the
 * FIFO one; guard_ns gives it time to report). INT64_MAX flushes all. */
size_t rbs_stalltrack_flush(struct rbs_stalltrack *t, int64_t before_ns, int64_t guard_ns,
	struct rbs_stall *out, size_t outcap, uint64_t *dropped);

#endif /* RBS_STALL_H */
