/*
 * pcapout.h -- the replayable query trace: a pcap (Ethernet) of UDP
 * datagrams written with libpcap, whole or not at all (see analysis/lib/outfile.h).
 * It frames the DNS messages in Ethernet/IP/UDP with correct checksums;
 * the MAC addresses are placeholders that udpreplay/rewrite replaces.
 */
#ifndef UR_PCAPOUT_H
#define UR_PCAPOUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/time.h>
#include <pcap/pcap.h>
#include "../analysis/lib/outfile.h"

typedef struct ur_addr {
	int family;	/* AF_INET or AF_INET6 */
	uint8_t a[16];
} ur_addr;

typedef struct ur_pcapout {
	struct rb_outfile file;
	pcap_t *dead;
	pcap_dumper_t *dumper;
	uint64_t packets;
} ur_pcapout;

int ur_pcapout_open(ur_pcapout *o, const char *path);
/* Write one UDP datagram; -1 if the payload does not fit a packet. */
int ur_pcapout_udp(ur_pcapout *o, const struct timeval *ts, const ur_addr *src,
    uint16_t sport, const ur_addr *dst, uint16_t dport, const uint8_t *payload, size_t len);
int ur_pcapout_commit(ur_pcapout *o);
void ur_pcapout_abort(ur_pcapout *o);

/* Parse a numeric IPv4/IPv6 address. */
int ur_addr_parse(ur_addr *a, const char *s);

#endif
