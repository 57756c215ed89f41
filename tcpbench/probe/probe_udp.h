/*
 * probe_udp.h -- the probe over UDP: one query per slot of the schedule
 * from one connected socket, each with a random ID not in flight;
 * answers matched by ID, checked (pcheck.h) and timed from the slot's
 * intended time. A query unanswered within the timeout is a timeout; an
 * answer that comes after is counted late, never answered.
 */
#ifndef PROBE_UDP_H
#define PROBE_UDP_H

#include "presult.h"
#include "prun.h"

struct probe_udp;

/* The socket and schedule (rate x schedule_s queries); NULL with a message. */
struct probe_udp *probe_udp_new(struct probe_run *run, struct probe_counts *c,
	double schedule_s, char *err, size_t errlen);
/* Arm the schedule at run->t0_ns; -1 with a message. */
int probe_udp_start(struct probe_udp *u, char *err, size_t errlen);
/* Send no more. */
void probe_udp_stop(struct probe_udp *u);
int probe_udp_sending(const struct probe_udp *u);
/* Count the queries whose timeout has passed at now. */
void probe_udp_expire(struct probe_udp *u, uint64_t now_ns);
/* Queries still waiting for an answer. */
uint64_t probe_udp_outstanding(const struct probe_udp *u);
/* Give up on those: timeouts, counted as abandoned. */
void probe_udp_abandon(struct probe_udp *u);
void probe_udp_free(struct probe_udp *u);

#endif
