/*
 * fuzz_dnsmsg.c -- libFuzzer harness for analysis/dnsmsg.c, dnsstat's DNS
 * fast scan, with a differential check on every input.
 *
 * The input is one DNS message. It goes through ds_dnsmsg_scan (the fast
 * path: ldns' wire macros and the non-allocating name walker
 * ds_dnsmsg_name_skip), through ldns_wire2pkt (ldns' full parse, read here
 * with ldns' accessors, not through dnsmsg.c) and through
 * ds_dnsmsg_parse_full. What must hold, else the harness aborts:
 *  - a message ldns parses, the scan parses (the scan is laxer only about
 *    RDATA, which it does not decode);
 *  - then both report the same id, QR, opcode, rcode, TC, the four
 *    counts, the first question's qtype and qclass (and the name walker
 *    ends the qname where ldns_wire2dname does), the records per section
 *    and kind, and OPT presence, DO bit, EDNS version, extended rcode and
 *    advertised UDP size; the scan's bytes per section add up to at most
 *    the message;
 *  - ds_dnsmsg_parse_full agrees with ldns_wire2pkt's verdict and, when it
 *    parses, with the scan on every field;
 *  - the name walker and ldns_wire2dname give the same verdict and end
 *    offset on a name at an offset the input picks (its last byte).
 * Where ldns itself reads a malformed message differently (ldns 1.8.3,
 * wire2host.c), the comparison narrows, and only there: past an RR whose
 * RDATA ldns does not read to RDLENGTH's end, only header and question
 * are compared (ldns_misframes); after a TSIG that is not the last
 * record, not the additional section (walk_additional); with several
 * OPTs, only their number; a message with two 00 FA byte pairs (two
 * TSIGs, which ldns_wire2pkt leaks) gets the scan only. See
 * docs/reliability.md, "Fuzzing".
 * ASan/UBSan catch any read outside the message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ldns/ldns.h>
#include "../dnsmsg.h"

#define FUZZ_NAME "fuzz_dnsmsg"
#define FUZZ_KIND "differential check"
#include "../lib/fuzz.h"

/* count_list: records of an ldns section list by dnsstat's kinds. */
static void
count_list(const ldns_rr_list *l, uint16_t *rrs)
{
	size_t i;
	for (i = 0; i < ldns_rr_list_rr_count(l); i++)
		rrs[ds_dnsmsg_rrkind((uint16_t)ldns_rr_get_type(
			ldns_rr_list_rr(l, i)))]++;
}

/* What ldns does to the additional section (ldns 1.8, wire2host.c): it
 * takes every OPT out of its list (and out of ARCOUNT, counting them in a
 * byte) and a TSIG too (into its own field). It lowers ARCOUNT for a TSIG
 * inside the loop that ARCOUNT bounds, so the records after a TSIG that is
 * not last are never read: such a message is ldns' quirk, and only the
 * header, question, answer and authority are compared then. */
struct extra {
	unsigned opts;		/* OPT records in the additional section */
	unsigned tsigs;		/* TSIG records in the additional section */
	int tsig_not_last;	/* a TSIG before the last additional record */
	int misframed;		/* ldns reads an RR past or short of its RDATA */
};

/* ldns_misframes: whether ldns_wire2rr, on some RR of the message, stops
 * elsewhere than where RDLENGTH ends the RDATA. ldns 1.8 reads the RDATA
 * field by field and does not skip to its end: an RDATA longer than its
 * fields (an A record with RDLENGTH 12), or a name in it that runs past
 * RDLENGTH, makes ldns read the next RR from the middle of this one. The
 * scan follows RDLENGTH (RFC 1035 4.1.3); past such an RR the two read
 * different records, and only the header and question are compared. */
