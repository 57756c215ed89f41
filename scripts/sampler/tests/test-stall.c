/*
 * test-stall.c -- unit test of stall classification and of the
 * interface/qdisc tables.
 * Must hold: an OTHER late wake-up with no overlapping FIFO one is a
 * "process" stall; with one (within the tolerance) it is
 * "softirq/kernel" and carries the FIFO lateness; a FIFO late wake-up
 * no OTHER one overlaps is "softirq/kernel" on its own, but only after
 * the guard time; nothing newer than "before" is classified early.
 * Object tables: baseline deltas are 0, deltas are exact, a re-created
 * object (new id or kind) or a counter going backwards counts from 0.
 */
#include <stdint.h>
#include <string.h>
#include "../objtab.h"
#include "../stall.h"
#include "../../../analysis/lib/unittest.h"

#define MS 1000000LL

int
main(void)
{
	static struct rbs_stalltrack t;
	struct rbs_stall out[8];
	struct rbs_objtab tab;
	struct rbs_stall_ev other[3] = { { 100 * MS, 50 * MS }, { 400 * MS, 20 * MS },
		{ 900 * MS, 10 * MS } };
	struct rbs_stall_ev fifo[2] = { { 400 * MS + MS / 2, 19 * MS }, { 700 * MS, 8 * MS } };
	uint64_t dropped = 0, c1[2] = { 10, 100 }, c2[2] = { 15, 130 }, c3[2] = { 3, 1 };
	uint64_t g[1] = { 7 };
	char err[128];
	size_t n;

	rbs_stalltrack_init(&t, 1, MS);
	rbs_stalltrack_add(&t, 0, other, 3);
	rbs_stalltrack_add(&t, 1, fifo, 2);

	/* Before 500 ms: the first two OTHER ones; FIFO ones wait for the guard. */
	n = rbs_stalltrack_flush(&t, 500 * MS, 100 * MS, out, 8, &dropped);
	UT_CHECK(n == 2);
	UT_CHECK(out[0].kind == RBS_STALL_PROCESS && out[0].cpu == 1);
	UT_CHECK(out[0].start_ns == 100 * MS && out[0].len_ns == 50 * MS && out[0].fifo_ns == 0);
	UT_CHECK(out[1].kind == RBS_STALL_KERNEL && out[1].fifo_ns == 19 * MS);
	UT_CHECK(out[1].other_ns == 20 * MS);
	UT_CHECK(strcmp(rbs_stall_kind_name(out[1].kind), "softirq/kernel") == 0);
	UT_CHECK(strcmp(rbs_stall_kind_name(out[0].kind), "process") == 0);

	/* At 800 ms: the lone FIFO stall (ended 708 ms) is not old enough yet. */
	n = rbs_stalltrack_flush(&t, 800 * MS, 100 * MS, out, 8, &dropped);
	UT_CHECK(n == 0);
	/* At 850 ms it is, and reported on its own; the matched one is not again. */
	n = rbs_stalltrack_flush(&t, 850 * MS, 100 * MS, out, 8, &dropped);
	UT_CHECK(n == 1);
	UT_CHECK(out[0].kind == RBS_STALL_KERNEL && out[0].start_ns == 700 * MS);
	UT_CHECK(out[0].fifo_ns == 8 * MS && out[0].other_ns == 0);
	/* Final flush: the last OTHER one. */
	n = rbs_stalltrack_flush(&t, INT64_MAX, 100 * MS, out, 8, &dropped);
	UT_CHECK(n == 1 && out[0].start_ns == 900 * MS && out[0].kind == RBS_STALL_PROCESS);
	UT_CHECK(t.nother == 0 && t.nfifo == 0 && dropped == 0);

	/* Overlap tolerance: FIFO due 1.5 ms after the OTHER one ended does not count
	 * with a 1 ms tolerance, does with 2 ms. */
	{
		struct rbs_stall_ev o = { 0, 10 * MS }, f = { 11 * MS + MS / 2, 6 * MS };
		rbs_stalltrack_init(&t, 0, MS);
		rbs_stalltrack_add(&t, 0, &o, 1);
		rbs_stalltrack_add(&t, 1, &f, 1);
		n = rbs_stalltrack_flush(&t, INT64_MAX, 0, out, 8, &dropped);
		UT_CHECK(n == 2 && out[0].kind == RBS_STALL_PROCESS && out[1].kind == RBS_STALL_KERNEL);
		rbs_stalltrack_init(&t, 0, 2 * MS);
		rbs_stalltrack_add(&t, 0, &o, 1);
		rbs_stalltrack_add(&t, 1, &f, 1);
		n = rbs_stalltrack_flush(&t, INT64_MAX, 0, out, 8, &dropped);
		UT_CHECK(n == 1 && out[0].kind == RBS_STALL_KERNEL);
	}
	/* Output capacity: the rest is counted as dropped. */
	rbs_stalltrack_init(&t, 0, MS);
	rbs_stalltrack_add(&t, 0, other, 3);
	n = rbs_stalltrack_flush(&t, INT64_MAX, 0, out, 2, &dropped);
	UT_CHECK(n == 2 && dropped == 1);

	/* Object tables. */
	rbs_objtab_init(&tab, 2, 1);
	rbs_objtab_begin(&tab);
	UT_CHECK(rbs_objtab_update(&tab, "eth0", "", 3, c1, g, err, sizeof(err)) == 0);
	UT_CHECK(tab.n == 1 && tab.v[0].delta[0] == 0 && tab.v[0].delta[1] == 0);
	UT_CHECK(tab.v[0].gauge[0] == 7 && tab.v[0].gauge_max[0] == 7);
	rbs_objtab_begin(&tab);
	UT_CHECK(rbs_objtab_update(&tab, "eth0", "", 3, c2, NULL, err, sizeof(err)) == 0);
	UT_CHECK(tab.v[0].delta[0] == 5 && tab.v[0].delta[1] == 30 && tab.v[0].total[1] == 30);
	UT_CHECK(rbs_obj_changed(&tab, &tab.v[0]));
	UT_CHECK(tab.v[0].gauge[0] == 0 && tab.v[0].gauge_max[0] == 7);
	/* Counters backwards: reset, counts from 0. */
	rbs_objtab_begin(&tab);
	UT_CHECK(rbs_objtab_update(&tab, "eth0", "", 3, c3, NULL, err, sizeof(err)) == 0);
	UT_CHECK(tab.v[0].delta[0] == 3 && tab.v[0].delta[1] == 1 && tab.v[0].resets == 1);
	UT_CHECK(tab.v[0].total[0] == 8 && tab.v[0].total[1] == 31);
	/* Same values again: unchanged. */
	rbs_objtab_begin(&tab);
	UT_CHECK(rbs_objtab_update(&tab, "eth0", "", 3, c3, NULL, err, sizeof(err)) == 0);
	UT_CHECK(!rbs_obj_changed(&tab, &tab.v[0]));
	/* Re-created (new ifindex) with larger values: still from 0. */
	rbs_objtab_begin(&tab);
	UT_CHECK(rbs_objtab_update(&tab, "eth0", "", 4, c2, NULL, err, sizeof(err)) == 0);
	UT_CHECK(tab.v[0].delta[0] == 15 && tab.v[0].resets == 2);
	/* Kind changed (qdisc replaced). */
	rbs_objtab_begin(&tab);
	UT_CHECK(rbs_objtab_update(&tab, "eth0", "tbf", 4, c2, NULL, err, sizeof(err)) == 0);
	UT_CHECK(tab.v[0].delta[0] == 15 && tab.v[0].resets == 3 && strcmp(tab.v[0].kind, "tbf") == 0);
	/* A new object after the baseline counts from 0; an absent one is not present. */
	rbs_objtab_begin(&tab);
	UT_CHECK(rbs_objtab_update(&tab, "eth1", "", 9, c1, NULL, err, sizeof(err)) == 0);
	UT_CHECK(tab.n == 2 && tab.v[1].delta[0] == 10 && tab.v[1].delta[1] == 100);
	UT_CHECK(!rbs_obj_present(&tab, &tab.v[0]) && !rbs_obj_changed(&tab, &tab.v[0]));
	rbs_objtab_free(&tab);
	return ut_failures ? 1 : 0;
}
