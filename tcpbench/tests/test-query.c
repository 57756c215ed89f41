/*
 * test-query.c -- unit test of query-list parsing and wire construction.
 * Must hold: "qname qtype [flags]" lines parse with the flags applied
 * (edns=N, noedns, do, rd), unknown tokens are counted not fatal, blank
 * and '#' lines are skipped, malformed lines fail; -n NAME/TYPE parses;
 * the wire format (checked with ldns) carries qname, qtype, RD, EDNS size
 * and DO, behind a correct 2-byte length prefix; files load with
 * file:line errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <ldns/ldns.h>
#include "../query.h"
#include "../../analysis/lib/unittest.h"


static ldns_pkt *
decode(const struct tcpb_query *q)
{
	ldns_pkt *p = NULL;
	if (q->len < 2 || (size_t)((q->wire[0] << 8) | q->wire[1]) != q->len - 2)
		return NULL;
	if (ldns_wire2pkt(&p, q->wire + 2, q->len - 2) != LDNS_STATUS_OK)
		return NULL;
	return p;
}

int
main(void)
{
	struct tcpb_query_defaults d0 = { 0, 0, 0 }, dd = { 4096, 1, 0 };
	struct tcpb_query_spec s;
	struct tcpb_query q;
	struct tcpb_querylist l;
	uint64_t unk = 0;
	char err[512], path[] = "/tmp/test-query.XXXXXX";
	ldns_pkt *p;
	FILE *f;
	int fd;

	UT_CHECK(tcpb_query_parse_line("", &d0, &s, &unk, err, sizeof(err)) == 0);
	UT_CHECK(tcpb_query_parse_line("   \n", &d0, &s, &unk, err, sizeof(err)) == 0);
	UT_CHECK(tcpb_query_parse_line("# comment A", &d0, &s, &unk, err, sizeof(err)) == 0);
	UT_CHECK(tcpb_query_parse_line("  #x", &d0, &s, &unk, err, sizeof(err)) == 0);
	{
		/* a comment or blank line longer than a query line may be */
		char lng[1200];
		memset(lng, 'x', sizeof(lng) - 1);
		lng[sizeof(lng) - 1] = 0;
		lng[2] = '#';
		lng[0] = lng[1] = ' ';
		UT_CHECK(tcpb_query_parse_line(lng, &d0, &s, &unk, err, sizeof(err)) == 0);
		memset(lng, ' ', sizeof(lng) - 1);
		UT_CHECK(tcpb_query_parse_line(lng, &d0, &s, &unk, err, sizeof(err)) == 0);
		lng[0] = 'x';
		UT_CHECK(tcpb_query_parse_line(lng, &d0, &s, &unk, err, sizeof(err)) < 0);
	}
	UT_CHECK(tcpb_query_parse_line("example.", &d0, &s, &unk, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_query_parse_line("example. NOSUCHTYPE", &d0, &s, &unk, err, sizeof(err)) < 0);
	/* RFC 3597 types: 1..65535 and nothing after (a 16-bit qtype would
	 * carry TYPE65536 as 0; the fuzzer found it) */
	UT_CHECK(tcpb_query_parse_line("example. TYPE65536", &d0, &s, &unk, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_query_parse_line("example. TYPE0", &d0, &s, &unk, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_query_parse_line("example. TYPE1x", &d0, &s, &unk, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_query_parse_line("example. type65535", &d0, &s, &unk, err, sizeof(err)) == 1 && s.qtype == 65535);

	UT_CHECK(tcpb_query_parse_line("com. NS\n", &d0, &s, &unk, err, sizeof(err)) == 1);
	UT_CHECK(strcmp(s.qname, "com.") == 0 && s.qtype == LDNS_RR_TYPE_NS);
	UT_CHECK(s.edns_size == 0 && !s.do_bit && !s.rd);

	UT_CHECK(tcpb_query_parse_line("nl. DNSKEY edns=1232 do rd", &d0, &s, &unk, err, sizeof(err)) == 1);
	UT_CHECK(s.qtype == LDNS_RR_TYPE_DNSKEY && s.edns_size == 1232 && s.do_bit && s.rd);
	UT_CHECK(unk == 0);
	UT_CHECK(tcpb_query_parse_line("x. AAAA frobnicate edns=12 # trailing comment", &d0, &s, &unk, err, sizeof(err)) == 1);
	UT_CHECK(unk == 2);        /* frobnicate, and edns=12 (below 512) */
	UT_CHECK(tcpb_query_parse_line("x. TYPE65 noedns", &dd, &s, &unk, err, sizeof(err)) == 1);
	UT_CHECK(s.qtype == 65 && s.edns_size == 0 && !s.do_bit);
	UT_CHECK(tcpb_query_parse_line("x.\tA", &dd, &s, &unk, err, sizeof(err)) == 1);
	UT_CHECK(s.edns_size == 4096 && s.do_bit);
	UT_CHECK(tcpb_query_parse_line("x. A do", &d0, &s, &unk, err, sizeof(err)) == 1);
	UT_CHECK(s.do_bit && s.edns_size == 1232);

	UT_CHECK(tcpb_query_parse_single("./SOA", &d0, &s, err, sizeof(err)) == 0);
	UT_CHECK(strcmp(s.qname, ".") == 0 && s.qtype == LDNS_RR_TYPE_SOA);
	UT_CHECK(tcpb_query_parse_single("example.com/AAAA", &d0, &s, err, sizeof(err)) == 0);
	UT_CHECK(tcpb_query_parse_single("example.com", &d0, &s, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_query_parse_single("/A", &d0, &s, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_query_parse_single("x./", &d0, &s, err, sizeof(err)) < 0);

	/* Wire format, checked by decoding with ldns. */
	UT_CHECK(tcpb_query_parse_line("nl. DNSKEY edns=1400 do rd", &d0, &s, &unk, err, sizeof(err)) == 1);
	UT_CHECK(tcpb_query_build(&s, &q, err, sizeof(err)) == 0);
	p = decode(&q);
	UT_CHECK(p != NULL);
	if (p) {
		ldns_rr *qr = ldns_rr_list_rr(ldns_pkt_question(p), 0);
		char *owner = ldns_rdf2str(ldns_rr_owner(qr));
		UT_CHECK(strcmp(owner, "nl.") == 0);
		UT_CHECK(ldns_rr_get_type(qr) == LDNS_RR_TYPE_DNSKEY);
		UT_CHECK(ldns_pkt_rd(p) && !ldns_pkt_qr(p));
		UT_CHECK(ldns_pkt_edns(p) && ldns_pkt_edns_udp_size(p) == 1400 && ldns_pkt_edns_do(p));
		free(owner);
		ldns_pkt_free(p);
	}
	free(q.wire);
	UT_CHECK(tcpb_query_parse_single("./SOA", &d0, &s, err, sizeof(err)) == 0);
	UT_CHECK(tcpb_query_build(&s, &q, err, sizeof(err)) == 0);
	p = decode(&q);
	UT_CHECK(p && !ldns_pkt_edns(p) && !ldns_pkt_rd(p));
	UT_CHECK(q.len == 2 + 12 + 1 + 4);
	if (p)
		ldns_pkt_free(p);
	free(q.wire);

	/* File loading. */
	fd = mkstemp(path);
	UT_CHECK(fd >= 0);
	f = fdopen(fd, "w");
	fprintf(f, "# a query list\n\n. SOA\ncom. NS do\nnl. A bogus\n");
	fclose(f);
	tcpb_querylist_init(&l);
	UT_CHECK(tcpb_querylist_load(&l, path, &d0, err, sizeof(err)) == 0);
	UT_CHECK(l.n == 3 && l.unknown_tokens == 1 && l.lines == 5);
	tcpb_querylist_free(&l);
	f = fopen(path, "a");
	fprintf(f, "broken.\n");
	fclose(f);
	tcpb_querylist_init(&l);
	UT_CHECK(tcpb_querylist_load(&l, path, &d0, err, sizeof(err)) < 0);
	UT_CHECK(strstr(err, ":6:") != NULL);
	tcpb_querylist_free(&l);
	f = fopen(path, "w");
	fprintf(f, "# nothing\n");
	fclose(f);
	tcpb_querylist_init(&l);
	UT_CHECK(tcpb_querylist_load(&l, path, &d0, err, sizeof(err)) < 0);
	tcpb_querylist_free(&l);
	unlink(path);
	UT_CHECK(tcpb_querylist_load(&l, "/nonexistent/q", &d0, err, sizeof(err)) < 0);

	if (ut_failures)
		return 1;
	printf("test-query: ok\n");
	return 0;
}
