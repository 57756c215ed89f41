/*
 * dnsmsg.h -- the facts dnsstat needs from one DNS message, read with ldns.
 *
 * Two ways to get them, with the same result on well-formed messages:
 *  - ds_dnsmsg_scan: the fast path. Header fields through ldns' wire
 *    macros (LDNS_QR_WIRE, LDNS_RCODE_WIRE, ...), RR type/class/TTL/
 *    rdlength through ldns_read_uint16/32. Names are stepped over by
 *    ds_dnsmsg_name_skip, which accepts and rejects exactly the names
 *    ldns_wire2dname does but copies and allocates nothing. RDATA is
 *    skipped, not decoded. Each RR's section, kind and bytes on
 *    the wire are counted as it is stepped over.
 *  - ds_dnsmsg_parse_full: ldns_wire2pkt on the whole message, then ldns'
 *    packet accessors. Slower; stricter about RDATA. Used with --full and
 *    by the unit tests to check the fast path. Records per section and
 *    kind come from ldns' section lists, plus the OPT records and the
 *    TSIG that ldns takes out of the additional section; the bytes per
 *    section from the wire walk (ldns keeps no compressed sizes). The
 *    fuzz harness analysis/fuzz/fuzz_dnsmsg.c holds the two to the same
 *    facts on every input.
 */
#ifndef DS_DNSMSG_H
#define DS_DNSMSG_H

#include <stddef.h>
#include <stdint.h>
#include "lib/capture.h"

/* An answer's sections, and the kinds of record counted in each: what a
 * server chooses to put in an answer (referral NS and glue addresses,
 * signatures, denial records) is what makes servers' answers differ. */
enum ds_sect { DS_SECT_ANSWER, DS_SECT_AUTHORITY, DS_SECT_ADDITIONAL,
	DS_SECT_MAX };
enum ds_rrkind { DS_RR_NS, DS_RR_ADDR, DS_RR_RRSIG, DS_RR_DNSKEY,
	DS_RR_DENIAL, DS_RR_DS, DS_RR_SOA, DS_RR_OPT, DS_RR_OTHER,
	DS_RR_KINDS };

/* ds_dnsmsg_rrkind: the kind of an RR type (A and AAAA are ADDR, NSEC
 * and NSEC3 DENIAL). */
enum ds_rrkind ds_dnsmsg_rrkind(uint16_t type);
/* ds_sect_name, ds_rrkind_name: names for output ("answer", "RRSIG"). */
const char *ds_sect_name(enum ds_sect s);
const char *ds_rrkind_name(enum ds_rrkind k);

struct ds_dnsmsg {
	uint16_t id;
	uint8_t qr, opcode, rcode, tc;
	uint16_t qdcount, ancount, nscount, arcount;
	uint8_t has_question;
	uint16_t qtype, qclass;		/* of the first question */
	uint8_t has_opt, do_bit, edns_version, ext_rcode;
	uint16_t udp_size;		/* OPT's CLASS: advertised UDP size */
	size_t size;			/* message length in bytes */
	/* per section: bytes on the wire (owner names as compressed), and
	 * records by kind; OPT counts in the additional section */
	uint32_t sect_bytes[DS_SECT_MAX];
	uint16_t sect_rrs[DS_SECT_MAX][DS_RR_KINDS];
};

/* ds_dnsmsg_scan: fill m from wire[0..len). RB_OK or a DS_BAD_DNS_* cause;
 * on failure the fields read so far stay in m (header when len >= 12). */
enum rb_skip ds_dnsmsg_scan(const uint8_t *wire, size_t len,
	struct ds_dnsmsg *m);

/* ds_dnsmsg_name_skip: step *pos over the (possibly compressed) name at
 * wire[*pos], wire[0..len) being the whole message. 0 with *pos just past
 * the name's terminal zero or past its first compression pointer; -1 with
 * *pos unchanged when the name is bad. Bad, as for ldns_wire2dname: a
 * label or pointer that runs past len, a label of type 0x40 or 0x80
 * (length byte 64..191), a pointer to offset 0 or to len or beyond, more
 * than 255 bytes once decompressed (terminal zero included), or a pointer
 * chain that loops. Pointers are followed only to check the rest of the
 * name, without copying it; a chain is cut after len hops, since one that
 * ends visits each offset at most once. */
int ds_dnsmsg_name_skip(const uint8_t *wire, size_t len, size_t *pos);

/* ds_dnsmsg_parse_full: the same through ldns_wire2pkt. */
enum rb_skip ds_dnsmsg_parse_full(const uint8_t *wire, size_t len,
	struct ds_dnsmsg *m);

#endif /* DS_DNSMSG_H */
