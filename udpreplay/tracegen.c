/*
 * tracegen.c -- the synthetic query trace: writes a pcap of UDP DNS
 * queries from a population of client addresses to the service address,
 * with Poisson arrivals at a mean rate, and the same queries as a query
 * list. Streams: memory does not grow with the number of queries.
 */
#include <arpa/inet.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <ldns/ldns.h>
#include "../analysis/lib/numparse.h"
#include "../analysis/lib/outfile.h"
#include "pcapout.h"
#include "profile.h"
#include "qgen.h"
#include "qlist.h"
#include "rng.h"
#include "tlds.h"

/* Client addresses: 198.19.0.0/16 (benchmarking range, RFC 2544) and,
 * for IPv6 queries, 2001:2:0:19::/64 (RFC 5180), where from-pcap maps a
 * capture's IPv6 clients too. */
#define UR_CLIENT_NET 0xc6130000u
#define UR_CLIENTS_MAX 65536
/* Trace start: a fixed time so the same seed gives the same file. */
#define UR_T0 1286373240.0

static void
usage(FILE *out)
{
	fprintf(out,
"usage: tracegen [options] -z ZONEFILE -o TRACE.pcap -q TRACE.queries\n"
"  -n N          queries (default 1000000)\n"
"  -s SEED       random seed (default 1)\n"
"  -p PROFILE    root-2016 (default) or paper-2010\n"
"  -r RATE       mean queries per second, Poisson arrivals (default 2500)\n"
"  -c CLIENTS    client addresses in 198.19.0.0/16, 1..65536 (default 10000)\n"
"  -d ADDRESS    IPv4 destination (service) address (default 198.18.0.53)\n"
"  -D ADDRESS    IPv6 destination (service) address (default 2001:2::53)\n"
"  -6 SHARE      share of queries from IPv6 clients (2001:2:0:19::/64) to the\n"
"                IPv6 address, 0..1 (default 0: IPv4 only; 1: IPv6 only); the\n"
"                queries' content does not depend on it\n"
"  -z ZONEFILE   the served root zone: existing names use its TLDs\n"
"  -o FILE       the pcap to write\n"
"  -q FILE       the query list to write\n"
"  -S KEY=VALUE  override a profile parameter: nxdomain, edns, do, do-nx,\n"
"                do-ok, rd (shares 0..1), qtypes=A=59,AAAA=22,...,\n"
"                sizes=4096=70,512=3,... (repeatable)\n"
"  -P            print the profile (after overrides) and exit\n");
}

