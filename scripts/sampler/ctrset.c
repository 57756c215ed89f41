/*
 * ctrset.c -- named counters with deltas and totals; see ctrset.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ctrset.h"

static size_t
name_hash(const char *s)
{
	size_t h = 5381;
	for (; *s; s++)
		h = h * 33 + (unsigned char)*s;
	return h;
}

void
rbs_ctrset_init(struct rbs_ctrset *s)
{
	memset(s, 0, sizeof(*s));
}

void
rbs_ctrset_free(struct rbs_ctrset *s)
{
	size_t i;
	for (i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	free(s->slot);
	memset(s, 0, sizeof(*s));
}

static long
find_index(const struct rbs_ctrset *s, const char *name)
{
	size_t i;
	if (s->cursor < s->n && strcmp(s->v[s->cursor].name, name) == 0)
		return (long)s->cursor;
	if (!s->nslot)
		return -1;
	for (i = name_hash(name) & (s->nslot - 1); s->slot[i]; i = (i + 1) & (s->nslot - 1)) {
		if (strcmp(s->v[s->slot[i] - 1].name, name) == 0)
			return (long)(s->slot[i] - 1);
	}
	return -1;
}

static int
rehash(struct rbs_ctrset *s, size_t nslot)
{
	size_t *slot = calloc(nslot, sizeof(*slot));
	size_t i, j;
	if (!slot)
		return -1;
	for (i = 0; i < s->n; i++) {
		for (j = name_hash(s->v[i].name) & (nslot - 1); slot[j]; j = (j + 1) & (nslot - 1))
			;
		slot[j] = i + 1;
	}
	free(s->slot);
	s->slot = slot;
	s->nslot = nslot;
	return 0;
}

static long
add_counter(struct rbs_ctrset *s, const char *name)
{
	struct rbs_ctr *c;
	size_t j;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct rbs_ctr *v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	if ((s->n + 1) * 2 > s->nslot && rehash(s, s->nslot ? s->nslot * 2 : 128) < 0)
		return -1;
	c = &s->v[s->n];
	memset(c, 0, sizeof(*c));
	if (!(c->name = strdup(name)))
		return -1;
	for (j = name_hash(name) & (s->nslot - 1); s->slot[j]; j = (j + 1) & (s->nslot - 1))
		;
	s->slot[j] = s->n + 1;
	return (long)s->n++;
}

void
rbs_ctrset_begin(struct rbs_ctrset *s)
{
	s->gen++;
	s->cursor = 0;
}

int
rbs_ctrset_set(struct rbs_ctrset *s, const char *name, int64_t value,
	char *err, size_t errlen)
{
	long i = find_index(s, name);
	struct rbs_ctr *c;
	if (i < 0 && (i = add_counter(s, name)) < 0) {
		snprintf(err, errlen, "counter table: %s", strerror(errno));
		return -1;
	}
	c = &s->v[i];
	if (c->gen == 0) {
		/* New counter: the baseline has it as is; later ones count from 0. */
		c->prev = s->gen == 1 ? value : 0;
	}
	c->cur = value;
	c->gen = s->gen;
	s->cursor = (size_t)i + 1;
	return 0;
}

void
rbs_ctrset_end(struct rbs_ctrset *s)
{
	size_t i;
	for (i = 0; i < s->n; i++) {
		struct rbs_ctr *c = &s->v[i];
		if (c->gen != s->gen) {
			c->delta = 0;
			continue;
		}
		c->delta = c->cur - c->prev;
		c->total += c->delta;
		c->prev = c->cur;
	}
}

const struct rbs_ctr *
rbs_ctrset_find(const struct rbs_ctrset *s, const char *name)
{
	long i = find_index(s, name);
	return i < 0 ? NULL : &s->v[i];
}
