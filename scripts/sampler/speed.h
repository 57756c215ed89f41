/*
 * speed.h -- how fast a CPU is right now: a fixed CPU-bound workload (an
 * integer mixing loop that touches no memory beyond registers, so that
 * neither caches nor the memory bus nor the compiler's cleverness change
 * what it measures), timed on one CPU. Two hosts, or one host on two
 * days, that take the same time for it run a server at about the same
 * speed; a host that takes twice as long halves every figure measured on
 * it. Used by rbspeed, which every experiment runs at its start and end.
 */
#ifndef RBS_SPEED_H
#define RBS_SPEED_H

#include <stdint.h>

struct rbs_speed_run {
	double wall_ns;      /* CLOCK_MONOTONIC over the loop */
	double cpu_ns;       /* CLOCK_THREAD_CPUTIME_ID over the loop */
	uint64_t result;     /* the loop's value, so that it is computed */
};

/* The workload: iterations rounds of the mixing loop, timed. Returns 0,
 * or -1 (a clock failed; errno set). */
int rbs_speed_time(uint64_t iterations, struct rbs_speed_run *run);

#endif /* RBS_SPEED_H */
