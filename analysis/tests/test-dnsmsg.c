/*
 * test-dnsmsg.c -- unit test of dnsmsg.c. What must hold: for queries and
 * responses built with ldns (with and without OPT, DO=0/1, several RRs in
 * every section, name compression) the fast scan and the full
 * ldns_wire2pkt parse report the same id, QR, rcode, qtype, OPT presence,
 * DO bit and UDP size, equal to what was built; every truncation of such a
 * message is an error of the fast scan (never a read past the end: ASan),
 * and a short header is RB_BAD_DNS_HEADER. Sections: both count the
 * records built into each section by kind (answer AAAA; authority 2 NS;
 * additional A, TXT and the OPT), and the bytes per section add up to the
 * message minus its header and question.
 *
 * The name walker ds_dnsmsg_name_skip, on crafted names: the root name, a
 * compression pointer (offset just past the pointer, not past what it
 * points to), a name of exactly 255 bytes (in place and through a
 * pointer) accepted, 256 bytes (in place and through a pointer) rejected,
 * every truncation of a good name rejected, label types 0x40 and 0x80
 * rejected, pointers to offset 0, past the end and in a loop rejected,
 * *pos untouched on failure. Then a differential check against
 * ldns_wire2dname on pseudo-random names (same verdict, same offset), which
 * must see every kind of verdict, and must catch a walker that does not
 * follow pointers (negative control).
 */
#include <stdlib.h>
#include <string.h>
#include <ldns/ldns.h>
#include "../dnsmsg.h"
#include "../lib/unittest.h"
#include "../../udpreplay/rng.h"

static void
add_rr(ldns_pkt *p, ldns_pkt_section sec, const char *text)
{
	ldns_rr *rr = NULL;
	if (ldns_rr_new_frm_str(&rr, text, 3600, NULL, NULL) != LDNS_STATUS_OK) {
		fprintf(stderr, "bad test RR %s\n", text);
		exit(2);
	}
	ldns_pkt_push_rr(p, sec, rr);
}

/* build: a message of the given shape, to wire (caller frees) */
static uint8_t *
build(int qr, int rcode, int edns, int do_bit, uint16_t udp, int rrs,
	size_t *len)
{
	ldns_pkt *p = NULL;
	uint8_t *wire = NULL;
	if (ldns_pkt_query_new_frm_str(&p, "example.com.", LDNS_RR_TYPE_AAAA,
		LDNS_RR_CLASS_IN, 0) != LDNS_STATUS_OK)
		exit(2);
	ldns_pkt_set_id(p, 0x1234);
	ldns_pkt_set_qr(p, qr);
	ldns_pkt_set_rcode(p, (uint8_t)rcode);
	if (edns) {
		ldns_pkt_set_edns_udp_size(p, udp);
		ldns_pkt_set_edns_do(p, do_bit);
		ldns_pkt_set_edns_data(p, NULL);
	}
	if (rrs) {
		add_rr(p, LDNS_SECTION_ANSWER, "example.com. AAAA 2001:2::53");
		add_rr(p, LDNS_SECTION_AUTHORITY, "com. NS a.gtld-servers.net.");
		add_rr(p, LDNS_SECTION_AUTHORITY, "com. NS b.gtld-servers.net.");
		add_rr(p, LDNS_SECTION_ADDITIONAL,
			"a.gtld-servers.net. A 198.18.0.1");
		add_rr(p, LDNS_SECTION_ADDITIONAL,
			"b.gtld-servers.net. TXT \"hello\" \"world\"");
	}
	if (ldns_pkt2wire(&wire, p, len) != LDNS_STATUS_OK)
		exit(2);
	ldns_pkt_free(p);
	return wire;
}

/* walk: ds_dnsmsg_name_skip from start; the end offset or -1 (then *pos
 * must be untouched) */
