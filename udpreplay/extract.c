/*
 * extract.c -- from-pcap's query extraction. See extract.h.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include "extract.h"

/* -v: say which packet was skipped and why. */
static void
ur_extract_skip(const ur_extract *x, const char *why)
{
	if (x->verbose)
		fprintf(stderr, "from-pcap: packet %llu: %s\n", (unsigned long long)x->st.packets, why);
}

/* FNV-1a over the original address: a stable pseudonym for the client. */
static uint64_t
ur_addr_hash(const ur_addr *a)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i, n = a->family == AF_INET ? 4 : 16;
	for (i = 0; i < n; i++) {
		h ^= a->a[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

void
ur_extract_client_map(const ur_addr *orig, ur_addr *out)
{
	uint64_t h = ur_addr_hash(orig);
	int i;
	memset(out, 0, sizeof(*out));
	out->family = orig->family;
	if (orig->family == AF_INET) {
		out->a[0] = 198;
		out->a[1] = 19;
		out->a[2] = (uint8_t)(h >> 8);
		out->a[3] = (uint8_t)h;
	} else {
		/* 2001:2:0:19::/64 */
		out->a[0] = 0x20; out->a[1] = 0x01;
		out->a[2] = 0x00; out->a[3] = 0x02;
		out->a[6] = 0x00; out->a[7] = 0x19;
		for (i = 0; i < 8; i++)
			out->a[8 + i] = (uint8_t)(h >> (8 * i));
	}
}

/* One DNS message from the capture: queries go to the caller. */
static int
ur_extract_message(ur_extract *x, const struct pcap_pkthdr *h, const struct rb_packet *pkt,
    const uint8_t *msg, size_t len)
{
	ldns_pkt *dns = NULL;
	int rc;

	if (ldns_wire2pkt(&dns, msg, len) != LDNS_STATUS_OK) {
		/* Junk is real traffic too (the paper's FORMERR answers): a
		 * malformed UDP message whose header says query is replayed
		 * as it was, but it has no line in the query list. Not over
		 * TCP: there a bad message means we are out of step with
		 * the stream (a flow first seen in the middle). */
		if (pkt->proto != IPPROTO_UDP || len < LDNS_HEADER_SIZE || LDNS_QR_WIRE(msg)) {
			x->st.malformed++;
			ur_extract_skip(x, "malformed DNS message");
			return 0;
		}
		x->st.malformed_queries++;
		return x->fn(x->arg, h, pkt, msg, len, NULL);
	}
	if (ldns_pkt_qr(dns)) {
		x->st.responses++;
		ldns_pkt_free(dns);
		return 0;
	}
	rc = x->fn(x->arg, h, pkt, msg, len, dns);
	ldns_pkt_free(dns);
	return rc;
}

/* tcpflow's callback: a whole DNS message, completed by the segment of the
 * frame being read (x->frame). A failure is kept for ur_extract_frame. */
static void
ur_extract_tcp_message(void *arg, const struct rb_packet *pkt, const uint8_t *msg, size_t len)
{
	ur_extract *x = arg;

	if (!x->failed && ur_extract_message(x, x->frame, pkt, msg, len))
		x->failed = 1;
}

int
ur_extract_init(ur_extract *x, size_t max_flows, ur_extract_query_fn fn,
    void *arg, int verbose)
{
	memset(x, 0, sizeof(*x));
	x->fn = fn;
	x->arg = arg;
	x->verbose = verbose;
	return rb_tcpflows_init(&x->flows, max_flows, ur_extract_tcp_message, x);
}

int
ur_extract_frame(ur_extract *x, int linktype, const struct pcap_pkthdr *h, const uint8_t *data)
{
	struct rb_packet pkt;
	enum rb_skip r;

	x->st.packets++;
	r = rb_capture_decode(linktype, data, h->caplen, h->len, &pkt);
	if (r == RB_OK && pkt.sport != 53 && pkt.dport != 53)
		r = RB_SKIP_NOT_DNS_PORT;
	else if (r == RB_OK && pkt.proto == IPPROTO_TCP && pkt.payload_len == 0)
		r = RB_SKIP_TCP_EMPTY;
	if (r != RB_OK) {
		x->st.skip[r]++;
		ur_extract_skip(x, rb_skip_name(r));
		return 0;
	}
	if (pkt.proto == IPPROTO_UDP)
		return ur_extract_message(x, h, &pkt, pkt.payload, pkt.payload_len);
	/* TCP: length-prefixed messages, reassembled in order per flow. */
	x->frame = h;
	if (rb_tcpflows_segment(&x->flows, &pkt) != 0) {
		fprintf(stderr, "from-pcap: TCP reassembly: %s\n", strerror(errno));
		return -1;
	}
	return x->failed ? -1 : 0;
}

void
ur_extract_finish(ur_extract *x)
{
	rb_tcpflows_finish(&x->flows, x->st.skip);
	x->st.tcp_flows_evicted = x->flows.evicted;
}

void
ur_extract_free(ur_extract *x)
{
	rb_tcpflows_free(&x->flows);
}
