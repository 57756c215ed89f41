/*
 * capture.c -- libpcap reading and link/IP/UDP/TCP decoding for dnsstat
 * and from-pcap.
 * See capture.h. Only the headers needed to find the transport payload are
 * decoded here; DNS itself is left to dnsmsg.c (ldns).
 */
#include "capture.h"

#include <stdio.h>
#include <stdio_ext.h>
#include <string.h>
#include <netinet/in.h>

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif
#ifndef DLT_IPV4
#define DLT_IPV4 228
#endif
#ifndef DLT_IPV6
#define DLT_IPV6 229
#endif

#define ETHERTYPE_IPV4 0x0800
#define ETHERTYPE_IPV6 0x86dd

static const char *skip_names[RB_SKIP_MAX] = {
	[RB_OK] = "ok",
	[RB_SKIP_NOT_IP] = "not_ip",
	[RB_SKIP_NOT_UDP_TCP] = "not_udp_tcp",
	[RB_SKIP_NOT_DNS_PORT] = "not_dns_port",
	[RB_SKIP_IP_FRAGMENT] = "ip_fragment",
	[RB_SKIP_IP6_EXT] = "ip6_ext_unsupported",
	[RB_SKIP_TCP_EMPTY] = "tcp_no_payload",
	[RB_SKIP_TCP_RETRANS] = "tcp_retransmission",
	[RB_SKIP_TCP_UNSYNCED] = "tcp_unsynced",
	[RB_BAD_LINK] = "link_truncated_or_unknown",
	[RB_BAD_IP] = "ip_bad_header",
	[RB_BAD_L4] = "l4_bad_header",
	[RB_BAD_SNAPLEN] = "snaplen_cut",
	[RB_BAD_TCP_PARTIAL] = "tcp_partial",
	[RB_BAD_DNS_HEADER] = "dns_short_header",
	[RB_BAD_DNS_QUESTION] = "dns_bad_question",
	[RB_BAD_DNS_RR] = "dns_bad_rr",
	[RB_BAD_DNS_OTHER] = "dns_ldns_error",
};

const char *
rb_skip_name(enum rb_skip cause)
{
	if ((int)cause < 0 || cause >= RB_SKIP_MAX)
		return "unknown";
	return skip_names[cause];
}

static inline uint16_t
rd16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

static inline uint32_t
rd32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
		((uint32_t)p[2] << 8) | p[3];
}

/* decode_l4: UDP or TCP header at p (len bytes of IP payload announced,
 * have bytes captured). */
static enum rb_skip
decode_l4(int proto, const uint8_t *p, size_t len, size_t have, int cut,
	struct rb_packet *pkt)
{
	pkt->proto = proto;
	if (proto == IPPROTO_UDP) {
		size_t ulen;
		if (have < 8)
			return cut ? RB_BAD_SNAPLEN : RB_BAD_L4;
		ulen = rd16(p + 4);
		if (ulen < 8 || ulen > len)
			return RB_BAD_L4;
		pkt->sport = rd16(p);
		pkt->dport = rd16(p + 2);
		if (ulen > have)
			return RB_BAD_SNAPLEN;
		pkt->payload = p + 8;
		pkt->payload_len = ulen - 8;
		return RB_OK;
	}
	if (proto == IPPROTO_TCP) {
		size_t doff;
		if (have < 20)
			return cut ? RB_BAD_SNAPLEN : RB_BAD_L4;
		doff = (size_t)(p[12] >> 4) * 4;
		if (doff < 20 || doff > len)
			return RB_BAD_L4;
		pkt->sport = rd16(p);
		pkt->dport = rd16(p + 2);
		pkt->tcp_seq = rd32(p + 4);
		pkt->tcp_flags = p[13];
		if (len > have)
			return RB_BAD_SNAPLEN;
		pkt->payload = p + doff;
		pkt->payload_len = len - doff;
		return RB_OK;
	}
	return RB_SKIP_NOT_UDP_TCP;
}

