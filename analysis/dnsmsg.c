/*
 * dnsmsg.c -- DNS message facts through ldns. See dnsmsg.h.
 */
#include "dnsmsg.h"

#include <string.h>
#include <ldns/ldns.h>

enum ds_rrkind
ds_dnsmsg_rrkind(uint16_t type)
{
	switch (type) {
	case LDNS_RR_TYPE_NS: return DS_RR_NS;
	case LDNS_RR_TYPE_A: case LDNS_RR_TYPE_AAAA: return DS_RR_ADDR;
	case LDNS_RR_TYPE_RRSIG: return DS_RR_RRSIG;
	case LDNS_RR_TYPE_DNSKEY: return DS_RR_DNSKEY;
	case LDNS_RR_TYPE_NSEC: case LDNS_RR_TYPE_NSEC3: return DS_RR_DENIAL;
	case LDNS_RR_TYPE_DS: return DS_RR_DS;
	case LDNS_RR_TYPE_SOA: return DS_RR_SOA;
	case LDNS_RR_TYPE_OPT: return DS_RR_OPT;
	default: return DS_RR_OTHER;
	}
}

const char *
ds_sect_name(enum ds_sect s)
{
	static const char *const names[DS_SECT_MAX] = { "answer", "authority",
		"additional" };
	return (unsigned)s < DS_SECT_MAX ? names[s] : "?";
}

const char *
ds_rrkind_name(enum ds_rrkind k)
{
	static const char *const names[DS_RR_KINDS] = { "NS", "A/AAAA",
		"RRSIG", "DNSKEY", "NSEC/NSEC3", "DS", "SOA", "OPT", "other" };
	return (unsigned)k < DS_RR_KINDS ? names[k] : "?";
}

/* sect_of: the section of the i-th RR after the question. */
static enum ds_sect
sect_of(const struct ds_dnsmsg *m, unsigned i)
{
	if (i < m->ancount)
		return DS_SECT_ANSWER;
	if (i < (unsigned)m->ancount + m->nscount)
		return DS_SECT_AUTHORITY;
	return DS_SECT_ADDITIONAL;
}

/* read_header: the fixed 12 bytes, with ldns' wire macros. */
static void
read_header(const uint8_t *wire, size_t len, struct ds_dnsmsg *m)
{
	m->size = len;
	m->id = LDNS_ID_WIRE(wire);
	m->qr = LDNS_QR_WIRE(wire) ? 1 : 0;
	m->tc = LDNS_TC_WIRE(wire) ? 1 : 0;
	m->opcode = LDNS_OPCODE_WIRE(wire);
	m->rcode = LDNS_RCODE_WIRE(wire);
	m->qdcount = LDNS_QDCOUNT(wire);
	m->ancount = LDNS_ANCOUNT(wire);
	m->nscount = LDNS_NSCOUNT(wire);
	m->arcount = LDNS_ARCOUNT(wire);
}

int
ds_dnsmsg_name_skip(const uint8_t *wire, size_t len, size_t *pos)
{
	size_t p = *pos, end = 0, namelen = 1, hops = 0;

	/* every byte read is below len: a label or a pointer that points
	 * past the message fails the test at the top of the loop */
	for (;;) {
		uint8_t c;
		if (p >= len)
			return -1;
		c = wire[p];
		if (c == 0)
			break;
		if ((c & 0xc0) == 0xc0) {
			if (p + 2 > len)
				return -1;
			if (!end)
				end = p + 2;
			p = ((size_t)(c & 0x3f) << 8) | wire[p + 1];
			/* offset 0 is refused by ldns; a chain that ends
			 * visits each offset at most once */
			if (p == 0 || ++hops > len)
				return -1;
			continue;
		}
		/* 0x40 (extended) and 0x80 (reserved) label types */
		if (c > LDNS_MAX_LABELLEN)
			return -1;
		namelen += 1 + (size_t)c;
		if (namelen > LDNS_MAX_DOMAINLEN)
			return -1;
		p += 1 + (size_t)c;
	}
	*pos = end ? end : p + 1;
	return 0;
}

