/*
 * test-udpreplay.c -- unit tests of the trace generator's modules: the
 * random source is deterministic and uniform, profiles parse and reject
 * bad input, generated shares follow the profile, junk names never fall
 * under a served TLD, query messages round-trip through ldns, and the
 * frames pcapout writes decode (analysis/lib/capture.c, as from-pcap reads
 * them) to the same addresses, ports and message; the decoder's own
 * tests are in analysis/lib/tests/test-capture.c.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ldns/ldns.h>
#include <pcap/pcap.h>
#include "../../analysis/lib/capture.h"
#include "../pcapout.h"
#include "../profile.h"
#include "../qgen.h"
#include "../qlist.h"
#include "../rng.h"
#include "../tlds.h"

static int failures;

#define CHECK(cond) do { if (!(cond)) { \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	failures++; } } while (0)

static void
test_rng(void)
{
	ur_rng a, b;
	int i, buckets[10] = { 0 };
	double sum = 0;
	ur_rng_seed(&a, 42);
	ur_rng_seed(&b, 42);
	for (i = 0; i < 1000; i++)
		CHECK(ur_rng_next(&a) == ur_rng_next(&b));
	ur_rng_seed(&b, 43);
	CHECK(ur_rng_next(&a) != ur_rng_next(&b));
	for (i = 0; i < 100000; i++)
		buckets[ur_rng_below(&a, 10)]++;
	for (i = 0; i < 10; i++)
		CHECK(buckets[i] > 9500 && buckets[i] < 10500);
	for (i = 0; i < 100000; i++)
		sum += ur_rng_exponential(&a, 0.5);
	CHECK(fabs(sum / 100000 - 0.5) < 0.01);
}

static void
test_profile(void)
{
	ur_profile p;
	CHECK(ur_profile_load(&p, "root-2016") == 0);
	CHECK(fabs(p.nx - 0.633) < 1e-9);
	CHECK(fabs(ur_dist_share(&p.qtypes, LDNS_RR_TYPE_A) - 0.59) < 1e-6);
	CHECK(ur_profile_load(&p, "paper-2010") == 0);
	CHECK(fabs(ur_profile_do_share(&p) - (0.428 * 0.30 + 0.572 * 0.48)) < 1e-9);
	CHECK(ur_profile_load(&p, "nonesuch") == -1);
	CHECK(ur_profile_load(&p, "paper-2010") == 0);
	CHECK(ur_profile_set(&p, "nxdomain", "1.5") == -1);
	CHECK(ur_profile_set(&p, "nxdomain", "abc") == -1);
	CHECK(ur_profile_set(&p, "bogus", "0.5") == -1);
	CHECK(ur_profile_set(&p, "qtypes", "A=1,NOTATYPE=2") == -1);
	CHECK(ur_profile_set(&p, "sizes", "4096=1,100=2") == -1);
	CHECK(ur_profile_set(&p, "sizes", "4096=0") == -1);
	CHECK(p.sizes.n == 8);	/* a rejected override leaves the old value */
	CHECK(ur_profile_set(&p, "qtypes", "MX=3,TXT=1") == 0);
	CHECK(fabs(ur_dist_share(&p.qtypes, LDNS_RR_TYPE_MX) - 0.75) < 1e-9);
	CHECK(ur_profile_set(&p, "edns", "0.2") == 0);
	CHECK(ur_profile_check(&p) == -1);	/* DO 0.48 > EDNS 0.2 */
}

