/*
 * decode.c -- link, IP and transport headers of captured frames, with
 * bounds checks on every field read.
 */
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <pcap/pcap.h>
#include "decode.h"

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif
#ifndef DLT_IPV4
#define DLT_IPV4 228
#endif
#ifndef DLT_IPV6
#define DLT_IPV6 229
#endif

static uint16_t
ur_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

int
ur_decode_linktype_ok(int linktype)
{
	switch (linktype) {
	case DLT_EN10MB:
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
	case DLT_NULL:
	case DLT_LOOP:
		return 1;
	default:
		return 0;
	}
}

const char *
ur_decode_reason(ur_decode_result r)
{
	switch (r) {
	case UR_DECODE_OK: return "ok";
	case UR_DECODE_LINK: return "not IP";
	case UR_DECODE_TRUNCATED: return "truncated";
	case UR_DECODE_FRAGMENT: return "IP fragments";
	case UR_DECODE_PROTO: return "neither UDP nor TCP";
	case UR_DECODE_BAD_IP: return "bad IP header";
	default: return "?";
	}
}

static ur_decode_result
ur_decode_transport(const uint8_t *p, size_t len, int proto, ur_packet *pkt)
{
	size_t hl;
	pkt->proto = proto;
	if (proto == IPPROTO_UDP) {
		size_t ulen;
		if (len < 8)
			return UR_DECODE_TRUNCATED;
		ulen = ur_get16(p + 4);
		if (ulen < 8)
			return UR_DECODE_BAD_IP;
		if (ulen > len)
			return UR_DECODE_TRUNCATED;
		hl = 8;
		len = ulen;
	} else if (proto == IPPROTO_TCP) {
		if (len < 20)
			return UR_DECODE_TRUNCATED;
		hl = (size_t)(p[12] >> 4) * 4;
		if (hl < 20)
			return UR_DECODE_BAD_IP;
		if (hl > len)
			return UR_DECODE_TRUNCATED;
	} else {
		return UR_DECODE_PROTO;
	}
	pkt->sport = ur_get16(p);
	pkt->dport = ur_get16(p + 2);
	pkt->payload = p + hl;
	pkt->len = len - hl;
	return UR_DECODE_OK;
}

static ur_decode_result
ur_decode_ip4(const uint8_t *p, size_t len, ur_packet *pkt)
{
	size_t hl, total;
	if (len < 20)
		return UR_DECODE_TRUNCATED;
	if ((p[0] >> 4) != 4)
		return UR_DECODE_BAD_IP;
	hl = (size_t)(p[0] & 0x0f) * 4;
	total = ur_get16(p + 2);
	if (hl < 20 || total < hl)
		return UR_DECODE_BAD_IP;
	if (total > len)
		return UR_DECODE_TRUNCATED;
	if (ur_get16(p + 6) & 0x3fff)	/* MF or a fragment offset */
		return UR_DECODE_FRAGMENT;
	pkt->src.family = pkt->dst.family = AF_INET;
	memcpy(pkt->src.a, p + 12, 4);
	memcpy(pkt->dst.a, p + 16, 4);
	return ur_decode_transport(p + hl, total - hl, p[9], pkt);
}

static ur_decode_result
ur_decode_ip6(const uint8_t *p, size_t len, ur_packet *pkt)
{
	size_t plen, off = 40;
	int next, hops;
	if (len < 40)
		return UR_DECODE_TRUNCATED;
	if ((p[0] >> 4) != 6)
		return UR_DECODE_BAD_IP;
	plen = ur_get16(p + 4);
	if (plen == 0)
		return UR_DECODE_BAD_IP;	/* jumbogram: not for DNS */
	if (40 + plen > len)
		return UR_DECODE_TRUNCATED;
	len = 40 + plen;
	pkt->src.family = pkt->dst.family = AF_INET6;
	memcpy(pkt->src.a, p + 8, 16);
	memcpy(pkt->dst.a, p + 24, 16);
	next = p[6];
	for (hops = 0; hops < 8; hops++) {
		switch (next) {
		case 0:		/* hop-by-hop */
		case 43:	/* routing */
		case 60:	/* destination options */
			if (off + 8 > len)
				return UR_DECODE_TRUNCATED;
			next = p[off];
			off += ((size_t)p[off + 1] + 1) * 8;
			if (off > len)
				return UR_DECODE_TRUNCATED;
			continue;
		case 44:
			return UR_DECODE_FRAGMENT;
		default:
			return ur_decode_transport(p + off, len - off, next, pkt);
		}
	}
	return UR_DECODE_BAD_IP;
}

static ur_decode_result
ur_decode_ip(const uint8_t *p, size_t len, ur_packet *pkt)
{
	if (len < 1)
		return UR_DECODE_TRUNCATED;
	switch (p[0] >> 4) {
	case 4: return ur_decode_ip4(p, len, pkt);
	case 6: return ur_decode_ip6(p, len, pkt);
	default: return UR_DECODE_LINK;
	}
}

/* An ethertype-selected payload. */
static ur_decode_result
ur_decode_ethertype(uint16_t type, const uint8_t *p, size_t len, ur_packet *pkt)
{
	switch (type) {
	case 0x0800: return ur_decode_ip4(p, len, pkt);
	case 0x86dd: return ur_decode_ip6(p, len, pkt);
	default: return UR_DECODE_LINK;
	}
}

ur_decode_result
ur_decode_frame(int linktype, const uint8_t *data, size_t caplen, ur_packet *pkt)
{
	size_t off;
	uint16_t type;
	int tags;

	memset(pkt, 0, sizeof(*pkt));
	switch (linktype) {
	case DLT_EN10MB:
		if (caplen < 14)
			return UR_DECODE_TRUNCATED;
		type = ur_get16(data + 12);
		off = 14;
		for (tags = 0; (type == 0x8100 || type == 0x88a8 || type == 0x9100) && tags < 4; tags++) {
			if (off + 4 > caplen)
				return UR_DECODE_TRUNCATED;
			type = ur_get16(data + off + 2);
			off += 4;
		}
		return ur_decode_ethertype(type, data + off, caplen - off, pkt);
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		return ur_decode_ip(data, caplen, pkt);
	case DLT_LINUX_SLL:
		if (caplen < 16)
			return UR_DECODE_TRUNCATED;
		return ur_decode_ethertype(ur_get16(data + 14), data + 16, caplen - 16, pkt);
	case DLT_LINUX_SLL2:
		if (caplen < 20)
			return UR_DECODE_TRUNCATED;
		return ur_decode_ethertype(ur_get16(data), data + 20, caplen - 20, pkt);
	case DLT_NULL:
	case DLT_LOOP:
		if (caplen < 4)
			return UR_DECODE_TRUNCATED;
		/* The 4-byte address family word is in either byte order;
		 * the IP version nibble is what decides. */
		return ur_decode_ip(data + 4, caplen - 4, pkt);
	default:
		return UR_DECODE_LINK;
	}
}
