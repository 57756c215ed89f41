/*
 * optout.h: NSEC3 opt-out signing of a zone (RFC 5155, section 6).
 */
#ifndef ZONES_OPTOUT_H
#define ZONES_OPTOUT_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <ldns/ldns.h>

/* NSEC3 parameters of a signing run. */
struct zones_nsec3_params {
	uint16_t iterations;
	uint8_t salt_length;
	uint8_t *salt;
	uint32_t nsec3param_ttl;
};

/*
 * Sign ZONE with KEYS (KSKs sign the DNSKEY RRset, ZSKs the rest, as
 * ldns-signzone does) using NSEC3 with opt-out: insecure delegations (NS
 * without DS) get no NSEC3 record, and every NSEC3 has the opt-out flag.
 * The DNSKEY records must already be in the zone. On success *OMITTED is
 * the number of insecure delegations left out of the chain.
 */
ldns_status zones_optout_sign(ldns_dnssec_zone *zone, ldns_key_list *keys,
	const struct zones_nsec3_params *params, size_t *omitted);

/*
 * Read the zone to sign from FP: NULL, with why in ERR (":LINE: error" or
 * ": no SOA record", to follow the file's name), when ldns cannot read it
 * or it has no SOA.
 */
ldns_dnssec_zone *zones_zone_read(FILE *fp, char *err, size_t errlen);

#endif /* ZONES_OPTOUT_H */
