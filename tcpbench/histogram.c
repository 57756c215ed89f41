/*
 * histogram.c -- log-linear (HDR-style) histogram; see histogram.h.
 *
 * Layout: indexes 0..127 hold the values 0..127 (unit 1). For k >= 1 the
 * 64 indexes 128 + (k-1)*64 ... hold [64*2^k, 128*2^k) in units of 2^k.
 */
#include <string.h>
#include <math.h>
#include "histogram.h"

void
tcpb_hist_init(struct tcpb_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

size_t
tcpb_hist_index(uint64_t v)
{
	int msb, k;
	if (v > TCPB_HIST_MAX)
		v = TCPB_HIST_MAX;
	if (v < 128)
		return (size_t)v;
	msb = 63 - __builtin_clzll(v);
	k = msb - 6;
	return 128 + (size_t)(k - 1) * 64 + (size_t)((v >> k) - 64);
}

/* bucket_shift: the unit of index i is 2^bucket_shift(i). */
static size_t
bucket_shift(size_t i)
{
	return i < 128 ? 0 : (i - 128) / 64 + 1;
}

uint64_t
tcpb_hist_bucket_low(size_t i)
{
	if (i < 128)
		return i;
	return (uint64_t)(64 + (i - 128) % 64) << bucket_shift(i);
}

uint64_t
tcpb_hist_bucket_high(size_t i)
{
	return tcpb_hist_bucket_low(i) + (UINT64_C(1) << bucket_shift(i)) - 1;
}

void
tcpb_hist_record(struct tcpb_hist *h, uint64_t v)
{
	if (v > TCPB_HIST_MAX)
		v = TCPB_HIST_MAX;
	h->buckets[tcpb_hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v > h->max)
		h->max = v;
	if (v < h->min)
		h->min = v;
}

uint64_t
tcpb_hist_quantile(const struct tcpb_hist *h, double q)
{
	uint64_t rank, seen = 0, hi;
	size_t i;
	if (h->count == 0)
		return 0;
	if (q <= 0)
		return h->min;
	/* rank: the smallest number of values that covers q of them. */
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (i = 0; i < TCPB_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			hi = tcpb_hist_bucket_high(i);
			return hi > h->max ? h->max : hi;
		}
	}
	return h->max;
}

double
tcpb_hist_mean(const struct tcpb_hist *h)
{
	return h->count ? (double)(h->sum / h->count) : 0.0;
}

void
tcpb_hist_merge(struct tcpb_hist *dst, const struct tcpb_hist *src)
{
	size_t i;
	for (i = 0; i < TCPB_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->max > dst->max)
		dst->max = src->max;
	if (src->min < dst->min)
		dst->min = src->min;
}
