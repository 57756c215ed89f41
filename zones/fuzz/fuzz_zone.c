/*
 * fuzz_zone.c -- libFuzzer harness for the C part of zones/build-zones'
 * input check: the zone readers that decide whether a ROOT_ZONE is a
 * zone at all.
 *
 * build-zones checks its input in shell: ldns-read-zone must read it
 * ("not a valid zone file"), then awk rules on ldns-read-zone's output
 * (the SOA owner is the root, there are delegations); the synthesised
 * root is read by ldns-read-zone again, and nsec3-optout-sign reads the
 * zone it signs with zones_zone_read (zones/optout.c). The awk rules run
 * in their own processes and cannot be called in-process; they are held
 * by zones/tests/20-bad-input.test. What runs in C is fuzzed here.
 *
 * Input: a zone file. What must hold, else the harness aborts:
 *  - ldns_zone_new_frm_fp_l (ldns-read-zone's reader) either fails or
 *    gives a zone whose printed form (what build-zones' awk rules read)
 *    has one line per record, SOA first, with the record's owner in
 *    column 1 and its type in column 4, as those rules assume;
 *  - zones_zone_read returns a zone with an SOA, or NULL with a message;
 *    a zone it accepts has an SOA that ldns-read-zone's reader finds too
 *    when that reader accepts the file.
 * A text with two SOA records is not read (soa_words: ldns' reader uses
 * a freed record then). ASan/UBSan catch memory errors in our code and
 * what they can see of the readers (ldns is not instrumented). Leaks
 * are not checked (make fuzz runs this harness with -detect_leaks=0):
 * ldns_zone_new_frm_fp_l itself leaks records on some zones (the root
 * zone's first 22 lines, ldns 1.8.3), which only costs ldns-read-zone, a
 * short-lived process, memory.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ldns/ldns.h>
#include "../optout.h"

#define FUZZ_NAME "fuzz_zone"
#include "../../analysis/lib/fuzz.h"

/* read_zone: ldns_zone_new_frm_fp_l on buf[0..n) */
static ldns_status
read_zone(const char *buf, size_t n, ldns_zone **z)
{
	FILE *fp = fmemopen((void *)buf, n, "r");
	ldns_status st;
	int line = 0;

	*z = NULL;
	if (!fp)
		abort();
	st = ldns_zone_new_frm_fp_l(z, fp, NULL, 0, LDNS_RR_CLASS_IN, &line);
	fclose(fp);
	return st;
}

/* check_columns: build-zones' awk rules read ldns-read-zone's output by
 * columns -- $1 the owner, $4 the type (the SOA owner must be ".", an NS
 * with another owner is a delegation). Whatever zone ldns accepts, its
 * printed form must give each record's owner and type in those columns,
 * in order, SOA first. */
static void
check_columns(const ldns_zone *z)
{
	char *text = NULL, *line, *save = NULL;
	size_t len = 0, i = 0, n = ldns_zone_rr_count(z);
	FILE *out = open_memstream(&text, &len);

	if (!out)
		abort();
	ldns_zone_print(out, z);
	fclose(out);
	for (line = strtok_r(text, "\n", &save); line;
	    line = strtok_r(NULL, "\n", &save)) {
		char *f[4], *fs = NULL, *owner, *type;
		const ldns_rr *rr;
		int k;
		if (line[0] == ';' || line[strspn(line, " \t")] == 0)
			continue;	/* comments and blank lines: awk skips
					 * no line, but no rule matches them */
		rr = ldns_zone_soa(z) ? (i == 0 ? ldns_zone_soa(z) :
			ldns_rr_list_rr(ldns_zone_rrs(z), i - 1)) :
			ldns_rr_list_rr(ldns_zone_rrs(z), i);
		FUZZ_CHECK(rr != NULL, "a printed line per record");
		for (k = 0; k < 4; k++)
			f[k] = strtok_r(k ? NULL : line, " \t", &fs);
		FUZZ_CHECK(f[3] != NULL, "four columns");
		owner = ldns_rdf2str(ldns_rr_owner(rr));
		type = ldns_rr_type2str(ldns_rr_get_type(rr));
		FUZZ_CHECK(owner && strcmp(f[0], owner) == 0, "$1 is the owner");
		FUZZ_CHECK(type && strcmp(f[3], type) == 0, "$4 is the type");
		free(owner);
		free(type);
		i++;
	}
	FUZZ_CHECK(i == n + (ldns_zone_soa(z) ? 1 : 0), "every record printed");
	free(text);
}

/* soa_words: "SOA" or "TYPE6" (any case) in the text, a bound on the SOA
 * records it can hold. ldns_zone_new_frm_fp_l frees a second SOA but
 * keeps it as the previous record, whose owner it then compares with the
 * next record's (ldns 1.8.3 zone.c: a use after free, a SEGV here): a
 * text that may hold two SOAs is not given to the readers. */
static unsigned
soa_words(const uint8_t *d, size_t n)
{
	unsigned k = 0;
	size_t i;
	for (i = 0; i + 3 <= n; i++) {
		if ((d[i] | 0x20) == 's' && (d[i + 1] | 0x20) == 'o' &&
		    (d[i + 2] | 0x20) == 'a')
			k++;
		else if (i + 5 <= n && (d[i] | 0x20) == 't' &&
		    (d[i + 1] | 0x20) == 'y' && (d[i + 2] | 0x20) == 'p' &&
		    (d[i + 3] | 0x20) == 'e' && d[i + 4] == '6')
			k++;
	}
	return k;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ldns_zone *z = NULL;
	ldns_dnssec_zone *dz;
	ldns_status st;
	char err[512];
	FILE *fp;

	if (soa_words(data, size) >= 2)
		return 0;
	st = read_zone((const char *)data, size, &z);
	if (st == LDNS_STATUS_OK)
		check_columns(z);

	fp = fmemopen((void *)data, size ? size : 1, "r");
	if (!fp)
		abort();
	err[0] = 0;
	dz = zones_zone_read(fp, err, sizeof(err));
	fclose(fp);
	if (dz) {
		FUZZ_CHECK(dz->soa != NULL, "an accepted zone has an SOA");
		if (st == LDNS_STATUS_OK)
			FUZZ_CHECK(ldns_zone_soa(z) != NULL,
				"both readers find the SOA");
		ldns_dnssec_zone_deep_free(dz);
	} else {
		FUZZ_CHECK(err[0] != 0, "a refused zone has a message");
	}
	if (z)
		ldns_zone_deep_free(z);
	return 0;
}
