/*
 * fuzz_query.c -- libFuzzer harness for tcpbench's query-list parser
 * (tcpbench/query.c: "qname qtype [flags...]" lines, "qname/qtype" for -n,
 * and the wire format built from them with ldns).
 *
 * Input: text, cut into lines as tcpbench_querylist_load reads a file;
 * the first byte also picks the command-line defaults (-e SIZE, -D, rd).
 * What must hold, else the harness aborts:
 *  - tcpb_query_parse_line returns 1, 0 or -1, with a message on -1;
 *    a blank line or one starting with '#' gives 0;
 *  - a parsed line has a qname ldns reads, a known qtype, an EDNS size of
 *    0 or 512..65535 and the DO bit only with EDNS;
 *  - the query built from it (tcpb_query_build) is a 2-byte length and a
 *    DNS message of that length that ldns parses back to the same
 *    question (name, type, class IN), ID 0, QR clear, RD as asked, EDNS
 *    with the UDP size and DO bit asked, or no OPT;
 *  - "qname/qtype" (tcpb_query_parse_single) of the same line's first two
 *    words, when it parses, gives the same question.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ldns/ldns.h>
#include "../query.h"

#define FUZZ_NAME "fuzz_query"
#include "../../analysis/lib/fuzz.h"

/* check_built: the query built from spec, parsed back by ldns */
static void
check_built(const struct tcpb_query_spec *spec)
{
	struct tcpb_query q;
	char err[512];
	ldns_pkt *p = NULL;
	ldns_rdf *want;
	ldns_rr *rr;
	size_t len;

	err[0] = 0;
	if (tcpb_query_build(spec, &q, err, sizeof(err)) != 0) {
		FUZZ_CHECK(err[0] != 0, "a build failure has a message");
		return;
	}
	FUZZ_CHECK(q.len >= 2 + LDNS_HEADER_SIZE, "query length");
	len = ((size_t)q.wire[0] << 8) | q.wire[1];
	FUZZ_CHECK(len + 2 == q.len, "the length prefix");
	FUZZ_CHECK(ldns_wire2pkt(&p, q.wire + 2, len) == LDNS_STATUS_OK,
		"ldns parses the query built");
	FUZZ_CHECK(ldns_pkt_id(p) == 0 && !ldns_pkt_qr(p), "ID 0, QR clear");
	FUZZ_CHECK(ldns_pkt_rd(p) == (spec->rd != 0), "RD as asked");
	FUZZ_CHECK(ldns_pkt_qdcount(p) == 1 && ldns_pkt_ancount(p) == 0 &&
		ldns_pkt_nscount(p) == 0 && ldns_pkt_arcount(p) == 0,
		"one question, nothing else but an OPT");
	rr = ldns_rr_list_rr(ldns_pkt_question(p), 0);
	FUZZ_CHECK(rr != NULL, "a question");
	FUZZ_CHECK((uint16_t)ldns_rr_get_type(rr) == spec->qtype, "qtype");
	FUZZ_CHECK(ldns_rr_get_class(rr) == LDNS_RR_CLASS_IN, "class IN");
	want = ldns_dname_new_frm_str(spec->qname);
	FUZZ_CHECK(want != NULL, "the qname reads");
	FUZZ_CHECK(ldns_dname_compare(want, ldns_rr_owner(rr)) == 0,
		"the qname asked");
	ldns_rdf_deep_free(want);
	FUZZ_CHECK(ldns_pkt_edns(p) == (spec->edns_size > 0), "EDNS as asked");
	if (spec->edns_size > 0) {
		FUZZ_CHECK(ldns_pkt_edns_udp_size(p) == spec->edns_size, "EDNS size");
		FUZZ_CHECK(ldns_pkt_edns_do(p) == (spec->do_bit != 0), "DO bit");
	}
	ldns_pkt_free(p);
	free(q.wire);
}

static void
check_line(const char *line, const struct tcpb_query_defaults *d)
{
	struct tcpb_query_spec spec, single;
	uint64_t unknown = 0;
	char err[512], arg[1100], *sp;
	const char *s = line;
	int r;

	err[0] = 0;
	r = tcpb_query_parse_line(line, d, &spec, &unknown, err, sizeof(err));
	FUZZ_CHECK(r >= -1 && r <= 1, "parse_line's result");
	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	if (*s == 0 || *s == '#')
		FUZZ_CHECK(r == 0, "blank and comment lines skipped");
	if (r < 0) {
		FUZZ_CHECK(err[0] != 0, "a malformed line has a message");
		return;
	}
	if (r == 0)
		return;
	FUZZ_CHECK(memchr(spec.qname, 0, sizeof(spec.qname)) != NULL, "qname ends");
	FUZZ_CHECK(spec.qtype != 0, "qtype known");
	FUZZ_CHECK(spec.edns_size == 0 || (spec.edns_size >= 512 &&
		spec.edns_size <= 65535), "EDNS size");
	FUZZ_CHECK(!spec.do_bit || spec.edns_size > 0, "DO only with EDNS");
	check_built(&spec);

	/* -n qname/qtype from the same words */
	if (strlen(line) >= sizeof(arg))
		return;
	strcpy(arg, s);
	sp = arg + strcspn(arg, " \t\r\n");
	if (*sp == 0)
		return;
	*sp = '/';
	sp[1 + strcspn(sp + 1, " \t\r\n")] = 0;
	if (tcpb_query_parse_single(arg, d, &single, err, sizeof(err)) == 0) {
		/* a qname holding '/' splits elsewhere: compare only when
		 * the split is the line's */
		if (strcmp(single.qname, spec.qname) == 0)
			FUZZ_CHECK(single.qtype == spec.qtype, "-n gives the same qtype");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tcpb_query_defaults d;
	char *text, *line, *save = NULL;

	if (size < 1)
		return 0;
	d.edns_size = (data[0] & 3) == 0 ? 0 : (data[0] & 3) == 1 ? 1232 :
		(data[0] & 3) == 2 ? 512 : 4096;
	d.do_bit = (data[0] >> 2) & 1;
	d.rd = (data[0] >> 3) & 1;
	if (d.do_bit && d.edns_size == 0)
		d.edns_size = 1232;	/* as tcpbench's options do for -D */
	/* lines as getline gives them: up to a newline; a NUL ends the line
	 * as C strings do */
	text = malloc(size);
	if (!text)
		abort();
	memcpy(text, data + 1, size - 1);
	text[size - 1] = 0;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		check_line(line, &d);
	free(text);
	return 0;
}
