/*
 * histogram.h -- log-linear (HDR-style) histogram of non-negative integers.
 *
 * tcpbench records latencies and scheduling lateness in microseconds. A
 * value below 128 has its own bucket; above, every power of two is split
 * into 64 equal buckets, so any recorded value is reported within 1/64
 * (1.6 %) of itself. The maximum is kept exactly. Fixed size, no
 * allocation: tcpb_hist_init only clears it.
 */
#ifndef TCPB_HISTOGRAM_H
#define TCPB_HISTOGRAM_H

#include <stdint.h>
#include <stddef.h>

/* Values are clamped to TCPB_HIST_MAX (2^41 - 1 us, about 25 days). */
#define TCPB_HIST_MAX_SHIFT 34
#define TCPB_HIST_BUCKETS (128 + TCPB_HIST_MAX_SHIFT * 64)
#define TCPB_HIST_MAX ((UINT64_C(128) << TCPB_HIST_MAX_SHIFT) - 1)

struct tcpb_hist {
	uint64_t count;
	uint64_t max;
	uint64_t min;
	long double sum;
	uint64_t buckets[TCPB_HIST_BUCKETS];
};

void tcpb_hist_init(struct tcpb_hist *h);
void tcpb_hist_record(struct tcpb_hist *h, uint64_t value);
/* Bucket index of a value, and the lowest / highest value of a bucket. */
size_t tcpb_hist_index(uint64_t value);
uint64_t tcpb_hist_bucket_low(size_t index);
uint64_t tcpb_hist_bucket_high(size_t index);
/* The value at quantile q (0..1): the highest value of the bucket that
 * holds it, never above the recorded maximum; 0 when empty. */
uint64_t tcpb_hist_quantile(const struct tcpb_hist *h, double q);
double tcpb_hist_mean(const struct tcpb_hist *h);
/* Add every count of src into dst. */
void tcpb_hist_merge(struct tcpb_hist *dst, const struct tcpb_hist *src);

#endif
