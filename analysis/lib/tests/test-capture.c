/*
 * test-capture.c -- unit test of capture.c's frame decoding. What must
 * hold: each supported link type (Ethernet, Ethernet+802.1Q, QinQ, raw IP,
 * SLL, SLL2, null, loop) yields the UDP payload of an IPv4 and an IPv6
 * frame with the right ports and addresses; IPv6 hop-by-hop/destination
 * options, AH and atomic fragments are skipped; TCP gives its sequence,
 * flags and the payload after options; fragments, ESP, non-IP and a snap
 * length cut (as opposed to a short packet) are reported as such; and every
 * truncation of every frame returns an error cause without reading past
 * the end (ASan).
 */
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include "../capture.h"
#include "../unittest.h"

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif

static const uint8_t payload[] = { 0xab, 0xcd, 0x01, 0x00, 0, 1, 0, 0, 0, 0,
	0, 0, 0, 0, 2, 0, 1 };

/* ipv4_udp: an IPv4/UDP datagram 198.18.4.1:1234 -> 198.18.0.53:53 (never sent) */
static size_t
ipv4_udp(uint8_t *p)
{
	size_t n = 20 + 8 + sizeof(payload);
	memset(p, 0, 28);
	p[0] = 0x45;
	p[2] = (uint8_t)(n >> 8); p[3] = (uint8_t)n;
	p[8] = 64; p[9] = IPPROTO_UDP;
	p[12] = 198; p[13] = 18; p[14] = 4; p[15] = 1;
	p[16] = 198; p[17] = 18; p[19] = 53;
	p[20] = 1234 >> 8; p[21] = 1234 & 0xff; p[23] = 53;
	p[24] = (uint8_t)((n - 20) >> 8); p[25] = (uint8_t)(n - 20);
	memcpy(p + 28, payload, sizeof(payload));
	return n;
}

/* ipv6_udp: 2001:2::1 -> 2001:2::53, with a hop-by-hop and a destination
 * options header when ext is set */
static size_t
ipv6_udp(uint8_t *p, int ext)
{
	size_t off = 40, n;
	memset(p, 0, 40);
	p[0] = 0x60;
	p[7] = 64;
	p[8] = 0x20; p[9] = 0x01; p[11] = 0x02; p[23] = 0x01;
	p[24] = 0x20; p[25] = 0x01; p[27] = 0x02; p[39] = 0x53;
	if (ext) {
		p[6] = IPPROTO_HOPOPTS;
		memset(p + off, 0, 16);
		p[off] = IPPROTO_DSTOPTS;	/* 8 bytes, padding */
		p[off + 8] = IPPROTO_UDP;	/* 8 bytes */
		off += 16;
	} else {
		p[6] = IPPROTO_UDP;
	}
	memset(p + off, 0, 8);
	p[off] = 5353 >> 8; p[off + 1] = 5353 & 0xff; p[off + 3] = 53;
	p[off + 5] = (uint8_t)(8 + sizeof(payload));
	memcpy(p + off + 8, payload, sizeof(payload));
	n = off + 8 + sizeof(payload);
	p[4] = (uint8_t)((n - 40) >> 8); p[5] = (uint8_t)(n - 40);
	return n;
}

/* frame: link header for dlt in front of an IP packet; returns length */
static size_t
frame(int dlt, int vlan, uint8_t *f, const uint8_t *ip, size_t iplen, int v6)
{
	size_t h = 0;
	uint16_t et = v6 ? 0x86dd : 0x0800;
	switch (dlt) {
	case DLT_EN10MB:
		memset(f, 0x11, 12);
		h = 12;
		if (vlan) {
			f[h] = 0x81; f[h + 1] = 0; f[h + 2] = 0; f[h + 3] = 7;
			h += 4;
		}
		f[h] = (uint8_t)(et >> 8); f[h + 1] = (uint8_t)et;
		h += 2;
		break;
	case DLT_RAW:
		break;
	case DLT_LINUX_SLL:
		memset(f, 0, 16);
		f[14] = (uint8_t)(et >> 8); f[15] = (uint8_t)et;
		h = 16;
		break;
	case DLT_LINUX_SLL2:
		memset(f, 0, 20);
		f[0] = (uint8_t)(et >> 8); f[1] = (uint8_t)et;
		h = 20;
		break;
	case DLT_NULL:
		memset(f, 0, 4);
		f[0] = v6 ? 30 : 2;	/* little-endian AF_INET / BSD AF_INET6 */
		h = 4;
		break;
	}
	memcpy(f + h, ip, iplen);
	return h + iplen;
}

