/*
 * popts.c -- rbprobe's options table and everything generated from it;
 * see popts.h.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "popts.h"
#include "../../analysis/lib/cliopt.h"
#include "../../analysis/lib/numparse.h"

enum popt_type {
	POPT_FLAG,      /* int, set to 1 */
	POPT_STRING,    /* const char * */
	POPT_UINT,      /* unsigned long in [min, max] */
	POPT_NUMBER,    /* double in [min, max] */
	POPT_RANGES     /* CIDR ranges added to the target guard */
};

struct popt_def {
	const char *name;
	int shortc;             /* 0: long only */
	enum popt_type type;
	const char *arg;        /* the argument's name in --help */
	const char *def;        /* default, parsed as a given value; NULL: none */
	double min, max;        /* range of POPT_UINT and POPT_NUMBER */
	size_t off;             /* the field in struct probe_options */
	size_t given_off;       /* an int set when given; (size_t)-1: none */
	const char *help;
};

#define F(field) offsetof(struct probe_options, field)
#define NOGIVEN ((size_t)-1)

static const struct popt_def popt_table[] = {
	{ "server", 's', POPT_STRING, "ADDR", NULL, 0, 0, F(server), NOGIVEN,
	  "server address, numeric IPv4 or IPv6 (required); only loopback, "
	  "198.18.0.0/15, 2001:2::/48 or an --allow-range range" },
	{ "port", 'p', POPT_UINT, "PORT", "53", 1, 65535, F(port), NOGIVEN,
	  "server port" },
	{ "udp-rate", 0, POPT_NUMBER, "R", "20", 0, 10000, F(udp_rate), NOGIVEN,
	  "UDP queries per second, one per slot of an absolute-time schedule (0: no UDP)" },
	{ "tcp-rate", 0, POPT_NUMBER, "R", "20", 0, 10000, F(tcp_rate), NOGIVEN,
	  "TCP queries per second, a new connection each (0: no TCP)" },
	{ "duration", 'd', POPT_NUMBER, "S", NULL, 0.001, 86400, F(duration_s), NOGIVEN,
	  "length of the schedule in seconds (this or --until-signal)" },
	{ "until-signal", 0, POPT_FLAG, NULL, NULL, 0, 0, F(until_signal), NOGIVEN,
	  "send until SIGINT/SIGTERM, at most --max-duration" },
	{ "max-duration", 0, POPT_NUMBER, "S", "3600", 1, 86400, F(max_duration_s), NOGIVEN,
	  "the longest an --until-signal run sends, in seconds" },
	{ "timeout-ms", 't', POPT_UINT, "MS", "4000", 1, 60000, F(timeout_ms), NOGIVEN,
	  "an answer later than this after its intended send time is a timeout (RSSAC047: 4 s)" },
	{ "stop-wait-ms", 0, POPT_UINT, "MS", NULL, 0, 60000, F(stop_wait_ms), F(has_stop_wait),
	  "after SIGINT/SIGTERM, wait at most this long for the answers still due; those "
	  "still due then count as timeouts and as abandoned (default: --timeout-ms)" },
	{ "qname", 0, POPT_STRING, "NAME", ".", 0, 0, F(qname), NOGIVEN,
	  "the query name" },
	{ "qtype", 0, POPT_STRING, "TYPE", "SOA", 0, 0, F(qtype), NOGIVEN,
	  "the query type" },
	{ "edns", 0, POPT_UINT, "SIZE", "0", 0, 65535, F(edns_size), NOGIVEN,
	  "advertise this UDP buffer size in an EDNS OPT record (0: no OPT record)" },
	{ "do", 0, POPT_FLAG, NULL, NULL, 0, 0, F(do_bit), NOGIVEN,
	  "set the DO bit (needs --edns): ask for the DNSSEC records, as a validating resolver does" },
	{ "serial", 0, POPT_UINT, "N", NULL, 0, 4294967295.0, F(serial), F(has_serial),
	  "the SOA serial a correct answer carries (absent: not checked)" },
	{ "source", 0, POPT_STRING, "ADDR", NULL, 0, 0, F(source), NOGIVEN,
	  "bind the sockets to this local address" },
	{ "json", 0, POPT_STRING, "FILE", NULL, 0, 0, F(json), NOGIVEN,
	  "write the results as JSON (rootbench.probe/1) to FILE, - for stdout" },
	{ "quiet", 'q', POPT_FLAG, NULL, NULL, 0, 0, F(quiet), NOGIVEN,
	  "no summary on stderr" },
	{ "allow-range", 0, POPT_RANGES, "CIDR", NULL, 0, 0, F(target), NOGIVEN,
	  "a real lab's own range the server may be in (repeatable; at most a /8 or /16)" },
	{ "help", 'h', POPT_FLAG, NULL, NULL, 0, 0, F(help), NOGIVEN,
	  "this text" },
};
#define POPT_N (sizeof(popt_table) / sizeof(popt_table[0]))