static int
ldns_misframes(const uint8_t *d, size_t n, const struct ds_dnsmsg *m)
{
	size_t pos = LDNS_HEADER_SIZE, lpos;
	unsigned i, nrr = (unsigned)m->ancount + m->nscount + m->arcount;
	ldns_rr *rr;
	for (i = 0; i < (unsigned)m->qdcount + nrr; i++) {
		size_t end = pos;
		ldns_status st;
		if (ds_dnsmsg_name_skip(d, n, &end) != 0)
			return 0;
		end += i < m->qdcount ? 4 : 10;
		if (end > n)
			return 0;
		if (i >= m->qdcount)
			end += ldns_read_uint16(d + end - 2);
		lpos = pos;
		rr = NULL;
		st = ldns_wire2rr(&rr, d, n, &lpos, i < m->qdcount ?
			LDNS_SECTION_QUESTION : LDNS_SECTION_ANSWER);
		if (rr)
			ldns_rr_free(rr);
		if (st != LDNS_STATUS_OK)
			return 0;
		if (lpos != end)
			return 1;
		pos = end;
	}
	return 0;
}

/* walk_additional: the OPT and TSIG records of the additional section, on
 * the wire, as far as the names and lengths hold. */
static void
walk_additional(const uint8_t *d, size_t n, const struct ds_dnsmsg *m,
	struct extra *x)
{
	size_t pos = LDNS_HEADER_SIZE;
	unsigned i, first = (unsigned)m->ancount + m->nscount,
		nrr = first + m->arcount;
	memset(x, 0, sizeof(*x));
	for (i = 0; i < m->qdcount; i++) {
		if (ds_dnsmsg_name_skip(d, n, &pos) != 0)
			return;
		pos += 4;
	}
	for (i = 0; i < nrr; i++) {
		uint16_t type;
		if (ds_dnsmsg_name_skip(d, n, &pos) != 0 || pos + 10 > n)
			return;
		type = ldns_read_uint16(d + pos);
		if (i >= first && type == LDNS_RR_TYPE_OPT)
			x->opts++;
		if (i >= first && type == LDNS_RR_TYPE_TSIG) {
			x->tsigs++;
			if (i + 1 < nrr)
				x->tsig_not_last = 1;
		}
		pos += 10 + (size_t)ldns_read_uint16(d + pos + 8);
	}
}

static void
compare_header(const struct ds_dnsmsg *a, const struct ds_dnsmsg *b)
{
	FUZZ_CHECK(a->id == b->id, "id");
	FUZZ_CHECK(a->qr == b->qr, "QR");
	FUZZ_CHECK(a->opcode == b->opcode, "opcode");
	FUZZ_CHECK(a->rcode == b->rcode, "rcode");
	FUZZ_CHECK(a->tc == b->tc, "TC");
	FUZZ_CHECK(a->qdcount == b->qdcount, "QDCOUNT");
	FUZZ_CHECK(a->ancount == b->ancount, "ANCOUNT");
	FUZZ_CHECK(a->nscount == b->nscount, "NSCOUNT");
	FUZZ_CHECK(a->arcount == b->arcount, "ARCOUNT");
	FUZZ_CHECK(a->size == b->size, "size");
}

