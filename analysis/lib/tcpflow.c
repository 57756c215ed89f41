/*
 * tcpflow.c -- in-order TCP DNS message reassembly. See tcpflow.h.
 */
#include "tcpflow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define NONE UINT32_MAX
#define HEAD 14			/* length prefix + DNS header */
#define KEEP_CAP 4096		/* buffer bytes a reused entry keeps */

struct rb_tcpflow_entry {
	uint32_t hash;
	uint32_t hnext;			/* next entry in the bucket */
	uint32_t lru_prev, lru_next;
	uint8_t family;
	uint8_t synced;		/* the next new byte is at a known place */
	uint16_t sport, dport;
	uint8_t src[16], dst[16];
	uint32_t next_seq;		/* sequence number of the next new byte */
	uint32_t cand_segs;	/* unsynced: segments gathered in buf */
	uint8_t *buf;		/* synced: the pending message start;
				 * unsynced: a candidate message start */
	size_t have, cap;
};

int
rb_tcpflows_init(struct rb_tcpflows *t, size_t max, rb_tcpflow_msg_fn fn,
	void *arg)
{
	size_t nb = 1;

	memset(t, 0, sizeof(*t));
	if (max < 1 || max > ((size_t)1 << 31)) {
		errno = EINVAL;
		return -1;
	}
	while (nb < max)
		nb <<= 1;
	t->ent = calloc(max, sizeof(*t->ent));
	t->bucket = malloc(nb * sizeof(*t->bucket));
	if (!t->ent || !t->bucket) {
		free(t->ent);
		free(t->bucket);
		t->ent = NULL;
		t->bucket = NULL;
		return -1;
	}
	memset(t->bucket, 0xff, nb * sizeof(*t->bucket));
	t->max = max;
	t->mask = nb - 1;
	t->lru_head = t->lru_tail = NONE;
	t->fn = fn;
	t->arg = arg;
	return 0;
}

static uint32_t
flow_hash(const struct rb_packet *p)
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
flow_same(const struct rb_tcpflow_entry *e, uint32_t h,
	const struct rb_packet *p)
{
	size_t n = p->family == 6 ? 16 : 4;
	return e->hash == h && e->family == p->family &&
		e->sport == p->sport && e->dport == p->dport &&
		memcmp(e->src, p->src, n) == 0 && memcmp(e->dst, p->dst, n) == 0;
}

static void
lru_unlink(struct rb_tcpflows *t, uint32_t i)
{
	struct rb_tcpflow_entry *e = &t->ent[i];
	if (e->lru_prev != NONE)
		t->ent[e->lru_prev].lru_next = e->lru_next;
	else
		t->lru_head = e->lru_next;
	if (e->lru_next != NONE)
		t->ent[e->lru_next].lru_prev = e->lru_prev;
	else
		t->lru_tail = e->lru_prev;
}

static void
lru_append(struct rb_tcpflows *t, uint32_t i)
{
	struct rb_tcpflow_entry *e = &t->ent[i];
	e->lru_prev = t->lru_tail;
	e->lru_next = NONE;
	if (t->lru_tail != NONE)
		t->ent[t->lru_tail].lru_next = i;
	else
		t->lru_head = i;
	t->lru_tail = i;
}

/* forget: count what e leaves behind, as for a flow that ended */
static void
forget(struct rb_tcpflows *t, struct rb_tcpflow_entry *e)
{
	if (e->have && e->synced)
		t->partial++;
	else if (e->have)
		t->unsynced += e->cand_segs;
	e->have = 0;
	e->cand_segs = 0;
	e->synced = 0;
}

/* evict: free the entry idle longest; its index */
static uint32_t
evict(struct rb_tcpflows *t)
{
	uint32_t i = t->lru_head, *p;
	struct rb_tcpflow_entry *e = &t->ent[i];

	forget(t, e);
	t->evicted++;
	for (p = &t->bucket[e->hash & t->mask]; *p != i; p = &t->ent[*p].hnext)
		;
	*p = e->hnext;
	lru_unlink(t, i);
	return i;
}

/* flow_get: pkt's flow, made the most recently used; a new one (evicting
 * when full) has *fresh set. */
static struct rb_tcpflow_entry *
flow_get(struct rb_tcpflows *t, const struct rb_packet *pkt, int *fresh)
{
	uint32_t h = flow_hash(pkt), i;
	struct rb_tcpflow_entry *e;

	for (i = t->bucket[h & t->mask]; i != NONE; i = t->ent[i].hnext) {
		if (flow_same(&t->ent[i], h, pkt)) {
			lru_unlink(t, i);
			lru_append(t, i);
			*fresh = 0;
			return &t->ent[i];
		}
	}
	i = t->used < t->max ? (uint32_t)t->used++ : evict(t);
	if (t->used > t->touched)
		t->touched = t->used;
	e = &t->ent[i];
	e->hash = h;
	e->family = (uint8_t)pkt->family;
	memcpy(e->src, pkt->src, 16);
	memcpy(e->dst, pkt->dst, 16);
	e->sport = pkt->sport;
	e->dport = pkt->dport;
	e->synced = 0;
	e->have = 0;
	e->cand_segs = 0;
	if (e->cap > KEEP_CAP) {
		/* a big buffer of an earlier flow is not kept idle */
		free(e->buf);
		e->buf = NULL;
		e->cap = 0;
	}
	e->hnext = t->bucket[h & t->mask];
	t->bucket[h & t->mask] = i;
	lru_append(t, i);
	*fresh = 1;
	return e;
}

