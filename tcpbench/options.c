/*
 * options.c -- command-line parsing and validation; see options.h.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "network.h"
#include "../analysis/lib/cliopt.h"
#include "../analysis/lib/numparse.h"

void
tcpb_options_usage(FILE *f)
{
	fprintf(f,
"usage: tcpbench -s ADDR [-p PORT] -r RATE -d SECONDS [-t TIMEOUT_MS]\n"
"                [-q QUERYFILE | -n QNAME/QTYPE] [-e SIZE] [-D] [-R]\n"
"                [-b SOURCE_PREFIX_OR_LIST] [--json FILE|-] [--margin PCT]\n"
"                [--rst-close] [--quiet] [--tick-us U] [--max-burst N]\n"
"                [--series-ms M] [-w WORKERS] [--start-at EPOCH.FRACTION]\n"
"                [--allow-range CIDR]... [--queries-per-conn N [--pipeline]]\n"
"                [--tls [--tls-ca FILE] [--tls-name NAME] [--tls-resume]]\n"
"  One new TCP connection per query, started open-loop at t0 + i/RATE.\n"
"  -s ADDR       server address (numeric IPv4 or IPv6); only loopback\n"
"                (127.0.0.0/8, ::1), the benchmarking ranges 198.18.0.0/15\n"
"                and 2001:2::/48, or a range given with --allow-range\n"
"  -p PORT       server port (53)\n"
"  -r RATE       connections per second\n"
"  -d SECONDS    duration of the schedule\n"
"  -t MS         per-connection timeout (2000)\n"
"  -q FILE       query list: 'qname qtype [edns=SIZE|noedns|do|rd ...]' per line\n"
"  -n NAME/TYPE  one query (default ./SOA)\n"
"  -e SIZE       EDNS0 with this UDP size;  -D  set DO (implies EDNS);  -R  set RD\n"
"  -b SOURCES    local source addresses: list and/or prefixes, comma-separated\n"
"  --json FILE   write the results as JSON (- for stdout)\n"
"  --margin PCT  allowed start lateness, percent of the timeout (5)\n"
"  --rst-close   close with SO_LINGER 0 (RST, no TIME-WAIT)\n"
"  --quiet       no progress line each second\n"
"  --tick-us U   scheduler wake-up period, 50..1000 (200)\n"
"  --max-burst N most starts per wake-up (64); more due at one wake-up\n"
"                makes the run generator-limited\n"
"  --series-ms M time-series slot (100)\n"
"  -w N          worker processes (1), connection i to worker i mod N,\n"
"                each pinned to one allowed CPU when N > 1\n"
"  --start-at T  t0 at CLOCK_REALTIME T (seconds since the epoch, with a\n"
"                fraction); at most 1 s past and 1 hour ahead\n"
"  --allow-range CIDR  a real lab's own range the server may be in\n"
"                (repeatable; several CIDRs separated by spaces or commas;\n"
"                at most a /8 or /16 each); anything else: exit 1, no packet\n"
"  --queries-per-conn N  N queries (1..64) on each connection, the next N\n"
"                of the list, each sent when the one before is answered;\n"
"                the connection succeeds when all N are answered (1)\n"
"  --pipeline    send a connection's N queries at once (RFC 7766 6.2.1.1)\n"
"  --tls         DNS over TLS (RFC 7858), port 853 unless -p; failures of\n"
"                the handshake and of the certificate are counted causes\n"
"  --tls-ca FILE verify the server's certificate against the CAs in FILE\n"
"                (its IP address, or --tls-name); without it, no check\n"
"  --tls-name N  the name the certificate must carry (also sent as SNI)\n"
"  --tls-resume  resume sessions: offer the newest ticket the server sent\n"
"exit: 0 valid run, 1 error (also: a worker died), 3 generator-limited\n"
"      (self-check failed: late starts or timeouts, pool, burst over --max-burst),\n"
"      4 interrupted (SIGINT/SIGTERM; results written, marked interrupted)\n");
}

/* Seconds since the epoch with an optional fraction, e.g. 1700000000.25;
 * long double keeps nanoseconds. */
