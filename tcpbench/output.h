/*
 * output.h -- tcpbench's results: the JSON document (schema
 * "rootbench.tcpbench/2", see docs/tcpbench.md) and the text summary.
 */
#ifndef TCPB_OUTPUT_H
#define TCPB_OUTPUT_H

#include <stdio.h>
#include <stdint.h>
#include "histogram.h"
#include "options.h"
#include "stats.h"
#include "worker.h"

#define TCPB_SCHEMA "rootbench.tcpbench/2"

struct tcpb_report {
	const struct tcpb_options *o;
	const struct tcpb_stats *s;     /* all workers merged */
	const struct tcpb_workers *ws;
	uint64_t scheduled;             /* connections in the schedule */
	int valid;                      /* self-check passed (every worker) */
	int interrupted;
	double margin_us;
	double elapsed_s;               /* t0 to the end of the run */
	double last_start_s;            /* t0 to the last start */
	long double t0_realtime;        /* CLOCK_REALTIME of t0, seconds */
	double cpu_user_s, cpu_sys_s;
	uint64_t rlimit_nofile;
	size_t nsources, nqueries;
	uint64_t unknown_tokens;
};

/* One histogram as a JSON object: count, mean, sum, min, percentiles, max
 * and the non-empty buckets [low, high, count] (mergeable exactly, see
 * tcpbench/hist.jq). */
void tcpb_output_hist(FILE *f, const struct tcpb_hist *h);
void tcpb_output_json(FILE *f, const struct tcpb_report *r);
/* Write the JSON to path ("-": stdout) through a temporary file renamed
 * into place; -1 with a message. */
int tcpb_output_json_path(const char *path, const struct tcpb_report *r,
	char *err, size_t errlen);
void tcpb_output_text(FILE *f, const struct tcpb_report *r);

#endif
