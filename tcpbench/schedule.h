/*
 * schedule.h -- the open-loop schedule: when connection i must start.
 *
 * Connection i starts at t0 + i/rate, t0 the start of the run, always in
 * absolute time (never relative to the previous event), so a slow server
 * cannot slow the offered load. A run of D seconds at R connections/s has
 * exactly round(R*D) connections. The self-check (the paper's rule: every
 * connection gets its full time between initialisation and timeout) is
 * here too: a connection that starts more than the margin after its
 * scheduled time makes the run generator-limited.
 */
#ifndef TCPB_SCHEDULE_H
#define TCPB_SCHEDULE_H

#include <stdint.h>

struct tcpb_schedule {
	double rate;            /* connections per second */
	uint64_t count;         /* connections in the run */
	uint64_t t0_ns;         /* CLOCK_MONOTONIC at the start */
	uint64_t margin_ns;     /* allowed lateness */
	uint64_t next;          /* index of the next connection to start */
};

/* 0 on success, -1 when rate/duration give no connection or too many. */
int tcpb_schedule_init(struct tcpb_schedule *s, double rate, double duration_s,
	uint64_t margin_ns);
/* Offset of connection i from t0, in ns. */
uint64_t tcpb_schedule_offset_ns(const struct tcpb_schedule *s, uint64_t i);
/* Absolute CLOCK_MONOTONIC time of connection i. */
uint64_t tcpb_schedule_at_ns(const struct tcpb_schedule *s, uint64_t i);
/* Nonzero when a start this late breaks the self-check. */
int tcpb_schedule_too_late(const struct tcpb_schedule *s, uint64_t lateness_ns);
/* The margin: pct percent of the timeout, in ns. */
uint64_t tcpb_schedule_margin_ns(uint64_t timeout_ms, double pct);
/* CLOCK_MONOTONIC now, in ns. */
uint64_t tcpb_now_ns(void);

/* Most connections that can be open at once: rate x (timeout + margin,
 * for timer events that fire late) plus 64; sizes the connection pool
 * and so RLIMIT_NOFILE. */
uint64_t tcpb_schedule_max_inflight(double rate, uint64_t timeout_ms, double margin_pct);

#endif
