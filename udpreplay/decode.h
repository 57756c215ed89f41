/*
 * decode.h -- from a captured frame to the transport payload: link layer
 * (Ethernet with VLAN tags, raw IP, Linux cooked v1/v2, BSD loopback),
 * IPv4/IPv6 (extension headers), UDP/TCP. DNS itself is left to ldns.
 * Every length is checked against the captured bytes: a broken packet
 * gives a reason, never a read past the buffer.
 */
#ifndef UR_DECODE_H
#define UR_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include "pcapout.h"

typedef enum ur_decode_result {
	UR_DECODE_OK = 0,
	UR_DECODE_LINK,		/* link layer not understood or not IP */
	UR_DECODE_TRUNCATED,	/* shorter than its headers say */
	UR_DECODE_FRAGMENT,	/* an IP fragment (not reassembled) */
	UR_DECODE_PROTO,	/* neither UDP nor TCP (ICMP, ...) */
	UR_DECODE_BAD_IP,	/* IP header inconsistent */
	UR_DECODE_RESULTS
} ur_decode_result;

typedef struct ur_packet {
	ur_addr src, dst;
	int proto;		/* IPPROTO_UDP or IPPROTO_TCP */
	uint16_t sport, dport;
	const uint8_t *payload;
	size_t len;
} ur_packet;

/* Is the pcap link type one decode understands? */
int ur_decode_linktype_ok(int linktype);
ur_decode_result ur_decode_frame(int linktype, const uint8_t *data, size_t caplen,
    ur_packet *pkt);
const char *ur_decode_reason(ur_decode_result r);

#endif
