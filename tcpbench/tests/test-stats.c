/*
 * test-stats.c -- unit test of tcpbench's counters, time series and merge.
 * Must hold: the series has ceil(duration / slot) slots, a connection
 * lands in the slot of its scheduled offset (the last one for anything
 * later); latency_us holds successes and failures, answered_us successes
 * only; a wake-up that starts fewer than were due is a deferral and makes
 * the stats invalid, as do late starts, late timeouts and pool
 * exhaustion; merging sums counts and series, takes maxima, sums
 * in-flight peaks and merges the histograms; the first start (offset plus
 * lateness) is the earliest, also over a merge, and none without starts.
 */
#include <stdio.h>
#include <string.h>
#include "../stats.h"
#include "../../analysis/lib/unittest.h"


#define MS UINT64_C(1000000)

int
main(void)
{
	static struct tcpb_stats a, b;
	static struct tcpb_slot sa[20], sb[20];

	UT_CHECK(tcpb_stats_nslots(2, 100) == 20);
	UT_CHECK(tcpb_stats_nslots(1.05, 100) == 11);
	UT_CHECK(tcpb_stats_nslots(0.01, 100) == 1);
	UT_CHECK(tcpb_stats_nslots(10, 1000) == 10);

	tcpb_stats_init(&a, sa, 20, 100);
	UT_CHECK(tcpb_stats_slot(&a, 0) == 0);
	UT_CHECK(tcpb_stats_slot(&a, 99 * MS) == 0);
	UT_CHECK(tcpb_stats_slot(&a, 100 * MS) == 1);
	UT_CHECK(tcpb_stats_slot(&a, 5000 * MS) == 19);     /* clamped */
	UT_CHECK(tcpb_stats_valid(&a));

	/* Two connections in slot 3: one answered after 2 ms, one refused
	 * after 1 ms; one in slot 4 timed out after 1000 ms. */
	tcpb_stats_start(&a, 310 * MS, 20000, 0);
	tcpb_stats_in_flight(&a, 310 * MS, 1);
	tcpb_stats_start(&a, 320 * MS, 90000, 0);
	tcpb_stats_in_flight(&a, 320 * MS, 2);
	tcpb_stats_wakeup(&a, 310 * MS, 2, 2);
	tcpb_stats_success(&a, 310 * MS, 2 * MS);
	tcpb_stats_failure(&a, 320 * MS, TCPB_CAUSE_REFUSED, 111, 1 * MS);
	tcpb_stats_start(&a, 410 * MS, 10000, 0);
	tcpb_stats_in_flight(&a, 410 * MS, 1);
	tcpb_stats_wakeup(&a, 410 * MS, 1, 1);
	tcpb_stats_failure(&a, 410 * MS, TCPB_CAUSE_TIMEOUT, 0, 1000 * MS);
	UT_CHECK(a.attempted == 3 && a.succeeded == 1 && a.failed == 2);
	UT_CHECK(a.cause[TCPB_CAUSE_REFUSED] == 1 && a.cause[TCPB_CAUSE_TIMEOUT] == 1);
	UT_CHECK(a.errnos[111] == 1);
	UT_CHECK(a.latency_us.count == 3 && a.latency_us.max == 1000000 && a.latency_us.min == 1000);
	UT_CHECK(a.answered_us.count == 1 && a.answered_us.max == 2000);
	UT_CHECK(a.lateness_us.count == 3 && a.max_lateness_ns == 90000);
	UT_CHECK(sa[3].attempted == 2 && sa[3].succeeded == 1 && sa[3].failed == 1);
	UT_CHECK(sa[3].max_lateness_us == 90 && sa[3].max_burst == 2 && sa[3].max_in_flight == 2);
	UT_CHECK(sa[4].attempted == 1 && sa[4].failed == 1 && sa[4].max_burst == 1);
	UT_CHECK(a.max_burst == 2 && a.max_due == 2 && a.burst_deferrals == 0);
	UT_CHECK(a.max_in_flight == 2);
	UT_CHECK(tcpb_stats_valid(&a));

	/* A wake-up that leaves due connections behind: invalid. */
	tcpb_stats_init(&b, sb, 20, 100);
	tcpb_stats_wakeup(&b, 500 * MS, 490, 64);
	UT_CHECK(b.burst_deferrals == 1 && b.max_due == 490 && b.max_burst == 64);
	UT_CHECK(!tcpb_stats_valid(&b));
	tcpb_stats_start(&b, 320 * MS, 5000000, 1);
	tcpb_stats_in_flight(&b, 320 * MS, 5);
	tcpb_stats_success(&b, 320 * MS, 7 * MS);
	UT_CHECK(b.late_starts == 1);

	UT_CHECK(a.has_first_start && a.first_start_ns == 310 * MS + 20000);
	UT_CHECK(b.has_first_start && b.first_start_ns == 325 * MS);

	/* Merge b into a. */
	tcpb_stats_merge(&a, &b);
	UT_CHECK(a.has_first_start && a.first_start_ns == 310 * MS + 20000);
	UT_CHECK(a.attempted == 4 && a.succeeded == 2 && a.failed == 2);
	UT_CHECK(a.late_starts == 1 && a.burst_deferrals == 1);
	UT_CHECK(a.max_due == 490 && a.max_burst == 64);
	UT_CHECK(a.max_lateness_ns == 5000000);
	UT_CHECK(a.max_in_flight == 2 + 5);                  /* peaks summed */
	UT_CHECK(a.latency_us.count == 4 && a.answered_us.count == 2 && a.answered_us.max == 7000);
	UT_CHECK(sa[3].attempted == 3 && sa[3].succeeded == 2 && sa[3].max_in_flight == 7);
	UT_CHECK(sa[3].max_lateness_us == 5000);
	UT_CHECK(sa[5].max_burst == 64);
	UT_CHECK(!tcpb_stats_valid(&a));

	/* Answers, TLS handshakes and failures: counted, the first version
	 * and error kept, merged. */
	tcpb_stats_init(&a, sa, 20, 100);
	tcpb_stats_init(&b, sb, 20, 100);
	tcpb_stats_answer(&a, 3 * MS);
	tcpb_stats_answer(&a, 5 * MS);
	tcpb_stats_handshake(&a, 2 * MS, 0, 0, "TLSv1.3", "TLS_AES_256_GCM_SHA384");
	tcpb_stats_handshake(&b, 1 * MS, 1, 1, "TLSv1.2", "X");
	tcpb_stats_handshake(&b, 1 * MS, 1, 0, NULL, NULL);
	tcpb_stats_tls_error(&b, "certificate: hostname mismatch");
	tcpb_stats_tls_error(&b, "later");
	tcpb_stats_failure(&b, 0, TCPB_CAUSE_CERTIFICATE, 0, MS);
	tcpb_stats_failure(&b, 0, TCPB_CAUSE_HANDSHAKE, 0, MS);
	UT_CHECK(a.answers == 2 && a.query_us.count == 2 && a.query_us.max == 5000);
	UT_CHECK(strcmp(b.tls_error, "certificate: hostname mismatch") == 0);
	UT_CHECK(strcmp(tcpb_cause_name(TCPB_CAUSE_HANDSHAKE), "handshake") == 0);
	UT_CHECK(strcmp(tcpb_cause_name(TCPB_CAUSE_CERTIFICATE), "certificate") == 0);
	UT_CHECK(strcmp(tcpb_cause_name(TCPB_CAUSE_OTHER), "other") == 0);
	tcpb_stats_merge(&a, &b);
	UT_CHECK(!a.has_first_start);
	UT_CHECK(a.tls_handshakes == 3 && a.tls_resumed == 1 && a.tls_offered == 2);
	UT_CHECK(a.handshake_us.count == 3 && a.handshake_us.max == 2000);
	UT_CHECK(strcmp(a.tls_version, "TLSv1.3") == 0);     /* a's own first */
	UT_CHECK(strcmp(a.tls_error, "certificate: hostname mismatch") == 0);
	UT_CHECK(a.cause[TCPB_CAUSE_CERTIFICATE] == 1 && a.cause[TCPB_CAUSE_HANDSHAKE] == 1);

	/* Each invalidating counter alone. */
	tcpb_stats_init(&b, sb, 20, 100);
	b.late_timeouts = 1;
	UT_CHECK(!tcpb_stats_valid(&b));
	b.late_timeouts = 0;
	b.pool_exhausted = 1;
	UT_CHECK(!tcpb_stats_valid(&b));

	/* An earlier start merged in is the first; a later one is not. */
	tcpb_stats_init(&a, sa, 20, 100);
	tcpb_stats_init(&b, sb, 20, 100);
	tcpb_stats_start(&a, 200 * MS, 1000, 0);
	tcpb_stats_start(&b, 100 * MS, 0, 0);
	tcpb_stats_merge(&a, &b);
	UT_CHECK(a.has_first_start && a.first_start_ns == 100 * MS);
	tcpb_stats_init(&b, sb, 20, 100);
	tcpb_stats_start(&b, 150 * MS, 0, 0);
	tcpb_stats_merge(&a, &b);
	UT_CHECK(a.first_start_ns == 100 * MS);

	if (ut_failures)
		return 1;
	printf("test-stats: ok\n");
	return 0;
}
