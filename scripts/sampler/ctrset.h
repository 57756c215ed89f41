/*
 * ctrset.h -- a set of named counters sampled repeatedly: the values of
 * one sample, the previous sample, the delta between them and the total
 * of the deltas since the first (baseline) sample. Used for the SNMP MIB
 * counters of one network namespace (/proc/net/snmp, netstat, snmp6),
 * named as nstat names them (TcpExtListenOverflows, UdpInErrors, ...).
 *
 * Values are signed: a few MIB entries are gauges (TcpCurrEstab) or
 * constants (TcpMaxConn = -1), and their "delta" is the net change.
 */
#ifndef RBS_CTRSET_H
#define RBS_CTRSET_H

#include <stddef.h>
#include <stdint.h>

struct rbs_ctr {
	char *name;
	int64_t cur;
	int64_t prev;
	int64_t delta;   /* cur - prev of the last sample */
	int64_t total;   /* sum of the deltas since the baseline */
	unsigned gen;    /* sample in which it was last set */
};

struct rbs_ctrset {
	struct rbs_ctr *v;
	size_t n, cap;
	size_t *slot;    /* open-addressing hash: index + 1, 0 = empty */
	size_t nslot;
	size_t cursor;   /* where the next name is expected (files keep order) */
	unsigned gen;    /* current sample; 0 = none taken yet */
};

void rbs_ctrset_init(struct rbs_ctrset *s);
void rbs_ctrset_free(struct rbs_ctrset *s);

/* Start a sample: every counter set after this belongs to it. */
void rbs_ctrset_begin(struct rbs_ctrset *s);

/* Record name = value in the current sample. A name seen twice in one
 * sample keeps the last value. Returns 0, or -1 with a message. */
int rbs_ctrset_set(struct rbs_ctrset *s, const char *name, int64_t value,
	char *err, size_t errlen);

/* End a sample: compute the deltas. On the first sample (the baseline)
 * every delta is 0. A counter that first appears later counts from 0
 * (delta = its value). A counter missing from this sample keeps its value
 * and gets delta 0. */
void rbs_ctrset_end(struct rbs_ctrset *s);

/* The counter of that name, or NULL. */
const struct rbs_ctr *rbs_ctrset_find(const struct rbs_ctrset *s, const char *name);

#endif /* RBS_CTRSET_H */
