/*
 * summary.h -- the --summary file (schema rootbench.sample/1): run totals
 * of every counter per namespace, qdisc and interface, accept-queue
 * peaks, TIME-WAIT extremes, per-CPU busy time from idle, cgroup CPU,
 * and the stall events. Written to a temporary file and renamed into
 * place. Keys are documented in docs/sampler.md.
 */
#ifndef RBS_SUMMARY_H
#define RBS_SUMMARY_H

#include <stddef.h>

struct rbs_sampler;

/* Write the summary of s to path (temp + rename). */
int rbs_summary_write(const struct rbs_sampler *s, const char *path, char *err, size_t errlen);

#endif /* RBS_SUMMARY_H */
