/*
 * ptick.h -- the clock a protocol of the probe sends by: tcpbench's
 * absolute-time schedule (query i due at t0 + i/rate) and a timerfd armed
 * for the next query's intended time; at each tick every query due is
 * handed to the protocol's send function, so a late wake-up sends the
 * queries it owes at once and their latency still counts from when they
 * were due.
 */
#ifndef PROBE_PTICK_H
#define PROBE_PTICK_H

#include <stddef.h>
#include <stdint.h>
#include <event2/event.h>
#include "../schedule.h"

struct probe_tick {
	struct tcpb_schedule sch;
	int tfd;
	struct event *ev;
	int sending;
	void (*send)(void *owner, uint64_t seq);
	void *owner;
};

/* rate queries/s for seconds; send(owner, i) sends query i. -1 with a
 * message (what names the protocol's rate option). */
int ptick_init(struct probe_tick *k, struct event_base *base, double rate, double seconds,
	const char *what, void (*send)(void *owner, uint64_t seq), void *owner,
	char *err, size_t errlen);
/* Starts the schedule at t0_ns (CLOCK_MONOTONIC); -1 with errno. */
int ptick_start(struct probe_tick *k, uint64_t t0_ns);
/* No more queries (the schedule done, or a signal). */
void ptick_stop(struct probe_tick *k);
/* The intended send time of query seq. */
uint64_t ptick_intended_ns(const struct probe_tick *k, uint64_t seq);
/* Frees what ptick_init made; safe on a zeroed tick with tfd -1. */
void ptick_free(struct probe_tick *k);

#endif