int
rb_tcpflow_plausible(const uint8_t *d)
{
	size_t len = ((size_t)d[0] << 8) | d[1];
	const uint8_t *h = d + 2;
	unsigned qd = ((unsigned)h[4] << 8) | h[5];
	unsigned an = ((unsigned)h[6] << 8) | h[7];
	unsigned ns = ((unsigned)h[8] << 8) | h[9];
	unsigned ar = ((unsigned)h[10] << 8) | h[11];
	unsigned opcode = (h[2] >> 3) & 0x0f, qr = h[2] >> 7;

	if (qd > 1 || (h[3] & 0x40))
		return 0;
	if (opcode != 0 && opcode != 4 && opcode != 5 && opcode != 6)
		return 0;
	if (!qr && opcode == 0 && (an != 0 || ns != 0 || ar > 2))
		return 0;
	return len >= 12 + 5 * (size_t)qd + 11 * ((size_t)an + ns + ar);
}

/* extract: hand every whole message in d[0..n) to the callback; returns
 * the bytes consumed. */
static size_t
extract(struct rb_tcpflows *t, const struct rb_packet *pkt, const uint8_t *d,
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

/* append: d[0..n) after what e->buf holds */
static int
append(struct rb_tcpflow_entry *e, const uint8_t *d, size_t n)
{
	if (e->have + n > e->cap) {
		uint8_t *nb = realloc(e->buf, e->have + n);
		if (!nb)
			return -1;
		e->buf = nb;
		e->cap = e->have + n;
	}
	memcpy(e->buf + e->have, d, n);
	e->have += n;
	return 0;
}

/* drain: hand out the whole messages in e->buf, keep the rest */
static void
drain(struct rb_tcpflows *t, struct rb_tcpflow_entry *e,
	const struct rb_packet *pkt)
{
	size_t used = extract(t, pkt, e->buf, e->have);
	memmove(e->buf, e->buf + used, e->have - used);
	e->have -= used;
}

/* resync: e has lost its message boundaries and d[0..n) is its next
 * data. A candidate message start is the start of a segment; it is
 * gathered in e->buf over segments until HEAD bytes can be judged. When
 * the candidate began in an earlier (short) segment and fails, this
 * segment is tried as a candidate of its own. */
static int
resync(struct rb_tcpflows *t, struct rb_tcpflow_entry *e,
	const struct rb_packet *pkt, const uint8_t *d, size_t n)
{
	if (e->have && e->have + n >= HEAD) {
		uint8_t head[HEAD];
		memcpy(head, e->buf, e->have);
		memcpy(head + e->have, d, HEAD - e->have);
		if (rb_tcpflow_plausible(head))
			goto synced;
		t->unsynced += e->cand_segs;
		e->have = 0;
		e->cand_segs = 0;
	}
	if (!e->have && n >= HEAD && !rb_tcpflow_plausible(d)) {
		t->unsynced++;
		return 0;
	}
	if (!e->have && n >= HEAD)
		goto synced;
	/* too short to judge yet: gather */
	if (append(e, d, n) != 0)
		return -1;
	e->cand_segs++;
	return 0;
synced:
	e->synced = 1;
	e->cand_segs = 0;
	if (append(e, d, n) != 0)
		return -1;
	drain(t, e, pkt);
	return 0;
}

int
rb_tcpflows_segment(struct rb_tcpflows *t, const struct rb_packet *pkt)
{
	const uint8_t *d = pkt->payload;
	size_t n = pkt->payload_len, used;
	uint32_t end = pkt->tcp_seq + (uint32_t)n;
	struct rb_tcpflow_entry *e;
	int fresh;

	if (n == 0)
		return 0;
	e = flow_get(t, pkt, &fresh);
	if (!fresh && pkt->tcp_seq != e->next_seq) {
		int32_t ahead = (int32_t)(pkt->tcp_seq - e->next_seq);
		if ((int32_t)(end - e->next_seq) <= 0) {
			t->retrans++;	/* all of it was seen already */
			return 0;
		}
		if (ahead < 0) {
			/* repeats some seen bytes: read from the first new */
			d += (size_t)-(int64_t)ahead;
			n -= (size_t)-(int64_t)ahead;
		} else {
			forget(t, e);	/* a gap: boundaries lost */
		}
	}
	e->next_seq = end;
	if (!e->synced) {
		if (resync(t, e, pkt, d, n) == 0)
			return 0;
	} else if (e->have) {
		/* continuation of a pending message */
		if (append(e, d, n) == 0) {
			drain(t, e, pkt);
			return 0;
		}
	} else {
		used = extract(t, pkt, d, n);
		if (used == n || append(e, d + used, n - used) == 0)
			return 0;
	}
	/* out of memory: what this segment started or continued is lost */
	if (e->synced)
		t->partial++;
	e->have = 0;
	e->cand_segs = 0;
	e->synced = 0;
	return -1;
}

void
rb_tcpflows_finish(struct rb_tcpflows *t, uint64_t skip[RB_SKIP_MAX])
{
	size_t i;
	for (i = 0; i < t->used; i++)
		forget(t, &t->ent[i]);
	t->used = 0;
	t->lru_head = t->lru_tail = NONE;
	memset(t->bucket, 0xff, (t->mask + 1) * sizeof(*t->bucket));
	skip[RB_BAD_TCP_PARTIAL] += t->partial;
	skip[RB_SKIP_TCP_RETRANS] += t->retrans;
	skip[RB_SKIP_TCP_UNSYNCED] += t->unsynced;
	t->partial = t->retrans = t->unsynced = 0;
}

void
rb_tcpflows_free(struct rb_tcpflows *t)
{
	size_t i;
	if (!t->ent)
		return;
	for (i = 0; i < t->touched; i++)
		free(t->ent[i].buf);
	free(t->ent);
	free(t->bucket);
	t->ent = NULL;
	t->bucket = NULL;
}