/* The getopt code of row i: its short letter, else 256 + i. */
static int
popt_code(size_t i)
{
	return popt_table[i].shortc ? popt_table[i].shortc : 256 + (int)i;
}

/* The row's range in words, for --help and errors. */
static void
popt_range(const struct popt_def *d, char *buf, size_t len)
{
	buf[0] = 0;
	if (d->type == POPT_UINT)
		snprintf(buf, len, "an integer from %.0f to %.0f", d->min, d->max);
	else if (d->type == POPT_NUMBER)
		snprintf(buf, len, "a number from %g to %g", d->min, d->max);
}

/* Store value for row d; -1 (err filled) when it is refused. */
static int
popt_set(struct probe_options *o, const struct popt_def *d, const char *value,
	char *err, size_t errlen)
{
	char *base = (char *)o + d->off, range[96];
	unsigned long u;
	double x;
	int n;
	switch (d->type) {
	case POPT_FLAG:
		*(int *)base = 1;
		break;
	case POPT_STRING:
		if (!*value)
			goto bad;
		*(const char **)base = value;
		break;
	case POPT_UINT:
		if (rb_parse_uint(value, (unsigned long)d->max, &u) < 0 || (double)u < d->min)
			goto bad;
		*(unsigned long *)base = u;
		break;
	case POPT_NUMBER:
		if (rb_parse_double(value, &x) < 0 || x < d->min || x > d->max)
			goto bad;
		*(double *)base = x;
		break;
	case POPT_RANGES:
		n = snprintf(err, errlen, "--%s: ", d->name);
		if (rb_target_allow((struct rb_target *)base, value, err + n, errlen - (size_t)n) < 0)
			return -1;
		break;
	}
	if (d->given_off != NOGIVEN)
		*(int *)((char *)o + d->given_off) = 1;
	return 0;
bad:
	popt_range(d, range, sizeof(range));
	snprintf(err, errlen, "bad value '%s' for --%s%s%s", value, d->name,
		range[0] ? ": want " : " (empty)", range);
	return -1;
}

/* text after a column-27 head, wrapped at 79 columns. */
static void
usage_wrapped(FILE *f, const char *text)
{
	const char *p = text;
	int col = 27;
	while (*p) {
		size_t w = strcspn(p, " ");
		if (col > 27 && col + 1 + (int)w > 79) {
			fprintf(f, "\n%27s", "");
			col = 27;
		} else if (col > 27) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)w, p);
		col += (int)w;
		p += w;
		p += strspn(p, " ");
	}
	fputc('\n', f);
}

