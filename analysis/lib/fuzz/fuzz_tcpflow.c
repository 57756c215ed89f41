/*
 * fuzz_tcpflow.c -- libFuzzer harness for analysis/lib/tcpflow.c, the TCP
 * reassembly of DNS messages (RFC 1035 4.2.2 framing) that dnsstat and
 * from-pcap use, with a reference model on every flow it can judge.
 *
 * Input: byte 0 sets the flow map's bound (1..8 flows, so eviction is
 * reached); then segments, each: a flags byte (bits 0-2: one of eight
 * 4-tuples, bit 3: IPv6; bit 7: the segment continues its flow at the
 * next sequence number, else a 4-byte sequence number follows), a 2-byte
 * payload length (cut to what the input holds), the payload.
 * What must hold, else the harness aborts:
 *  - every message handed out is at most 65535 bytes, comes with the
 *    4-tuple of the segment that completed it, and is readable (ASan);
 *  - a flow whose segments all followed one another in sequence, in a
 *    run that evicted no flow, and whose byte stream starts with a
 *    plausible message start (rb_tcpflow_plausible), is cut exactly as
 *    the framing says: the messages handed out are, in order, the
 *    length-prefixed messages of its byte stream, and rb_tcpflows_finish
 *    counts one partial message when bytes are left over, none else;
 *  - the counters add up: retransmissions and unsynced segments never
 *    exceed the segments fed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>
#include "../tcpflow.h"

#define FUZZ_NAME "fuzz_tcpflow"
#include "../fuzz.h"

#define NFLOWS 16		/* 8 tuples, IPv4 and IPv6 */
#define STREAM_MAX 16384	/* bytes of a flow's stream the model keeps */
#define OUT_MAX 16384		/* bytes of a flow's messages kept */

struct model {
	int seen, in_order;
	uint32_t next_seq;
	uint8_t stream[STREAM_MAX];	/* the flow's bytes, in order */
	size_t slen;
	int overflow;			/* stream longer than kept */
	uint8_t out[OUT_MAX];		/* messages handed out, framed again */
	size_t olen;
	int out_overflow;
};

static struct model flows[NFLOWS];
static uint64_t messages;

static void
tuple(int id, struct rb_packet *p)
{
	memset(p, 0, sizeof(*p));
	p->proto = IPPROTO_TCP;
	p->family = (id & 8) ? 6 : 4;
	p->src[0] = 198;
	p->src[1] = 18;
	p->src[3] = (uint8_t)(1 + (id & 3));
	p->dst[0] = 198;
	p->dst[1] = 18;
	p->dst[3] = 53;
	p->sport = (uint16_t)(40000 + (id & 3));
	p->dport = 53;
	if (id & 4) {	/* the other direction of the same connection */
		uint8_t t[16];
		uint16_t tp = p->sport;
		memcpy(t, p->src, 16);
		memcpy(p->src, p->dst, 16);
		memcpy(p->dst, t, 16);
		p->sport = p->dport;
		p->dport = tp;
	}
}

static int
tuple_id(const struct rb_packet *p)
{
	int id;
	for (id = 0; id < NFLOWS; id++) {
		struct rb_packet t;
		tuple(id, &t);
		if (t.family == p->family && t.sport == p->sport &&
		    t.dport == p->dport && memcmp(t.src, p->src, 16) == 0 &&
		    memcmp(t.dst, p->dst, 16) == 0)
			return id;
	}
	return -1;
}

static void
on_message(void *arg, const struct rb_packet *pkt, const uint8_t *msg,
	size_t len)
{
	int id = tuple_id(pkt);
	struct model *m;
	volatile uint8_t sink = 0;
	size_t i;

	(void)arg;
	FUZZ_CHECK(id >= 0, "a message comes with its segment's 4-tuple");
	FUZZ_CHECK(len <= 65535, "message length");
	for (i = 0; i < len; i++)	/* readable (ASan) */
		sink ^= msg[i];
	(void)sink;
	messages++;
	m = &flows[id];
	if (m->olen + 2 + len > OUT_MAX) {
		m->out_overflow = 1;
		return;
	}
	m->out[m->olen] = (uint8_t)(len >> 8);
	m->out[m->olen + 1] = (uint8_t)len;
	memcpy(m->out + m->olen + 2, msg, len);
	m->olen += 2 + len;
}

