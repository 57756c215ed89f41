/*
 * tlds.h -- the TLDs the served root zone delegates, read from the zone
 * file with ldns: the generator draws existing names under them and
 * makes sure its junk names are not under any of them.
 */
#ifndef UR_TLDS_H
#define UR_TLDS_H

#include <stddef.h>

typedef struct ur_tlds {
	size_t n;
	char **name;	/* lower case, no trailing dot, sorted */
} ur_tlds;

/* Read the delegated TLDs (owners of NS RRsets one label below the root). */
int ur_tlds_load(ur_tlds *t, const char *zonefile);
/* Is label (case-insensitive, no dot) a delegated TLD? */
int ur_tlds_contains(const ur_tlds *t, const char *label, size_t len);
void ur_tlds_free(ur_tlds *t);

#endif