static int
parse_epoch(const char *s, long double *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*out = strtold(s, &end);
	return (errno || end == s || *end || !isfinite(*out)) ? -1 : 0;
}

int
tcpb_options_parse(struct tcpb_options *o, int argc, char **argv,
	char *err, size_t errlen)
{
	enum { OPT_JSON = 256, OPT_MARGIN, OPT_RST, OPT_QUIET, OPT_STALL, OPT_SRCMAX,
		OPT_TICK, OPT_BURST, OPT_SERIES, OPT_START, OPT_ALLOW,
		OPT_QPC, OPT_TLS, OPT_TLS_CA, OPT_TLS_NAME, OPT_TLS_RESUME, OPT_PIPELINE };
	static const struct option longopts[] = {
		{ "json", required_argument, NULL, OPT_JSON },
		{ "margin", required_argument, NULL, OPT_MARGIN },
		{ "rst-close", no_argument, NULL, OPT_RST },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "stall-ms", required_argument, NULL, OPT_STALL },
		{ "sources-max", required_argument, NULL, OPT_SRCMAX },
		{ "tick-us", required_argument, NULL, OPT_TICK },
		{ "max-burst", required_argument, NULL, OPT_BURST },
		{ "series-ms", required_argument, NULL, OPT_SERIES },
		{ "start-at", required_argument, NULL, OPT_START },
		{ "allow-range", required_argument, NULL, OPT_ALLOW },
		{ "queries-per-conn", required_argument, NULL, OPT_QPC },
		{ "pipeline", no_argument, NULL, OPT_PIPELINE },
		{ "tls", no_argument, NULL, OPT_TLS },
		{ "tls-ca", required_argument, NULL, OPT_TLS_CA },
		{ "tls-name", required_argument, NULL, OPT_TLS_NAME },
		{ "tls-resume", no_argument, NULL, OPT_TLS_RESUME },
		{ "workers", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long u;
	int c, port_set = 0;

	memset(o, 0, sizeof(*o));
	rb_target_init(&o->target);
	o->port = 53;
	o->timeout_ms = 2000;
	o->margin_pct = 5.0;
	o->sources_max = TCPB_SOURCES_MAX;
	o->rate = -1;
	o->duration_s = -1;
	o->tick_us = 200;
	o->max_burst = 64;
	o->series_ms = 100;
	o->workers = 1;
	o->queries_per_conn = 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:p:r:d:t:q:n:e:DRb:w:h", longopts, NULL)) != -1) {
		switch (c) {
		case 's': o->server = optarg; break;
		case 'p':
			if (rb_parse_uint(optarg, 65535, &u) < 0 || u == 0)
				goto bad;
			o->port = (unsigned)u;
			port_set = 1;
			break;
		case 'r':
			if (rb_parse_double(optarg, &o->rate) < 0 || !(o->rate > 0))
				goto bad;
			break;
		case 'd':
			if (rb_parse_double(optarg, &o->duration_s) < 0 || !(o->duration_s > 0))
				goto bad;
			break;
		case 't':
			if (rb_parse_uint(optarg, 3600000, &u) < 0 || u == 0)
				goto bad;
			o->timeout_ms = (unsigned)u;
			break;
		case 'q': o->queryfile = optarg; break;
		case 'n': o->single = optarg; break;
		case 'e':
			if (rb_parse_uint(optarg, 65535, &u) < 0 || u < 512)
				goto bad;
			o->edns_size = (int)u;
			break;
		case 'D': o->do_bit = 1; break;
		case 'R': o->rd = 1; break;
		case 'b': o->sources = optarg; break;
		case OPT_JSON: o->json = optarg; break;
		case OPT_MARGIN:
			if (rb_parse_double(optarg, &o->margin_pct) < 0 || o->margin_pct < 0
			    || o->margin_pct > 100)
				goto bad;
			break;
		case OPT_RST: o->rst_close = 1; break;
		case OPT_QUIET: o->quiet = 1; break;
		case OPT_STALL:
			if (rb_parse_uint(optarg, 600000, &u) < 0)
				goto bad;
			o->stall_ms = (unsigned)u;
			break;
		case OPT_SRCMAX:
			if (rb_parse_uint(optarg, 1u << 24, &u) < 0 || u == 0)
				goto bad;
			o->sources_max = (size_t)u;
			break;
		case 'w':
			if (rb_parse_uint(optarg, TCPB_WORKERS_MAX, &u) < 0 || u == 0)
				goto bad;
			o->workers = (unsigned)u;
			break;
		case OPT_TICK:
			if (rb_parse_uint(optarg, 1000, &u) < 0 || u < 50)
				goto bad;
			o->tick_us = (unsigned)u;
			break;
		case OPT_BURST:
			if (rb_parse_uint(optarg, 1000000, &u) < 0 || u == 0)
				goto bad;
			o->max_burst = (unsigned)u;
			break;
		case OPT_SERIES:
			if (rb_parse_uint(optarg, 3600000, &u) < 0 || u == 0)
				goto bad;
			o->series_ms = (unsigned)u;
			break;
		case OPT_START:
			if (parse_epoch(optarg, &o->start_at) < 0)
				goto bad;
			o->has_start_at = 1;
			break;
		case OPT_ALLOW: {
			int n = snprintf(err, errlen, "--allow-range: ");
			if (rb_target_allow(&o->target, optarg, err + n, errlen - (size_t)n) < 0)
				return -1;
			break;
		}
		case OPT_QPC:
			if (rb_parse_uint(optarg, TCPB_QPC_MAX, &u) < 0 || u == 0)
				goto bad;
			o->queries_per_conn = (unsigned)u;
			break;
		case OPT_PIPELINE: o->pipeline = 1; break;
		case OPT_TLS: o->tls = 1; break;
		case OPT_TLS_CA: o->tls_ca = optarg; break;
		case OPT_TLS_NAME:
			if (!*optarg)
				goto bad;
			o->tls_name = optarg;
			break;
		case OPT_TLS_RESUME: o->tls_resume = 1; break;
		case 'h':
			tcpb_options_usage(stdout);
			return 1;
		default:
			return rb_cliopt_getopt_error(c, argv, err, errlen);
		}
	}
	if (rb_cliopt_leftover(argc, argv, err, errlen) < 0)
		return -1;
	if (!o->server) {
		snprintf(err, errlen, "no server: -s ADDR is required");
		return -1;
	}
	if (o->rate < 0 || o->duration_s < 0) {
		snprintf(err, errlen, "-r RATE and -d SECONDS are required");
		return -1;
	}
	if (o->queryfile && o->single) {
		snprintf(err, errlen, "-q and -n exclude each other");
		return -1;
	}
	if (!o->queryfile && !o->single)
		o->single = "./SOA";
	if (!o->tls && (o->tls_ca || o->tls_name || o->tls_resume)) {
		snprintf(err, errlen, "--tls-ca, --tls-name and --tls-resume need --tls");
		return -1;
	}
	if (o->tls && !port_set)
		o->port = 853;
	/* A start may be up to one tick late by design; a margin shorter
	 * than that would make every run generator-limited. */
	if ((double)o->timeout_ms * 1000.0 * o->margin_pct / 100.0 < (double)o->tick_us) {
		snprintf(err, errlen, "the margin (%g %% of %u ms = %.0f us) is shorter than the "
			"tick (--tick-us %u): raise -t or --margin, or lower --tick-us",
			o->margin_pct, o->timeout_ms,
			(double)o->timeout_ms * 1000.0 * o->margin_pct / 100.0, o->tick_us);
		return -1;
	}
	return 0;
bad:
	return rb_cliopt_bad_value(c, optarg, longopts, err, errlen);
}
