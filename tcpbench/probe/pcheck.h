/*
 * pcheck.h -- whether an answer is a correct answer to the probe's query
 * (RSSAC047's correctness, for the one query the probe asks): QR set, the
 * query's ID and question, not truncated, RCODE NOERROR, AA set, and in
 * the answer section exactly one SOA owned by the query name (for a
 * query of type SOA; another type: at least one record of it), whose
 * serial is the expected one when one is given. The message is decoded
 * by ldns. The first rule an answer breaks is its verdict.
 */
#ifndef PROBE_PCHECK_H
#define PROBE_PCHECK_H

#include <stddef.h>
#include <stdint.h>

enum probe_verdict {
	PROBE_CORRECT = 0,
	PROBE_MALFORMED,        /* ldns cannot decode it */
	PROBE_NOT_RESPONSE,     /* QR clear */
	PROBE_WRONG_ID,
	PROBE_WRONG_QUESTION,
	PROBE_TRUNCATED,        /* TC set */
	PROBE_WRONG_RCODE,
	PROBE_NOT_AUTHORITATIVE,
	PROBE_NO_ANSWER,        /* not exactly one SOA (or no record of the type) */
	PROBE_WRONG_SERIAL,
	PROBE_VERDICT_N
};

/* What the answers are checked against; opaque (ldns data). */
struct probe_expect;

/* The expectation for qname/qtype (class IN), with serial when
 * check_serial; NULL with a message in err. */
struct probe_expect *probe_expect_new(const char *qname, uint16_t qtype, int check_serial,
	uint32_t serial, char *err, size_t errlen);
void probe_expect_free(struct probe_expect *x);
/* The verdict on msg[0..len) as the answer to the query with this ID. */
enum probe_verdict probe_check_answer(const struct probe_expect *x, uint16_t id,
	const uint8_t *msg, size_t len);
/* "correct", "malformed", "not_response", ...: the JSON key. */
const char *probe_verdict_name(enum probe_verdict v);

#endif