/* compare_ldns: the scan's facts against ldns' packet */
static void
compare_ldns(const uint8_t *d, size_t n, const struct ds_dnsmsg *m,
	const ldns_pkt *p, const struct extra *x)
{
	struct ds_dnsmsg l;
	ldns_rr *q;
	unsigned s, k;
	uint32_t bytes = 0;

	memset(&l, 0, sizeof(l));
	l.size = n;
	l.id = ldns_pkt_id(p);
	l.qr = ldns_pkt_qr(p) ? 1 : 0;
	l.tc = ldns_pkt_tc(p) ? 1 : 0;
	l.opcode = (uint8_t)ldns_pkt_get_opcode(p);
	l.rcode = (uint8_t)(ldns_pkt_get_rcode(p) & 0x0f);
	l.qdcount = ldns_pkt_qdcount(p);
	l.ancount = ldns_pkt_ancount(p);
	l.nscount = ldns_pkt_nscount(p);
	/* ARCOUNT as on the wire: ldns subtracts the OPTs (modulo 256) and
	 * the TSIGs */
	l.arcount = x->tsig_not_last || x->misframed ? m->arcount : (uint16_t)(ldns_pkt_arcount(p)
		+ (x->opts & 0xff) + x->tsigs);
	compare_header(m, &l);

	q = ldns_rr_list_rr(ldns_pkt_question(p), 0);
	FUZZ_CHECK(m->has_question == (q != NULL), "has a question");
	if (q) {
		size_t p1 = LDNS_HEADER_SIZE, p2 = LDNS_HEADER_SIZE;
		ldns_rdf *name = NULL;
		FUZZ_CHECK(m->qtype == (uint16_t)ldns_rr_get_type(q), "qtype");
		FUZZ_CHECK(m->qclass == (uint16_t)ldns_rr_get_class(q), "qclass");
		FUZZ_CHECK(ds_dnsmsg_name_skip(d, n, &p1) == 0, "qname skips");
		FUZZ_CHECK(ldns_wire2dname(&name, d, n, &p2) == LDNS_STATUS_OK,
			"qname parses");
		FUZZ_CHECK(p1 == p2, "qname end");
		FUZZ_CHECK(ldns_dname_compare(name, ldns_rr_owner(q)) == 0,
			"qname as ldns_wire2pkt read it");
		ldns_rdf_deep_free(name);
	}

	count_list(ldns_pkt_answer(p), l.sect_rrs[DS_SECT_ANSWER]);
	count_list(ldns_pkt_authority(p), l.sect_rrs[DS_SECT_AUTHORITY]);
	count_list(ldns_pkt_additional(p), l.sect_rrs[DS_SECT_ADDITIONAL]);
	l.sect_rrs[DS_SECT_ADDITIONAL][DS_RR_OPT] += (uint16_t)x->opts;
	l.sect_rrs[DS_SECT_ADDITIONAL][ds_dnsmsg_rrkind(LDNS_RR_TYPE_TSIG)] +=
		(uint16_t)x->tsigs;
	for (s = 0; s < DS_SECT_MAX; s++) {
		bytes += m->sect_bytes[s];
		if (x->misframed ||
		    (s == DS_SECT_ADDITIONAL && x->tsig_not_last))
			continue;
		for (k = 0; k < DS_RR_KINDS; k++)
			FUZZ_CHECK(m->sect_rrs[s][k] == l.sect_rrs[s][k],
				"records per section and kind");
	}
	FUZZ_CHECK(bytes <= n - LDNS_HEADER_SIZE, "bytes per section");
	if (x->tsig_not_last || x->misframed)
		return;

	FUZZ_CHECK(m->has_opt == (x->opts > 0), "OPT present");
	FUZZ_CHECK(ldns_pkt_edns(p) == ((x->opts & 0xff) > 0),
		"ldns EDNS as its OPT count");
	if (x->opts == 1) {
		/* several OPTs (a FORMERR, RFC 6891 6.1.1): the scan reports
		 * the first, ldns the last; only their count is compared */
		FUZZ_CHECK(m->udp_size == ldns_pkt_edns_udp_size(p), "EDNS UDP size");
		FUZZ_CHECK(m->do_bit == (ldns_pkt_edns_do(p) ? 1 : 0), "DO bit");
		FUZZ_CHECK(m->edns_version == ldns_pkt_edns_version(p), "EDNS version");
		FUZZ_CHECK(m->ext_rcode == ldns_pkt_edns_extended_rcode(p),
			"extended rcode");
	}
}

/* tsig_pairs: byte pairs 00 FA (the TSIG type) anywhere in d */
static unsigned
tsig_pairs(const uint8_t *d, size_t n)
{
	size_t i;
	unsigned k = 0;
	for (i = 0; i + 1 < n; i++)
		if (d[i] == 0 && d[i + 1] == LDNS_RR_TYPE_TSIG)
			k++;
	return k;
}

