/*
 * test-schedule.c -- unit test of the open-loop schedule arithmetic.
 * Must hold: a run of R/s for D s has exactly round(R*D) connections;
 * connection i is at i/R seconds after t0 (exact for integer rates, in
 * absolute time, independent of any other connection); offsets never go
 * backwards; the margin is pct of the timeout; lateness beyond it trips.
 * Worker classes: worker k of N owns i = k, k+N, ...; the number due at a
 * time equals a brute-force count over the schedule, for every class.
 */
#include <stdio.h>
#include "../schedule.h"
#include "../../analysis/lib/unittest.h"

/* Brute force: connections of class (first, stride) from next on that
 * are due at now. */
static uint64_t
due_brute(const struct tcpb_schedule *s, uint64_t now)
{
	uint64_t i, n = 0;
	for (i = s->next; i < s->count; i += s->stride)
		if (tcpb_schedule_at_ns(s, i) <= now)
			n++;
	return n;
}


int
main(void)
{
	struct tcpb_schedule s;
	uint64_t i, prev = 0;

	UT_CHECK(tcpb_schedule_init(&s, 1000, 3, 0) == 0 && s.count == 3000);
	UT_CHECK(tcpb_schedule_init(&s, 250, 0.5, 0) == 0 && s.count == 125);
	UT_CHECK(tcpb_schedule_init(&s, 3, 0.5, 0) == 0 && s.count == 2);     /* 1.5 rounds up */
	UT_CHECK(tcpb_schedule_init(&s, 0, 1, 0) < 0);
	UT_CHECK(tcpb_schedule_init(&s, 10, 0, 0) < 0);
	UT_CHECK(tcpb_schedule_init(&s, 1, 0.1, 0) < 0);                       /* no connection */
	UT_CHECK(tcpb_schedule_init(&s, 1e12, 1e6, 0) < 0);                    /* too many */

	UT_CHECK(tcpb_schedule_init(&s, 20000, 10, 100000) == 0);
	UT_CHECK(s.count == 200000);
	UT_CHECK(tcpb_schedule_offset_ns(&s, 0) == 0);
	UT_CHECK(tcpb_schedule_offset_ns(&s, 1) == 50000);
	UT_CHECK(tcpb_schedule_offset_ns(&s, 20000) == 1000000000u);
	UT_CHECK(tcpb_schedule_offset_ns(&s, 199999) == 9999950000u);
	for (i = 0; i < s.count; i++) {
		uint64_t o = tcpb_schedule_offset_ns(&s, i);
		UT_CHECK(o >= prev);
		UT_CHECK(o == i * 50000);
		prev = o;
		if (ut_failures)
			break;
	}
	/* Absolute: t0 + offset, whatever happened before. */
	s.t0_ns = 123456789;
	UT_CHECK(tcpb_schedule_at_ns(&s, 7) == 123456789 + 350000);

	/* Non-integer rate: 3 per second -> 0, 333333333, 666666666, 1e9. */
	UT_CHECK(tcpb_schedule_init(&s, 3, 2, 0) == 0 && s.count == 6);
	UT_CHECK(tcpb_schedule_offset_ns(&s, 1) == 333333333);
	UT_CHECK(tcpb_schedule_offset_ns(&s, 3) == 1000000000u);

	/* Margin: 5 % of 2000 ms = 100 ms; strictly later trips. */
	UT_CHECK(tcpb_schedule_margin_ns(2000, 5.0) == 100000000u);
	UT_CHECK(tcpb_schedule_margin_ns(40, 5.0) == 2000000u);
	UT_CHECK(tcpb_schedule_init(&s, 10, 1, tcpb_schedule_margin_ns(2000, 5.0)) == 0);
	UT_CHECK(!tcpb_schedule_too_late(&s, 100000000u));
	UT_CHECK(tcpb_schedule_too_late(&s, 100000001u));
	UT_CHECK(!tcpb_schedule_too_late(&s, 0));

	/* Due counts: whole schedule, then worker classes, against brute force. */
	UT_CHECK(tcpb_schedule_init(&s, 1000, 1, 0) == 0);
	s.t0_ns = 1000000000u;
	UT_CHECK(tcpb_schedule_class_count(&s) == 1000);
	UT_CHECK(tcpb_schedule_due_total(&s, 999999999u) == 0);     /* before t0 */
	UT_CHECK(tcpb_schedule_due_total(&s, 1000000000u) == 1);    /* i = 0 at t0 */
	UT_CHECK(tcpb_schedule_due_total(&s, 1000999999u) == 1);
	UT_CHECK(tcpb_schedule_due_total(&s, 1001000000u) == 2);
	UT_CHECK(tcpb_schedule_due_total(&s, 5000000000u) == 1000); /* all, no more */
	UT_CHECK(tcpb_schedule_init(&s, 3, 1, 0) == 0);
	UT_CHECK(tcpb_schedule_due_total(&s, 333333332) == 1);
	UT_CHECK(tcpb_schedule_due_total(&s, 333333333) == 2);
	{
		static const double rates[] = { 1000, 3, 18000, 7777.7 };
		uint64_t r, k, n, now, stride;
		for (r = 0; r < 4; r++)
			for (stride = 1; stride <= 3; stride++)
				for (k = 0; k < stride; k++) {
					UT_CHECK(tcpb_schedule_init(&s, rates[r], 2, 0) == 0);
					s.t0_ns = 500;
					tcpb_schedule_set_class(&s, k, stride);
					UT_CHECK(s.next == k);
					UT_CHECK(tcpb_schedule_class_count(&s) == (s.count - k + stride - 1) / stride);
					for (now = 0; now < 2100000000u; now += 1234567) {
						n = tcpb_schedule_due(&s, now);
						UT_CHECK(n == due_brute(&s, now));
						/* Start half of what is due: the rest stays due. */
						s.next += (n / 2) * s.stride;
						if (ut_failures)
							return 1;
					}
				}
	}
	UT_CHECK(tcpb_schedule_init(&s, 10, 1, 0) == 0);
	tcpb_schedule_set_class(&s, 1, 3);                      /* 1, 4, 7 */
	UT_CHECK(tcpb_schedule_class_count(&s) == 3);
	UT_CHECK(!tcpb_schedule_done(&s));
	s.next = 10;
	UT_CHECK(tcpb_schedule_done(&s));
	tcpb_schedule_set_class(&s, 12, 16);                    /* nothing */
	UT_CHECK(tcpb_schedule_class_count(&s) == 0);

	/* Pool: rate x (timeout + margin) + 64. */
	UT_CHECK(tcpb_schedule_max_inflight(20000, 2000, 5.0) == 42000 + 64);
	UT_CHECK(tcpb_schedule_max_inflight(1, 1, 5.0) == 1 + 64);

	if (ut_failures)
		return 1;
	printf("test-schedule: ok\n");
	return 0;
}
