/*
 * optout.c: NSEC3 opt-out signing of a zone (RFC 5155, section 6), on top
 * of ldns. `ldns-signzone -n -p` only sets the opt-out flag: it still gives
 * every insecure delegation an NSEC3 record, so its zone is as large as a
 * plain NSEC3 one. Opt-out exists to leave those records out; this module
 * does that by hiding the insecure delegations from the NSEC3 chain
 * builder and the signer, which skip glue, while ldns does the rest.
 */
#include "optout.h"

#include <stdbool.h>
#include <stdlib.h>

/* An insecure delegation: NS and no DS, below the apex, not itself glue. */
static bool
zones_name_is_insecure_delegation(const ldns_dnssec_name *name)
{
	return !name->is_glue
		&& ldns_dnssec_rrsets_contains_type(name->rrsets, LDNS_RR_TYPE_NS)
		&& !ldns_dnssec_rrsets_contains_type(name->rrsets, LDNS_RR_TYPE_SOA)
		&& !ldns_dnssec_rrsets_contains_type(name->rrsets, LDNS_RR_TYPE_DS);
}

/* Mark the insecure delegations as glue, which the NSEC3 chain builder and
 * the signer skip; returns how many. */
static size_t
zones_optout_hide_insecure(ldns_dnssec_zone *zone)
{
	ldns_rbnode_t *node;
	ldns_dnssec_name *name;
	size_t n = 0;

	for (node = ldns_rbtree_first(zone->names); node != LDNS_RBTREE_NULL;
	     node = ldns_rbtree_next(node)) {
		name = (ldns_dnssec_name *) node->data;
		if (zones_name_is_insecure_delegation(name)) {
			name->is_glue = true;
			n++;
		}
	}
	return n;
}

static ldns_status
zones_optout_add_nsec3param(ldns_dnssec_zone *zone,
	const struct zones_nsec3_params *params)
{
	ldns_rr *rr;
	ldns_status st;

	rr = ldns_rr_new_frm_type(LDNS_RR_TYPE_NSEC3PARAM);
	if (!rr)
		return LDNS_STATUS_MEM_ERR;
	ldns_rr_set_owner(rr, ldns_rdf_clone(zone->soa->name));
	ldns_rr_set_ttl(rr, params->nsec3param_ttl);
	/* the NSEC3PARAM flags field is 0: opt-out is a property of the
	 * NSEC3 records, not of the parameters (RFC 5155, section 4.1.2) */
	ldns_nsec3_add_param_rdfs(rr, LDNS_SHA1, 0, params->iterations,
		params->salt_length, params->salt);
	st = ldns_dnssec_zone_add_rr(zone, rr);
	if (st != LDNS_STATUS_OK)
		ldns_rr_free(rr);
	return st;
}

ldns_status
zones_optout_sign(ldns_dnssec_zone *zone, ldns_key_list *keys,
	const struct zones_nsec3_params *params, size_t *omitted)
{
	ldns_rr_list *new_rrs;
	ldns_status st;

	if (!zone || !zone->soa || !keys)
		return LDNS_STATUS_ERR;
	st = ldns_dnssec_zone_mark_glue(zone);
	if (st != LDNS_STATUS_OK)
		return st;
	st = ldns_dnssec_zone_add_empty_nonterminals(zone);
	if (st != LDNS_STATUS_OK)
		return st;
	st = zones_optout_add_nsec3param(zone, params);
	if (st != LDNS_STATUS_OK)
		return st;

	*omitted = zones_optout_hide_insecure(zone);
	new_rrs = ldns_rr_list_new();
	if (!new_rrs)
		return LDNS_STATUS_MEM_ERR;
	st = ldns_dnssec_zone_create_nsec3s(zone, new_rrs, LDNS_SHA1,
		LDNS_NSEC3_VARS_OPTOUT_MASK, params->iterations,
		params->salt_length, params->salt);
	/* the signer skips glue too: the hidden delegations have nothing to
	 * sign (delegation NS RRsets are never signed, and there is no DS) */
	if (st == LDNS_STATUS_OK)
		st = ldns_dnssec_zone_create_rrsigs_flg(zone, new_rrs, keys,
			ldns_dnssec_default_replace_signatures, NULL, 0);
	/* the new records belong to the zone now; only the list goes */
	ldns_rr_list_free(new_rrs);
	return st;
}

ldns_dnssec_zone *
zones_zone_read(FILE *fp, char *err, size_t errlen)
{
	ldns_dnssec_zone *zone = NULL;
	ldns_status st;
	int line = 0;

	st = ldns_dnssec_zone_new_frm_fp_l(&zone, fp, NULL, 0, LDNS_RR_CLASS_IN, &line);
	if (st != LDNS_STATUS_OK) {
		snprintf(err, errlen, ":%d: %s", line, ldns_get_errorstr_by_id(st));
		return NULL;
	}
	if (!zone->soa) {
		snprintf(err, errlen, ": no SOA record");
		ldns_dnssec_zone_deep_free(zone);
		return NULL;
	}
	return zone;
}
