/*
 * test-cpustat.c -- unit test of the /proc/stat, softnet_stat, softirqs,
 * cgroup cpu.stat and CPU-list parsers.
 * Must hold: idle, iowait and steal come from their columns (4th, 5th,
 * 8th after the name) and nothing else; offline CPUs are absent;
 * softnet_stat lines go to the CPU their 13th field names; softirq
 * columns map to the CPU of their header; cpu.stat without usage_usec
 * is an error; CPU lists parse ranges and reject junk.
 */
#include <string.h>
#include "../cgroup.h"
#include "../cpustat.h"
#include "../../../analysis/lib/unittest.h"

static const char stat_text[] =
	"cpu  4705 0 3963 655521 388 0 620 22 0 0\n"
	"cpu0 1665 1 1480 329052 15 2 419 5 0 0\n"
	"cpu2 3040 0 2483 326469 372 0 201 16 0 0\n"
	"intr 432401 0 0\n"
	"ctxt 123\n";
static const char softnet_text[] =
	"00a27c0f 00001257 00000001 00000000 00000000 00000000 00000000 00000000 00000000 0001bc54 00000000 00000000 00000000 00000000 00000000\n"
	"0038b004 000002c6 00000003 00000000 00000000 00000000 00000000 00000000 00000000 00078202 00000000 00000000 00000002 00000000 00000000\n";
static const char softirqs_text[] =
	"                    CPU0       CPU1       CPU2\n"
	"          HI:          0          0          1\n"
	"       TIMER:      17390      24806         7\n"
	"      NET_RX:     240585     117063         9\n";

int
main(void)
{
	static struct rbs_cpustat st;
	static struct rbs_softirqs si;
	struct rbs_cgstat cg;
	unsigned char set[64];
	char err[256];

	UT_CHECK(rbs_cpustat_parse(stat_text, &st, err, sizeof(err)) == 0);
	UT_CHECK(st.max_cpu == 2);
	UT_CHECK(st.cpu[0].present && !st.cpu[1].present && st.cpu[2].present);
	UT_CHECK(st.cpu[0].idle == 329052 && st.cpu[0].iowait == 15 && st.cpu[0].steal == 5);
	UT_CHECK(st.cpu[2].idle == 326469 && st.cpu[2].iowait == 372 && st.cpu[2].steal == 16);
	UT_CHECK(rbs_cpustat_parse("intr 1\n", &st, err, sizeof(err)) < 0);
	UT_CHECK(rbs_cpustat_parse("cpu0 1 2\n", &st, err, sizeof(err)) < 0);

	UT_CHECK(rbs_cpustat_parse(stat_text, &st, err, sizeof(err)) == 0);
	UT_CHECK(rbs_softnet_parse(softnet_text, &st, err, sizeof(err)) == 0);
	UT_CHECK(st.cpu[0].softnet && st.cpu[0].processed == 0xa27c0f && st.cpu[0].dropped == 0x1257);
	UT_CHECK(st.cpu[2].softnet && st.cpu[2].dropped == 0x2c6 && st.cpu[2].time_squeeze == 3);
	UT_CHECK(!st.cpu[1].softnet);
	/* Old format without the CPU field: online CPUs in order. */
	UT_CHECK(rbs_softnet_parse("00000001 00000002 00000003\n00000004 00000005 00000006\n",
		&st, err, sizeof(err)) == 0);
	UT_CHECK(st.cpu[0].dropped == 2 && st.cpu[2].dropped == 5 && !st.cpu[1].softnet);
	UT_CHECK(rbs_softnet_parse("00000001\n", &st, err, sizeof(err)) < 0);

	UT_CHECK(rbs_softirqs_parse(softirqs_text, &si, err, sizeof(err)) == 0);
	UT_CHECK(si.nnames == 3 && si.ncols == 3);
	UT_CHECK(strcmp(si.names[1], "TIMER") == 0 && strcmp(si.names[2], "NET_RX") == 0);
	UT_CHECK(si.v[1][0] == 17390 && si.v[1][1] == 24806 && si.v[2][2] == 9);
	UT_CHECK(rbs_softirqs_parse("   CPU0\n  HI:\n", &si, err, sizeof(err)) < 0);
	UT_CHECK(rbs_softirqs_parse("   XYZ0\n  HI: 1\n", &si, err, sizeof(err)) < 0);

	UT_CHECK(rbs_cgroup_parse("usage_usec 98205818\nuser_usec 50647630\nsystem_usec 47558187\n"
		"nice_usec 0\n", &cg, err, sizeof(err)) == 0);
	UT_CHECK(cg.usage_usec == 98205818 && cg.user_usec == 50647630 && cg.system_usec == 47558187);
	UT_CHECK(rbs_cgroup_parse("user_usec 5\n", &cg, err, sizeof(err)) < 0);
	UT_CHECK(strstr(err, "usage_usec") != NULL);

	UT_CHECK(rbs_cpulist_parse("0-3,6", set, 64, err, sizeof(err)) == 5);
	UT_CHECK(set[0] && set[3] && !set[4] && set[6]);
	UT_CHECK(rbs_cpulist_parse("1", set, 64, err, sizeof(err)) == 1 && set[1] && !set[0]);
	UT_CHECK(rbs_cpulist_parse("", set, 64, err, sizeof(err)) < 0);
	UT_CHECK(rbs_cpulist_parse("3-1", set, 64, err, sizeof(err)) < 0);
	UT_CHECK(rbs_cpulist_parse("0,", set, 64, err, sizeof(err)) < 0);
	UT_CHECK(rbs_cpulist_parse("x", set, 64, err, sizeof(err)) < 0);
	UT_CHECK(rbs_cpulist_parse("64", set, 64, err, sizeof(err)) < 0);
	return ut_failures ? 1 : 0;
}