void
popts_usage(FILE *f)
{
	char text[512];
	char head[64], range[96];
	size_t i;
	fprintf(f, "usage: rbprobe --server ADDR (--duration S | --until-signal) [options]\n"
		"  RSSAC047's probe: '. SOA' over UDP and over TCP (a new connection per\n"
		"  query) at fixed rates on an absolute-time schedule; latency from each\n"
		"  query's intended send time; every answer checked (QR, ID, question,\n"
		"  NOERROR, AA, one SOA for the name, its serial when --serial is given).\n");
	for (i = 0; i < POPT_N; i++) {
		const struct popt_def *d = &popt_table[i];
		if (d->shortc)
			snprintf(head, sizeof(head), "-%c, --%s%s%s", d->shortc, d->name,
				d->arg ? " " : "", d->arg ? d->arg : "");
		else
			snprintf(head, sizeof(head), "    --%s%s%s", d->name,
				d->arg ? " " : "", d->arg ? d->arg : "");
		popt_range(d, range, sizeof(range));
		snprintf(text, sizeof(text), "%s%s%s%s%s%s", d->help,
			d->def ? " (default " : "", d->def ? d->def : "", d->def ? ")" : "",
			range[0] ? "; " : "", range);
		fprintf(f, "  %-24s ", head);
		usage_wrapped(f, text);
	}
	fprintf(f, "exit: 0 results written (also when stopped by SIGINT/SIGTERM), 1 error\n"
		"      while running, 2 bad input or a server the target guard refuses\n"
		"      (nothing sent)\n");
}

int
popts_parse(struct probe_options *o, int argc, char **argv, char *err, size_t errlen)
{
	struct option longopts[POPT_N + 1];
	char shorts[2 * POPT_N + 2], *sp = shorts;
	size_t i;
	int c;

	memset(o, 0, sizeof(*o));
	rb_target_init(&o->target);
	memset(longopts, 0, sizeof(longopts));
	*sp++ = ':';
	for (i = 0; i < POPT_N; i++) {
		const struct popt_def *d = &popt_table[i];
		int has_arg = d->type == POPT_FLAG ? no_argument : required_argument;
		longopts[i] = (struct option){ d->name, has_arg, NULL, popt_code(i) };
		if (d->shortc) {
			*sp++ = (char)d->shortc;
			if (has_arg == required_argument)
				*sp++ = ':';
		}
		/* A default sets the field but does not count as given. */
		if (d->def && popt_set(o, d, d->def, err, errlen) < 0)
			return -1;
	}
	*sp = 0;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		for (i = 0; i < POPT_N && popt_code(i) != c; i++)
			;
		if (i == POPT_N)
			return rb_cliopt_getopt_error(c, argv, err, errlen);
		if (popt_set(o, &popt_table[i], optarg, err, errlen) < 0)
			return -1;
	}
	if (o->help)
		return 1;
	if (rb_cliopt_leftover(argc, argv, err, errlen) < 0)
		return -1;
	if (!o->server) {
		snprintf(err, errlen, "--server ADDR is required");
		return -1;
	}
	if ((o->duration_s > 0) == (o->until_signal != 0)) {
		snprintf(err, errlen, o->until_signal ? "--duration and --until-signal exclude each other"
			: "--duration S or --until-signal is required");
		return -1;
	}
	if (o->do_bit && o->edns_size == 0) {
		snprintf(err, errlen, "--do needs --edns SIZE (the DO bit lives in the OPT record)");
		return -1;
	}
	if (o->edns_size > 0 && o->edns_size < 512) {
		snprintf(err, errlen, "--edns %lu: an advertised buffer under 512 means 512 (RFC 6891): give 0 (no OPT) or 512 to 65535",
			o->edns_size);
		return -1;
	}
	if (o->udp_rate == 0 && o->tcp_rate == 0) {
		snprintf(err, errlen, "--udp-rate and --tcp-rate are both 0: nothing to send");
		return -1;
	}
	if (o->udp_rate * (double)o->timeout_ms / 1000.0 > PROBE_INFLIGHT_MAX
	    || o->tcp_rate * (double)o->timeout_ms / 1000.0 > PROBE_INFLIGHT_MAX) {
		snprintf(err, errlen, "--udp-rate/--tcp-rate x --timeout-ms allow more than %d "
			"queries in flight: lower the rate or the timeout", PROBE_INFLIGHT_MAX);
		return -1;
	}
	return 0;
}
