/*
 * objtab.c -- per-object counters with deltas; see objtab.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "objtab.h"

void
rbs_objtab_init(struct rbs_objtab *t, int ncounters, int ngauges)
{
	memset(t, 0, sizeof(*t));
	t->nc = ncounters < RBS_OBJ_MAXC ? ncounters : RBS_OBJ_MAXC;
	t->ng = ngauges < RBS_OBJ_MAXG ? ngauges : RBS_OBJ_MAXG;
}

void
rbs_objtab_free(struct rbs_objtab *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

void
rbs_objtab_begin(struct rbs_objtab *t)
{
	t->gen++;
}

int
rbs_objtab_update(struct rbs_objtab *t, const char *key, const char *kind, int64_t id,
	const uint64_t *counters, const uint64_t *gauges, char *err, size_t errlen)
{
	struct rbs_obj *o = NULL;
	size_t i;
	int reset = 0, fresh = 0;

	for (i = 0; i < t->n; i++) {
		if (strcmp(t->v[i].key, key) == 0) {
			o = &t->v[i];
			break;
		}
	}
	if (!o) {
		if (t->n == t->cap) {
			size_t cap = t->cap ? t->cap * 2 : 16;
			struct rbs_obj *v = realloc(t->v, cap * sizeof(*v));
			if (!v) {
				snprintf(err, errlen, "object table: %s", strerror(errno));
				return -1;
			}
			t->v = v;
			t->cap = cap;
		}
		o = &t->v[t->n++];
		memset(o, 0, sizeof(*o));
		snprintf(o->key, sizeof(o->key), "%s", key);
		snprintf(o->kind, sizeof(o->kind), "%s", kind ? kind : "");
		o->id = id;
		fresh = 1;
	} else if (o->id != id || strcmp(o->kind, kind ? kind : "") != 0) {
		reset = 1;
		o->id = id;
		snprintf(o->kind, sizeof(o->kind), "%s", kind ? kind : "");
	} else {
		for (i = 0; i < (size_t)t->nc; i++)
			if (counters[i] < o->prev[i])
				reset = 1;
	}
	if (reset)
		o->resets++;
	for (i = 0; i < (size_t)t->nc; i++) {
		uint64_t base;
		if (fresh)
			base = t->gen == 1 ? counters[i] : 0;   /* baseline, or new since */
		else
			base = reset ? 0 : o->prev[i];
		o->delta[i] = counters[i] - base;
		o->total[i] += o->delta[i];
		o->prev[i] = counters[i];
	}
	o->gauge_changed = fresh;
	for (i = 0; i < (size_t)t->ng; i++) {
		uint64_t g = gauges ? gauges[i] : 0;
		if (!fresh && g != o->gauge[i])
			o->gauge_changed = 1;
		o->gauge_prev[i] = fresh ? g : o->gauge[i];
		o->gauge[i] = g;
		if (g > o->gauge_max[i])
			o->gauge_max[i] = g;
	}
	o->gen = t->gen;
	return 0;
}

int
rbs_obj_present(const struct rbs_objtab *t, const struct rbs_obj *o)
{
	return o->gen == t->gen;
}

int
rbs_obj_changed(const struct rbs_objtab *t, const struct rbs_obj *o)
{
	int i;
	if (o->gen != t->gen)
		return 0;
	if (o->gauge_changed)
		return 1;
	for (i = 0; i < t->nc; i++)
		if (o->delta[i])
			return 1;
	return 0;
}
