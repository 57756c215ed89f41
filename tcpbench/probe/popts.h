/*
 * popts.h -- rbprobe's command line, declared once: each option is one
 * row of a table {long name, short letter, type, argument, default, range,
 * help}, from which popts_parse builds getopt_long's table and short
 * string, applies the defaults (through the same parser as a given value)
 * and checks every value against its range, and popts_usage writes --help.
 * What no single row can say (an option another requires or excludes) is
 * checked after the table, in popts_parse, once.
 */
#ifndef PROBE_POPTS_H
#define PROBE_POPTS_H

#include <stddef.h>
#include <stdio.h>
#include "../../analysis/lib/target.h"

/* Most queries one protocol may have in flight (rate x timeout). */
#define PROBE_INFLIGHT_MAX 30000

struct probe_options {
	const char *server;
	unsigned long port;
	double udp_rate, tcp_rate;      /* queries per second; 0: off */
	double duration_s;              /* 0: not given */
	int until_signal;
	double max_duration_s;
	unsigned long timeout_ms;
	unsigned long stop_wait_ms;     /* after a signal; has_stop_wait: given */
	int has_stop_wait;
	const char *qname, *qtype;
	unsigned long edns_size;        /* 0: no OPT record */
	int do_bit;
	unsigned long serial;
	int has_serial;                 /* --serial given */
	const char *source;
	const char *json;
	int quiet;
	int help;
	struct rb_target target;        /* the guard, with --allow-range */
};

/* 0; 1 when --help was given (the caller prints popts_usage); -1 with
 * one sentence naming the option in err. */
int popts_parse(struct probe_options *o, int argc, char **argv, char *err, size_t errlen);
void popts_usage(FILE *f);

#endif
