/*
 * engine.h -- the scheduler and the connection state machine on libevent.
 *
 * One engine runs in each worker process and starts that worker's
 * connections (a residue class of the schedule, schedule.h). The
 * scheduler wakes on a periodic tick (--tick-us, one timerfd armed once,
 * no re-arm per connection), and starts every connection that is due, at
 * most --max-burst per wake-up; the rest stay due for the next tick and
 * the wake-up is counted (a burst deferral makes the run invalid). Each
 * start records how late it was. Each connection: non-blocking connect,
 * send one length-prefixed query, read the whole answer, check ID and QR
 * (ldns wire macros), close. A per-connection timer (libevent common
 * timeout) fails it when it has not finished within the timeout, counted
 * from its actual start, so every connection gets its full time.
 * SIGINT/SIGTERM stop the scheduling; the connections in flight finish or
 * time out, then the run ends.
 */
#ifndef TCPB_ENGINE_H
#define TCPB_ENGINE_H

#include <stdint.h>
#include "options.h"
#include "query.h"
#include "network.h"
#include "schedule.h"
#include "stats.h"
#include "tls.h"

struct tcpb_engine;

/* The engine of worker `worker` of `nworkers` (connections i with
 * i mod nworkers == worker). src is modified (its round robin). tls:
 * the TLS client context (--tls), else NULL. */
struct tcpb_engine *tcpb_engine_create(const struct tcpb_options *o,
	struct tcpb_querylist *ql, struct tcpb_sources *src, const struct tcpb_addr *dst,
	struct tcpb_tls *tls, struct tcpb_stats *stats, unsigned worker, unsigned nworkers,
	char *err, size_t errlen);
/* Run the whole schedule from t0 (CLOCK_MONOTONIC, ns); 0, or -1 with a
 * message. SIGINT and SIGTERM are taken by the engine and unblocked here. */
int tcpb_engine_run(struct tcpb_engine *e, uint64_t t0_ns, char *err, size_t errlen);
int tcpb_engine_interrupted(const struct tcpb_engine *e);
/* CLOCK_MONOTONIC at the end of the run, in ns. */
uint64_t tcpb_engine_end_ns(const struct tcpb_engine *e);
/* Time from t0 to the last start, in ns. */
uint64_t tcpb_engine_last_start_ns(const struct tcpb_engine *e);
/* Connections in this engine's part of the schedule. */
uint64_t tcpb_engine_scheduled(const struct tcpb_engine *e);
void tcpb_engine_free(struct tcpb_engine *e);

#endif
