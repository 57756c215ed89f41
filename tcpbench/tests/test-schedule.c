/*
 * test-schedule.c -- unit test of the open-loop schedule arithmetic.
 * Must hold: a run of R/s for D s has exactly round(R*D) connections;
 * connection i is at i/R seconds after t0 (exact for integer rates, in
 * absolute time, independent of any other connection); offsets never go
 * backwards; the margin is pct of the timeout; lateness beyond it trips.
 */
#include <stdio.h>
#include "../schedule.h"

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

int
main(void)
{
	struct tcpb_schedule s;
	uint64_t i, prev = 0;

	CHECK(tcpb_schedule_init(&s, 1000, 3, 0) == 0 && s.count == 3000);
	CHECK(tcpb_schedule_init(&s, 250, 0.5, 0) == 0 && s.count == 125);
	CHECK(tcpb_schedule_init(&s, 3, 0.5, 0) == 0 && s.count == 2);     /* 1.5 rounds up */
	CHECK(tcpb_schedule_init(&s, 0, 1, 0) < 0);
	CHECK(tcpb_schedule_init(&s, 10, 0, 0) < 0);
	CHECK(tcpb_schedule_init(&s, 1, 0.1, 0) < 0);                       /* no connection */
	CHECK(tcpb_schedule_init(&s, 1e12, 1e6, 0) < 0);                    /* too many */

	CHECK(tcpb_schedule_init(&s, 20000, 10, 100000) == 0);
	CHECK(s.count == 200000);
	CHECK(tcpb_schedule_offset_ns(&s, 0) == 0);
	CHECK(tcpb_schedule_offset_ns(&s, 1) == 50000);
	CHECK(tcpb_schedule_offset_ns(&s, 20000) == 1000000000u);
	CHECK(tcpb_schedule_offset_ns(&s, 199999) == 9999950000u);
	for (i = 0; i < s.count; i++) {
		uint64_t o = tcpb_schedule_offset_ns(&s, i);
		CHECK(o >= prev);
		CHECK(o == i * 50000);
		prev = o;
		if (failures)
			break;
	}
	/* Absolute: t0 + offset, whatever happened before. */
	s.t0_ns = 123456789;
	CHECK(tcpb_schedule_at_ns(&s, 7) == 123456789 + 350000);

	/* Non-integer rate: 3 per second -> 0, 333333333, 666666666, 1e9. */
	CHECK(tcpb_schedule_init(&s, 3, 2, 0) == 0 && s.count == 6);
	CHECK(tcpb_schedule_offset_ns(&s, 1) == 333333333);
	CHECK(tcpb_schedule_offset_ns(&s, 3) == 1000000000u);

	/* Margin: 5 % of 2000 ms = 100 ms; strictly later trips. */
	CHECK(tcpb_schedule_margin_ns(2000, 5.0) == 100000000u);
	CHECK(tcpb_schedule_margin_ns(40, 5.0) == 2000000u);
	CHECK(tcpb_schedule_init(&s, 10, 1, tcpb_schedule_margin_ns(2000, 5.0)) == 0);
	CHECK(!tcpb_schedule_too_late(&s, 100000000u));
	CHECK(tcpb_schedule_too_late(&s, 100000001u));
	CHECK(!tcpb_schedule_too_late(&s, 0));

	/* Pool: rate x (timeout + margin) + 64. */
	CHECK(tcpb_schedule_max_inflight(20000, 2000, 5.0) == 42000 + 64);
	CHECK(tcpb_schedule_max_inflight(1, 1, 5.0) == 1 + 64);

	if (failures)
		return 1;
	printf("test-schedule: ok\n");
	return 0;
}
