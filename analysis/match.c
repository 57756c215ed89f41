/*
 * match.c -- query/response pairing table. See match.h.
 */
#include "match.h"

#include <stdlib.h>
#include <string.h>

int
ds_match_init(struct ds_match *m, unsigned bits)
{
	m->tab = calloc((size_t)1 << bits, sizeof(*m->tab));
	if (!m->tab)
		return -1;
	m->mask = ((size_t)1 << bits) - 1;
	return 0;
}

static size_t
slot_of(int family, const uint8_t *addr, uint16_t port, uint16_t id)
{
	uint32_t h = 2166136261u;
	size_t i, n = family == 6 ? 16 : 4;
	for (i = 0; i < n; i++)
		h = (h ^ addr[i]) * 16777619u;
	h = (h ^ port) * 16777619u;
	h = (h ^ id) * 16777619u;
	return h ^ (h >> 15);
}

void
ds_match_query(struct ds_match *m, int family, const uint8_t *addr,
	uint16_t port, uint16_t id, int has_opt, int do_bit)
{
	struct ds_match_entry *e = &m->tab[slot_of(family, addr, port, id) &
		m->mask];
	e->used = 1;
	e->family = (uint8_t)family;
	e->has_opt = has_opt ? 1 : 0;
	e->do_bit = do_bit ? 1 : 0;
	e->port = port;
	e->id = id;
	memset(e->addr, 0, sizeof(e->addr));
	memcpy(e->addr, addr, family == 6 ? 16 : 4);
}

int
ds_match_response(struct ds_match *m, int family, const uint8_t *addr,
	uint16_t port, uint16_t id, int *has_opt, int *do_bit)
{
	struct ds_match_entry *e = &m->tab[slot_of(family, addr, port, id) &
		m->mask];
	if (!e->used || e->family != family || e->port != port || e->id != id ||
	    memcmp(e->addr, addr, family == 6 ? 16 : 4) != 0)
		return 0;
	*has_opt = e->has_opt;
	*do_bit = e->do_bit;
	e->used = 0;
	return 1;
}

void
ds_match_free(struct ds_match *m)
{
	free(m->tab);
	m->tab = NULL;
}
