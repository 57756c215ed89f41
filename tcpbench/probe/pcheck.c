/*
 * pcheck.c -- the answer check; see pcheck.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <ldns/ldns.h>
#include "pcheck.h"

struct probe_expect {
	ldns_rdf *qname;
	ldns_rr_type qtype;
	int check_serial;
	uint32_t serial;
};

static const char *const verdict_names[PROBE_VERDICT_N] = {
	"correct", "malformed", "not_response", "wrong_id", "wrong_question",
	"truncated", "wrong_rcode", "not_authoritative", "no_answer", "wrong_serial"
};

const char *
probe_verdict_name(enum probe_verdict v)
{
	return (unsigned)v < PROBE_VERDICT_N ? verdict_names[v] : "?";
}

struct probe_expect *
probe_expect_new(const char *qname, uint16_t qtype, int check_serial, uint32_t serial,
	char *err, size_t errlen)
{
	struct probe_expect *x = calloc(1, sizeof(*x));
	if (!x) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	x->qname = ldns_dname_new_frm_str(qname);
	if (!x->qname) {
		snprintf(err, errlen, "bad query name '%s'", qname);
		free(x);
		return NULL;
	}
	x->qtype = (ldns_rr_type)qtype;
	x->check_serial = check_serial;
	x->serial = serial;
	return x;
}

void
probe_expect_free(struct probe_expect *x)
{
	if (!x)
		return;
	ldns_rdf_deep_free(x->qname);
	free(x);
}

/* The question is the query's: one entry, same name (case aside), type, class IN. */
static int
question_matches(const struct probe_expect *x, const ldns_pkt *p)
{
	const ldns_rr_list *q = ldns_pkt_question(p);
	const ldns_rr *rr;
	if (!q || ldns_rr_list_rr_count(q) != 1)
		return 0;
	rr = ldns_rr_list_rr(q, 0);
	return ldns_dname_compare(ldns_rr_owner(rr), x->qname) == 0
		&& ldns_rr_get_type(rr) == x->qtype
		&& ldns_rr_get_class(rr) == LDNS_RR_CLASS_IN;
}

/* The answer section's verdict: the records of the query's type owned
 * by the name (exactly one SOA, with the serial when checked). */
static enum probe_verdict
answer_section_verdict(const struct probe_expect *x, const ldns_pkt *p)
{
	const ldns_rr_list *an = ldns_pkt_answer(p);
	const ldns_rr *soa = NULL;
	size_t i, n = 0;
	for (i = 0; an && i < ldns_rr_list_rr_count(an); i++) {
		const ldns_rr *rr = ldns_rr_list_rr(an, i);
		if (ldns_rr_get_type(rr) != x->qtype || ldns_rr_get_class(rr) != LDNS_RR_CLASS_IN
		    || ldns_dname_compare(ldns_rr_owner(rr), x->qname) != 0)
			continue;
		n++;
		soa = rr;
	}
	if (x->qtype != LDNS_RR_TYPE_SOA)
		return n ? PROBE_CORRECT : PROBE_NO_ANSWER;
	if (n != 1 || ldns_rr_rd_count(soa) < 3)
		return PROBE_NO_ANSWER;
	if (x->check_serial && ldns_rdf2native_int32(ldns_rr_rdf(soa, 2)) != x->serial)
		return PROBE_WRONG_SERIAL;
	return PROBE_CORRECT;
}

enum probe_verdict
probe_check_answer(const struct probe_expect *x, uint16_t id, const uint8_t *msg, size_t len)
{
	ldns_pkt *p = NULL;
	enum probe_verdict v;
	if (ldns_wire2pkt(&p, msg, len) != LDNS_STATUS_OK)
		return PROBE_MALFORMED;
	if (!ldns_pkt_qr(p))
		v = PROBE_NOT_RESPONSE;
	else if (ldns_pkt_id(p) != id)
		v = PROBE_WRONG_ID;
	else if (!question_matches(x, p))
		v = PROBE_WRONG_QUESTION;
	else if (ldns_pkt_tc(p))
		v = PROBE_TRUNCATED;
	else if (ldns_pkt_get_rcode(p) != LDNS_RCODE_NOERROR)
		v = PROBE_WRONG_RCODE;
	else if (!ldns_pkt_aa(p))
		v = PROBE_NOT_AUTHORITATIVE;
	else
		v = answer_section_verdict(x, p);
	ldns_pkt_free(p);
	return v;
}
