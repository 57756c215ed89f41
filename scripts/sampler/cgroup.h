/*
 * cgroup.h -- CPU time of a cgroup (v2): usage_usec, user_usec and
 * system_usec of its cpu.stat. usage_usec is the scheduler's precise
 * runtime of the cgroup's tasks; the user/system split is scaled from
 * tick samples by the kernel and is only indicative. The root cgroup's
 * cpu.stat is built from the tick-sampled /proc/stat fields on this
 * kernel, so it is not read: CPU outside the roles is computed from idle
 * time instead (see docs/sampler.md).
 */
#ifndef RBS_CGROUP_H
#define RBS_CGROUP_H

#include <stddef.h>
#include <stdint.h>
#include "procfile.h"

struct rbs_cgstat {
	uint64_t usage_usec, user_usec, system_usec;
};

/* Parse cpu.stat text; usage_usec must be there. */
int rbs_cgroup_parse(const char *text, struct rbs_cgstat *st, char *err, size_t errlen);

/* Read DIR/cpu.stat (b is a reusable buffer). */
int rbs_cgroup_read(const char *dir, struct rbs_buf *b, struct rbs_cgstat *st,
	char *err, size_t errlen);

#endif /* RBS_CGROUP_H */
