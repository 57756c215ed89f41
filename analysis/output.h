/*
 * output.h -- printing a ds_stats: one JSON object (schema
 * "rootbench.dnsstat/1", see docs/dnsstat.md), human-readable tables, and
 * a whitespace-column size table for gnuplot.
 */
#ifndef DS_OUTPUT_H
#define DS_OUTPUT_H

#include <stdio.h>
#include "stats.h"

/* What the run was, printed alongside the counts. */
struct ds_run_info {
	const char *input;
	const char *linktype;
	const char *filter;	/* NULL when none */
	const char *mode;	/* "fast" or "full" */
	unsigned port;
	unsigned bin;		/* histogram bin width in bytes */
	size_t tcp_flows_max;	/* TCP flows held at once */
	double elapsed_s;	/* packet loop wall time */
	const char *read_error;	/* why reading stopped early, or NULL */
};

/* ds_rcode_name: mnemonic of a 4-bit header rcode ("NOERROR", ...) or its
 * number as a string for unassigned codes; buf holds >= 8 bytes. */
const char *ds_rcode_name(unsigned rcode, char *buf, size_t len);

/* Each returns 0, or -1 when writing failed (errno set). */
int ds_output_json(FILE *out, const struct ds_stats *s,
	const struct ds_run_info *info);
int ds_output_text(FILE *out, const struct ds_stats *s,
	const struct ds_run_info *info);
int ds_output_sizes_table(FILE *out, const struct ds_stats *s,
	const struct ds_run_info *info);

#endif /* DS_OUTPUT_H */
