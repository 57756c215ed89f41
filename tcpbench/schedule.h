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
 *
 * With worker processes (-w N) worker k owns the residue class
 * k, k+N, k+2N, ... of the one schedule (tcpb_schedule_set_class); every
 * connection keeps its time t0 + i/rate. The scheduler wakes on a periodic
 * tick and asks how many of its connections are due (tcpb_schedule_due).
 */
#ifndef TCPB_SCHEDULE_H
#define TCPB_SCHEDULE_H

#include <stdint.h>

struct tcpb_schedule {
	double rate;            /* connections per second */
	uint64_t count;         /* connections in the run */
	uint64_t t0_ns;         /* CLOCK_MONOTONIC at the start */
	uint64_t margin_ns;     /* allowed lateness */
	uint64_t first, stride; /* this worker's connections: first + k*stride */
	uint64_t next;          /* index of this worker's next connection */
};

/* 0 on success, -1 when rate/duration give no connection or too many. */
int tcpb_schedule_init(struct tcpb_schedule *s, double rate, double duration_s,
	uint64_t margin_ns);
/* Make s the schedule of worker `first` of `stride` workers. */
void tcpb_schedule_set_class(struct tcpb_schedule *s, uint64_t first, uint64_t stride);
/* How many connections the class holds (all of them for 1 worker). */
uint64_t tcpb_schedule_class_count(const struct tcpb_schedule *s);
/* How many connections of the whole schedule are due at now
 * (t0 + offset(i) <= now): the index of the first one not yet due. */
uint64_t tcpb_schedule_due_total(const struct tcpb_schedule *s, uint64_t now_ns);
/* How many of this class's connections, from next on, are due at now. */
uint64_t tcpb_schedule_due(const struct tcpb_schedule *s, uint64_t now_ns);
/* Nonzero when every connection of the class has been started. */
int tcpb_schedule_done(const struct tcpb_schedule *s);
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
