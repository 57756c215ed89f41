/*
 * test-histogram.c -- unit test of the log-linear histogram.
 * Must hold: every value falls in a bucket whose bounds contain it; bucket
 * widths stay within 1/64 of the value; quantiles of known data are
 * within that precision; max, count and merge are exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include "../histogram.h"

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

int
main(void)
{
	static struct tcpb_hist h, h2;
	uint64_t v, lo, hi, q;
	size_t i, prev = 0;

	/* Bucket bounds contain the value, indexes are monotonic. */
	for (v = 0; v < 5000000; v += (v < 1000 ? 1 : v / 97)) {
		i = tcpb_hist_index(v);
		lo = tcpb_hist_bucket_low(i);
		hi = tcpb_hist_bucket_high(i);
		CHECK(i < TCPB_HIST_BUCKETS);
		CHECK(lo <= v && v <= hi);
		CHECK(i >= prev);
		CHECK(v < 128 ? hi == lo : (hi - lo + 1) * 64 <= lo * 2);
		prev = i;
	}
	CHECK(tcpb_hist_index(127) == 127);
	CHECK(tcpb_hist_index(128) == 128);
	CHECK(tcpb_hist_bucket_low(128) == 128 && tcpb_hist_bucket_high(128) == 129);
	CHECK(tcpb_hist_index(TCPB_HIST_MAX) == TCPB_HIST_BUCKETS - 1);
	CHECK(tcpb_hist_index(UINT64_MAX) == TCPB_HIST_BUCKETS - 1);

	/* Quantiles of 1..10000. */
	tcpb_hist_init(&h);
	CHECK(tcpb_hist_quantile(&h, 0.5) == 0);
	for (v = 1; v <= 10000; v++)
		tcpb_hist_record(&h, v);
	CHECK(h.count == 10000 && h.max == 10000 && h.min == 1);
	q = tcpb_hist_quantile(&h, 0.5);
	CHECK(q >= 5000 && q <= 5000 + 5000 / 64 + 1);
	q = tcpb_hist_quantile(&h, 0.99);
	CHECK(q >= 9900 && q <= 9900 + 9900 / 64 + 1);
	CHECK(tcpb_hist_quantile(&h, 1.0) == 10000);
	CHECK(tcpb_hist_quantile(&h, 0.0) == 1);
	q = (uint64_t)tcpb_hist_mean(&h);
	CHECK(q == 5000);

	/* Small exact values, and the max is never exceeded. */
	tcpb_hist_init(&h2);
	for (i = 0; i < 99; i++)
		tcpb_hist_record(&h2, 7);
	tcpb_hist_record(&h2, 1000003);
	CHECK(tcpb_hist_quantile(&h2, 0.5) == 7);
	CHECK(tcpb_hist_quantile(&h2, 0.99) == 7);
	CHECK(tcpb_hist_quantile(&h2, 0.999) == 1000003);

	tcpb_hist_merge(&h, &h2);
	CHECK(h.count == 10100 && h.max == 1000003 && h.min == 1);

	if (failures)
		return 1;
	printf("test-histogram: ok\n");
	return 0;
}
