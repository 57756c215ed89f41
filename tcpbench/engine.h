/*
 * engine.h -- the scheduler and the connection state machine on libevent.
 *
 * A timer starts every connection whose scheduled time (schedule.h) has
 * come, records how late it started, and re-arms itself for the next one.
 * Each connection: non-blocking connect, send one length-prefixed query,
 * read the whole answer, check ID and QR (ldns wire macros), close. A
 * per-connection timer (libevent common timeout) fails it when it has not
 * finished within the timeout, counted from its actual start, so every
 * connection gets its full time. SIGINT/SIGTERM stop the scheduling; the
 * connections in flight finish or time out, then the run ends.
 */
#ifndef TCPB_ENGINE_H
#define TCPB_ENGINE_H

#include <stdint.h>
#include "options.h"
#include "query.h"
#include "network.h"
#include "schedule.h"
#include "stats.h"

struct tcpb_engine;

struct tcpb_engine *tcpb_engine_create(const struct tcpb_options *o,
	struct tcpb_querylist *ql, struct tcpb_sources *src, const struct tcpb_addr *dst,
	struct tcpb_stats *stats, char *err, size_t errlen);
/* Run the whole schedule; 0, or -1 with a message. */
int tcpb_engine_run(struct tcpb_engine *e, char *err, size_t errlen);
int tcpb_engine_interrupted(const struct tcpb_engine *e);
/* Wall time from t0 to the end of the run, in ns. */
uint64_t tcpb_engine_elapsed_ns(const struct tcpb_engine *e);
/* Time from t0 to the last start, in ns. */
uint64_t tcpb_engine_last_start_ns(const struct tcpb_engine *e);
uint64_t tcpb_engine_max_inflight(const struct tcpb_engine *e);
void tcpb_engine_free(struct tcpb_engine *e);

#endif
