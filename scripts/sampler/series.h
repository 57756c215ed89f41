/*
 * series.h -- one JSON line per sample (the --series file): the deltas of
 * the counters that changed in the interval, the gauges, per-CPU busy
 * time and softirqs, cgroup CPU and the stall probes' worst lateness.
 * The format is documented with an example in docs/sampler.md.
 */
#ifndef RBS_SERIES_H
#define RBS_SERIES_H

#include <stddef.h>

struct rbs_sampler;

/* Write the current sample of s as one line to s->series (flushed). */
int rbs_series_write(struct rbs_sampler *s, char *err, size_t errlen);

#endif /* RBS_SERIES_H */
