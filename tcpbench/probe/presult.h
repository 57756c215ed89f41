/*
 * presult.h -- what the probe counts per protocol, by outcome, and its
 * JSON document (schema "rootbench.probe/1", docs/probe.md).
 *
 * Every query sent ends as exactly one of: answered (within the timeout,
 * counted from its intended send time; correct or incorrect), a timeout
 * (no answer in time: late ones, which came after, and ones abandoned
 * when a second signal cut the wait short, are among them), or an error
 * (by kind: a refused or reset connection, a send that failed, ...). So
 * sent = answered + timeouts + errors; incorrect <= answered.
 */
#ifndef PROBE_PRESULT_H
#define PROBE_PRESULT_H

#include <stdint.h>
#include <stdio.h>
#include "pcheck.h"
#include "popts.h"
#include "../histogram.h"

enum probe_error {
	PROBE_ERR_REFUSED,      /* connection refused */
	PROBE_ERR_RESET,        /* connection reset */
	PROBE_ERR_CONNECT,      /* any other connect failure */
	PROBE_ERR_CLOSED,       /* closed before the whole answer came */
	PROBE_ERR_SEND,         /* the query could not be sent */
	PROBE_ERR_RECV,         /* reading failed otherwise */
	PROBE_ERR_N
};

struct probe_counts {
	double rate;
	uint64_t sent, answered, timeouts, incorrect, late, abandoned;
	uint64_t connect_failures;              /* TCP: refused + reset + connect */
	uint64_t error[PROBE_ERR_N];
	uint64_t verdict[PROBE_VERDICT_N];      /* of the answered */
	uint64_t stray;                         /* UDP: answers to no query of ours */
	uint64_t icmp_errors;                   /* UDP: errors the socket reported */
	struct tcpb_hist latency_us;            /* answered, from the intended send */
};

struct probe_report {
	const struct probe_options *o;
	uint16_t qtype;
	long double started;            /* CLOCK_REALTIME of t0, seconds */
	double duration_s;              /* t0 to the end of sending */
	int interrupted;                /* stopped by a signal */
	struct probe_counts udp, tcp;
};

void presult_counts_init(struct probe_counts *c, double rate);
/* One answer within the timeout: its verdict and latency. */
void presult_answered(struct probe_counts *c, enum probe_verdict v, uint64_t latency_us);
/* One error of this kind (connect failures counted apart too). */
void presult_error(struct probe_counts *c, enum probe_error e);
uint64_t presult_errors(const struct probe_counts *c);

void presult_json(FILE *f, const struct probe_report *r);
/* The JSON to path ("-": stdout), whole or not at all; -1 with a message. */
int presult_json_path(const char *path, const struct probe_report *r, char *err, size_t errlen);
/* One line per protocol. */
void presult_text(FILE *f, const struct probe_report *r);

#endif
