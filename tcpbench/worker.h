/*
 * worker.h -- tcpbench's worker processes (-w N).
 *
 * The parent forks N workers that share one schedule and one t0 (chosen
 * by the parent before the fork): worker k starts connections
 * k, k+N, k+2N, ... at t0 + i/rate, each with an engine (engine.h) of its
 * own, its own RLIMIT_NOFILE budget and, when N > 1, pinned to the k-th
 * CPU (modulo their count) of the allowed set. Each worker writes its
 * tcpb_stats, time series and rusage into memory shared with the parent
 * (raw structs, no text), and marks it done. The parent prints progress
 * from the shared counters, forwards SIGINT/SIGTERM to the workers as
 * SIGTERM (they stop scheduling and drain), and reaps them; a worker that
 * dies or ends without a result is an error.
 */
#ifndef TCPB_WORKER_H
#define TCPB_WORKER_H

#include <stdint.h>
#include <sys/types.h>
#include "network.h"
#include "options.h"
#include "query.h"
#include "stats.h"
#include "tls.h"

struct tcpb_worker {
	pid_t pid;
	int cpu;                /* pinned CPU, -1 when not pinned */
	int done;               /* the worker wrote its result (set last) */
	int interrupted;        /* its engine stopped on a signal */
	uint64_t scheduled;     /* connections of its residue class */
	uint64_t end_ns;        /* CLOCK_MONOTONIC at its end */
	uint64_t last_start_ns; /* t0 to its last start */
	double cpu_user_s, cpu_sys_s;
	char err[512];
	struct tcpb_stats stats;
};

struct tcpb_workers {
	unsigned n;
	struct tcpb_worker *w;  /* n of them, in shared memory */
	struct tcpb_slot *slot; /* n x nslot, in shared memory */
	size_t nslot;
	int *live;              /* parent: worker k not yet reaped */
	void *map;
	size_t maplen;
	int interrupted;        /* the parent got SIGINT or SIGTERM */
};

/* Fork o->workers workers, run the schedule from t0_ns (CLOCK_MONOTONIC)
 * and wait for all of them. 0 when every worker left its result (perhaps
 * interrupted); -1 with a message when a worker could not be started,
 * failed or died (the others are stopped). tls: the TLS client context
 * (--tls; each worker has its own copy after the fork), else NULL. */
int tcpb_workers_run(struct tcpb_workers *ws, const struct tcpb_options *o,
	struct tcpb_querylist *ql, struct tcpb_sources *src, const struct tcpb_addr *dst,
	struct tcpb_tls *tls, uint64_t t0_ns, char *err, size_t errlen);
void tcpb_workers_free(struct tcpb_workers *ws);

#endif
