/*
 * output.h -- tcpbench's results: the JSON document (schema
 * "rootbench.tcpbench/1", see docs/tcpbench.md) and the text summary.
 */
#ifndef TCPB_OUTPUT_H
#define TCPB_OUTPUT_H

#include <stdio.h>
#include <stdint.h>
#include "options.h"
#include "stats.h"

struct tcpb_report {
	const struct tcpb_options *o;
	const struct tcpb_stats *s;
	uint64_t scheduled;             /* connections in the schedule */
	int valid;                      /* self-check passed */
	int interrupted;
	double margin_us;
	double elapsed_s;               /* t0 to the end of the run */
	double last_start_s;            /* t0 to the last start */
	double cpu_user_s, cpu_sys_s;
	uint64_t rlimit_nofile;
	uint64_t max_inflight;
	size_t nsources, nqueries;
	uint64_t unknown_tokens;
};

void tcpb_output_json(FILE *f, const struct tcpb_report *r);
/* Write the JSON to path ("-": stdout) through a temporary file renamed
 * into place; -1 with a message. */
int tcpb_output_json_path(const char *path, const struct tcpb_report *r,
	char *err, size_t errlen);
void tcpb_output_text(FILE *f, const struct tcpb_report *r);

#endif