static enum rb_skip
decode_ipv4(const uint8_t *p, size_t have, int cut, struct rb_packet *pkt)
{
	size_t ihl, tot;
	uint16_t frag;
	if (have < 20)
		return cut ? RB_BAD_SNAPLEN : RB_BAD_IP;
	if ((p[0] >> 4) != 4)
		return RB_BAD_IP;
	ihl = (size_t)(p[0] & 0x0f) * 4;
	tot = rd16(p + 2);
	if (ihl < 20 || tot < ihl)
		return RB_BAD_IP;
	if (ihl > have)
		return cut ? RB_BAD_SNAPLEN : RB_BAD_IP;
	if (tot > have && !cut)
		return RB_BAD_IP;
	pkt->family = 4;
	memcpy(pkt->src, p + 12, 4);
	memcpy(pkt->dst, p + 16, 4);
	frag = rd16(p + 6);
	if (frag & 0x3fff)	/* MF set or offset non-zero */
		return RB_SKIP_IP_FRAGMENT;
	return decode_l4(p[9], p + ihl, tot - ihl,
		(tot < have ? tot : have) - ihl, cut, pkt);
}

static enum rb_skip
decode_ipv6(const uint8_t *p, size_t have, int cut, struct rb_packet *pkt)
{
	size_t plen, off = 40, end;
	uint8_t nh;
	if (have < 40)
		return cut ? RB_BAD_SNAPLEN : RB_BAD_IP;
	if ((p[0] >> 4) != 6)
		return RB_BAD_IP;
	plen = rd16(p + 4);
	if (plen == 0)		/* jumbogram or bogus: not DNS anyway */
		return RB_BAD_IP;
	end = 40 + plen;
	if (end > have && !cut)
		return RB_BAD_IP;
	if (end < have)
		have = end;
	pkt->family = 6;
	memcpy(pkt->src, p + 8, 16);
	memcpy(pkt->dst, p + 24, 16);
	nh = p[6];
	for (;;) {
		size_t hl;
		switch (nh) {
		case IPPROTO_UDP:
		case IPPROTO_TCP:
			return decode_l4(nh, p + off, end - off, have - off,
				cut, pkt);
		case IPPROTO_HOPOPTS:
		case IPPROTO_ROUTING:
		case IPPROTO_DSTOPTS:
			if (off + 8 > have)
				return cut ? RB_BAD_SNAPLEN : RB_BAD_IP;
			hl = ((size_t)p[off + 1] + 1) * 8;
			break;
		case IPPROTO_FRAGMENT:
			if (off + 8 > have)
				return cut ? RB_BAD_SNAPLEN : RB_BAD_IP;
			/* an atomic fragment (offset 0, no M flag) is whole */
			if (rd16(p + off + 2) != 0)
				return RB_SKIP_IP_FRAGMENT;
			hl = 8;
			break;
		case IPPROTO_AH:
			if (off + 8 > have)
				return cut ? RB_BAD_SNAPLEN : RB_BAD_IP;
			hl = ((size_t)p[off + 1] + 2) * 4;
			break;
		case IPPROTO_ICMPV6:
		case IPPROTO_NONE:
			return RB_SKIP_NOT_UDP_TCP;
		default:
			return RB_SKIP_IP6_EXT;
		}
		nh = p[off];
		off += hl;
		if (off > end)
			return RB_BAD_IP;
		if (off > have)
			return cut ? RB_BAD_SNAPLEN : RB_BAD_IP;
	}
}

/* decode_ip: by ethertype-like protocol number or by the version nibble
 * (proto 0). */
static enum rb_skip
decode_ip(unsigned proto, const uint8_t *p, size_t have, int cut,
	struct rb_packet *pkt)
{
	if (proto == 0) {
		if (have < 1)
			return cut ? RB_BAD_SNAPLEN : RB_BAD_IP;
		proto = (p[0] >> 4) == 4 ? ETHERTYPE_IPV4 :
			(p[0] >> 4) == 6 ? ETHERTYPE_IPV6 : 1;
		if (proto == 1)
			return RB_BAD_IP;
	}
	if (proto == ETHERTYPE_IPV4)
		return decode_ipv4(p, have, cut, pkt);
	if (proto == ETHERTYPE_IPV6)
		return decode_ipv6(p, have, cut, pkt);
	return RB_SKIP_NOT_IP;
}

/* null_family: BSD loopback's address family, in either byte order. */
static unsigned
null_family(const uint8_t *p)
{
	uint32_t v = rd32(p);
	if ((v & 0xffff) == 0)	/* written little-endian */
		v = (uint32_t)p[0] | ((uint32_t)p[1] << 8);
	switch (v) {
	case 2:
		return ETHERTYPE_IPV4;
	case 10: case 24: case 28: case 30:
		return ETHERTYPE_IPV6;
	}
	return 0xffff;
}

