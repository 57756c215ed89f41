/*
 * objtab.h -- the interfaces or qdiscs of one namespace across samples:
 * per object (keyed by name: "eth0", or "eths/8001:" for a non-root
 * qdisc) its monotonic counters' deltas and totals, and its gauges'
 * current and peak values. An object that is re-created between two
 * samples (other ifindex or qdisc kind) or whose counters go backwards
 * counts again from 0, and its resets are counted.
 */
#ifndef RBS_OBJTAB_H
#define RBS_OBJTAB_H

#include <stddef.h>
#include <stdint.h>

#define RBS_OBJ_MAXC 16
#define RBS_OBJ_MAXG 2

struct rbs_obj {
	char key[64];
	char kind[32];
	int64_t id;
	uint64_t prev[RBS_OBJ_MAXC];
	uint64_t delta[RBS_OBJ_MAXC];
	uint64_t total[RBS_OBJ_MAXC];
	uint64_t gauge[RBS_OBJ_MAXG];
	uint64_t gauge_prev[RBS_OBJ_MAXG];
	uint64_t gauge_max[RBS_OBJ_MAXG];
	unsigned resets;
	unsigned gen;        /* last sample it was present in */
	int gauge_changed;   /* a gauge differs from the previous sample */
};

struct rbs_objtab {
	struct rbs_obj *v;
	size_t n, cap;
	int nc, ng;          /* counters and gauges per object */
	unsigned gen;
};

void rbs_objtab_init(struct rbs_objtab *t, int ncounters, int ngauges);
void rbs_objtab_free(struct rbs_objtab *t);
void rbs_objtab_begin(struct rbs_objtab *t);

/* Record one object's values in the current sample. Returns 0, or -1
 * with a message. */
int rbs_objtab_update(struct rbs_objtab *t, const char *key, const char *kind, int64_t id,
	const uint64_t *counters, const uint64_t *gauges, char *err, size_t errlen);

/* Whether an object was present in the current sample. */
int rbs_obj_present(const struct rbs_objtab *t, const struct rbs_obj *o);

/* Whether the object's last sample changed anything (a delta or a gauge). */
int rbs_obj_changed(const struct rbs_objtab *t, const struct rbs_obj *o);

#endif /* RBS_OBJTAB_H */
