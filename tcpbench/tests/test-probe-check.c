/*
 * test-probe-check.c -- unit test of rbprobe's answer check (pcheck.c).
 * Must hold: a well-formed authoritative answer with one SOA for the name
 * is correct, with the serial checked or not; each broken rule gives its
 * own verdict: another serial (only when checked), RCODE not NOERROR, AA
 * clear, QR clear, another ID, another question, TC set, no SOA or two,
 * a message cut short. Each case changes one thing of the correct answer,
 * so a check that stopped looking at it would call it correct.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ldns/ldns.h>
#include "../probe/pcheck.h"
#include "../../analysis/lib/unittest.h"

#define ID 0x1234
#define SERIAL 2023010100u

struct answer {
	uint16_t id;
	int qr, aa, tc;
	ldns_pkt_rcode rcode;
	const char *qname;
	int nsoa;
	uint32_t serial;
};

static const struct answer good = { ID, 1, 1, 0, LDNS_RCODE_NOERROR, ".", 1, SERIAL };

/* The answer a as wire format; its length in *len (caller frees). */
static uint8_t *
build(const struct answer *a, size_t *len)
{
	ldns_pkt *p = NULL;
	ldns_rr *rr = NULL;
	uint8_t *wire = NULL;
	char text[256];
	int i;
	if (ldns_pkt_query_new_frm_str(&p, a->qname, LDNS_RR_TYPE_SOA, LDNS_RR_CLASS_IN, 0)
	    != LDNS_STATUS_OK)
		abort();
	ldns_pkt_set_id(p, a->id);
	ldns_pkt_set_qr(p, a->qr);
	ldns_pkt_set_aa(p, a->aa);
	ldns_pkt_set_tc(p, a->tc);
	ldns_pkt_set_rcode(p, (uint8_t)a->rcode);
	for (i = 0; i < a->nsoa; i++) {
		snprintf(text, sizeof(text), ". 86400 IN SOA a.root-servers.net. "
			"nstld.verisign-grs.com. %u 1800 900 604800 86400", a->serial + (uint32_t)i);
		if (ldns_rr_new_frm_str(&rr, text, 0, NULL, NULL) != LDNS_STATUS_OK)
			abort();
		ldns_pkt_push_rr(p, LDNS_SECTION_ANSWER, rr);
	}
	if (ldns_pkt2wire(&wire, p, len) != LDNS_STATUS_OK)
		abort();
	ldns_pkt_free(p);
	return wire;
}

static enum probe_verdict
verdict(const struct probe_expect *x, const struct answer *a)
{
	size_t len;
	uint8_t *w = build(a, &len);
	enum probe_verdict v = probe_check_answer(x, ID, w, len);
	free(w);
	return v;
}

int
main(void)
{
	char err[256];
	struct probe_expect *x = probe_expect_new(".", LDNS_RR_TYPE_SOA, 1, SERIAL, err, sizeof(err));
	struct probe_expect *nx = probe_expect_new(".", LDNS_RR_TYPE_SOA, 0, 0, err, sizeof(err));
	struct answer a;
	uint8_t *w;
	size_t len;

	UT_CHECK(x && nx);
	UT_EQ(verdict(x, &good), PROBE_CORRECT);
	UT_EQ(verdict(nx, &good), PROBE_CORRECT);
	a = good; a.serial = SERIAL + 1;
	UT_EQ(verdict(x, &a), PROBE_WRONG_SERIAL);
	UT_EQ(verdict(nx, &a), PROBE_CORRECT);     /* no serial expected: not checked */
	a = good; a.rcode = LDNS_RCODE_REFUSED;
	UT_EQ(verdict(x, &a), PROBE_WRONG_RCODE);
	a = good; a.rcode = LDNS_RCODE_SERVFAIL;
	UT_EQ(verdict(x, &a), PROBE_WRONG_RCODE);
	a = good; a.aa = 0;
	UT_EQ(verdict(x, &a), PROBE_NOT_AUTHORITATIVE);
	a = good; a.qr = 0;
	UT_EQ(verdict(x, &a), PROBE_NOT_RESPONSE);
	a = good; a.id = ID + 1;
	UT_EQ(verdict(x, &a), PROBE_WRONG_ID);
	a = good; a.qname = "com.";
	UT_EQ(verdict(x, &a), PROBE_WRONG_QUESTION);
	a = good; a.tc = 1;
	UT_EQ(verdict(x, &a), PROBE_TRUNCATED);
	a = good; a.nsoa = 0;
	UT_EQ(verdict(x, &a), PROBE_NO_ANSWER);
	a = good; a.nsoa = 2;
	UT_EQ(verdict(x, &a), PROBE_NO_ANSWER);
	/* a message cut short: every length below the whole */
	w = build(&good, &len);
	UT_EQ(probe_check_answer(x, ID, w, len), PROBE_CORRECT);
	UT_EQ(probe_check_answer(x, ID, w, len - 1), PROBE_MALFORMED);
	UT_EQ(probe_check_answer(x, ID, w, 12), PROBE_MALFORMED);
	UT_EQ(probe_check_answer(x, ID, w, 5), PROBE_MALFORMED);
	free(w);
	UT_CHECK(strcmp(probe_verdict_name(PROBE_WRONG_SERIAL), "wrong_serial") == 0);
	UT_CHECK(probe_expect_new("a..b", LDNS_RR_TYPE_SOA, 0, 0, err, sizeof(err)) == NULL);
	probe_expect_free(x);
	probe_expect_free(nx);
	return UT_DONE("test-probe-check");
}
