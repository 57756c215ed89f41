/*
 * qgen.h -- one synthetic root query at a time: a name that exists under
 * a served TLD or junk that looks like real junk, a qtype, EDNS/DO/RD
 * flags and an advertised UDP size, drawn from a traffic profile.
 */
#ifndef UR_QGEN_H
#define UR_QGEN_H

#include <stdint.h>
#include <ldns/ldns.h>
#include "profile.h"
#include "rng.h"
#include "tlds.h"

typedef struct ur_query {
	char qname[LDNS_MAX_DOMAINLEN + 2];	/* presentation form, trailing dot */
	uint16_t qtype;
	uint16_t udp_size;	/* 0: no EDNS */
	int edns, do_bit, rd;
	int nx;		/* the name is not under a served TLD */
} ur_query;

typedef struct ur_qgen {
	const ur_profile *profile;
	const ur_tlds *tlds;
	int has_arpa;
	ur_rng rng;
} ur_qgen;

void ur_qgen_init(ur_qgen *g, const ur_profile *p, const ur_tlds *t, uint64_t seed);
/* Draw the next query; -1 if no junk name outside the zone could be made. */
int ur_qgen_next(ur_qgen *g, ur_query *q);
/* The last label of a presentation-form name (the TLD); len 0 for the root. */
const char *ur_qname_tld(const char *qname, size_t *len);
/* Build the query message (ldns packet) for q with the given ID. */
ldns_pkt *ur_query_pkt(const ur_query *q, uint16_t id);

#endif
