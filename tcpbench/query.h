/*
 * query.h -- where tcpbench's queries come from: a query list file or one
 * query given on the command line, each turned into DNS wire format by
 * ldns once at start-up (with the 2-byte TCP length prefix in front).
 *
 * Query list format, one query per line:
 *     qname qtype [flags...]
 * flags: edns=SIZE (EDNS0 with that UDP size), noedns, do (DNSSEC OK,
 * implies EDNS), rd (recursion desired). Unknown flag tokens are counted
 * (a warning), not fatal. Blank lines and lines starting with '#' (after
 * blanks) are skipped; text after a '#' token is a comment.
 */
#ifndef TCPB_QUERY_H
#define TCPB_QUERY_H

#include <stdint.h>
#include <stddef.h>

/* Defaults from the command line (-e SIZE, -D), overridden per line. */
struct tcpb_query_defaults {
	int edns_size;          /* 0: no EDNS */
	int do_bit;
	int rd;
};

struct tcpb_query_spec {
	char qname[256];
	uint16_t qtype;
	int edns_size;          /* 0: no EDNS */
	int do_bit;
	int rd;
};

/* One query in wire format: 2-byte length, then the DNS message. */
struct tcpb_query {
	uint8_t *wire;
	size_t len;             /* including the length prefix */
};

struct tcpb_querylist {
	struct tcpb_query *q;
	size_t n, cap;
	uint64_t unknown_tokens;        /* flag tokens ignored */
	uint64_t lines;                 /* lines read */
};

/* Parse one line. Returns 1 with *spec filled, 0 for a blank or comment
 * line, -1 on a malformed line (message in err). *unknown counts the
 * flag tokens that were ignored. */
int tcpb_query_parse_line(const char *line, const struct tcpb_query_defaults *d,
	struct tcpb_query_spec *spec, uint64_t *unknown, char *err, size_t errlen);
/* Parse "qname/qtype" (as for -n). */
int tcpb_query_parse_single(const char *arg, const struct tcpb_query_defaults *d,
	struct tcpb_query_spec *spec, char *err, size_t errlen);
/* Wire format of a query (ldns); ID 0, to be set per connection. */
int tcpb_query_build(const struct tcpb_query_spec *spec, struct tcpb_query *q,
	char *err, size_t errlen);

void tcpb_querylist_init(struct tcpb_querylist *l);
int tcpb_querylist_add(struct tcpb_querylist *l, const struct tcpb_query_spec *spec,
	char *err, size_t errlen);
/* Load every query of a file; -1 with a message naming file:line. */
int tcpb_querylist_load(struct tcpb_querylist *l, const char *path,
	const struct tcpb_query_defaults *d, char *err, size_t errlen);
void tcpb_querylist_free(struct tcpb_querylist *l);

#endif