int
rb_capture_supported(int dlt)
{
	switch (dlt) {
	case DLT_EN10MB: case DLT_RAW: case DLT_IPV4: case DLT_IPV6:
	case DLT_LINUX_SLL: case DLT_LINUX_SLL2: case DLT_NULL: case DLT_LOOP:
		return 1;
	}
	return 0;
}

enum rb_skip
rb_capture_decode(int dlt, const uint8_t *f, size_t caplen, size_t wirelen,
	struct rb_packet *pkt)
{
	int cut = caplen < wirelen;
	size_t off;
	unsigned proto;

	pkt->payload = NULL;
	pkt->payload_len = 0;
	switch (dlt) {
	case DLT_EN10MB:
		if (caplen < 14)
			return cut ? RB_BAD_SNAPLEN : RB_BAD_LINK;
		off = 12;
		proto = rd16(f + off);
		/* 802.1Q, 802.1ad and the old QinQ type: 4 bytes each */
		while (proto == 0x8100 || proto == 0x88a8 || proto == 0x9100) {
			off += 4;
			if (off + 2 > caplen)
				return cut ? RB_BAD_SNAPLEN : RB_BAD_LINK;
			proto = rd16(f + off);
		}
		off += 2;
		break;
	case DLT_RAW: case DLT_IPV4: case DLT_IPV6:
		off = 0;
		proto = 0;
		break;
	case DLT_LINUX_SLL:
		if (caplen < 16)
			return cut ? RB_BAD_SNAPLEN : RB_BAD_LINK;
		proto = rd16(f + 14);
		off = 16;
		break;
	case DLT_LINUX_SLL2:
		if (caplen < 20)
			return cut ? RB_BAD_SNAPLEN : RB_BAD_LINK;
		proto = rd16(f);
		off = 20;
		break;
	case DLT_NULL: case DLT_LOOP:
		if (caplen < 4)
			return cut ? RB_BAD_SNAPLEN : RB_BAD_LINK;
		proto = null_family(f);
		off = 4;
		break;
	default:
		return RB_BAD_LINK;
	}
	return decode_ip(proto, f + off, caplen - off, cut, pkt);
}

pcap_t *
rb_capture_open(const char *path, const char *filter, char *err,
	size_t errlen)
{
	char perr[PCAP_ERRBUF_SIZE];
	struct bpf_program prog;
	pcap_t *p;

	perr[0] = 0;
	p = pcap_open_offline(path, perr);
	if (!p) {
		if (strstr(perr, path))	/* libpcap named the file already */
			snprintf(err, errlen,
				"not a readable pcap or pcapng capture: %s",
				perr);
		else
			snprintf(err, errlen,
				"%s: not a readable pcap or pcapng capture: %s",
				path, perr);
		return NULL;
	}
	if (!rb_capture_supported(pcap_datalink(p))) {
		snprintf(err, errlen, "%s: unsupported link type %d (%s); "
			"supported: Ethernet (802.1Q/802.1ad tags), raw IP, "
			"Linux cooked (SLL, SLL2), BSD loopback", path,
			pcap_datalink(p),
			pcap_datalink_val_to_name(pcap_datalink(p)) ?
			pcap_datalink_val_to_name(pcap_datalink(p)) : "?");
		pcap_close(p);
		return NULL;
	}
	if (filter && *filter) {
		if (pcap_compile(p, &prog, filter, 1,
			PCAP_NETMASK_UNKNOWN) != 0) {
			snprintf(err, errlen, "filter '%s': %s", filter,
				pcap_geterr(p));
			pcap_close(p);
			return NULL;
		}
		if (pcap_setfilter(p, &prog) != 0) {
			snprintf(err, errlen, "filter '%s': %s", filter,
				pcap_geterr(p));
			pcap_freecode(&prog);
			pcap_close(p);
			return NULL;
		}
		pcap_freecode(&prog);
	}
	/* one thread reads the file: libpcap's two freads per frame need not
	 * take the stream's lock (a tenth of dnsstat's time went to it) */
	if (pcap_file(p))
		__fsetlocking(pcap_file(p), FSETLOCKING_BYCALLER);
	return p;
}
