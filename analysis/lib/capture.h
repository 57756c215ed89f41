/*
 * capture.h -- reading frames with libpcap and finding the UDP or TCP
 * payload inside them.
 *
 * The decoder knows the link layers dnsstat meets in practice (Ethernet
 * with 802.1Q/802.1ad tags, raw IP, Linux cooked SLL and SLL2, BSD
 * loopback/null), IPv4 and IPv6 (with the common IPv6 extension headers
 * skipped), and the UDP and TCP headers. It never parses DNS; it only
 * says where the transport payload is. Every frame it cannot use gets a
 * cause (enum rb_skip) so callers count rather than guess.
 */
#ifndef RB_CAPTURE_H
#define RB_CAPTURE_H

#include <stddef.h>
#include <stdint.h>
#include <pcap/pcap.h>

/* Why a frame (or a DNS message in it) was not counted. Order matters only
 * for output: the names are in rb_skip_name(). */
enum rb_skip {
	RB_OK = 0,
	/* not DNS traffic: skipped, not an error */
	RB_SKIP_NOT_IP,		/* ARP, LLDP, ... */
	RB_SKIP_NOT_UDP_TCP,	/* ICMP, ICMPv6, ... */
	RB_SKIP_NOT_DNS_PORT,	/* neither port is the DNS port */
	RB_SKIP_IP_FRAGMENT,	/* IPv4/IPv6 fragments: not reassembled */
	RB_SKIP_IP6_EXT,	/* IPv6 extension header not skipped (ESP, ...) */
	RB_SKIP_TCP_EMPTY,	/* TCP segment without payload (SYN, ACK, FIN) */
	RB_SKIP_TCP_RETRANS,	/* TCP data already seen on this flow */
	RB_SKIP_TCP_UNSYNCED,	/* TCP segment while no message start is known */
	/* malformed or cut: counted as malformed */
	RB_BAD_LINK,		/* link header truncated or unknown type */
	RB_BAD_IP,		/* IP header truncated or inconsistent */
	RB_BAD_L4,		/* UDP/TCP header truncated or inconsistent */
	RB_BAD_SNAPLEN,		/* payload cut by the capture's snap length */
	RB_BAD_TCP_PARTIAL,	/* TCP DNS message never completed in order */
	RB_BAD_DNS_HEADER,	/* shorter than the 12-byte DNS header */
	RB_BAD_DNS_QUESTION,	/* question section does not parse */
	RB_BAD_DNS_RR,		/* an answer/authority/additional RR does not parse */
	RB_BAD_DNS_OTHER,	/* ldns_wire2pkt refused it (full mode) */
	RB_SKIP_MAX
};

/* first cause that counts as malformed */
#define RB_SKIP_FIRST_BAD RB_BAD_LINK

const char *rb_skip_name(enum rb_skip cause);

/* A decoded frame: where the transport payload is and who sent it. */
struct rb_packet {
	int family;		/* 4 or 6 */
	int proto;		/* IPPROTO_UDP or IPPROTO_TCP */
	uint8_t src[16], dst[16];	/* IPv4 uses the first 4 bytes */
	uint16_t sport, dport;
	uint32_t tcp_seq;
	uint8_t tcp_flags;
	const uint8_t *payload;
	size_t payload_len;
};

/* rb_capture_decode: find the transport payload of one frame of link type
 * DLT (pcap_datalink value). caplen is what the capture holds, wirelen
 * the frame's length on the wire (they differ when the snap length cut it). */
enum rb_skip rb_capture_decode(int dlt, const uint8_t *frame, size_t caplen,
	size_t wirelen,
	struct rb_packet *pkt);

/* rb_capture_supported: whether rb_capture_decode knows link type DLT. */
int rb_capture_supported(int dlt);

/* rb_capture_open: open a pcap or pcapng file ("-" is stdin) and apply an
 * optional BPF filter. Returns NULL with a message in err on failure. */
pcap_t *rb_capture_open(const char *path, const char *filter, char *err,
	size_t errlen);

#endif /* RB_CAPTURE_H */