/* the walker against ldns_wire2dname at one offset */
static void
compare_name_at(const uint8_t *d, size_t n, size_t at)
{
	size_t p1 = at, p2 = at;
	ldns_rdf *name = NULL;
	int rc = ds_dnsmsg_name_skip(d, n, &p1);
	ldns_status st = ldns_wire2dname(&name, d, n, &p2);
	ldns_rdf_deep_free(name);
	FUZZ_CHECK((rc == 0) == (st == LDNS_STATUS_OK), "name verdict");
	FUZZ_CHECK(rc != 0 || p1 == p2, "name end");
	FUZZ_CHECK(rc == 0 || p1 == at, "name position kept on failure");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ds_dnsmsg m, f;
	struct extra x;
	enum rb_skip sm, sf;
	ldns_pkt *p = NULL;
	ldns_status st;
	uint8_t *d;

	/* a copy of exactly size bytes: ASan sees any read past the end */
	d = fuzz_copy(data, size);
	sm = ds_dnsmsg_scan(d, size, &m);
	if (tsig_pairs(d, size) >= 2) {
		/* ldns_wire2pkt leaks every TSIG but the last (ldns 1.8:
		 * ldns_pkt_set_tsig does not free the one it replaces); a
		 * message that may hold two gets the scan only */
		free(d);
		return 0;
	}
	sf = ds_dnsmsg_parse_full(d, size, &f);
	if (size < LDNS_HEADER_SIZE) {
		FUZZ_CHECK(sm == RB_BAD_DNS_HEADER && sf == RB_BAD_DNS_HEADER,
			"short header");
		free(d);
		return 0;
	}
	st = ldns_wire2pkt(&p, d, size);
	FUZZ_CHECK((st == LDNS_STATUS_OK) == (sf == RB_OK),
		"parse_full follows ldns_wire2pkt");
	walk_additional(d, size, &m, &x);
	x.misframed = ldns_misframes(d, size, &m);
	if (st == LDNS_STATUS_OK) {
		FUZZ_CHECK(sm == RB_OK || x.tsig_not_last || x.misframed,
			"the scan refuses what ldns parses");
		if (sm == RB_OK)
			compare_ldns(d, size, &m, p, &x);
		ldns_pkt_free(p);
	}
	if (st == LDNS_STATUS_OK && sm == RB_OK) {
		/* dnsstat --full: the same facts as the fast scan */
		compare_header(&m, &f);
		FUZZ_CHECK(m.qtype == f.qtype && m.qclass == f.qclass &&
			m.has_question == f.has_question, "parse_full question");
		FUZZ_CHECK(memcmp(m.sect_bytes, f.sect_bytes, sizeof(m.sect_bytes)) == 0,
			"parse_full bytes per section");
		if (!x.tsig_not_last && !x.misframed) {
			FUZZ_CHECK(memcmp(m.sect_rrs, f.sect_rrs, sizeof(m.sect_rrs)) == 0,
				"parse_full records per section");
			FUZZ_CHECK(m.has_opt == f.has_opt, "parse_full OPT");
		}
		if (x.opts == 1 && !x.tsig_not_last && !x.misframed)
			FUZZ_CHECK(m.udp_size == f.udp_size && m.do_bit == f.do_bit &&
				m.edns_version == f.edns_version &&
				m.ext_rcode == f.ext_rcode, "parse_full EDNS");
	}
	if (st != LDNS_STATUS_OK) {
		FUZZ_CHECK(sm == RB_OK || sm == RB_BAD_DNS_QUESTION ||
			sm == RB_BAD_DNS_RR, "scan verdict");
		/* header fields are read either way */
		FUZZ_CHECK(m.id == LDNS_ID_WIRE(d) && m.rcode == LDNS_RCODE_WIRE(d),
			"header on failure");
	}
	compare_name_at(d, size, d[size - 1] % size);
	free(d);
	return 0;
}
