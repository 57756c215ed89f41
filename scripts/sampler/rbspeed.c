/*
 * rbspeed.c -- the host's speed on given CPUs: speed.h's fixed workload
 * run on each CPU in turn (pinned), several times, and the steal time
 * /proc/stat counted on that CPU meanwhile, as one JSON object:
 *   {"schema":"rootbench.speed/1","iterations":N,"repeats":R,
 *    "cpus":{"cpu1":{"ns_per_iter_median":..,"ns_per_iter_min":..,
 *                    "wall_over_cpu":..,"steal_ms":..}, ...}}
 * ns per iteration is the wall time over the iterations (what a server
 * on that CPU would see); wall over CPU time above 1 means the loop was
 * not running all along (preempted, or the hypervisor took the CPU:
 * steal). The median of the repeats is the figure; the minimum what the
 * CPU does unhindered.
 *
 *   rbspeed [-n ITERATIONS] [-r REPEATS] CPU...
 */
#include "speed.h"
#include "cpustat.h"
#include "procfile.h"
#include "../../analysis/lib/cliopt.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SPEED_MAX_REPEATS 50

/* the loops' values end here, so that no compiler drops the loop */
static volatile uint64_t speed_sink;

struct speed_opts {
	uint64_t iterations;   /* rounds of the loop per repeat */
	int repeats;           /* repeats per CPU */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static int speed_steal_ticks(int cpu, uint64_t *steal, char *err, size_t errlen)
{
	static struct rbs_buf b;
	static struct rbs_cpustat st;

	if (rbs_procfile_read(AT_FDCWD, "/proc/stat", &b, err, errlen) != 0)
		return -1;
	if (rbs_cpustat_parse(b.p, &st, err, errlen) != 0)
		return -1;
	if (cpu > st.max_cpu || !st.cpu[cpu].present) {
		snprintf(err, errlen, "cpu%d is not in /proc/stat", cpu);
		return -1;
	}
	*steal = st.cpu[cpu].steal;
	return 0;
}

/* One CPU's figures, printed as a JSON member. Returns 0 or -1. */
static int speed_cpu(FILE *out, int cpu, const struct speed_opts *o, int first, char *err, size_t errlen)
{
	double per[SPEED_MAX_REPEATS], ratio_sum = 0;
	struct rbs_speed_run run;
	uint64_t s0, s1, check = 0;
	cpu_set_t set;
	long hz = sysconf(_SC_CLK_TCK);
	int i;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) != 0) {
		snprintf(err, errlen, "cannot run on cpu%d: %s", cpu, strerror(errno));
		return -1;
	}
	if (speed_steal_ticks(cpu, &s0, err, errlen) != 0)
		return -1;
	for (i = 0; i < o->repeats; i++) {
		if (rbs_speed_time(o->iterations, &run) != 0) {
			snprintf(err, errlen, "clock_gettime: %s", strerror(errno));
			return -1;
		}
		per[i] = run.wall_ns / (double)o->iterations;
		ratio_sum += run.cpu_ns > 0 ? run.wall_ns / run.cpu_ns : 0;
		check ^= run.result;
	}
	if (speed_steal_ticks(cpu, &s1, err, errlen) != 0)
		return -1;
	qsort(per, (size_t)o->repeats, sizeof(per[0]), cmp_double);
	fprintf(out, "%s\"cpu%d\":{\"ns_per_iter_median\":%.4f,\"ns_per_iter_min\":%.4f,\"wall_over_cpu\":%.4f,"
	       "\"steal_ms\":%.0f}",
	       first ? "" : ",", cpu, per[o->repeats / 2], per[0], ratio_sum / o->repeats,
	       (double)(s1 - s0) * 1000.0 / (double)(hz > 0 ? hz : 100));
	speed_sink = check;
	return 0;
}

static int speed_parse(int argc, char **argv, struct speed_opts *o, char *err, size_t errlen)
{
	static const struct option longopts[] = {
		{ "iterations", required_argument, NULL, 'n' },
		{ "repeats", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 }
	};
	char *end;
	int c;

	o->iterations = 5000000;
	o->repeats = 5;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":n:r:", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			errno = 0;
			o->iterations = strtoull(optarg, &end, 10);
			if (errno || *end || o->iterations < 1000 || o->iterations > 10000000000ULL)
				return rb_cliopt_bad_value(c, optarg, longopts, err, errlen);
			break;
		case 'r':
			o->repeats = (int)strtol(optarg, &end, 10);
			if (*end || o->repeats < 1 || o->repeats > SPEED_MAX_REPEATS)
				return rb_cliopt_bad_value(c, optarg, longopts, err, errlen);
			break;
		default:
			return rb_cliopt_getopt_error(c, argv, err, errlen);
		}
	}
	if (optind >= argc) {
		snprintf(err, errlen, "no CPU given (rbspeed [-n ITERATIONS] [-r REPEATS] CPU...)");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct speed_opts o;
	char err[256];
	int i, cpu;
	char *end;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		printf("rbspeed [-n ITERATIONS] [-r REPEATS] CPU...: a fixed CPU workload timed on each CPU\n"
		       "(default 5000000 iterations, 5 repeats); JSON on stdout (scripts/sampler/rbspeed.c)\n");
		return 0;
	}
	if (speed_parse(argc, argv, &o, err, sizeof(err)) != 0) {
		fprintf(stderr, "rbspeed: %s\n", err);
		return 2;
	}
	/* the whole object made first: nothing half-written on a failure */
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	if (!out) {
		fprintf(stderr, "rbspeed: open_memstream: %s\n", strerror(errno));
		return 1;
	}
	fprintf(out, "{\"schema\":\"rootbench.speed/1\",\"iterations\":%llu,\"repeats\":%d,\"cpus\":{",
	        (unsigned long long)o.iterations, o.repeats);
	for (i = optind; i < argc; i++) {
		cpu = (int)strtol(argv[i], &end, 10);
		if (*end || cpu < 0 || cpu >= RBS_MAX_CPUS) {
			fprintf(stderr, "rbspeed: CPU '%s' is not a CPU number\n", argv[i]);
			fclose(out); free(text);
			return 2;
		}
		if (speed_cpu(out, cpu, &o, i == optind, err, sizeof(err)) != 0) {
			fprintf(stderr, "rbspeed: %s\n", err);
			fclose(out); free(text);
			return 1;
		}
	}
	fprintf(out, "}}\n");
	fclose(out);
	fputs(text, stdout);
	free(text);
	return 0;
}