static long
walk(const uint8_t *wire, size_t len, size_t start)
{
	size_t pos = start;
	if (ds_dnsmsg_name_skip(wire, len, &pos) != 0) {
		UT_EQ(pos, start);
		return -1;
	}
	return (long)pos;
}

/* put_labels: labels of the given lengths (filled with 'a') at w[at..],
 * then the terminal zero unless term is 0; returns the offset after. */
static size_t
put_labels(uint8_t *w, size_t at, const int *lens, size_t n, int term)
{
	size_t i;
	for (i = 0; i < n; i++) {
		w[at++] = (uint8_t)lens[i];
		memset(w + at, 'a', (size_t)lens[i]);
		at += (size_t)lens[i];
	}
	if (term)
		w[at++] = 0;
	return at;
}

static void
test_name_skip(void)
{
	uint8_t w[1024];
	size_t end, cut;
	static const int max255[] = { 63, 63, 63, 61 };	/* 254 + root */
	static const int over256[] = { 63, 63, 63, 62 };
	static const int suffix[] = { 63, 63, 63 };	/* 192 + root */
	static const int pre62[] = { 61 }, pre63[] = { 62 };	/* bytes */

	memset(w, 0xee, sizeof(w));
	memset(w, 0, 12);

	/* the root name, followed by bytes that are not part of it */
	w[12] = 0;
	UT_EQ(walk(w, 20, 12), 13);

	/* example.com at 12..25, www+pointer at 25..31, pointer to a
	 * pointer at 31..33; then 0x05 and more bytes that must not be read
	 * as part of the name */
	memcpy(w + 12, "\7example\3com\0", 13);
	memcpy(w + 25, "\3www\xc0\x0c", 6);
	memcpy(w + 31, "\xc0\x19", 2);
	memcpy(w + 33, "\x05" "abcde\0", 7);
	UT_EQ(walk(w, 40, 12), 25);
	UT_EQ(walk(w, 40, 25), 31);
	UT_EQ(walk(w, 40, 31), 33);
	/* every truncation of the message inside a name is an error */
	for (cut = 13; cut < 25; cut++)
		UT_EQ(walk(w, cut, 12), -1);
	for (cut = 26; cut < 31; cut++)
		UT_EQ(walk(w, cut, 25), -1);
	UT_EQ(walk(w, 32, 31), -1);
	/* a message may end right after a pointer; a label the pointer
	 * leads to may not run past the end */
	UT_EQ(walk(w, 33, 31), 33);
	w[12] = 30;			/* "example" now claims 30 bytes */
	UT_EQ(walk(w, 40, 31), -1);
	UT_EQ(walk(w, 40, 25), -1);
	w[12] = 7;
	/* no terminal zero before the end of the message */
	UT_EQ(walk(w, 39, 33), -1);
	UT_EQ(walk(w, 40, 33), 40);

	/* label types 0x40 (extended) and 0x80 (reserved), after a plain
	 * label: rejected though, read as lengths, they would fit in the
	 * message and end in a terminal zero; 63 is the longest label */
	{
		static const uint8_t types[] = { 0x40, 0x41, 0x7f, 0x80,
			0xbf, 63 };
		size_t i;
		for (i = 0; i < sizeof(types); i++) {
			uint8_t t = types[i];
			memcpy(w + 12, "\1a", 2);
			w[14] = t;
			memset(w + 15, 'a', t);
			w[15 + t] = 0;
			UT_EQ(walk(w, 16 + (size_t)t + 3, 12),
				t == 63 ? 16 + (long)t : -1);
		}
	}

	/* bad pointers: to offset 0, to len, beyond, to itself, a loop of
	 * two; a pointer to a root byte is fine */
	memcpy(w + 12, "\xc0\x00", 2);
	UT_EQ(walk(w, 40, 12), -1);
	memcpy(w + 12, "\xc0\x28", 2);
	UT_EQ(walk(w, 40, 12), -1);
	UT_EQ(walk(w, 41, 12), -1);	/* w[40] is 0xee */
	w[40] = 0;
	UT_EQ(walk(w, 41, 12), 14);
	memcpy(w + 12, "\xff\xff", 2);
	UT_EQ(walk(w, 40, 12), -1);
	memcpy(w + 12, "\xc0\x0c", 2);
	UT_EQ(walk(w, 40, 12), -1);
	memcpy(w + 12, "\xc0\x0e\xc0\x0c", 4);
	UT_EQ(walk(w, 40, 12), -1);
	memcpy(w + 12, "\1a\xc0\x0c", 4);	/* loop through a label */
	UT_EQ(walk(w, 40, 12), -1);

	/* 255 bytes in place: accepted, 256: rejected */
	end = put_labels(w, 12, max255, 4, 1);
	UT_EQ(end - 12, 255);
	UT_EQ(walk(w, end + 5, 12), (long)end);
	end = put_labels(w, 12, over256, 4, 1);
	UT_EQ(walk(w, end + 5, 12), -1);
	UT_EQ(walk(w, end - 1, 12), -1);

	/* through a pointer: a 193-byte suffix at 12, then a 62-byte prefix
	 * pointing to it (255 in all) and a 63-byte one (256) */
	end = put_labels(w, 12, suffix, 3, 1);
	UT_EQ(end, 12 + 193);
	{
		size_t a = end, b;
		b = put_labels(w, a, pre62, 1, 0);
		w[b] = 0xc0; w[b + 1] = 12;
		UT_EQ(walk(w, b + 2, a), (long)(b + 2));
		a = b + 2;
		b = put_labels(w, a, pre63, 1, 0);
		w[b] = 0xc0; w[b + 1] = 12;
		UT_EQ(walk(w, b + 2, a), -1);
	}
}

