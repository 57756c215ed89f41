/*
 * test_dnsmsg.c -- unit test of dnsmsg.c. What must hold: for queries and
 * responses built with ldns (with and without OPT, DO=0/1, several RRs in
 * every section, name compression) the fast scan and the full
 * ldns_wire2pkt parse report the same id, QR, rcode, qtype, OPT presence,
 * DO bit and UDP size, equal to what was built; every truncation of such a
 * message is an error of the fast scan (never a read past the end: ASan),
 * and a short header is DS_BAD_DNS_HEADER. Sections: both count the
 * records built into each section by kind (answer AAAA; authority 2 NS;
 * additional A, TXT and the OPT), and the bytes per section add up to the
 * message minus its header and question.
 */
#include <stdlib.h>
#include <string.h>
#include <ldns/ldns.h>
#include "dnsmsg.h"
#include "unittest.h"

static void
add_rr(ldns_pkt *p, ldns_pkt_section sec, const char *text)
{
	ldns_rr *rr = NULL;
	if (ldns_rr_new_frm_str(&rr, text, 3600, NULL, NULL) != LDNS_STATUS_OK) {
		fprintf(stderr, "bad test RR %s\n", text);
		exit(2);
	}
	ldns_pkt_push_rr(p, sec, rr);
}

/* build: a message of the given shape, to wire (caller frees) */
static uint8_t *
build(int qr, int rcode, int edns, int do_bit, uint16_t udp, int rrs,
	size_t *len)
{
	ldns_pkt *p = NULL;
	uint8_t *wire = NULL;
	if (ldns_pkt_query_new_frm_str(&p, "example.com.", LDNS_RR_TYPE_AAAA,
		LDNS_RR_CLASS_IN, 0) != LDNS_STATUS_OK)
		exit(2);
	ldns_pkt_set_id(p, 0x1234);
	ldns_pkt_set_qr(p, qr);
	ldns_pkt_set_rcode(p, (uint8_t)rcode);
	if (edns) {
		ldns_pkt_set_edns_udp_size(p, udp);
		ldns_pkt_set_edns_do(p, do_bit);
		ldns_pkt_set_edns_data(p, NULL);
	}
	if (rrs) {
		add_rr(p, LDNS_SECTION_ANSWER, "example.com. AAAA 2001:2::53");
		add_rr(p, LDNS_SECTION_AUTHORITY, "com. NS a.gtld-servers.net.");
		add_rr(p, LDNS_SECTION_AUTHORITY, "com. NS b.gtld-servers.net.");
		add_rr(p, LDNS_SECTION_ADDITIONAL,
			"a.gtld-servers.net. A 198.18.0.1");
		add_rr(p, LDNS_SECTION_ADDITIONAL,
			"b.gtld-servers.net. TXT \"hello\" \"world\"");
	}
	if (ldns_pkt2wire(&wire, p, len) != LDNS_STATUS_OK)
		exit(2);
	ldns_pkt_free(p);
	return wire;
}

int
main(void)
{
	int qr, rcode, edns, do_bit, rrs;
	struct ds_dnsmsg a, b;
	uint8_t hdr[11] = { 0 };

	for (qr = 0; qr <= 1; qr++)
	for (rcode = 0; rcode <= 5; rcode += 3)
	for (edns = 0; edns <= 1; edns++)
	for (do_bit = 0; do_bit <= edns; do_bit++)
	for (rrs = 0; rrs <= 1; rrs++) {
		size_t len, cut;
		uint16_t udp = (uint16_t)(edns ? 1232 + do_bit : 0);
		uint8_t *w = build(qr, rcode, edns, do_bit, udp, rrs, &len);
		UT_EQ(ds_dnsmsg_scan(w, len, &a), DS_OK);
		UT_EQ(ds_dnsmsg_parse_full(w, len, &b), DS_OK);
		UT_EQ(a.id, 0x1234);
		UT_EQ(a.qr, qr);
		UT_EQ(a.rcode, rcode);
		UT_EQ(a.qtype, LDNS_RR_TYPE_AAAA);
		UT_EQ(a.has_opt, edns);
		UT_EQ(a.do_bit, do_bit);
		UT_EQ(a.udp_size, udp);
		UT_EQ(a.size, len);
		UT_EQ(a.ancount, rrs);
		UT_EQ(b.id, a.id);
		UT_EQ(b.qr, a.qr);
		UT_EQ(b.rcode, a.rcode);
		UT_EQ(b.qtype, a.qtype);
		UT_EQ(b.has_opt, a.has_opt);
		UT_EQ(b.do_bit, a.do_bit);
		UT_EQ(b.udp_size, a.udp_size);
		UT_EQ(b.arcount, a.arcount);
		{
			int s, k;
			uint16_t want[DS_SECT_MAX][DS_RR_KINDS] = { { 0 } };
			want[DS_SECT_ANSWER][DS_RR_ADDR] = (uint16_t)rrs;
			want[DS_SECT_AUTHORITY][DS_RR_NS] = (uint16_t)(2 * rrs);
			want[DS_SECT_ADDITIONAL][DS_RR_ADDR] = (uint16_t)rrs;
			want[DS_SECT_ADDITIONAL][DS_RR_OTHER] = (uint16_t)rrs;
			want[DS_SECT_ADDITIONAL][DS_RR_OPT] = (uint16_t)edns;
			for (s = 0; s < DS_SECT_MAX; s++)
			for (k = 0; k < DS_RR_KINDS; k++) {
				UT_EQ(a.sect_rrs[s][k], want[s][k]);
				UT_EQ(b.sect_rrs[s][k], want[s][k]);
			}
			/* header 12, question example.com. AAAA IN: 13 + 4 */
			UT_EQ((size_t)a.sect_bytes[0] + a.sect_bytes[1] +
			    a.sect_bytes[2], len - 12 - 17);
			UT_EQ(a.sect_bytes[DS_SECT_ANSWER] > 0, rrs);
			UT_EQ(b.sect_bytes[DS_SECT_AUTHORITY],
			    a.sect_bytes[DS_SECT_AUTHORITY]);
		}
		for (cut = 0; cut < len; cut++) {
			uint8_t *c = malloc(cut ? cut : 1);
			memcpy(c, w, cut);
			UT_CHECK(ds_dnsmsg_scan(c, cut, &a) != DS_OK);
			UT_CHECK(ds_dnsmsg_parse_full(c, cut, &b) != DS_OK);
			free(c);
		}
		free(w);
	}
	UT_EQ(ds_dnsmsg_scan(hdr, sizeof(hdr), &a), DS_BAD_DNS_HEADER);
	{
		/* a compression pointer loop in the question */
		uint8_t loop[] = { 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
			0xc0, 12, 0, 1, 0, 1 };
		UT_EQ(ds_dnsmsg_scan(loop, sizeof(loop), &a),
			DS_BAD_DNS_QUESTION);
	}
	return UT_DONE("test_dnsmsg");
}
