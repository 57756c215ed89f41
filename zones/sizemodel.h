/*
 * sizemodel.h: turn a signed zone into a signature-size model: every DNSKEY
 * and RRSIG keeps its owner, TTL, flags and what it covers, but carries an
 * algorithm of private use (PRIVATEDNS, 253) and a key or signature of a
 * stated size made of the model's name and pseudo-random bytes. The result
 * answers one question, the bytes on the wire of a future algorithm whose
 * keys and signatures have those sizes; it is not a valid signature, and a
 * validator must refuse it.
 */
#ifndef ZONES_SIZEMODEL_H
#define ZONES_SIZEMODEL_H

#include <stddef.h>
#include <stdint.h>
#include <ldns/ldns.h>

/* PRIVATEDNS (RFC 4034, appendix A.1.1): the key and the signature begin
 * with the wire form of a domain name that names the algorithm. */
#define ZONES_SIZEMODEL_ALGORITHM 253

/* One model: the bytes of a public key and of a signature, both counting
 * the name they begin with, so the RDATA field is exactly that long. */
struct zones_sizemodel {
	const char *name;	/* the algorithm's name, e.g. falcon512.size-model.invalid. */
	size_t key_bytes;
	size_t signature_bytes;
	uint64_t seed;		/* same seed, same bytes: rebuilds are identical */
};

/*
 * Apply MODEL to the records of ZONE in place: DNSKEYs first (their new key
 * tags replace the old ones in the RRSIGs that name them), then RRSIGs.
 * Returns LDNS_STATUS_OK, or an error (a size shorter than the name, an
 * RRSIG naming no DNSKEY of the zone) with why in ERR.
 */
ldns_status zones_sizemodel_apply(ldns_zone *zone,
	const struct zones_sizemodel *model, char *err, size_t errlen);

#endif /* ZONES_SIZEMODEL_H */
