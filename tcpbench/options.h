/*
 * options.h -- tcpbench's command line.
 *
 *   tcpbench -s ADDR [-p PORT] -r RATE -d SECONDS [-t TIMEOUT_MS]
 *            [-q QUERYFILE | -n QNAME/QTYPE] [-e SIZE] [-D] [-R]
 *            [-b SOURCE_PREFIX_OR_LIST] [--json FILE|-] [--margin PCT]
 *            [--rst-close] [--quiet] [--tick-us U] [--max-burst N]
 *            [--series-ms M] [-w WORKERS] [--start-at EPOCH.FRACTION]
 *            [--allow-range CIDR]... [--queries-per-conn N [--pipeline]]
 *            [--tls [--tls-ca FILE] [--tls-name NAME] [--tls-resume]]
 *
 * The server must be an address the target guard allows
 * (analysis/lib/target.h): loopback, the benchmarking ranges, or a lab range
 * declared with --allow-range.
 */
#ifndef TCPB_OPTIONS_H
#define TCPB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>
#include "../analysis/lib/target.h"

#define TCPB_WORKERS_MAX 256
#define TCPB_QPC_MAX 64         /* most queries per connection */

struct tcpb_options {
	const char *server;
	unsigned port;
	double rate;            /* connections per second */
	double duration_s;
	unsigned timeout_ms;
	double margin_pct;      /* allowed start lateness, % of the timeout */
	const char *queryfile;
	const char *single;     /* -n QNAME/QTYPE */
	const char *sources;    /* -b */
	size_t sources_max;
	const char *json;       /* --json FILE or "-" */
	int edns_size;          /* -e; 0 = no EDNS */
	int do_bit;             /* -D */
	int rd;                 /* -R */
	int rst_close;          /* --rst-close: SO_LINGER 0 */
	int quiet;              /* no progress lines */
	unsigned stall_ms;      /* hidden test option: stall the scheduler once */
	unsigned tick_us;       /* scheduler wake-up period (50..1000) */
	unsigned max_burst;     /* most starts per wake-up */
	unsigned series_ms;     /* time-series slot */
	unsigned workers;       /* -w: worker processes */
	int has_start_at;
	long double start_at;   /* --start-at: CLOCK_REALTIME of t0, seconds */
	struct rb_target target; /* the guard, with the --allow-range ranges */
	unsigned queries_per_conn; /* on each connection (1) */
	int pipeline;           /* all of them at once, not one per answer */
	int tls;                /* --tls: DNS over TLS (port 853 unless -p) */
	const char *tls_ca;     /* verify against these CAs (NULL: no check) */
	const char *tls_name;   /* verify this name, send it as SNI */
	int tls_resume;         /* offer the newest session ticket */
};

/* Parse argv. Returns 0, 1 when help was asked for (printed), or -1 with
 * a message in err. */
int tcpb_options_parse(struct tcpb_options *o, int argc, char **argv,
	char *err, size_t errlen);
void tcpb_options_usage(FILE *f);

#endif
