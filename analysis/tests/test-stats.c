/*
 * test-stats.c -- unit test of stats.c and output.c's names. What must
 * hold: size histograms give the right n/mean/min/max/quantiles (sizes
 * beyond 65535 clamp); a response is counted under its rcode with its own
 * and its matched query's EDNS facts; a query counts its qtype and UDP
 * size; rcode names are the IANA mnemonics and numbers for unassigned.
 */
#include <string.h>
#include <netinet/in.h>
#include "../output.h"
#include "../stats.h"
#include "../lib/unittest.h"

int
main(void)
{
	struct ds_stats s;
	struct rb_packet pkt;
	struct ds_dnsmsg m;
	char nb[16];
	int i;

	if (ds_stats_init(&s) != 0)
		return 2;
	for (i = 1; i <= 100; i++)
		ds_hist_add(&s.resp_msg, (size_t)i);
	UT_EQ(s.resp_msg.n, 100);
	UT_EQ(s.resp_msg.min, 1);
	UT_EQ(s.resp_msg.max, 100);
	UT_EQ(ds_hist_quantile(&s.resp_msg, 0.5), 50);
	UT_EQ(ds_hist_quantile(&s.resp_msg, 0.99), 99);
	UT_EQ(ds_hist_quantile(&s.resp_msg, 1.0), 100);
	UT_EQ((long long)(ds_hist_mean(&s.resp_msg) * 10), 505);
	ds_hist_add(&s.query_msg, 70000);
	UT_EQ(s.query_msg.max, 65535);
	ds_stats_free(&s);

	ds_stats_init(&s);
	memset(&pkt, 0, sizeof(pkt));
	pkt.family = 6;
	pkt.proto = IPPROTO_TCP;
	memset(&m, 0, sizeof(m));
	m.qr = 1; m.rcode = 3; m.has_opt = 1; m.do_bit = 0; m.size = 500;
	ds_stats_message(&s, &pkt, 562, &m, 1, 1, 1);
	UT_EQ(s.responses, 1);
	UT_EQ(s.rcode[3], 1);
	UT_EQ(s.edns[3].ans_do0, 1);
	UT_EQ(s.edns[3].q_do1, 1);
	UT_EQ(s.edns[3].matched, 1);
	UT_EQ(s.ipv6, 1);
	UT_EQ(s.tcp, 1);
	UT_EQ(s.resp_frame.max, 562);
	m.qr = 0; m.qtype = 28; m.udp_size = 4096; m.has_question = 1;
	pkt.family = 4; pkt.proto = IPPROTO_UDP;
	ds_stats_message(&s, &pkt, 80, &m, 0, 0, 0);
	UT_EQ(s.queries, 1);
	UT_EQ(s.qtype[28], 1);
	UT_EQ(s.q_udp_size[4096], 1);
	UT_EQ(s.udp, 1);
	ds_stats_skip(&s, RB_BAD_DNS_RR);
	ds_stats_skip(&s, RB_SKIP_NOT_IP);
	UT_EQ(ds_stats_malformed(&s), 1);
	ds_stats_free(&s);

	UT_CHECK(strcmp(ds_rcode_name(0, nb, sizeof(nb)), "NOERROR") == 0);
	UT_CHECK(strcmp(ds_rcode_name(3, nb, sizeof(nb)), "NXDOMAIN") == 0);
	UT_CHECK(strcmp(ds_rcode_name(4, nb, sizeof(nb)), "NOTIMP") == 0);
	UT_CHECK(strcmp(ds_rcode_name(13, nb, sizeof(nb)), "13") == 0);
	return UT_DONE("test_stats");
}
