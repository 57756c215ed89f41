/*
 * probe_tcp.h -- the probe over TCP: a new connection per slot of the
 * schedule, timed from the slot's intended time (before connect()), the
 * query sent with its 2-byte length, the connection closed after the
 * answer. A connection refused or reset, or failing otherwise, is an
 * error of that kind; no whole answer within the timeout (counted from
 * the intended start) is a timeout.
 */
#ifndef PROBE_TCP_H
#define PROBE_TCP_H

#include "presult.h"
#include "prun.h"

struct probe_tcp;

struct probe_tcp *probe_tcp_new(struct probe_run *run, struct probe_counts *c,
	double schedule_s, char *err, size_t errlen);
int probe_tcp_start(struct probe_tcp *t, char *err, size_t errlen);
void probe_tcp_stop(struct probe_tcp *t);
int probe_tcp_sending(const struct probe_tcp *t);
/* Connections still open. */
uint64_t probe_tcp_outstanding(const struct probe_tcp *t);
/* Close them: timeouts, counted as abandoned. */
void probe_tcp_abandon(struct probe_tcp *t);
void probe_tcp_free(struct probe_tcp *t);

#endif
