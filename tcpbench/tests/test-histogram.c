/*
 * test-histogram.c -- unit test of the log-linear histogram.
 * Must hold: every value falls in a bucket whose bounds contain it; bucket
 * widths stay within 1/64 of the value; quantiles of known data are
 * within that precision; max, count and merge are exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include "../histogram.h"
#include "../../analysis/lib/unittest.h"


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
		UT_CHECK(i < TCPB_HIST_BUCKETS);
		UT_CHECK(lo <= v && v <= hi);
		UT_CHECK(i >= prev);
		UT_CHECK(v < 128 ? hi == lo : (hi - lo + 1) * 64 <= lo * 2);
		prev = i;
	}
	UT_CHECK(tcpb_hist_index(127) == 127);
	UT_CHECK(tcpb_hist_index(128) == 128);
	UT_CHECK(tcpb_hist_bucket_low(128) == 128 && tcpb_hist_bucket_high(128) == 129);
	UT_CHECK(tcpb_hist_index(TCPB_HIST_MAX) == TCPB_HIST_BUCKETS - 1);
	UT_CHECK(tcpb_hist_index(UINT64_MAX) == TCPB_HIST_BUCKETS - 1);

	/* Quantiles of 1..10000. */
	tcpb_hist_init(&h);
	UT_CHECK(tcpb_hist_quantile(&h, 0.5) == 0);
	for (v = 1; v <= 10000; v++)
		tcpb_hist_record(&h, v);
	UT_CHECK(h.count == 10000 && h.max == 10000 && h.min == 1);
	q = tcpb_hist_quantile(&h, 0.5);
	UT_CHECK(q >= 5000 && q <= 5000 + 5000 / 64 + 1);
	q = tcpb_hist_quantile(&h, 0.99);
	UT_CHECK(q >= 9900 && q <= 9900 + 9900 / 64 + 1);
	UT_CHECK(tcpb_hist_quantile(&h, 1.0) == 10000);
	UT_CHECK(tcpb_hist_quantile(&h, 0.0) == 1);
	q = (uint64_t)tcpb_hist_mean(&h);
	UT_CHECK(q == 5000);

	/* Small exact values, and the max is never exceeded. */
	tcpb_hist_init(&h2);
	for (i = 0; i < 99; i++)
		tcpb_hist_record(&h2, 7);
	tcpb_hist_record(&h2, 1000003);
	UT_CHECK(tcpb_hist_quantile(&h2, 0.5) == 7);
	UT_CHECK(tcpb_hist_quantile(&h2, 0.99) == 7);
	UT_CHECK(tcpb_hist_quantile(&h2, 0.999) == 1000003);

	tcpb_hist_merge(&h, &h2);
	UT_CHECK(h.count == 10100 && h.max == 1000003 && h.min == 1);

	if (ut_failures)
		return 1;
	printf("test-histogram: ok\n");
	return 0;
}
