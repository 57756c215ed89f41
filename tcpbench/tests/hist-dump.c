/*
 * hist-dump.c -- test helper for tcpbench/hist.jq: records a fixed
 * pseudo-random mixture of latencies (fast answers, slow answers whose
 * range overlaps the fast ones, a few timeouts near 1 s, some zeros) into
 * three histograms of very different sizes and into one histogram holding every value, and prints them as
 * tcpbench writes histograms, with the C quantiles of the whole:
 *
 *   {"parts": [H, H, H], "all": H, "quantiles": [[q, value], ...]}
 *
 * The test merges "parts" with hist_merge and must get the quantiles of
 * "all" (tests/80-hist-merge.test). Exits 1 if the C merge of the parts
 * does not equal "all" bucket by bucket.
 */
#include <stdio.h>
#include <string.h>
#include "../histogram.h"
#include "../output.h"

static uint64_t rng = 88172645463325252ull;

static uint64_t
next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

int
main(void)
{
	static struct tcpb_hist part[3], all, merged;
	static const double qs[] = { 0, 0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.98,
		0.99, 0.995, 0.999, 0.9995, 0.9999, 1 };
	/* Part sizes: 20000 fast, 3000 slow, 60 timeouts (0.26 % of all). */
	static const unsigned n[3] = { 20000, 3000, 60 };
	uint64_t v;
	unsigned i, k;

	for (k = 0; k < 3; k++)
		tcpb_hist_init(&part[k]);
	tcpb_hist_init(&all);
	tcpb_hist_init(&merged);
	for (k = 0; k < 3; k++)
		for (i = 0; i < n[k]; i++) {
			switch (k) {
			case 0: v = i % 97 == 0 ? 0 : 100 + next_random() % 2900; break;
			case 1: v = 1500 + next_random() % 198500; break;
			default: v = i % 10 == 0 ? 0 : 1000000 + next_random() % 5000; break;
			}
			tcpb_hist_record(&part[k], v);
			tcpb_hist_record(&all, v);
		}
	for (k = 0; k < 3; k++)
		tcpb_hist_merge(&merged, &part[k]);
	if (memcmp(merged.buckets, all.buckets, sizeof(all.buckets)) != 0
	    || merged.count != all.count || merged.max != all.max || merged.min != all.min) {
		fprintf(stderr, "hist-dump: the C merge differs from the whole\n");
		return 1;
	}
	printf("{\"parts\": [");
	for (k = 0; k < 3; k++) {
		printf("%s", k ? ", " : "");
		tcpb_output_hist(stdout, &part[k]);
	}
	printf("], \"all\": ");
	tcpb_output_hist(stdout, &all);
	printf(", \"quantiles\": [");
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		printf("%s[%g, %llu]", i ? ", " : "", qs[i],
			(unsigned long long)tcpb_hist_quantile(&all, qs[i]));
	printf("]}\n");
	return 0;
}
