/*
 * extract.h -- from-pcap's query extraction: the frames of a capture in,
 * its DNS queries out, with the count of everything skipped and why.
 *
 * Frames are decoded by analysis/lib/capture.c; UDP and TCP to or from port
 * 53 are kept; TCP is reassembled in order per flow by analysis/lib/tcpflow.c.
 * Each DNS message is parsed with ldns: responses are counted and dropped;
 * a query goes to the caller's function with its ldns packet; a malformed
 * UDP message whose header says query goes there too, without a packet
 * (junk is real traffic: it is replayed as it was). A malformed TCP
 * message is dropped (the stream is then out of step). What to do with a
 * query (the pcap and the query list of from-pcap, or a fuzz harness's
 * checks) is the caller's. Used by udpreplay/frompcap.c and
 * udpreplay/fuzz/fuzz_frompcap.c.
 */
#ifndef UR_EXTRACT_H
#define UR_EXTRACT_H

#include <stddef.h>
#include <stdint.h>
#include <pcap/pcap.h>
#include <ldns/ldns.h>
#include "../analysis/lib/capture.h"
#include "../analysis/lib/tcpflow.h"
#include "pcapout.h"

typedef struct ur_stats {
	uint64_t packets;
	uint64_t queries, udp, tcp, v4, v6;	/* written by the caller */
	uint64_t responses;
	uint64_t skip[RB_SKIP_MAX];	/* frames capture.c could not use, ... */
	uint64_t malformed;
	uint64_t malformed_queries;
	uint64_t no_question;		/* counted by the caller */
	uint64_t too_big;		/* counted by the caller */
	uint64_t tcp_flows_evicted;	/* TCP flows evicted from a full map */
} ur_stats;

/* A query of the capture: h the frame that completed it (for TCP, the
 * last segment), pkt its addresses and ports, msg[0..len) the DNS message,
 * dns its ldns parse or NULL (a malformed UDP query). -1 stops the
 * extraction (ur_extract_frame returns -1). */
typedef int (*ur_extract_query_fn)(void *arg, const struct pcap_pkthdr *h,
    const struct rb_packet *pkt, const uint8_t *msg, size_t len,
    const ldns_pkt *dns);

typedef struct ur_extract {
	ur_stats st;
	struct rb_tcpflows flows;
	const struct pcap_pkthdr *frame;	/* the frame being read */
	ur_extract_query_fn fn;
	void *arg;
	int verbose;	/* name every skipped packet on stderr */
	int failed;	/* fn failed on a TCP query */
} ur_extract;

/* ur_extract_init: at most max_flows TCP flows at once. -1 with errno. */
int ur_extract_init(ur_extract *x, size_t max_flows, ur_extract_query_fn fn,
    void *arg, int verbose);
/* ur_extract_frame: one frame of link type linktype. -1 when fn asked to
 * stop or TCP reassembly ran out of memory (logged). */
int ur_extract_frame(ur_extract *x, int linktype, const struct pcap_pkthdr *h,
    const uint8_t *data);
/* ur_extract_finish: count what TCP reassembly still holds (partial or
 * unsynced) and the flows it evicted, into x->st. */
void ur_extract_finish(ur_extract *x);
void ur_extract_free(ur_extract *x);

/* ur_extract_client_map: the client address a query is replayed from: a
 * stable pseudonym of orig in 198.19.0.0/16 or 2001:2:0:19::/64. */
void ur_extract_client_map(const ur_addr *orig, ur_addr *out);

#endif