/* framed: the bytes of the whole messages at the start of s[0..n) */
static size_t
framed(const uint8_t *s, size_t n)
{
	size_t off = 0;
	while (n - off >= 2) {
		size_t len = ((size_t)s[off] << 8) | s[off + 1];
		if (n - off - 2 < len)
			break;
		off += 2 + len;
	}
	return off;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rb_tcpflows t;
	uint64_t skip[RB_SKIP_MAX] = { 0 }, segments = 0, partial_before;
	size_t pos = 1;
	int id;

	if (size < 1)
		return 0;
	for (id = 0; id < NFLOWS; id++) {
		flows[id].seen = flows[id].in_order = 0;
		flows[id].slen = flows[id].olen = 0;
		flows[id].overflow = flows[id].out_overflow = 0;
	}
	messages = 0;
	if (rb_tcpflows_init(&t, 1 + data[0] % 8, on_message, NULL) != 0)
		abort();
	while (pos < size) {
		uint8_t fl = data[pos++];
		struct rb_packet p;
		struct model *m;
		uint32_t seq;
		size_t n;
		uint8_t *payload;

		id = fl & 15;
		m = &flows[id];
		if (fl & 0x80) {
			seq = m->seen ? m->next_seq : 1000;
		} else {
			if (size - pos < 4)
				break;
			seq = ((uint32_t)data[pos] << 24) | ((uint32_t)data[pos + 1] << 16) |
				((uint32_t)data[pos + 2] << 8) | data[pos + 3];
			pos += 4;
		}
		if (size - pos < 2)
			break;
		n = ((size_t)data[pos] << 8) | data[pos + 1];
		pos += 2;
		if (n > size - pos)
			n = size - pos;
		/* the payload in a buffer of its own: ASan sees overreads */
		payload = fuzz_copy(data + pos, n);
		pos += n;
		tuple(id, &p);
		p.tcp_seq = seq;
		p.tcp_flags = 0x18;
		p.payload = payload;
		p.payload_len = n;
		if (n > 0) {
			if (!m->seen) {
				m->seen = 1;
				m->in_order = 1;
			} else if (seq != m->next_seq) {
				m->in_order = 0;
			}
			m->next_seq = seq + (uint32_t)n;
			if (m->slen + n > STREAM_MAX)
				m->overflow = 1;
			else {
				memcpy(m->stream + m->slen, payload, n);
				m->slen += n;
			}
			segments++;
		}
		if (rb_tcpflows_segment(&t, &p) != 0)
			abort();	/* only on out of memory */
		free(payload);
	}
	FUZZ_CHECK(t.retrans + t.unsynced <= segments, "skipped segments counted once");
	partial_before = t.partial;
	rb_tcpflows_finish(&t, skip);
	FUZZ_CHECK(skip[RB_SKIP_TCP_RETRANS] + skip[RB_SKIP_TCP_UNSYNCED] <= segments,
		"skipped segments counted once at the end");
	FUZZ_CHECK(skip[RB_BAD_TCP_PARTIAL] >= partial_before, "partial kept");
	if (t.evicted == 0) {
		uint64_t left = 0;
		int judged = 0, all = 1;
		for (id = 0; id < NFLOWS; id++) {
			struct model *m = &flows[id];
			size_t whole;
			if (!m->seen)
				continue;
			if (!m->in_order || m->overflow || m->out_overflow ||
			    m->slen < 14 || !rb_tcpflow_plausible(m->stream)) {
				all = 0;
				continue;
			}
			whole = framed(m->stream, m->slen);
			FUZZ_CHECK(m->olen == whole &&
				memcmp(m->out, m->stream, whole) == 0,
				"an in-order flow is cut as its framing says");
			left += whole < m->slen;
			judged = 1;
		}
		/* with every flow judged, the partial messages are exactly
		 * the flows with bytes left over */
		if (judged && all)
			FUZZ_CHECK(skip[RB_BAD_TCP_PARTIAL] == left,
				"one partial message per flow with bytes left over");
	}
	rb_tcpflows_free(&t);
	return 0;
}
