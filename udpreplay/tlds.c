/*
 * tlds.c -- the delegated TLDs of a root zone file, parsed with ldns.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ldns/ldns.h>
#include "tlds.h"

static int
ur_tlds_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
ur_tlds_add(ur_tlds *t, size_t *cap, const ldns_rdf *owner)
{
	char *s = ldns_rdf2str(owner), *p;
	size_t len;
	if (!s) {
		fprintf(stderr, "cannot print an owner name\n");
		return -1;
	}
	len = strlen(s);
	if (len > 0 && s[len - 1] == '.')
		s[--len] = '\0';
	for (p = s; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	if (t->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 256;
		char **nn = realloc(t->name, ncap * sizeof(*nn));
		if (!nn) {
			fprintf(stderr, "realloc: %s\n", strerror(errno));
			free(s);
			return -1;
		}
		t->name = nn;
		*cap = ncap;
	}
	t->name[t->n++] = s;
	return 0;
}

int
ur_tlds_load(ur_tlds *t, const char *zonefile)
{
	FILE *fp;
	ldns_zone *zone = NULL;
	ldns_rdf *origin;
	ldns_status st;
	int line = 0;
	size_t i, j, cap = 0, count;
	ldns_rr_list *rrs;

	memset(t, 0, sizeof(*t));
	fp = fopen(zonefile, "r");
	if (!fp) {
		fprintf(stderr, "%s: %s\n", zonefile, strerror(errno));
		return -1;
	}
	origin = ldns_dname_new_frm_str(".");
	st = ldns_zone_new_frm_fp_l(&zone, fp, origin, 86400, LDNS_RR_CLASS_IN, &line);
	fclose(fp);
	ldns_rdf_deep_free(origin);
	if (st != LDNS_STATUS_OK) {
		fprintf(stderr, "%s:%d: %s\n", zonefile, line, ldns_get_errorstr_by_id(st));
		return -1;
	}
	rrs = ldns_zone_rrs(zone);
	count = ldns_rr_list_rr_count(rrs);
	for (i = 0; i < count; i++) {
		ldns_rr *rr = ldns_rr_list_rr(rrs, i);
		if (ldns_rr_get_type(rr) != LDNS_RR_TYPE_NS ||
		    ldns_dname_label_count(ldns_rr_owner(rr)) != 1)
			continue;
		if (ur_tlds_add(t, &cap, ldns_rr_owner(rr))) {
			ldns_zone_deep_free(zone);
			ur_tlds_free(t);
			return -1;
		}
	}
	ldns_zone_deep_free(zone);
	qsort(t->name, t->n, sizeof(*t->name), ur_tlds_cmp);
	/* One entry per TLD, not per NS record. */
	for (i = 0, j = 0; i < t->n; i++) {
		if (j > 0 && strcmp(t->name[j - 1], t->name[i]) == 0) {
			free(t->name[i]);
			continue;
		}
		t->name[j++] = t->name[i];
	}
	t->n = j;
	if (t->n == 0) {
		fprintf(stderr, "%s: no TLD delegations (NS records one label below the root)\n", zonefile);
		ur_tlds_free(t);
		return -1;
	}
	return 0;
}

int
ur_tlds_contains(const ur_tlds *t, const char *label, size_t len)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *s = t->name[mid];
		int c = strncasecmp(s, label, len);
		if (c == 0)
			c = s[len] == '\0' ? 0 : 1;
		if (c == 0)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void
ur_tlds_free(ur_tlds *t)
{
	size_t i;
	for (i = 0; i < t->n; i++)
		free(t->name[i]);
	free(t->name);
	t->name = NULL;
	t->n = 0;
}
