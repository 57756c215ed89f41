/*
 * nsec3-optout-sign: sign a zone with NSEC3 opt-out (see optout.c), for the
 * nsec3-optout zone variant that ldns-signzone cannot make.
 *
 *   nsec3-optout-sign -i INCEPTION -e EXPIRATION [-t ITERATIONS] [-s SALT]
 *                     -f OUTFILE ZONEFILE KEY...
 *
 * INCEPTION and EXPIRATION are seconds since the epoch; SALT is hex or "-"
 * (none, the default). KEY is a key's base name (K<name>+<alg>+<id>): its
 * .private file is the key, its .key file gives the flags (KSK or ZSK); its
 * DNSKEY record must be in the zone. OUTFILE is written whole or not at
 * all (a temporary file renamed into place).
 */
#include "optout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
usage_to(FILE *out)
{
	fprintf(out, "usage: nsec3-optout-sign -i INCEPTION -e EXPIRATION "
		"[-t ITERATIONS] [-s SALT] -f OUTFILE ZONEFILE KEY...\n"
		"Signs ZONEFILE with NSEC3 opt-out (insecure delegations left out\n"
		"of the chain) with the KEY files; zones/build-zones runs it.\n");
}

static void
usage(void)
{
	usage_to(stderr);
}

static int
parse_u32(const char *s, uint32_t *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *s == '\0' || *end != '\0' || v > UINT32_MAX)
		return -1;
	*out = (uint32_t) v;
	return 0;
}

