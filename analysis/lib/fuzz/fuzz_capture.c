/*
 * fuzz_capture.c -- libFuzzer harness for analysis/lib/capture.c, the frame
 * decoder of dnsstat and from-pcap (link layer, IPv4/IPv6 with extension
 * headers, UDP/TCP).
 *
 * Input: byte 0 picks a link type (the eight rb_capture_decode knows and
 * one it does not), byte 1 how many bytes the snap length cut (0: none),
 * the rest is the frame. What must hold, else the harness aborts:
 *  - rb_capture_decode returns a cause of enum rb_skip, with a name;
 *  - on RB_OK: family 4 or 6, protocol UDP or TCP, and the payload lies
 *    inside the captured frame (a UDP payload is the UDP length minus 8);
 *  - the link layer is transparent: the rest of the input, read as an IP
 *    packet, decodes the same (cause, addresses, ports, TCP sequence
 *    number and flags, payload offset and length) under every link type,
 *    framed as Ethernet, raw IP, Linux cooked SLL and SLL2 and BSD
 *    loopback (both byte orders).
 * ASan/UBSan catch any read outside the frame.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include "../capture.h"

#define FUZZ_NAME "fuzz_capture"
#include "../fuzz.h"

/* decode: frame (a copy of exactly caplen bytes, for ASan) with dlt;
 * the payload's offset from the frame's start in *off */
static enum rb_skip
decode(int dlt, const uint8_t *frame, size_t caplen, size_t cut,
	struct rb_packet *pkt, size_t *off)
{
	uint8_t *f = fuzz_copy(frame, caplen);
	enum rb_skip r;

	memset(pkt, 0, sizeof(*pkt));
	r = rb_capture_decode(dlt, f, caplen, caplen + cut, pkt);
	FUZZ_CHECK((int)r >= 0 && r < RB_SKIP_MAX, "cause in range");
	FUZZ_CHECK(rb_skip_name(r) != NULL, "cause named");
	*off = 0;
	if (r == RB_OK) {
		FUZZ_CHECK(pkt->family == 4 || pkt->family == 6, "family");
		FUZZ_CHECK(pkt->proto == IPPROTO_UDP || pkt->proto == IPPROTO_TCP,
			"protocol");
		FUZZ_CHECK(pkt->payload >= f && pkt->payload <= f + caplen &&
			pkt->payload_len <= (size_t)(f + caplen - pkt->payload),
			"payload inside the frame");
		if (pkt->proto == IPPROTO_UDP)
			FUZZ_CHECK(pkt->payload_len + 8 ==
				(size_t)((pkt->payload[-4] << 8) | pkt->payload[-3]),
				"UDP payload is the UDP length minus 8");
		*off = (size_t)(pkt->payload - f);
	}
	free(f);
	pkt->payload = NULL;
	return r;
}

/* wrap: ip[0..n) behind the link header of dlt; the header's length */
static size_t
wrap(int dlt, const uint8_t *ip, size_t n, uint8_t *out)
{
	int v6 = n > 0 && (ip[0] >> 4) == 6;
	uint16_t et = v6 ? 0x86dd : 0x0800;
	size_t h = 0;

	switch (dlt) {
	case DLT_EN10MB:
		memset(out, 0x02, 12);
		out[12] = (uint8_t)(et >> 8);
		out[13] = (uint8_t)et;
		h = 14;
		break;
	case DLT_LINUX_SLL:	/* to us, ARPHRD_ETHER, a 6-byte address */
		memset(out, 0, 16);
		out[3] = 1;
		out[5] = 6;
		memset(out + 6, 0x02, 8);
		out[14] = (uint8_t)(et >> 8);
		out[15] = (uint8_t)et;
		h = 16;
		break;
	case DLT_LINUX_SLL2:	/* interface 2, ARPHRD_ETHER, 6-byte address */
		memset(out, 0, 20);
		out[0] = (uint8_t)(et >> 8);
		out[1] = (uint8_t)et;
		out[7] = 2;
		out[9] = 1;
		out[11] = 6;
		memset(out + 12, 0x02, 8);
		h = 20;
		break;
	case DLT_NULL:	/* host byte order of a little-endian writer */
		memset(out, 0, 4);
		out[0] = v6 ? 24 : 2;
		h = 4;
		break;
	case DLT_LOOP:	/* network byte order */
		memset(out, 0, 4);
		out[3] = v6 ? 30 : 2;
		h = 4;
		break;
	default:	/* raw IP */
		break;
	}
	memcpy(out + h, ip, n);
	return h;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int same[] = { DLT_RAW, DLT_EN10MB, DLT_LINUX_SLL,
		DLT_LINUX_SLL2, DLT_NULL, DLT_LOOP };
	struct rb_packet pkt, ref;
	enum rb_skip r, rref = RB_OK;
	size_t off, refoff = 0, cut, n, i;
	uint8_t *buf;

	if (size < 2)
		return 0;
	cut = data[1];
	n = size - 2;
	/* as given, under the link type byte 0 picks */
	decode(fuzz_dlt(data[0]), data + 2, n, cut, &pkt, &off);

	/* the same IP packet under every link type */
	if (n < 1 || ((data[2] >> 4) != 4 && (data[2] >> 4) != 6))
		return 0;
	buf = malloc(n + 20);
	if (!buf)
		abort();
	for (i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		size_t h = wrap(same[i], data + 2, n, buf);
		r = decode(same[i], buf, h + n, cut, &pkt, &off);
		if (r == RB_OK)
			off -= h;
		if (i == 0) {
			rref = r;
			ref = pkt;
			refoff = off;
			continue;
		}
		FUZZ_CHECK(r == rref, "same cause under every link type");
		if (r != RB_OK)
			continue;
		FUZZ_CHECK(off == refoff && pkt.payload_len == ref.payload_len,
			"same payload under every link type");
		FUZZ_CHECK(pkt.family == ref.family && pkt.proto == ref.proto &&
			pkt.sport == ref.sport && pkt.dport == ref.dport &&
			memcmp(pkt.src, ref.src, 16) == 0 &&
			memcmp(pkt.dst, ref.dst, 16) == 0,
			"same addresses and ports under every link type");
		FUZZ_CHECK(pkt.proto != IPPROTO_TCP || (pkt.tcp_seq == ref.tcp_seq &&
			pkt.tcp_flags == ref.tcp_flags), "same TCP fields");
	}
	free(buf);
	return 0;
}