/* rng: the project's seeded generator (udpreplay/rng.c), so the
 * pseudo-random inputs are the same every run */
static ur_rng rng_state;
static uint32_t
rng(void)
{
	return (uint32_t)ur_rng_next(&rng_state);
}

/* random_name_byte: mostly short labels and pointers to early offsets,
 * sometimes the other label types, long labels and roots */
static uint8_t
random_name_byte(size_t len)
{
	uint32_t r = rng() % 100;
	if (r < 35)
		return (uint8_t)(1 + rng() % 4);
	if (r < 45)
		return 0;
	if (r < 60)
		return (uint8_t)(0xc0 | (rng() % 4 == 0 ? rng() % 64 : 0));
	if (r < 75)
		return (uint8_t)(rng() % (len + 4));
	if (r < 80)
		return (uint8_t)(60 + rng() % 8);
	return (uint8_t)rng();
}

typedef int (*skip_fn)(const uint8_t *, size_t, size_t *);

/* skip_no_follow: a walker that stops at a pointer without looking at
 * what it points to: the differential check must catch it. */
static int
skip_no_follow(const uint8_t *wire, size_t len, size_t *pos)
{
	size_t p = *pos, namelen = 1;
	while (p < len && wire[p] != 0) {
		if ((wire[p] & 0xc0) == 0xc0) {
			if (p + 2 > len)
				return -1;
			*pos = p + 2;
			return 0;
		}
		if (wire[p] > 63 || (namelen += 1u + wire[p]) > 255 ||
		    p + 1 + wire[p] > len)
			return -1;
		p += 1u + wire[p];
	}
	if (p >= len)
		return -1;
	*pos = p + 1;
	return 0;
}

/* differ: run fn and ldns_wire2dname on n pseudo-random messages; the
 * number of disagreements (verdict or end offset). With seen, count the
 * ldns verdicts: [0] ok without, [1] ok with a pointer, [2] label,
 * [3] pointer, [4] name length, [5] message length errors. */
