/*
 * pcapout.c -- writing the replayable UDP query trace with libpcap.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "pcapout.h"

#define UR_SNAPLEN 65535
#define UR_ETH_LEN 14
#define UR_IP4_LEN 20
#define UR_IP6_LEN 40
#define UR_UDP_LEN 8

/* Locally administered placeholders, replaced by udpreplay/rewrite. */
static const uint8_t ur_mac_src[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t ur_mac_dst[6] = { 0x02, 0, 0, 0, 0, 0x02 };

int
ur_addr_parse(ur_addr *a, const char *s)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->a) == 1) {
		a->family = AF_INET;
		return 0;
	}
	if (inet_pton(AF_INET6, s, a->a) == 1) {
		a->family = AF_INET6;
		return 0;
	}
	fprintf(stderr, "'%s' is not an IPv4 or IPv6 address\n", s);
	return -1;
}

int
ur_pcapout_open(ur_pcapout *o, const char *path)
{
	char err[1024];
	memset(o, 0, sizeof(*o));
	if (rb_outfile_begin(&o->file, path, 0, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	o->dead = pcap_open_dead(DLT_EN10MB, UR_SNAPLEN);
	if (!o->dead) {
		fprintf(stderr, "pcap_open_dead failed\n");
		rb_outfile_abort(&o->file);
		return -1;
	}
	o->dumper = pcap_dump_open(o->dead, o->file.tmp);
	if (!o->dumper) {
		fprintf(stderr, "%s: %s\n", o->file.tmp, pcap_geterr(o->dead));
		pcap_close(o->dead);
		rb_outfile_abort(&o->file);
		return -1;
	}
	return 0;
}

static uint32_t
ur_sum16(const uint8_t *p, size_t len, uint32_t sum)
{
	size_t i;
	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)(p[len - 1] << 8);
	return sum;
}

static uint16_t
ur_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static void
ur_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

int
ur_pcapout_udp(ur_pcapout *o, const struct timeval *ts, const ur_addr *src,
    uint16_t sport, const ur_addr *dst, uint16_t dport, const uint8_t *payload, size_t len)
{
	static uint8_t frame[UR_SNAPLEN];
	struct pcap_pkthdr h;
	size_t iplen = src->family == AF_INET ? UR_IP4_LEN : UR_IP6_LEN;
	size_t alen = src->family == AF_INET ? 4 : 16;
	uint8_t *ip = frame + UR_ETH_LEN, *udp = ip + iplen;
	size_t udplen = UR_UDP_LEN + len, total = UR_ETH_LEN + iplen + udplen;
	uint32_t sum;
	uint16_t csum;

	if (src->family != dst->family) {
		fprintf(stderr, "source and destination address families differ\n");
		return -1;
	}
	if (total > sizeof(frame) || udplen > 65535 - (src->family == AF_INET ? iplen : 0)) {
		fprintf(stderr, "a %zu-byte DNS message does not fit one UDP datagram\n", len);
		return -1;
	}
	memcpy(frame, ur_mac_dst, 6);
	memcpy(frame + 6, ur_mac_src, 6);
	if (src->family == AF_INET) {
		ur_put16(frame + 12, 0x0800);
		memset(ip, 0, UR_IP4_LEN);
		ip[0] = 0x45;
		ur_put16(ip + 2, (uint16_t)(UR_IP4_LEN + udplen));
		ur_put16(ip + 6, 0x4000);	/* DF */
		ip[8] = 64;
		ip[9] = IPPROTO_UDP;
		memcpy(ip + 12, src->a, 4);
		memcpy(ip + 16, dst->a, 4);
		ur_put16(ip + 10, ur_fold(ur_sum16(ip, UR_IP4_LEN, 0)));
	} else {
		ur_put16(frame + 12, 0x86dd);
		memset(ip, 0, UR_IP6_LEN);
		ip[0] = 0x60;
		ur_put16(ip + 4, (uint16_t)udplen);
		ip[6] = IPPROTO_UDP;
		ip[7] = 64;
		memcpy(ip + 8, src->a, 16);
		memcpy(ip + 24, dst->a, 16);
	}
	ur_put16(udp, sport);
	ur_put16(udp + 2, dport);
	ur_put16(udp + 4, (uint16_t)udplen);
	ur_put16(udp + 6, 0);
	memcpy(udp + UR_UDP_LEN, payload, len);
	/* Pseudo-header: addresses, protocol, UDP length. */
	sum = ur_sum16(src->a, alen, 0);
	sum = ur_sum16(dst->a, alen, sum);
	sum += IPPROTO_UDP + (uint32_t)udplen;
	sum = ur_sum16(udp, udplen, sum);
	csum = ur_fold(sum);
	ur_put16(udp + 6, csum ? csum : 0xffff);

	h.ts = *ts;
	h.caplen = h.len = (bpf_u_int32)total;
	pcap_dump((u_char *)o->dumper, &h, frame);
	o->packets++;
	return 0;
}

int
ur_pcapout_commit(ur_pcapout *o)
{
	char err[1024];
	int bad = 0;
	if (pcap_dump_flush(o->dumper) != 0) {
		fprintf(stderr, "%s: write failed: %s\n", o->file.tmp, strerror(errno));
		bad = 1;
	}
	pcap_dump_close(o->dumper);
	pcap_close(o->dead);
	o->dumper = NULL;
	o->dead = NULL;
	if (bad) {
		rb_outfile_abort(&o->file);
		return -1;
	}
	if (rb_outfile_commit(&o->file, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	return 0;
}

void
ur_pcapout_abort(ur_pcapout *o)
{
	if (o->dumper)
		pcap_dump_close(o->dumper);
	if (o->dead)
		pcap_close(o->dead);
	o->dumper = NULL;
	o->dead = NULL;
	rb_outfile_abort(&o->file);
}
