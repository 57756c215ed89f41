/*
 * tcpflow.h -- DNS messages out of TCP segments (RFC 1035 4.2.2 framing:
 * a 2-byte length before each message).
 *
 * Flows: a hash map keyed by the whole 4-tuple (addresses and ports, in
 * the segment's direction: the two directions of a connection are two
 * byte streams, reassembled apart). At most max flows are held; a new
 * flow beyond that evicts the flow idle longest (counted in evicted; a
 * message it had pending counts as partial). Memory: the entries, and each
 * flow's pending bytes (an entry taken over by a new flow keeps at most
 * 4 KiB of buffer).
 *
 * What is reassembled: messages whole inside one segment (several per
 * segment are fine), and messages split over segments that arrive in
 * order (next segment's sequence number = end of the previous one). A
 * segment whose data ends at or before what the flow has already
 * delivered is a retransmission and is skipped (counted), as tshark does;
 * one that repeats some seen bytes and adds new ones is read from the
 * first new byte. A message that a gap (lost or out-of-order segment)
 * cuts, or that a flow ends with, is dropped and counted as partial.
 *
 * Where messages start: a flow knows its message boundaries only from a
 * message start on. A flow first seen (capture started mid-connection,
 * or the flow was evicted) and a flow after a gap have lost them: a
 * segment is then taken as a message start only when it starts a
 * plausible DNS message (rb_tcpflow_plausible); segments before that are
 * skipped and counted as unsynced, so bytes from the middle of a message
 * are never read as a length. Segments shorter than the length and the
 * header (14 bytes) are gathered until the check can be made.
 */
#ifndef RB_TCPFLOW_H
#define RB_TCPFLOW_H

#include <stddef.h>
#include <stdint.h>
#include "capture.h"

/* flows held at once by dnsstat and from-pcap */
#define RB_TCPFLOWS_MAX 65536

/* called for each complete message; pkt is the segment that completed it */
typedef void (*rb_tcpflow_msg_fn)(void *arg, const struct rb_packet *pkt,
	const uint8_t *msg, size_t len);

struct rb_tcpflow_entry;

struct rb_tcpflows {
	struct rb_tcpflow_entry *ent;	/* [max] */
	uint32_t *bucket;		/* [mask + 1]: first entry, or NONE */
	size_t max, used, mask;
	size_t touched;			/* entries ever used (own a buffer) */
	uint32_t lru_head, lru_tail;	/* idle longest first */
	uint64_t partial;	/* messages abandoned incomplete */
	uint64_t retrans;	/* segments skipped as retransmissions */
	uint64_t unsynced;	/* segments skipped looking for a message start */
	uint64_t evicted;	/* flows evicted to make room */
	rb_tcpflow_msg_fn fn;
	void *arg;
};

/* rb_tcpflows_init: a map of at most max flows (1 .. 2^31). -1 with errno
 * on failure. */
int rb_tcpflows_init(struct rb_tcpflows *t, size_t max, rb_tcpflow_msg_fn fn,
	void *arg);
/* rb_tcpflows_segment: feed one TCP segment with payload. -1 with errno
 * when memory ran out (the pending message is then counted as partial). */
int rb_tcpflows_segment(struct rb_tcpflows *t, const struct rb_packet *pkt);
/* rb_tcpflows_finish: count what is still pending (partial, or unsynced),
 * then add partial, retrans and unsynced to skip[RB_BAD_TCP_PARTIAL],
 * [RB_SKIP_TCP_RETRANS] and [RB_SKIP_TCP_UNSYNCED] and zero them. The
 * flows are forgotten; evicted stays. */
void rb_tcpflows_finish(struct rb_tcpflows *t, uint64_t skip[RB_SKIP_MAX]);
void rb_tcpflows_free(struct rb_tcpflows *t);

/* rb_tcpflow_plausible: whether d[0..14) -- a 2-byte length and a 12-byte
 * DNS header -- may start a DNS message. It may when: QDCOUNT <= 1; the
 * opcode is QUERY, NOTIFY, UPDATE or DSO; the Z bit is 0; a QUERY query
 * (QR=0) has ANCOUNT = NSCOUNT = 0 and ARCOUNT <= 2 (OPT, then TSIG or
 * SIG(0)); and the length holds the header, QDCOUNT questions of at
 * least 5 bytes and the RRs of at least 11 bytes (root owner, no RDATA)
 * each. */
int rb_tcpflow_plausible(const uint8_t *d);

#endif /* RB_TCPFLOW_H */