static unsigned
differ(skip_fn fn, unsigned n, unsigned seen[6])
{
	uint8_t w[300];
	unsigned k, bad = 0;
	for (k = 0; k < n; k++) {
		size_t len = 13 + rng() % (sizeof(w) - 13), i, p1, p2;
		size_t start = 12 + rng() % 8;
		ldns_rdf *name = NULL;
		ldns_status st;
		int rc;
		for (i = 0; i < len; i++)
			w[i] = random_name_byte(len);
		if (rng() % 4 == 0) {
			/* a long name somewhere for the pointers to find */
			size_t at = 12 + rng() % 40;
			int lens[4] = { 63, 63, (int)(rng() % 64),
				(int)(rng() % 64) };
			if (at + 256 < len)
				put_labels(w, at, lens, 4, 1);
		}
		if (start >= len)
			start = 12;
		p1 = p2 = start;
		rc = fn(w, len, &p1);
		st = ldns_wire2dname(&name, w, len, &p2);
		ldns_rdf_deep_free(name);
		if ((rc == 0) != (st == LDNS_STATUS_OK) ||
		    (rc == 0 && p1 != p2))
			bad++;
		if (!seen)
			continue;
		if (st == LDNS_STATUS_OK)
			seen[p2 - start == 2 || memchr(w + start, 0,
				p2 - start) == NULL ? 1 : 0]++;
		else if (st == LDNS_STATUS_LABEL_OVERFLOW)
			seen[2]++;
		else if (st == LDNS_STATUS_INVALID_POINTER)
			seen[3]++;
		else if (st == LDNS_STATUS_DOMAINNAME_OVERFLOW)
			seen[4]++;
		else
			seen[5]++;
	}
	return bad;
}

static void
test_name_skip_vs_ldns(void)
{
	unsigned seen[6] = { 0 }, i;
	UT_EQ(differ(ds_dnsmsg_name_skip, 200000, seen), 0);
	for (i = 0; i < 6; i++) {
		if (seen[i] < 100)
			fprintf(stderr, "verdict %u seen %u times\n", i,
				seen[i]);
		UT_CHECK(seen[i] >= 100);
	}
	/* negative control */
	UT_CHECK(differ(skip_no_follow, 20000, NULL) > 100);
}

/* --full counts the OPT records (two here) and the TSIG that ldns takes
 * out of the additional section, as the fast scan does (the fuzz harness
 * found --full counting no TSIG and one OPT). */
static void
test_full_counts_opt_tsig(void)
{
	static const uint8_t w[] = {
		0x12, 0x34, 0x80, 0x00, 0, 1, 0, 0, 0, 0, 0, 3,
		0, 0, 1, 0, 1,					/* . A IN */
		0, 0, 41, 0x10, 0x00, 0, 0, 0x80, 0, 0, 0,	/* OPT, DO */
		0, 0, 41, 0x02, 0x00, 0, 0, 0, 0, 0, 0,		/* OPT */
		0, 0, 250, 0, 255, 0, 0, 0, 0, 0, 0 };		/* TSIG */
	struct ds_dnsmsg a, b;
	UT_EQ(ds_dnsmsg_scan(w, sizeof(w), &a), RB_OK);
	UT_EQ(ds_dnsmsg_parse_full(w, sizeof(w), &b), RB_OK);
	UT_EQ(a.sect_rrs[DS_SECT_ADDITIONAL][DS_RR_OPT], 2);
	UT_EQ(a.sect_rrs[DS_SECT_ADDITIONAL][DS_RR_OTHER], 1);
	UT_EQ(b.sect_rrs[DS_SECT_ADDITIONAL][DS_RR_OPT], 2);
	UT_EQ(b.sect_rrs[DS_SECT_ADDITIONAL][DS_RR_OTHER], 1);
	UT_EQ(b.arcount, 3);
	UT_EQ(a.udp_size, 4096);
	UT_EQ(a.do_bit, 1);
}