static int
ur_parse_u64(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, const char *what)
{
	uint64_t v;
	if (rb_parse_u64(s, hi, &v) || v < lo) {
		fprintf(stderr, "tracegen: %s '%s' must be an integer in %llu..%llu\n", what, s,
		    (unsigned long long)lo, (unsigned long long)hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* Pick a client: skewed, the busiest tenth of the clients sends ~46%. */
static void
ur_client_pick(ur_rng *r, uint64_t clients, int v6, ur_addr *a)
{
	double u = ur_rng_uniform(r);
	uint32_t k = (uint32_t)((double)clients * u * u * u);
	uint32_t ip = htonl(UR_CLIENT_NET + k);
	memset(a, 0, sizeof(*a));
	if (v6) {
		/* 2001:2:0:19::K */
		static const uint8_t net6[8] = { 0x20, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x19 };
		a->family = AF_INET6;
		memcpy(a->a, net6, 8);
		memcpy(a->a + 12, &ip, 4);
		a->a[12] = 0;
		a->a[13] = 0;
		return;
	}
	a->family = AF_INET;
	memcpy(a->a, &ip, 4);
}

int
main(int argc, char **argv)
{
	uint64_t n = 1000000, seed = 1, clients = 10000, i, n6 = 0;
	double rate = 2500.0, t = 0.0, v6share = 0.0;
	const char *profile_name = "root-2016", *zonefile = NULL, *pcap_path = NULL,
	    *qlist_path = NULL, *dst_str = "198.18.0.53", *dst6_str = "2001:2::53";
	char *sets[64], err[1024];
	int nsets = 0, print_profile = 0, c, k;
	ur_profile profile;
	ur_tlds tlds;
	ur_qgen gen;
	ur_rng traffic;
	ur_pcapout pcap;
	struct rb_outfile qlist;
	ur_addr src, dst, dst6;
	ur_query q;
	struct timespec start, stop;
	double secs;

	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 } };
	while ((c = getopt_long(argc, argv, "n:s:p:r:c:d:D:6:z:o:q:S:Ph", longopts, NULL)) != -1) {
		switch (c) {
		case 'n': if (ur_parse_u64(optarg, 1, UINT64_C(1) << 40, &n, "N")) return 2; break;
		case 's': if (ur_parse_u64(optarg, 0, UINT64_MAX, &seed, "SEED")) return 2; break;
		case 'p': profile_name = optarg; break;
		case 'r':
			if (rb_parse_double(optarg, &rate) || !(rate > 0 && rate <= 1e9)) {
				fprintf(stderr, "tracegen: RATE '%s' must be a positive number of q/s\n", optarg);
				return 2;
			}
			break;
		case 'c': if (ur_parse_u64(optarg, 1, UR_CLIENTS_MAX, &clients, "CLIENTS")) return 2; break;
		case 'd': dst_str = optarg; break;
		case 'D': dst6_str = optarg; break;
		case '6':
			if (rb_parse_double(optarg, &v6share) || !(v6share >= 0 && v6share <= 1)) {
				fprintf(stderr, "tracegen: -6 SHARE '%s' must be a share of queries in 0..1\n", optarg);
				return 2;
			}
			break;
		case 'z': zonefile = optarg; break;
		case 'o': pcap_path = optarg; break;
		case 'q': qlist_path = optarg; break;
		case 'S':
			if (nsets == (int)(sizeof(sets) / sizeof(sets[0]))) {
				fprintf(stderr, "tracegen: too many -S options\n");
				return 2;
			}
			sets[nsets++] = optarg;
			break;
		case 'P': print_profile = 1; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (ur_profile_load(&profile, profile_name))
		return 2;
	for (k = 0; k < nsets; k++) {
		char *eq = strchr(sets[k], '=');
		if (!eq) {
			fprintf(stderr, "tracegen: -S '%s' is not KEY=VALUE\n", sets[k]);
			return 2;
		}
		*eq = '\0';
		if (ur_profile_set(&profile, sets[k], eq + 1))
			return 2;
	}
	if (ur_profile_check(&profile))
		return 2;
	if (print_profile) {
		ur_profile_print(&profile, stdout);
		return 0;
	}
	if (!zonefile || !pcap_path || !qlist_path) {
		fprintf(stderr, "tracegen: -z ZONEFILE, -o PCAP and -q QUERIES are required\n");
		usage(stderr);
		return 2;
	}
	if (ur_addr_parse(&dst, dst_str) || dst.family != AF_INET) {
		fprintf(stderr, "tracegen: the destination (-d) must be an IPv4 address\n");
		return 2;
	}
	if (ur_addr_parse(&dst6, dst6_str) || dst6.family != AF_INET6) {
		fprintf(stderr, "tracegen: the IPv6 destination (-D) must be an IPv6 address\n");
		return 2;
	}
	if (ur_tlds_load(&tlds, zonefile))
		return 1;

	clock_gettime(CLOCK_MONOTONIC, &start);
	if (ur_pcapout_open(&pcap, pcap_path)) {
		ur_tlds_free(&tlds);
		return 1;
	}
	if (rb_outfile_begin(&qlist, qlist_path, 1, err, sizeof(err))) {
		fprintf(stderr, "tracegen: %s\n", err);
		ur_pcapout_abort(&pcap);
		ur_tlds_free(&tlds);
		return 1;
	}
	/* Two streams: the queries' content does not depend on the rate or
	 * the client count, only on the seed and the profile. */
	ur_qgen_init(&gen, &profile, &tlds, seed);
	ur_rng_seed(&traffic, seed ^ 0x5452414646494300ULL);
	for (i = 0; i < n; i++) {
		ldns_pkt *pkt;
		uint8_t *wire = NULL;
		size_t len = 0;
		struct timeval ts;
		double when;
		int bad, is6;

		if (ur_qgen_next(&gen, &q))
			goto fail;
		pkt = ur_query_pkt(&q, (uint16_t)ur_rng_next(&traffic));
		if (!pkt)
			goto fail;
		if (ldns_pkt2wire(&wire, pkt, &len) != LDNS_STATUS_OK) {
			fprintf(stderr, "tracegen: cannot encode the query for %s\n", q.qname);
			ldns_pkt_free(pkt);
			goto fail;
		}
		t += ur_rng_exponential(&traffic, 1.0 / rate);
		when = UR_T0 + t;
		ts.tv_sec = (time_t)when;
		ts.tv_usec = (suseconds_t)((when - (double)ts.tv_sec) * 1e6);
		/* The family is drawn only when asked for, so an IPv4-only
		 * trace is the same file it always was. */
		is6 = v6share >= 1.0 || (v6share > 0 && ur_rng_uniform(&traffic) < v6share);
		ur_client_pick(&traffic, clients, is6, &src);
		bad = ur_pcapout_udp(&pcap, &ts, &src, (uint16_t)(1024 + ur_rng_below(&traffic, 64512)),
		    is6 ? &dst6 : &dst, 53, wire, len);
		n6 += (uint64_t)is6;
		if (!bad)
			bad = ur_qlist_write(qlist.fp, pkt);
		free(wire);
		ldns_pkt_free(pkt);
		if (bad)
			goto fail;
	}
	if (ur_pcapout_commit(&pcap)) {
		rb_outfile_abort(&qlist);
		ur_tlds_free(&tlds);
		return 1;
	}
	if (rb_outfile_commit(&qlist, err, sizeof(err))) {
		fprintf(stderr, "tracegen: %s\n", err);
		unlink(pcap_path);
		ur_tlds_free(&tlds);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &stop);
	secs = (double)(stop.tv_sec - start.tv_sec) + (double)(stop.tv_nsec - start.tv_nsec) / 1e9;
	fprintf(stderr, "tracegen: %llu queries (profile %s, seed %llu, %.0f q/s over %.1f s of trace, "
	    "%llu clients, %llu over IPv6, %zu TLDs from %s) in %.2f s: %.0f queries generated per second\n",
	    (unsigned long long)n, profile.name, (unsigned long long)seed, rate, t,
	    (unsigned long long)clients, (unsigned long long)n6, tlds.n, zonefile, secs, secs > 0 ? (double)n / secs : 0.0);
	ur_tlds_free(&tlds);
	return 0;
fail:
	ur_pcapout_abort(&pcap);
	rb_outfile_abort(&qlist);
	ur_tlds_free(&tlds);
	return 1;
}
