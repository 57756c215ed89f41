/*
 * target-check.c -- the target guard (target.h) for rootbench's shell
 * scripts: they ask it before they send, so the rule is written once, in
 * C. Two modes:
 *
 *   target-check [--allow-range LIST]... ADDRESS...
 *       every numeric address may be sent to (lb-verify's target); an
 *       ADDRESS/LENGTH prefix (a generator's spread of source addresses,
 *       where the answers go) must lie inside one allowed range;
 *   target-check [--allow-range LIST]... --pcap FILE...
 *       every packet of each capture may be replayed: its destination, and
 *       its source, where the answers to a replayed query go (the UDP
 *       replay checks the trace tcprewrite wrote, the one tcpreplay sends);
 *   target-check --within LIST ADDRESS...
 *       every address lies in LIST itself, and nothing else counts (not
 *       loopback, not the benchmarking ranges): a lab backend checks its
 *       inventory's addresses against the ranges it declares as its own.
 *
 * Exit 0 when allowed, 1 when refused (the refusal on stderr), 2 on an
 * error (bad option, malformed range or address, unreadable capture).
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include "lib/capture.h"
#include "lib/target.h"

#define TC_ALLOWED 0
#define TC_REFUSED 1
#define TC_ERROR 2

static void
tc_usage(FILE *f)
{
	fprintf(f,
"usage: target-check [--allow-range LIST]... ADDRESS...\n"
"       target-check [--allow-range LIST]... --pcap FILE...\n"
"       target-check [--allow-range LIST]... --list\n"
"       target-check --within LIST ADDRESS...\n"
"  The target guard: rootbench sends only to loopback (127.0.0.0/8, ::1),\n"
"  the benchmarking ranges 198.18.0.0/15 and 2001:2::/48, and the ranges a\n"
"  real lab declares as its own.\n"
"  ADDRESS             numeric IPv4 or IPv6 addresses to be sent to, or\n"
"                      ADDRESS/LENGTH prefixes (a generator's source\n"
"                      addresses, where the answers go): each must lie\n"
"                      inside one allowed range\n"
"  --pcap              the arguments are captures (pcap, pcapng) to be\n"
"                      replayed: every packet's destination and source\n"
"                      (the answers go there) is checked\n"
"  --allow-range LIST  lab ranges, CIDR, separated by spaces or commas\n"
"                      (e.g. \"192.0.2.0/24 2001:db8::/32\"); repeatable; at\n"
"                      most a /8 (IPv4) or /16 (IPv6) each\n"
"  --list              print the allowed ranges\n"
"  --within LIST       every ADDRESS must lie in LIST (CIDR ranges as for\n"
"                      --allow-range), the only ranges counted: a lab's\n"
"                      addresses against the ranges it declares as its own\n"
"exit: 0 allowed, 1 refused (the reason on stderr), 2 error\n");
}

/* a check of one address (its text for messages): 0 allowed, -1 refused
 * with the reason printed */
typedef int (*tc_addr_check)(const void *ctx, int family, const uint8_t *a,
	const char *text);

static int tc_allowed(const void *ctx, int family, const uint8_t *a, const char *text);

/* tc_check_prefix: an ADDRESS/LENGTH argument: TC_ERROR when malformed or
 * given to another check than the guard's, else whether the whole prefix
 * is allowed. */
static int
tc_check_prefix(const char *text, tc_addr_check check, const void *ctx)
{
	struct rb_target_range p;
	char err[2048];

	if (check != tc_allowed) {
		fprintf(stderr, "target-check: error: '%s': a prefix is checked against "
			"the guard only, not --within\n", text);
		return TC_ERROR;
	}
	if (rb_target_range_parse(&p, text, err, sizeof(err)) < 0) {
		fprintf(stderr, "target-check: error: %s\n", err);
		return TC_ERROR;
	}
	if (rb_target_check_prefix(ctx, &p, err, sizeof(err)) < 0) {
		fprintf(stderr, "target-check: %s\n", err);
		return TC_REFUSED;
	}
	return TC_ALLOWED;
}

/* tc_check_each: check on each numeric address or prefix; TC_ERROR at the first that
 * is not one, else TC_REFUSED when any was refused. */
static int
tc_check_each(char **addrs, int n, tc_addr_check check, const void *ctx)
{
	uint8_t a[16];
	int i, family, rc = TC_ALLOWED;

	for (i = 0; i < n; i++) {
		if (strchr(addrs[i], '/')) {
			int prc = tc_check_prefix(addrs[i], check, ctx);
			if (prc == TC_ERROR)
				return TC_ERROR;
			if (prc == TC_REFUSED)
				rc = TC_REFUSED;
			continue;
		}
		family = strchr(addrs[i], ':') ? AF_INET6 : AF_INET;
		if (inet_pton(family, addrs[i], a) != 1) {
			fprintf(stderr, "target-check: error: '%s' is not a numeric IPv4 or "
				"IPv6 address\n", addrs[i]);
			return TC_ERROR;
		}
		if (check(ctx, family, a, addrs[i]) < 0)
			rc = TC_REFUSED;
	}
	return rc;
}

/* tc_allowed: the address is a target the guard allows. */
static int
tc_allowed(const void *ctx, int family, const uint8_t *a, const char *text)
{
	char err[2048];

	(void)text;
	if (rb_target_check(ctx, family, a, err, sizeof(err)) < 0) {
		fprintf(stderr, "target-check: %s\n", err);
		return -1;
	}
	return 0;
}