static int
write_zone(char *path)
{
	static const char zone[] =
		". 86400 IN SOA a.root. b.root. 1 1800 900 604800 86400\n"
		". 86400 IN NS a.root-servers.net.\n"
		"nl. 172800 IN NS ns1.dns.nl.\n"
		"NL. 172800 IN NS ns2.dns.nl.\n"
		"com. 172800 IN NS a.gtld-servers.net.\n"
		"arpa. 172800 IN NS a.root-servers.net.\n"
		"ns1.dns.nl. 172800 IN A 198.18.10.1\n";
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	if (write(fd, zone, sizeof(zone) - 1) != (ssize_t)(sizeof(zone) - 1)) {
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static void
test_tlds_and_qgen(void)
{
	char path[] = "/tmp/ur-test-zone.XXXXXX";
	ur_tlds t;
	ur_profile p;
	ur_qgen g, g2;
	ur_query q, q2;
	int i, nx = 0, edns = 0, dobit = 0, rd = 0, a = 0, n = 50000;

	CHECK(write_zone(path) == 0);
	CHECK(ur_tlds_load(&t, path) == 0);
	unlink(path);
	CHECK(t.n == 3);	/* arpa, com, nl: NL counted once, ns1.dns.nl not a TLD */
	CHECK(ur_tlds_contains(&t, "nl", 2));
	CHECK(ur_tlds_contains(&t, "COM", 3));
	CHECK(!ur_tlds_contains(&t, "co", 2));
	CHECK(!ur_tlds_contains(&t, "comm", 4));
	CHECK(!ur_tlds_contains(&t, "local", 5));
	{
		ur_tlds none;
		CHECK(ur_tlds_load(&none, "/nonexistent/zone") == -1);
	}

	CHECK(ur_profile_load(&p, "root-2016") == 0);
	ur_qgen_init(&g, &p, &t, 7);
	ur_qgen_init(&g2, &p, &t, 7);
	for (i = 0; i < n; i++) {
		size_t len;
		const char *tld;
		ldns_pkt *pkt, *back = NULL;
		uint8_t *wire = NULL;
		size_t wlen;

		CHECK(ur_qgen_next(&g, &q) == 0);
		CHECK(ur_qgen_next(&g2, &q2) == 0);
		CHECK(memcmp(&q, &q2, sizeof(q)) == 0);	/* deterministic */
		tld = ur_qname_tld(q.qname, &len);
		if (q.nx)
			CHECK(len > 0 && !ur_tlds_contains(&t, tld, len));
		else
			CHECK(len == 0 || ur_tlds_contains(&t, tld, len));
		CHECK(!q.do_bit || q.edns);
		nx += q.nx;
		edns += q.edns;
		dobit += q.do_bit;
		rd += q.rd;
		a += q.qtype == LDNS_RR_TYPE_A;
		if (i < 2000) {
			pkt = ur_query_pkt(&q, (uint16_t)i);
			CHECK(pkt != NULL);
			if (!pkt)
				continue;
			CHECK(ldns_pkt2wire(&wire, pkt, &wlen) == LDNS_STATUS_OK);
			CHECK(ldns_wire2pkt(&back, wire, wlen) == LDNS_STATUS_OK);
			if (back) {
				CHECK(ldns_pkt_edns(back) == (q.edns != 0));
				CHECK(ldns_pkt_edns_do(back) == (q.do_bit != 0));
				CHECK(ldns_pkt_rd(back) == (q.rd != 0));
				CHECK(!ldns_pkt_qr(back));
				if (q.edns)
					CHECK(ldns_pkt_edns_udp_size(back) == q.udp_size);
				ldns_pkt_free(back);
			}
			free(wire);
			ldns_pkt_free(pkt);
		}
	}
	CHECK(fabs((double)nx / n - p.nx) < 0.01);
	CHECK(fabs((double)edns / n - p.edns) < 0.01);
	CHECK(fabs((double)dobit / n - ur_profile_do_share(&p)) < 0.01);
	CHECK(fabs((double)rd / n - p.rd) < 0.005);
	CHECK(fabs((double)a / n - 0.59) < 0.01);
	ur_tlds_free(&t);
}

static void
test_pcapout(void)
{
	/* tracegen's framing of a query, read back as from-pcap reads it. */
	char path[] = "/tmp/ur-test-pcap.XXXXXX";
	ur_pcapout out;
	ur_addr s, d;
	struct timeval tv = { 1, 0 };
	static const uint8_t msg[] = { 0x12, 0x34, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1 };
	char errbuf[PCAP_ERRBUF_SIZE];
	pcap_t *in;
	struct pcap_pkthdr *h;
	const u_char *data;
	struct rb_packet pkt;
	int fd, fam;

	for (fam = 0; fam < 2; fam++) {
		strcpy(path, "/tmp/ur-test-pcap.XXXXXX");
		fd = mkstemp(path);
		CHECK(fd >= 0);
		close(fd);
		CHECK(ur_addr_parse(&s, fam ? "2001:2:0:19::1" : "198.19.0.1") == 0);
		CHECK(ur_addr_parse(&d, fam ? "2001:2::53" : "198.18.0.53") == 0);
		CHECK(ur_pcapout_open(&out, path) == 0);
		CHECK(ur_pcapout_udp(&out, &tv, &s, 4242, &d, 53, msg, sizeof(msg)) == 0);
		CHECK(ur_pcapout_commit(&out) == 0);
		in = pcap_open_offline(path, errbuf);
		CHECK(in != NULL);
		if (!in)
			return;
		CHECK(pcap_datalink(in) == DLT_EN10MB);
		CHECK(pcap_next_ex(in, &h, &data) == 1);
		CHECK(h->caplen == h->len);
		CHECK(rb_capture_decode(pcap_datalink(in), data, h->caplen, h->len, &pkt) == RB_OK);
		CHECK(pkt.family == (fam ? 6 : 4) && pkt.proto == IPPROTO_UDP);
		CHECK(pkt.sport == 4242 && pkt.dport == 53 && pkt.payload_len == sizeof(msg));
		CHECK(memcmp(pkt.payload, msg, sizeof(msg)) == 0);
		CHECK(memcmp(pkt.src, s.a, fam ? 16 : 4) == 0);
		CHECK(memcmp(pkt.dst, d.a, fam ? 16 : 4) == 0);
		CHECK(pcap_next_ex(in, &h, &data) == PCAP_ERROR_BREAK);
		pcap_close(in);
		unlink(path);
	}
}

int
main(void)
{
	test_rng();
	test_profile();
	test_tlds_and_qgen();
	test_pcapout();
	if (failures) {
		fprintf(stderr, "test-udpreplay: %d checks failed\n", failures);
		return 1;
	}
	printf("test-udpreplay: all checks passed\n");
	return 0;
}
