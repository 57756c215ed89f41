/*
 * arrivals.h -- what reaches each server, millisecond by millisecond: one
 * SCHED_FIFO thread reads the switch ports toward the servers over
 * rtnetlink (the 64-bit link statistics of one interface, RTM_GETSTATS) every
 * P ms on an absolute grid and keeps, per port and period, the packets
 * offered to the server (tx_packets + tx_dropped of a veth: what it handed
 * to the server's receive ring, and what did not fit) and the ones the
 * ring refused (tx_dropped). The 100 ms series cannot see a burst of a
 * few hundred packets that fills a 256-entry ring in a millisecond; this
 * can. With a protocol, each period also reads the counter of that
 * server's namespace where its socket refused work (UDP or UDP6
 * RcvbufErrors, TCP ListenOverflows), from a /proc file opened once in
 * that namespace (it stays bound to it) and read again from offset 0.
 * A period the thread slept through (it woke late) is marked
 * unknown (-1) and its packets counted in the next read, with the gap
 * recorded, so a late wake-up is never mistaken for a burst.
 */
#ifndef RBS_ARRIVALS_H
#define RBS_ARRIVALS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RBS_ARRIVALS_MAX 16

/* One port: ROLE (the server it leads to) = DEV in the switch's namespace. */
struct rbs_arrivals_port {
	char role[64];
	const char *dev;
};

/* The server's own counter read with the ports: none, or where its socket
 * refused work. */
enum rbs_arrivals_proto { RBS_ARR_NONE, RBS_ARR_UDP, RBS_ARR_UDP6, RBS_ARR_TCP };

/* "udp", "udp6", "tcp" -> the protocol; -1 when unknown. */
int rbs_arrivals_proto_parse(const char *s);

struct rbs_arrivals;

/* Open a netlink socket in the calling thread's current network namespace
 * (the caller has entered the switch's), resolve each port's ifindex and
 * read it once. Returns NULL with a message. */
struct rbs_arrivals *rbs_arrivals_open(const struct rbs_arrivals_port *ports, int nports,
	int64_t period_ns, char *err, size_t errlen);

/* Open port i's server counter for proto in the calling thread's current
 * network namespace (the caller has entered that server's) and read it
 * once. Returns 0, or -1 with a message. */
int rbs_arrivals_open_socket(struct rbs_arrivals *a, int i, enum rbs_arrivals_proto proto,
	char *err, size_t errlen);

/* Start the reading thread at SCHED_FIFO prio (from the caller's CPU
 * affinity), its grid starting now. The caller blocks signals around it. */
int rbs_arrivals_start(struct rbs_arrivals *a, int fifo_prio, char *err, size_t errlen);

/* Stop and join the thread (a no-op when it was not started). */
void rbs_arrivals_stop(struct rbs_arrivals *a);

/* After stop: write the per-period series to path as JSON (temp file and
 * rename), its times relative to t0_ns (CLOCK_MONOTONIC: the sampler's
 * start). After an error of the reader nothing is written: the
 * summary's "error" says why, its "file" is null. */
int rbs_arrivals_write(const struct rbs_arrivals *a, const char *path, int64_t t0_ns,
	char *err, size_t errlen);

/* After stop: the summary's "arrivals" object (no trailing newline). */
void rbs_arrivals_summary(FILE *f, const struct rbs_arrivals *a, const char *path, int64_t t0_ns);

void rbs_arrivals_free(struct rbs_arrivals *a);

#endif /* RBS_ARRIVALS_H */