enum rb_skip
ds_dnsmsg_scan(const uint8_t *wire, size_t len, struct ds_dnsmsg *m)
{
	size_t pos = LDNS_HEADER_SIZE;
	unsigned i, nrr;

	memset(m, 0, sizeof(*m));
	if (len < LDNS_HEADER_SIZE)
		return RB_BAD_DNS_HEADER;
	read_header(wire, len, m);
	for (i = 0; i < m->qdcount; i++) {
		if (ds_dnsmsg_name_skip(wire, len, &pos) != 0 || pos + 4 > len)
			return RB_BAD_DNS_QUESTION;
		if (i == 0) {
			m->has_question = 1;
			m->qtype = ldns_read_uint16(wire + pos);
			m->qclass = ldns_read_uint16(wire + pos + 2);
		}
		pos += 4;
	}
	nrr = (unsigned)m->ancount + m->nscount + m->arcount;
	for (i = 0; i < nrr; i++) {
		uint16_t type, rdlen;
		size_t start = pos;
		enum ds_sect sect = sect_of(m, i);
		if (ds_dnsmsg_name_skip(wire, len, &pos) != 0 || pos + 10 > len)
			return RB_BAD_DNS_RR;
		type = ldns_read_uint16(wire + pos);
		rdlen = ldns_read_uint16(wire + pos + 8);
		if (type == LDNS_RR_TYPE_OPT &&
		    i >= (unsigned)m->ancount + m->nscount && !m->has_opt) {
			uint32_t ttl = ldns_read_uint32(wire + pos + 4);
			m->has_opt = 1;
			m->udp_size = ldns_read_uint16(wire + pos + 2);
			m->ext_rcode = (uint8_t)(ttl >> 24);
			m->edns_version = (uint8_t)(ttl >> 16);
			m->do_bit = (ttl & 0x8000) ? 1 : 0;
		}
		pos += 10;
		if (pos + rdlen > len)
			return RB_BAD_DNS_RR;
		pos += rdlen;
		m->sect_bytes[sect] += (uint32_t)(pos - start);
		m->sect_rrs[sect][ds_dnsmsg_rrkind(type)]++;
	}
	return RB_OK;
}

/* count_list: records of an ldns section list by kind. */
static void
count_list(const ldns_rr_list *l, uint16_t *rrs)
{
	size_t i;
	for (i = 0; i < ldns_rr_list_rr_count(l); i++)
		rrs[ds_dnsmsg_rrkind((uint16_t)ldns_rr_get_type(ldns_rr_list_rr(l, i)))]++;
}

enum rb_skip
ds_dnsmsg_parse_full(const uint8_t *wire, size_t len, struct ds_dnsmsg *m)
{
	ldns_pkt *pkt = NULL;
	ldns_status st;
	ldns_rr *q;

	memset(m, 0, sizeof(*m));
	if (len < LDNS_HEADER_SIZE)
		return RB_BAD_DNS_HEADER;
	st = ldns_wire2pkt(&pkt, wire, len);
	if (st != LDNS_STATUS_OK) {
		/* keep the header for callers that count by rcode anyway */
		read_header(wire, len, m);
		return RB_BAD_DNS_OTHER;
	}
	/* section counts as on the wire: ldns_wire2pkt takes the OPT RR
	 * out of the additional section */
	read_header(wire, len, m);
	m->id = ldns_pkt_id(pkt);
	m->qr = ldns_pkt_qr(pkt) ? 1 : 0;
	m->tc = ldns_pkt_tc(pkt) ? 1 : 0;
	m->opcode = (uint8_t)ldns_pkt_get_opcode(pkt);
	/* ldns_pkt_get_rcode holds the 4-bit header rcode after wire2pkt */
	m->rcode = (uint8_t)(ldns_pkt_get_rcode(pkt) & 0x0f);
	q = ldns_rr_list_rr(ldns_pkt_question(pkt), 0);
	if (q) {
		m->has_question = 1;
		m->qtype = (uint16_t)ldns_rr_get_type(q);
		m->qclass = (uint16_t)ldns_rr_get_class(q);
	}
	count_list(ldns_pkt_answer(pkt), m->sect_rrs[DS_SECT_ANSWER]);
	count_list(ldns_pkt_authority(pkt), m->sect_rrs[DS_SECT_AUTHORITY]);
	count_list(ldns_pkt_additional(pkt), m->sect_rrs[DS_SECT_ADDITIONAL]);
	{
		/* bytes per section from the wire walk; ldns keeps none */
		struct ds_dnsmsg w;
		if (ds_dnsmsg_scan(wire, len, &w) == RB_OK)
			memcpy(m->sect_bytes, w.sect_bytes, sizeof(m->sect_bytes));
	}
	/* ldns_wire2pkt takes every OPT RR out of the additional list and
	 * out of ARCOUNT, and a TSIG too (into its own field): counted back
	 * here as the fast scan counts them */
	if (ldns_pkt_tsig(pkt))
		m->sect_rrs[DS_SECT_ADDITIONAL][ds_dnsmsg_rrkind(LDNS_RR_TYPE_TSIG)]++;
	if (ldns_pkt_edns(pkt)) {
		unsigned opts = (unsigned)m->arcount - ldns_pkt_arcount(pkt) -
			(ldns_pkt_tsig(pkt) ? 1 : 0);
		m->sect_rrs[DS_SECT_ADDITIONAL][DS_RR_OPT] += (uint16_t)opts;
		m->has_opt = 1;
		m->udp_size = ldns_pkt_edns_udp_size(pkt);
		m->ext_rcode = ldns_pkt_edns_extended_rcode(pkt);
		m->edns_version = ldns_pkt_edns_version(pkt);
		m->do_bit = ldns_pkt_edns_do(pkt) ? 1 : 0;
	}
	ldns_pkt_free(pkt);
	return RB_OK;
}
