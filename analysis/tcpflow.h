/*
 * tcpflow.h -- DNS messages out of TCP segments (RFC 1035 4.2.2 framing:
 * a 2-byte length before each message).
 *
 * What is reassembled: messages whole inside one segment (several per
 * segment are fine), and messages split over segments that arrive in
 * order (next segment's sequence number = end of the previous one) on the
 * same 4-tuple. A segment whose data ends at or before what the flow has
 * already delivered is a retransmission and is skipped (counted), as
 * tshark does. What is not reassembled: out-of-order or lost segments,
 * overlapping segments, flows whose slot in the (direct-mapped) flow
 * table was taken by another flow meanwhile, and flows that end with a
 * message still incomplete. Those bytes are dropped and counted as
 * tcp_partial (one per abandoned message start). A flow first seen in the
 * middle is read as if its first segment started a message; a bogus
 * length then shows up as tcp_partial or a malformed message.
 */
#ifndef DS_TCPFLOW_H
#define DS_TCPFLOW_H

#include <stddef.h>
#include <stdint.h>
#include "capture.h"

/* called for each complete message; pkt is the segment that completed it */
typedef void (*ds_tcpflow_msg_fn)(void *arg, const struct ds_packet *pkt,
	const uint8_t *msg, size_t len);

struct ds_tcpflow_entry;

struct ds_tcpflows {
	struct ds_tcpflow_entry *tab;
	size_t mask;
	uint64_t partial;	/* messages abandoned incomplete */
	uint64_t retrans;	/* segments skipped as retransmissions */
	ds_tcpflow_msg_fn fn;
	void *arg;
};

/* ds_tcpflows_init: 2^bits flow slots. -1 with errno on failure. */
int ds_tcpflows_init(struct ds_tcpflows *t, unsigned bits,
	ds_tcpflow_msg_fn fn, void *arg);
/* ds_tcpflows_segment: feed one TCP segment with payload. -1 with errno
 * when memory ran out (the pending message is then counted as partial). */
int ds_tcpflows_segment(struct ds_tcpflows *t, const struct ds_packet *pkt);
/* ds_tcpflows_finish: count what is still pending as partial. */
void ds_tcpflows_finish(struct ds_tcpflows *t);
void ds_tcpflows_free(struct ds_tcpflows *t);

#endif /* DS_TCPFLOW_H */
