/*
 * profile.h -- what share of a generated trace is what: the traffic
 * profile of the generator (NXDOMAIN-to-be share, qtype mix, EDNS, DO,
 * advertised UDP sizes, RD), with the named profiles calibrated to real
 * root traffic (udpreplay/data/root-traffic-stats.md) and parameter
 * overrides.
 */
#ifndef UR_PROFILE_H
#define UR_PROFILE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "rng.h"

#define UR_DIST_MAX 64

/* A discrete distribution over 16-bit values (qtypes or UDP sizes). */
typedef struct ur_dist {
	size_t n;
	uint16_t value[UR_DIST_MAX];
	double weight[UR_DIST_MAX];
	double cum[UR_DIST_MAX];	/* cumulative, normalised to 1 */
} ur_dist;

typedef struct ur_profile {
	const char *name;
	double nx;	/* share of queries for names that do not exist */
	double edns;	/* share of queries with an OPT record */
	double do_nx;	/* share of NXDOMAIN-to-be queries with DO=1 */
	double do_ok;	/* share of the other queries with DO=1 */
	double rd;	/* share of queries with RD=1 */
	ur_dist qtypes;	/* qtype mix of all queries */
	ur_dist sizes;	/* advertised UDP size of queries with EDNS */
} ur_profile;

/* The names of the built-in profiles, NULL-terminated. */
extern const char *const ur_profile_names[];

/* Load a built-in profile by name; -1 (and a message) if unknown. */
int ur_profile_load(ur_profile *p, const char *name);
/*
 * Override one parameter: nxdomain, edns, do, do-nx, do-ok, rd (shares
 * in [0,1]), qtypes ("A=59,AAAA=22.3,..."), sizes ("4096=70,512=3,...").
 * Returns -1 with a message on a bad key or value.
 */
int ur_profile_set(ur_profile *p, const char *key, const char *value);
/* Check the shares are consistent (DO needs EDNS); -1 with a message. */
int ur_profile_check(const ur_profile *p);
/* The overall DO share the profile asks for. */
double ur_profile_do_share(const ur_profile *p);
/* Print the profile as "key value" lines (what the tests compare to). */
void ur_profile_print(const ur_profile *p, FILE *out);

/* Parse "KEY=W,KEY=W" into a distribution; qtype keys by mnemonic. */
int ur_dist_parse_qtypes(ur_dist *d, const char *spec);
int ur_dist_parse_sizes(ur_dist *d, const char *spec);
/* Draw one value. */
uint16_t ur_dist_pick(const ur_dist *d, ur_rng *rng);
/* The normalised share of value v (0 if absent). */
double ur_dist_share(const ur_dist *d, uint16_t v);

#endif
