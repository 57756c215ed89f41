/*
 * speed.c -- the fixed CPU workload of speed.h, timed.
 */
#include "speed.h"

#include <time.h>

static double ts_ns(const struct timespec *t)
{
	return (double)t->tv_sec * 1e9 + (double)t->tv_nsec;
}

/* splitmix64's mixing step, chained: each round depends on the last, so
 * the loop cannot be vectorised or cut short. */
static uint64_t speed_loop(uint64_t n)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL, i;

	for (i = 0; i < n; i++) {
		x += 0x9e3779b97f4a7c15ULL;
		x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
		x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
		x ^= x >> 31;
	}
	return x;
}

int rbs_speed_time(uint64_t iterations, struct rbs_speed_run *run)
{
	struct timespec w0, w1, c0, c1;

	if (clock_gettime(CLOCK_MONOTONIC, &w0) != 0 || clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0) != 0)
		return -1;
	run->result = speed_loop(iterations);
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1) != 0 || clock_gettime(CLOCK_MONOTONIC, &w1) != 0)
		return -1;
	run->wall_ns = ts_ns(&w1) - ts_ns(&w0);
	run->cpu_ns = ts_ns(&c1) - ts_ns(&c0);
	return 0;
}
