/*
 * prun.h -- what a probe run's protocols share: the event base, the
 * options, where to send (the guard has passed it), the query (ID 0, no
 * length prefix) and what its answers are checked against, t0 of the
 * absolute-time schedule, and the generator of query IDs.
 */
#ifndef PROBE_PRUN_H
#define PROBE_PRUN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <event2/event.h>
#include "pcheck.h"
#include "../network.h"
#include "popts.h"

/* The most source addresses one probe sends from (a UDP socket each). */
#define PROBE_SOURCES_MAX 64

struct probe_run {
	struct event_base *base;
	const struct probe_options *o;
	struct sockaddr_storage dst;
	socklen_t dstlen;
	/* --source: the local addresses, taken in turn (none: the kernel's
	 * choice), so that a load balancer hashing on addresses spreads the
	 * probe's queries as it spreads a population of clients. */
	struct tcpb_sources src;
	const uint8_t *query;
	size_t qlen;
	const struct probe_expect *expect;
	uint64_t t0_ns;                 /* CLOCK_MONOTONIC */
	uint64_t timeout_ns;
	uint64_t rng;                   /* xorshift64* state, never 0 */
};

/* A query ID: they need to differ, not to be secret. */
static inline uint16_t
probe_run_random_id(struct probe_run *r)
{
	r->rng ^= r->rng >> 12;
	r->rng ^= r->rng << 25;
	r->rng ^= r->rng >> 27;
	return (uint16_t)((r->rng * UINT64_C(2685821657736338717)) >> 48);
}

#endif
