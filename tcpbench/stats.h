/*
 * stats.h -- what tcpbench measures: connection outcomes counted by
 * failure cause and errno, latency histograms (from the scheduled start,
 * wrk2 style, so a late start cannot hide server delay; and connect time
 * from the actual connect), scheduling lateness, and a per-second series
 * keyed by scheduled start second.
 */
#ifndef TCPB_STATS_H
#define TCPB_STATS_H

#include <stdint.h>
#include <stddef.h>
#include "histogram.h"

enum tcpb_cause {
	TCPB_CAUSE_TIMEOUT = 0,   /* not finished within the timeout */
	TCPB_CAUSE_REFUSED,       /* RST to the SYN (closed port) */
	TCPB_CAUSE_RESET,         /* RST after the connection was set up */
	TCPB_CAUSE_SHORT,         /* EOF before a whole answer */
	TCPB_CAUSE_BAD,           /* answer with wrong ID, QR clear, too short */
	TCPB_CAUSE_LOCAL,         /* local resource: EMFILE, EADDRNOTAVAIL, ... */
	TCPB_CAUSE_UNREACHABLE,   /* ENETUNREACH, EHOSTUNREACH */
	TCPB_CAUSE_OTHER,
	TCPB_CAUSE_N
};

#define TCPB_ERRNO_MAX 160

struct tcpb_second {
	uint64_t attempted, succeeded, failed;
	uint64_t max_lateness_us;
};

struct tcpb_stats {
	uint64_t attempted, succeeded, failed;
	uint64_t cause[TCPB_CAUSE_N];
	uint64_t errnos[TCPB_ERRNO_MAX];
	uint64_t late_starts;           /* starts later than the margin */
	uint64_t late_timeouts;         /* timeouts handled later than the margin */
	uint64_t pool_exhausted;        /* starts without a free connection slot */
	uint64_t max_lateness_ns;
	uint64_t max_timer_lateness_ns; /* how late timeouts fired */
	struct tcpb_hist latency_us, connect_us, lateness_us;
	struct tcpb_second *sec;
	size_t nsec;
};

const char *tcpb_cause_name(enum tcpb_cause c);
int tcpb_stats_init(struct tcpb_stats *s, size_t seconds);
void tcpb_stats_free(struct tcpb_stats *s);
/* Index of the per-second slot of a scheduled offset (clamped). */
size_t tcpb_stats_second(const struct tcpb_stats *s, uint64_t offset_ns);
void tcpb_stats_start(struct tcpb_stats *s, uint64_t offset_ns, uint64_t lateness_ns,
	int too_late);
void tcpb_stats_success(struct tcpb_stats *s, uint64_t offset_ns, uint64_t latency_ns);
void tcpb_stats_failure(struct tcpb_stats *s, uint64_t offset_ns, enum tcpb_cause c, int err);

#endif