/* read_zone: the zone file as an ldns_dnssec_zone, or NULL (logged). */
static ldns_dnssec_zone *
read_zone(const char *path)
{
	FILE *fp;
	ldns_dnssec_zone *zone = NULL;
	char err[512];

	fp = fopen(path, "r");
	if (!fp) {
		fprintf(stderr, "nsec3-optout-sign: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	zone = zones_zone_read(fp, err, sizeof(err));
	fclose(fp);
	if (!zone)
		fprintf(stderr, "nsec3-optout-sign: %s%s\n", path, err);
	return zone;
}

/* read_key: the key BASE (.private, flags and key tag from .key), or NULL. */
static ldns_key *
read_key(const char *base, const ldns_rdf *origin, uint32_t inception,
	uint32_t expiration)
{
	char path[4096];
	FILE *fp;
	ldns_key *key = NULL;
	ldns_rr *pub = NULL;
	ldns_status st;

	snprintf(path, sizeof(path), "%s.private", base);
	if (!(fp = fopen(path, "r"))) {
		fprintf(stderr, "nsec3-optout-sign: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	st = ldns_key_new_frm_fp(&key, fp);
	fclose(fp);
	if (st != LDNS_STATUS_OK) {
		fprintf(stderr, "nsec3-optout-sign: %s: %s\n", path, ldns_get_errorstr_by_id(st));
		return NULL;
	}
	snprintf(path, sizeof(path), "%s.key", base);
	if (!(fp = fopen(path, "r"))) {
		fprintf(stderr, "nsec3-optout-sign: %s: %s\n", path, strerror(errno));
		ldns_key_deep_free(key);
		return NULL;
	}
	st = ldns_rr_new_frm_fp(&pub, fp, NULL, NULL, NULL);
	fclose(fp);
	if (st != LDNS_STATUS_OK || ldns_rr_get_type(pub) != LDNS_RR_TYPE_DNSKEY) {
		fprintf(stderr, "nsec3-optout-sign: %s: not a DNSKEY record\n", path);
		if (pub)
			ldns_rr_free(pub);
		ldns_key_deep_free(key);
		return NULL;
	}
	ldns_key_set_flags(key, ldns_rdf2native_int16(ldns_rr_dnskey_flags(pub)));
	ldns_key_set_keytag(key, ldns_calc_keytag(pub));
	ldns_key_set_pubkey_owner(key, ldns_rdf_clone(origin));
	ldns_key_set_inception(key, inception);
	ldns_key_set_expiration(key, expiration);
	ldns_rr_free(pub);
	return key;
}

/* write_zone: ZONE to PATH through a temporary file; 0 or -1 (logged). */
static int
write_zone(const ldns_dnssec_zone *zone, const char *path)
{
	char tmp[4096];
	FILE *fp;

	snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long) getpid());
	if (!(fp = fopen(tmp, "w"))) {
		fprintf(stderr, "nsec3-optout-sign: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	ldns_dnssec_zone_print_fmt(fp, ldns_output_format_nocomments, zone);
	if (ferror(fp) | (fclose(fp) != 0)) {
		fprintf(stderr, "nsec3-optout-sign: writing %s: %s\n", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) != 0) {
		fprintf(stderr, "nsec3-optout-sign: rename %s: %s\n", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct zones_nsec3_params params = { 0, 0, NULL, 3600 };
	uint32_t inception = 0, expiration = 0, iterations = 0;
	const char *out = NULL, *salt_hex = "-";
	ldns_dnssec_zone *zone;
	ldns_key_list *keys;
	ldns_key *key;
	ldns_status st;
	size_t omitted = 0;
	int c, i, rc = 1;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage_to(stdout);
		return 0;
	}
	while ((c = getopt(argc, argv, "i:e:t:s:f:")) != -1) {
		switch (c) {
		case 'i': if (parse_u32(optarg, &inception)) { usage(); return 2; } break;
		case 'e': if (parse_u32(optarg, &expiration)) { usage(); return 2; } break;
		case 't': if (parse_u32(optarg, &iterations) || iterations > 65535) { usage(); return 2; } break;
		case 's': salt_hex = optarg; break;
		case 'f': out = optarg; break;
		default: usage(); return 2;
		}
	}
	if (!out || !inception || expiration <= inception || argc - optind < 2) {
		usage();
		return 2;
	}
	params.iterations = (uint16_t) iterations;
	if (strcmp(salt_hex, "-") != 0) {
		size_t n = strlen(salt_hex);
		if (n == 0 || n % 2 || n > 510) {
			fprintf(stderr, "nsec3-optout-sign: salt '%s' is not hex of 1..255 octets\n", salt_hex);
			return 2;
		}
		params.salt = malloc(n / 2);
		if (!params.salt) {
			fprintf(stderr, "nsec3-optout-sign: %s\n", strerror(errno));
			return 1;
		}
		for (size_t k = 0; k < n / 2; k++) {
			unsigned v;
			if (sscanf(salt_hex + 2 * k, "%2x", &v) != 1) {
				fprintf(stderr, "nsec3-optout-sign: salt '%s' is not hex\n", salt_hex);
				free(params.salt);
				return 2;
			}
			params.salt[k] = (uint8_t) v;
		}
		params.salt_length = (uint8_t) (n / 2);
	}

	if (!(zone = read_zone(argv[optind]))) {
		free(params.salt);
		return 1;
	}
	keys = ldns_key_list_new();
	for (i = optind + 1; keys && i < argc; i++) {
		if (!(key = read_key(argv[i], zone->soa->name, inception, expiration)))
			goto out;
		ldns_key_list_push_key(keys, key);
	}
	st = zones_optout_sign(zone, keys, &params, &omitted);
	if (st != LDNS_STATUS_OK) {
		fprintf(stderr, "nsec3-optout-sign: signing %s: %s\n", argv[optind],
			ldns_get_errorstr_by_id(st));
		goto out;
	}
	if (write_zone(zone, out) == 0) {
		fprintf(stderr, "nsec3-optout-sign: %s: %zu insecure delegations opted out\n",
			argv[optind], omitted);
		rc = 0;
	}
out:
	if (keys)
		ldns_key_list_free(keys);
	ldns_dnssec_zone_deep_free(zone);
	free(params.salt);
	return rc;
}
