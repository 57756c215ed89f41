/*
 * size-model-zone: turn a signed zone file into a signature-size model (see
 * sizemodel.h), for the post-quantum size-model zone variants.
 *
 *   size-model-zone -n NAME -k KEY_BYTES -s SIGNATURE_BYTES [-S SEED]
 *                   -f OUTFILE ZONEFILE
 *
 * NAME names the modelled algorithm (its wire form begins every key and
 * signature); KEY_BYTES and SIGNATURE_BYTES are the whole fields. OUTFILE is
 * written whole or not at all (a temporary file renamed into place).
 */
#include "sizemodel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void
usage(FILE *out)
{
	fprintf(out, "usage: size-model-zone -n NAME -k KEY_BYTES -s SIGNATURE_BYTES "
		"[-S SEED] -f OUTFILE ZONEFILE\n"
		"Gives every DNSKEY and RRSIG of the signed ZONEFILE algorithm 253 and a\n"
		"key or signature of the stated size: a size model, not a valid signature.\n");
}

static int
parse_size(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *s == '\0' || *end != '\0' || v > max)
		return -1;
	*out = v;
	return 0;
}

/* read_zone: PATH as an ldns_zone, or NULL (logged). */
static ldns_zone *
read_zone(const char *path)
{
	FILE *fp = fopen(path, "r");
	ldns_zone *zone = NULL;
	ldns_status st;
	int line = 1;

	if (!fp) {
		fprintf(stderr, "size-model-zone: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	st = ldns_zone_new_frm_fp_l(&zone, fp, NULL, 0, LDNS_RR_CLASS_IN, &line);
	fclose(fp);
	if (st != LDNS_STATUS_OK) {
		fprintf(stderr, "size-model-zone: %s:%d: %s\n", path, line, ldns_get_errorstr_by_id(st));
		return NULL;
	}
	return zone;
}

/* write_zone: ZONE into PATH through PATH.tmp; 0, or -1 (logged). */
static int
write_zone(const ldns_zone *zone, const char *path)
{
	char tmp[4096];
	FILE *fp;
	int bad;

	if ((size_t) snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp) {
		fprintf(stderr, "size-model-zone: %s: path too long\n", path);
		return -1;
	}
	fp = fopen(tmp, "w");
	if (!fp) {
		fprintf(stderr, "size-model-zone: %s: %s\n", tmp, strerror(errno));
		return -1;
	}
	ldns_zone_print(fp, zone);
	bad = ferror(fp);
	if (fclose(fp) != 0 || bad) {
		fprintf(stderr, "size-model-zone: writing %s: %s\n", tmp, strerror(errno));
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) != 0) {
		fprintf(stderr, "size-model-zone: %s: %s\n", path, strerror(errno));
		unlink(tmp);
		return -1;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct zones_sizemodel model = { .name = NULL, .seed = 2016 };
	unsigned long long key = 0, sig = 0, seed = 0;
	const char *out = NULL;
	char err[256];
	ldns_zone *zone;
	int c, rc;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		usage(stdout);
		return 0;
	}
	while ((c = getopt(argc, argv, "n:k:s:S:f:")) != -1) {
		switch (c) {
		case 'n': model.name = optarg; break;
		case 'k':
			if (parse_size(optarg, 65000, &key) != 0 || key == 0) {
				fprintf(stderr, "size-model-zone: -k %s: a key size from 1 to 65000 bytes\n", optarg);
				return 2;
			}
			break;
		case 's':
			if (parse_size(optarg, 65000, &sig) != 0 || sig == 0) {
				fprintf(stderr, "size-model-zone: -s %s: a signature size from 1 to 65000 bytes\n", optarg);
				return 2;
			}
			break;
		case 'S':
			if (parse_size(optarg, UINT64_MAX, &seed) != 0) {
				fprintf(stderr, "size-model-zone: -S %s: not a number\n", optarg);
				return 2;
			}
			model.seed = seed;
			break;
		case 'f': out = optarg; break;
		default: usage(stderr); return 2;
		}
	}
	if (!model.name || !key || !sig || !out || optind != argc - 1) {
		usage(stderr);
		return 2;
	}
	model.key_bytes = (size_t) key;
	model.signature_bytes = (size_t) sig;
	zone = read_zone(argv[optind]);
	if (!zone)
		return 1;
	if (zones_sizemodel_apply(zone, &model, err, sizeof err) != LDNS_STATUS_OK) {
		fprintf(stderr, "size-model-zone: %s: %s\n", argv[optind], err);
		ldns_zone_deep_free(zone);
		return 1;
	}
	rc = write_zone(zone, out) == 0 ? 0 : 1;
	ldns_zone_deep_free(zone);
	return rc;
}