struct tc_within {
	const struct rb_target *w;
	const char *list;
};

/* tc_inside: the address lies in one of the declared (lab) ranges. */
static int
tc_inside(const void *ctx, int family, const uint8_t *a, const char *text)
{
	const struct tc_within *in = ctx;
	size_t k;

	for (k = 0; k < in->w->nlab; k++)
		if (rb_target_range_contains(&in->w->lab[k], family, a))
			return 0;
	fprintf(stderr, "target-check: %s is outside the declared ranges (%s)\n",
		text, in->list);
	return -1;
}

/* tc_check_packet: 0 when the packet may be replayed; -1 with the reason. */
static int
tc_check_packet(const struct rb_target *t, int dlt, const struct pcap_pkthdr *h,
	const uint8_t *data, char *err, size_t errlen)
{
	struct rb_packet pkt;
	enum rb_skip st;
	char why[2048];
	int family;

	memset(&pkt, 0, sizeof(pkt));
	st = rb_capture_decode(dlt, data, h->caplen, h->len, &pkt);
	if (pkt.family != 4 && pkt.family != 6) {
		snprintf(err, errlen, "not an IPv4 or IPv6 packet (%s): where it goes "
			"cannot be checked", rb_skip_name(st));
		return -1;
	}
	family = pkt.family == 4 ? AF_INET : AF_INET6;
	if (rb_target_check(t, family, pkt.dst, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "destination %s", why);
		return -1;
	}
	if (rb_target_check(t, family, pkt.src, why, sizeof(why)) < 0) {
		snprintf(err, errlen, "source (where the answers go) %s", why);
		return -1;
	}
	return 0;
}

/* tc_check_capture: every packet of one capture. */
static int
tc_check_capture(const struct rb_target *t, const char *path)
{
	char err[2560], first[2560];
	struct pcap_pkthdr *h;
	const uint8_t *data;
	unsigned long long n = 0, refused = 0, first_at = 0;
	pcap_t *p;
	int dlt, r;

	p = rb_capture_open(path, NULL, err, sizeof(err));
	if (!p) {
		fprintf(stderr, "target-check: error: %s\n", err);
		return TC_ERROR;
	}
	dlt = pcap_datalink(p);
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		n++;
		if (tc_check_packet(t, dlt, h, data, err, sizeof(err)) < 0 && refused++ == 0) {
			first_at = n;
			snprintf(first, sizeof(first), "%s", err);
		}
	}
	if (r == PCAP_ERROR) {
		fprintf(stderr, "target-check: error: %s: packet %llu: %s\n", path, n + 1,
			pcap_geterr(p));
		pcap_close(p);
		return TC_ERROR;
	}
	pcap_close(p);
	if (refused == 0)
		return TC_ALLOWED;
	fprintf(stderr, "target-check: %s: %llu of %llu packets refused; packet %llu: %s\n",
		path, refused, n, first_at, first);
	return TC_REFUSED;
}

int
main(int argc, char **argv)
{
	enum { OPT_ALLOW = 256, OPT_PCAP, OPT_LIST, OPT_WITHIN };
	static const struct option longopts[] = {
		{ "allow-range", required_argument, NULL, OPT_ALLOW },
		{ "pcap", no_argument, NULL, OPT_PCAP },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "within", required_argument, NULL, OPT_WITHIN },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct rb_target t, w;
	const char *within = NULL;
	char err[1024], list[2048];
	int c, pcap = 0, show = 0, i, rc, worst = TC_ALLOWED;

	rb_target_init(&t);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_ALLOW:
			if (rb_target_allow(&t, optarg, err, sizeof(err)) < 0) {
				fprintf(stderr, "target-check: error: --allow-range: %s\n", err);
				return TC_ERROR;
			}
			break;
		case OPT_PCAP: pcap = 1; break;
		case OPT_LIST: show = 1; break;
		case OPT_WITHIN:
			rb_target_init(&w);
			if (rb_target_allow(&w, optarg, err, sizeof(err)) < 0) {
				fprintf(stderr, "target-check: error: --within: %s\n", err);
				return TC_ERROR;
			}
			within = optarg;
			break;
		case 'h':
			tc_usage(stdout);
			return TC_ALLOWED;
		default:
			fprintf(stderr, "target-check: error: %s %s\n", c == ':' ?
				"missing argument for" : "unknown option", argv[optind - 1]);
			tc_usage(stderr);
			return TC_ERROR;
		}
	}
	if (show) {
		rb_target_describe(&t, list, sizeof(list));
		printf("%s\n", list);
		return TC_ALLOWED;
	}
	if (optind >= argc) {
		fprintf(stderr, "target-check: error: nothing to check\n");
		tc_usage(stderr);
		return TC_ERROR;
	}
	if (within) {
		if (pcap || show) {
			fprintf(stderr, "target-check: error: --within checks addresses only\n");
			return TC_ERROR;
		}
		struct tc_within in = { &w, within };
		return tc_check_each(argv + optind, argc - optind, tc_inside, &in);
	}
	if (!pcap)
		return tc_check_each(argv + optind, argc - optind, tc_allowed, &t);
	for (i = optind; i < argc; i++) {
		rc = tc_check_capture(&t, argv[i]);
		if (rc > worst)
			worst = rc;
	}
	return worst;
}
