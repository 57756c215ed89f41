/*
 * tcpflow.c -- in-order TCP DNS message reassembly. See tcpflow.h.
 */
#include "tcpflow.h"

#include <stdlib.h>
#include <string.h>

struct ds_tcpflow_entry {
	int used;
	int family;
	uint8_t src[16], dst[16];
	uint16_t sport, dport;
	uint32_t next_seq;
	uint8_t *buf;
	size_t have, cap;
};

int
ds_tcpflows_init(struct ds_tcpflows *t, unsigned bits, ds_tcpflow_msg_fn fn,
	void *arg)
{
	memset(t, 0, sizeof(*t));
	t->tab = calloc((size_t)1 << bits, sizeof(*t->tab));
	if (!t->tab)
		return -1;
	t->mask = ((size_t)1 << bits) - 1;
	t->fn = fn;
	t->arg = arg;
	return 0;
}

static size_t
flow_hash(const struct ds_packet *p)
{
	/* FNV-1a over the 4-tuple */
	uint32_t h = 2166136261u;
	size_t i, n = p->family == 6 ? 16 : 4;
	for (i = 0; i < n; i++)
		h = (h ^ p->src[i]) * 16777619u;
	for (i = 0; i < n; i++)
		h = (h ^ p->dst[i]) * 16777619u;
	h = (h ^ p->sport) * 16777619u;
	h = (h ^ p->dport) * 16777619u;
	return h;
}

static int
flow_same(const struct ds_tcpflow_entry *e, const struct ds_packet *p)
{
	size_t n = p->family == 6 ? 16 : 4;
	return e->used && e->family == p->family && e->sport == p->sport &&
		e->dport == p->dport && memcmp(e->src, p->src, n) == 0 &&
		memcmp(e->dst, p->dst, n) == 0;
}

/* extract: hand every whole message in d[0..n) to the callback; returns
 * the bytes consumed. */
static size_t
extract(struct ds_tcpflows *t, const struct ds_packet *pkt, const uint8_t *d,
	size_t n)
{
	size_t off = 0;
	while (n - off >= 2) {
		size_t len = ((size_t)d[off] << 8) | d[off + 1];
		if (n - off - 2 < len)
			break;
		t->fn(t->arg, pkt, d + off + 2, len);
		off += 2 + len;
	}
	return off;
}

/* keep: store the unconsumed tail d[0..n) as the pending start of the
 * flow's next message. */
static int
keep(struct ds_tcpflow_entry *e, const uint8_t *d, size_t n)
{
	if (n > e->cap) {
		uint8_t *nb = realloc(e->buf, n);
		if (!nb)
			return -1;
		e->buf = nb;
		e->cap = n;
	}
	memmove(e->buf, d, n);
	e->have = n;
	return 0;
}

/* take: make slot e hold pkt's flow, with nothing pending. */
static void
take(struct ds_tcpflows *t, struct ds_tcpflow_entry *e,
	const struct ds_packet *pkt)
{
	if (e->used && e->have)
		t->partial++;
	e->used = 1;
	e->have = 0;
	e->family = pkt->family;
	memcpy(e->src, pkt->src, 16);
	memcpy(e->dst, pkt->dst, 16);
	e->sport = pkt->sport;
	e->dport = pkt->dport;
}

int
ds_tcpflows_segment(struct ds_tcpflows *t, const struct ds_packet *pkt)
{
	struct ds_tcpflow_entry *e = &t->tab[flow_hash(pkt) & t->mask];
	uint32_t end = pkt->tcp_seq + (uint32_t)pkt->payload_len;
	size_t used;

	if (pkt->payload_len == 0)
		return 0;
	if (!flow_same(e, pkt)) {
		take(t, e, pkt);
	} else if (pkt->tcp_seq != e->next_seq) {
		if ((int32_t)(end - e->next_seq) <= 0) {
			t->retrans++;	/* all of it was seen already */
			return 0;
		}
		/* a gap or an overlap: give up what was pending */
		if (e->have)
			t->partial++;
		e->have = 0;
	}
	e->next_seq = end;
	if (e->have) {
		/* continuation of a pending message */
		size_t n = e->have + pkt->payload_len;
		if (n > e->cap) {
			uint8_t *nb = realloc(e->buf, n);
			if (!nb) {
				e->have = 0;
				t->partial++;
				return -1;
			}
			e->buf = nb;
			e->cap = n;
		}
		memcpy(e->buf + e->have, pkt->payload, pkt->payload_len);
		used = extract(t, pkt, e->buf, n);
		memmove(e->buf, e->buf + used, n - used);
		e->have = n - used;
		return 0;
	}
	used = extract(t, pkt, pkt->payload, pkt->payload_len);
	if (used < pkt->payload_len &&
	    keep(e, pkt->payload + used, pkt->payload_len - used) != 0) {
		t->partial++;
		return -1;
	}
	return 0;
}

void
ds_tcpflows_finish(struct ds_tcpflows *t)
{
	size_t i;
	for (i = 0; i <= t->mask; i++) {
		if (t->tab[i].used && t->tab[i].have)
			t->partial++;
		t->tab[i].used = 0;
		t->tab[i].have = 0;
	}
}

void
ds_tcpflows_free(struct ds_tcpflows *t)
{
	size_t i;
	if (!t->tab)
		return;
	for (i = 0; i <= t->mask; i++)
		free(t->tab[i].buf);
	free(t->tab);
	t->tab = NULL;
}