static void
check_payload(const struct rb_packet *pkt, int v6)
{
	UT_EQ(pkt->proto, IPPROTO_UDP);
	UT_EQ(pkt->family, v6 ? 6 : 4);
	UT_EQ(pkt->dport, 53);
	UT_EQ(pkt->sport, v6 ? 5353 : 1234);
	UT_EQ(pkt->payload_len, sizeof(payload));
	UT_CHECK(pkt->payload && memcmp(pkt->payload, payload,
		sizeof(payload)) == 0);
	UT_EQ(pkt->src[v6 ? 15 : 3], 1);
}

/* every_cut: all truncations fail cleanly (heap copy so ASan sees overruns) */
static void
every_cut(int dlt, const uint8_t *f, size_t n)
{
	size_t cut;
	struct rb_packet pkt;
	for (cut = 0; cut < n; cut++) {
		uint8_t *c = malloc(cut ? cut : 1);
		memcpy(c, f, cut);
		/* as if cut by the snap length, and as if the frame were short */
		UT_CHECK(rb_capture_decode(dlt, c, cut, n, &pkt) != RB_OK);
		UT_CHECK(rb_capture_decode(dlt, c, cut, cut, &pkt) != RB_OK);
		free(c);
	}
}

int
main(void)
{
	static const int dlts[] = { DLT_EN10MB, DLT_RAW, DLT_LINUX_SLL,
		DLT_LINUX_SLL2, DLT_NULL };
	uint8_t ip[256], f[300];
	struct rb_packet pkt;
	size_t i, n, ipn;
	int v6, ext, vlan;

	for (i = 0; i < sizeof(dlts) / sizeof(dlts[0]); i++) {
		for (v6 = 0; v6 <= 1; v6++) {
			for (ext = 0; ext <= v6; ext++) {
				for (vlan = 0; vlan <= (dlts[i] == DLT_EN10MB);
				     vlan++) {
					uint8_t *h;
					ipn = v6 ? ipv6_udp(ip, ext) : ipv4_udp(ip);
					n = frame(dlts[i], vlan, f, ip, ipn, v6);
					h = malloc(n);
					memcpy(h, f, n);
					UT_EQ(rb_capture_decode(dlts[i], h, n, n,
						&pkt), RB_OK);
					check_payload(&pkt, v6);
					free(h);
					every_cut(dlts[i], f, n);
				}
			}
		}
	}
	/* Ethernet padding after a short IPv4 datagram is not payload */
	ipn = ipv4_udp(ip);
	n = frame(DLT_EN10MB, 0, f, ip, ipn, 0);
	memset(f + n, 0, 20);
	UT_EQ(rb_capture_decode(DLT_EN10MB, f, n + 20, n + 20, &pkt), RB_OK);
	UT_EQ(pkt.payload_len, sizeof(payload));
	/* IPv4 fragment */
	ipv4_udp(ip);
	ip[6] = 0x20;	/* MF */
	UT_EQ(rb_capture_decode(DLT_RAW, ip, ipn, ipn, &pkt),
		RB_SKIP_IP_FRAGMENT);
	/* IPv4 ICMP */
	ipv4_udp(ip);
	ip[9] = IPPROTO_ICMP;
	UT_EQ(rb_capture_decode(DLT_RAW, ip, ipn, ipn, &pkt),
		RB_SKIP_NOT_UDP_TCP);
	/* UDP length larger than the IP payload */
	ipv4_udp(ip);
	ip[25] += 1;
	UT_EQ(rb_capture_decode(DLT_RAW, ip, ipn, ipn, &pkt), RB_BAD_L4);
	/* IPv6 ESP is not skipped */
	ipn = ipv6_udp(ip, 0);
	ip[6] = IPPROTO_ESP;
	UT_EQ(rb_capture_decode(DLT_RAW, ip, ipn, ipn, &pkt), RB_SKIP_IP6_EXT);
	/* IPv6 non-atomic fragment */
	ipn = ipv6_udp(ip, 1);
	ip[6] = IPPROTO_FRAGMENT;
	ip[43] = 1;	/* M flag in the fragment header's offset field */
	UT_EQ(rb_capture_decode(DLT_RAW, ip, ipn, ipn, &pkt),
		RB_SKIP_IP_FRAGMENT);
	/* ARP over Ethernet */
	memset(f, 0, 60);
	f[12] = 0x08; f[13] = 0x06;
	UT_EQ(rb_capture_decode(DLT_EN10MB, f, 60, 60, &pkt), RB_SKIP_NOT_IP);
	/* version nibble wrong on raw IP */
	ipn = ipv4_udp(ip);
	ip[0] = 0x55;
	UT_EQ(rb_capture_decode(DLT_RAW, ip, ipn, ipn, &pkt), RB_BAD_IP);
	UT_EQ(rb_capture_decode(12345, ip, ipn, ipn, &pkt), RB_BAD_LINK);
	/* QinQ: an 802.1ad tag, then an 802.1Q tag, then IPv6 */
	ipn = ipv6_udp(ip, 0);
	n = frame(DLT_EN10MB, 1, f + 4, ip, ipn, 1);	/* 0x8100 tag */
	memset(f, 0x11, 12);
	f[12] = 0x88; f[13] = 0xa8; f[14] = 0; f[15] = 5;
	n += 4;
	UT_EQ(rb_capture_decode(DLT_EN10MB, f, n, n, &pkt), RB_OK);
	check_payload(&pkt, 1);
	every_cut(DLT_EN10MB, f, n);
	/* DLT_LOOP: the address family in network byte order (OpenBSD) */
	memset(f, 0, 4);
	f[3] = 24;	/* OpenBSD AF_INET6 */
	memcpy(f + 4, ip, ipn);
	UT_EQ(rb_capture_decode(DLT_LOOP, f, ipn + 4, ipn + 4, &pkt), RB_OK);
	check_payload(&pkt, 1);
	f[3] = 17;	/* not an IP family */
	UT_EQ(rb_capture_decode(DLT_LOOP, f, ipn + 4, ipn + 4, &pkt),
		RB_SKIP_NOT_IP);
	/* IPv6 atomic fragment (offset 0, no M flag) is a whole datagram */
	ipn = ipv6_udp(ip, 1);
	ip[6] = IPPROTO_FRAGMENT;
	UT_EQ(rb_capture_decode(DLT_RAW, ip, ipn, ipn, &pkt), RB_OK);
	check_payload(&pkt, 1);
	/* IPv6 AH is skipped: its length counts 4-byte units, minus 2 */
	ipn = ipv6_udp(ip, 1);
	ip[6] = IPPROTO_AH;
	ip[41] = 2;	/* (2 + 2) * 4 = 16 bytes: both 8-byte headers */
	ip[40] = IPPROTO_UDP;
	UT_EQ(rb_capture_decode(DLT_RAW, ip, ipn, ipn, &pkt), RB_OK);
	check_payload(&pkt, 1);
	/* snap length cut inside the payload: a snaplen cause, ports known */
	ipn = ipv4_udp(ip);
	UT_EQ(rb_capture_decode(DLT_RAW, ip, ipn - 3, ipn, &pkt),
		RB_BAD_SNAPLEN);
	UT_EQ(pkt.dport, 53);
	/* the same bytes not cut by the snap length: a bad IP header */
	UT_EQ(rb_capture_decode(DLT_RAW, ip, ipn - 3, ipn - 3, &pkt),
		RB_BAD_IP);
	/* TCP: sequence number, flags and the payload after the options */
	ipn = ipv4_udp(ip);
	{
		uint8_t *t = ip + 20;
		size_t tn = 20 + 12 + 20 + sizeof(payload);
		ip[9] = IPPROTO_TCP;
		ip[2] = (uint8_t)(tn >> 8); ip[3] = (uint8_t)tn;
		memset(t + 4, 0, 28);
		t[4] = 0x01; t[7] = 0x02;	/* seq 0x01000002 */
		t[12] = 8 << 4;	/* 32-byte header: 12 bytes of options */
		t[13] = 0x18;	/* PSH ACK */
		memcpy(t + 32, payload, sizeof(payload));
		UT_EQ(rb_capture_decode(DLT_RAW, ip, tn, tn, &pkt), RB_OK);
		UT_EQ(pkt.proto, IPPROTO_TCP);
		UT_EQ(pkt.tcp_seq, 0x01000002);
		UT_EQ(pkt.tcp_flags, 0x18);
		UT_EQ(pkt.sport, 1234);
		UT_EQ(pkt.payload_len, sizeof(payload));
		UT_CHECK(memcmp(pkt.payload, payload, sizeof(payload)) == 0);
		every_cut(DLT_RAW, ip, tn);
		t[12] = 4 << 4;	/* data offset below 20 bytes */
		UT_EQ(rb_capture_decode(DLT_RAW, ip, tn, tn, &pkt), RB_BAD_L4);
	}
	return UT_DONE("test_capture");
}
