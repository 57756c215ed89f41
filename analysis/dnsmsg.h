/*
 * dnsmsg.h -- the facts dnsstat needs from one DNS message, read with ldns.
 *
 * Two ways to get them, with the same result on well-formed messages:
 *  - ds_dnsmsg_scan: the fast path. Header fields through ldns' wire
 *    macros (LDNS_QR_WIRE, LDNS_RCODE_WIRE, ...), names through
 *    ldns_wire2dname, RR type/class/TTL/rdlength through ldns_read_uint16/32.
 *    RDATA is skipped, not decoded.
 *  - ds_dnsmsg_parse_full: ldns_wire2pkt on the whole message, then ldns'
 *    packet accessors. Slower; stricter about RDATA. Used with --full and
 *    by the unit tests to check the fast path.
 */
#ifndef DS_DNSMSG_H
#define DS_DNSMSG_H

#include <stddef.h>
#include <stdint.h>
#include "capture.h"

struct ds_dnsmsg {
	uint16_t id;
	uint8_t qr, opcode, rcode, tc;
	uint16_t qdcount, ancount, nscount, arcount;
	uint8_t has_question;
	uint16_t qtype, qclass;		/* of the first question */
	uint8_t has_opt, do_bit, edns_version, ext_rcode;
	uint16_t udp_size;		/* OPT's CLASS: advertised UDP size */
	size_t size;			/* message length in bytes */
};

/* ds_dnsmsg_scan: fill m from wire[0..len). DS_OK or a DS_BAD_DNS_* cause;
 * on failure the fields read so far stay in m (header when len >= 12). */
enum ds_skip ds_dnsmsg_scan(const uint8_t *wire, size_t len,
	struct ds_dnsmsg *m);

/* ds_dnsmsg_parse_full: the same through ldns_wire2pkt. */
enum ds_skip ds_dnsmsg_parse_full(const uint8_t *wire, size_t len,
	struct ds_dnsmsg *m);

#endif /* DS_DNSMSG_H */