int
main(void)
{
	int qr, rcode, edns, do_bit, rrs;
	struct ds_dnsmsg a, b;
	uint8_t hdr[11] = { 0 };

	ur_rng_seed(&rng_state, 2463534242);

	for (qr = 0; qr <= 1; qr++)
	for (rcode = 0; rcode <= 5; rcode += 3)
	for (edns = 0; edns <= 1; edns++)
	for (do_bit = 0; do_bit <= edns; do_bit++)
	for (rrs = 0; rrs <= 1; rrs++) {
		size_t len, cut;
		uint16_t udp = (uint16_t)(edns ? 1232 + do_bit : 0);
		uint8_t *w = build(qr, rcode, edns, do_bit, udp, rrs, &len);
		UT_EQ(ds_dnsmsg_scan(w, len, &a), RB_OK);
		UT_EQ(ds_dnsmsg_parse_full(w, len, &b), RB_OK);
		UT_EQ(a.id, 0x1234);
		UT_EQ(a.qr, qr);
		UT_EQ(a.rcode, rcode);
		UT_EQ(a.qtype, LDNS_RR_TYPE_AAAA);
		UT_EQ(a.has_opt, edns);
		UT_EQ(a.do_bit, do_bit);
		UT_EQ(a.udp_size, udp);
		UT_EQ(a.size, len);
		UT_EQ(a.ancount, rrs);
		UT_EQ(b.id, a.id);
		UT_EQ(b.qr, a.qr);
		UT_EQ(b.rcode, a.rcode);
		UT_EQ(b.qtype, a.qtype);
		UT_EQ(b.has_opt, a.has_opt);
		UT_EQ(b.do_bit, a.do_bit);
		UT_EQ(b.udp_size, a.udp_size);
		UT_EQ(b.arcount, a.arcount);
		{
			int s, k;
			uint16_t want[DS_SECT_MAX][DS_RR_KINDS] = { { 0 } };
			want[DS_SECT_ANSWER][DS_RR_ADDR] = (uint16_t)rrs;
			want[DS_SECT_AUTHORITY][DS_RR_NS] = (uint16_t)(2 * rrs);
			want[DS_SECT_ADDITIONAL][DS_RR_ADDR] = (uint16_t)rrs;
			want[DS_SECT_ADDITIONAL][DS_RR_OTHER] = (uint16_t)rrs;
			want[DS_SECT_ADDITIONAL][DS_RR_OPT] = (uint16_t)edns;
			for (s = 0; s < DS_SECT_MAX; s++)
			for (k = 0; k < DS_RR_KINDS; k++) {
				UT_EQ(a.sect_rrs[s][k], want[s][k]);
				UT_EQ(b.sect_rrs[s][k], want[s][k]);
			}
			/* header 12, question example.com. AAAA IN: 13 + 4 */
			UT_EQ((size_t)a.sect_bytes[0] + a.sect_bytes[1] +
			    a.sect_bytes[2], len - 12 - 17);
			UT_EQ(a.sect_bytes[DS_SECT_ANSWER] > 0, rrs);
			UT_EQ(b.sect_bytes[DS_SECT_AUTHORITY],
			    a.sect_bytes[DS_SECT_AUTHORITY]);
		}
		for (cut = 0; cut < len; cut++) {
			uint8_t *c = malloc(cut ? cut : 1);
			memcpy(c, w, cut);
			UT_CHECK(ds_dnsmsg_scan(c, cut, &a) != RB_OK);
			UT_CHECK(ds_dnsmsg_parse_full(c, cut, &b) != RB_OK);
			free(c);
		}
		free(w);
	}
	UT_EQ(ds_dnsmsg_scan(hdr, sizeof(hdr), &a), RB_BAD_DNS_HEADER);
	{
		/* a compression pointer loop in the question */
		uint8_t loop[] = { 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
			0xc0, 12, 0, 1, 0, 1 };
		UT_EQ(ds_dnsmsg_scan(loop, sizeof(loop), &a),
			RB_BAD_DNS_QUESTION);
	}
	test_name_skip();
	test_name_skip_vs_ldns();
	test_full_counts_opt_tsig();
	return UT_DONE("test_dnsmsg");
}
