/*
 * sizemodel.c: a signed zone turned into a signature-size model (see
 * sizemodel.h).
 */
#include "sizemodel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_MAP_MAX 16

struct tag_map {
	uint16_t from[TAG_MAP_MAX];
	uint16_t to[TAG_MAP_MAX];
	size_t n;
};

/* splitmix64: a small, well-mixed generator; the bytes need no secrecy. */
static uint64_t
sizemodel_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* sizemodel_field: NAME's wire form followed by pseudo-random bytes, LEN
 * bytes in all, as a base64 RDATA field; NULL when LEN is shorter than the
 * name or memory runs out. */
static ldns_rdf *
sizemodel_field(const ldns_rdf *name, size_t len, uint64_t *state)
{
	size_t nlen = ldns_rdf_size(name), i;
	uint8_t *buf;
	ldns_rdf *rdf;

	if (len < nlen)
		return NULL;
	buf = malloc(len ? len : 1);
	if (!buf)
		return NULL;
	memcpy(buf, ldns_rdf_data(name), nlen);
	for (i = nlen; i < len; i += 8) {
		uint64_t r = sizemodel_next(state);
		size_t k = len - i < 8 ? len - i : 8;

		memcpy(buf + i, &r, k);
	}
	rdf = ldns_rdf_new_frm_data(LDNS_RDF_TYPE_B64, len, buf);
	free(buf);
	return rdf;
}

/* sizemodel_set: put each of the N fields RDFS[k] at POS[k] of RR, freeing
 * what was there; 0, or -1 when one of them could not be made (all freed,
 * RR untouched). */
static int
sizemodel_set(ldns_rr *rr, ldns_rdf *const *rdfs, const size_t *pos, size_t n)
{
	size_t k;

	for (k = 0; k < n && rdfs[k]; k++)
		;
	if (k < n) {
		for (k = 0; k < n; k++)
			ldns_rdf_deep_free(rdfs[k]);
		return -1;
	}
	for (k = 0; k < n; k++)
		ldns_rdf_deep_free(ldns_rr_set_rdf(rr, rdfs[k], pos[k]));
	return 0;
}

static ldns_status
sizemodel_key(ldns_rr *rr, const ldns_rdf *name, const struct zones_sizemodel *m,
	uint64_t *state, struct tag_map *map, char *err, size_t errlen)
{
	static const size_t pos[2] = { 2, 3 };	/* algorithm, public key */
	uint16_t from = ldns_calc_keytag(rr);
	ldns_rdf *fields[2];

	if (ldns_rr_rd_count(rr) != 4) {
		snprintf(err, errlen, "a DNSKEY with %zu fields", ldns_rr_rd_count(rr));
		return LDNS_STATUS_ERR;
	}
	if (map->n == TAG_MAP_MAX) {
		snprintf(err, errlen, "more than %d DNSKEYs", TAG_MAP_MAX);
		return LDNS_STATUS_ERR;
	}
	fields[0] = ldns_native2rdf_int8(LDNS_RDF_TYPE_ALG, ZONES_SIZEMODEL_ALGORITHM);
	fields[1] = sizemodel_field(name, m->key_bytes, state);
	if (sizemodel_set(rr, fields, pos, 2) != 0) {
		snprintf(err, errlen, "cannot make a %zu-byte key (the name takes %zu)",
			m->key_bytes, ldns_rdf_size(name));
		return LDNS_STATUS_ERR;
	}
	map->from[map->n] = from;
	map->to[map->n] = ldns_calc_keytag(rr);
	map->n++;
	return LDNS_STATUS_OK;
}

static ldns_status
sizemodel_sig(ldns_rr *rr, const ldns_rdf *name, const struct zones_sizemodel *m,
	uint64_t *state, const struct tag_map *map, char *err, size_t errlen)
{
	static const size_t pos[3] = { 1, 6, 8 };	/* algorithm, key tag, signature */
	ldns_rdf *fields[3];
	uint16_t from;
	size_t i;

	if (ldns_rr_rd_count(rr) != 9) {
		snprintf(err, errlen, "an RRSIG with %zu fields", ldns_rr_rd_count(rr));
		return LDNS_STATUS_ERR;
	}
	from = ldns_rdf2native_int16(ldns_rr_rdf(rr, 6));
	for (i = 0; i < map->n && map->from[i] != from; i++)
		;
	if (i == map->n) {
		snprintf(err, errlen, "an RRSIG by key tag %u, which no DNSKEY of the zone has", from);
		return LDNS_STATUS_ERR;
	}
	fields[0] = ldns_native2rdf_int8(LDNS_RDF_TYPE_ALG, ZONES_SIZEMODEL_ALGORITHM);
	fields[1] = ldns_native2rdf_int16(LDNS_RDF_TYPE_INT16, map->to[i]);
	fields[2] = sizemodel_field(name, m->signature_bytes, state);
	if (sizemodel_set(rr, fields, pos, 3) != 0) {
		snprintf(err, errlen, "cannot make a %zu-byte signature (the name takes %zu)",
			m->signature_bytes, ldns_rdf_size(name));
		return LDNS_STATUS_ERR;
	}
	return LDNS_STATUS_OK;
}

ldns_status
zones_sizemodel_apply(ldns_zone *zone, const struct zones_sizemodel *model,
	char *err, size_t errlen)
{
	ldns_rr_list *rrs = ldns_zone_rrs(zone);
	struct tag_map map = { .n = 0 };
	uint64_t state = model->seed;
	ldns_rdf *name = NULL;
	ldns_status st = LDNS_STATUS_OK;
	size_t i;

	if (ldns_str2rdf_dname(&name, model->name) != LDNS_STATUS_OK) {
		snprintf(err, errlen, "'%s' is not a domain name", model->name);
		return LDNS_STATUS_ERR;
	}
	for (i = 0; st == LDNS_STATUS_OK && i < ldns_rr_list_rr_count(rrs); i++) {
		ldns_rr *rr = ldns_rr_list_rr(rrs, i);

		if (ldns_rr_get_type(rr) == LDNS_RR_TYPE_DNSKEY)
			st = sizemodel_key(rr, name, model, &state, &map, err, errlen);
	}
	if (st == LDNS_STATUS_OK && map.n == 0) {
		snprintf(err, errlen, "the zone has no DNSKEY");
		st = LDNS_STATUS_ERR;
	}
	for (i = 0; st == LDNS_STATUS_OK && i < ldns_rr_list_rr_count(rrs); i++) {
		ldns_rr *rr = ldns_rr_list_rr(rrs, i);

		if (ldns_rr_get_type(rr) == LDNS_RR_TYPE_RRSIG)
			st = sizemodel_sig(rr, name, model, &state, &map, err, errlen);
	}
	ldns_rdf_deep_free(name);
	return st;
}
