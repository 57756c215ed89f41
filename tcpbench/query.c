/*
 * query.c -- query list parsing and wire-format construction with ldns;
 * see query.h for the file format.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ldns/ldns.h>
#include "query.h"
#include "../analysis/lib/numparse.h"

static void
spec_defaults(struct tcpb_query_spec *s, const struct tcpb_query_defaults *d)
{
	memset(s, 0, sizeof(*s));
	s->edns_size = d->edns_size;
	s->do_bit = d->do_bit;
	s->rd = d->rd;
	if (s->do_bit && s->edns_size == 0)
		s->edns_size = 1232;
}

static int
set_qname(struct tcpb_query_spec *s, const char *name, size_t len, char *err, size_t errlen)
{
	ldns_rdf *dn;
	if (len == 0 || len >= sizeof(s->qname)) {
		snprintf(err, errlen, "bad qname length %zu", len);
		return -1;
	}
	memcpy(s->qname, name, len);
	s->qname[len] = 0;
	dn = ldns_dname_new_frm_str(s->qname);
	if (!dn) {
		snprintf(err, errlen, "bad qname '%s'", s->qname);
		return -1;
	}
	ldns_rdf_deep_free(dn);
	return 0;
}

/*
 * A qtype by mnemonic, or as TYPEnnn (RFC 3597) with nnn 1..65535 and
 * nothing after it: ldns reads "TYPE65536" as 65536, which a 16-bit qtype
 * would carry as 0, and "TYPE1x" as 1.
 */
static int
set_qtype(struct tcpb_query_spec *s, const char *type, char *err, size_t errlen)
{
	unsigned long n;
	ldns_rr_type t;
	if (strncasecmp(type, "TYPE", 4) == 0 && type[4] != '\0'
	    && isdigit((unsigned char)type[4])) {
		if (rb_parse_uint(type + 4, 65535, &n) < 0 || n == 0) {
			snprintf(err, errlen, "bad qtype '%s' (TYPE1 to TYPE65535)", type);
			return -1;
		}
		s->qtype = (uint16_t)n;
		return 0;
	}
	t = ldns_get_rr_type_by_name(type);
	if (t == 0 || (unsigned long)t > 65535) {
		snprintf(err, errlen, "unknown qtype '%s'", type);
		return -1;
	}
	s->qtype = (uint16_t)t;
	return 0;
}

/* A flag token; returns 0 when known, 1 when unknown. */
static int
apply_flag(struct tcpb_query_spec *s, const char *tok)
{
	unsigned long v;
	if (strcasecmp(tok, "do") == 0) {
		s->do_bit = 1;
		if (s->edns_size == 0)
			s->edns_size = 1232;
	} else if (strcasecmp(tok, "rd") == 0) {
		s->rd = 1;
	} else if (strcasecmp(tok, "nord") == 0) {
		s->rd = 0;
	} else if (strcasecmp(tok, "noedns") == 0) {
		s->edns_size = 0;
		s->do_bit = 0;
	} else if (strncasecmp(tok, "edns=", 5) == 0) {
		if (rb_parse_uint(tok + 5, 65535, &v) < 0 || v < 512)
			return 1;
		s->edns_size = (int)v;
	} else if (strcasecmp(tok, "edns") == 0) {
		if (s->edns_size == 0)
			s->edns_size = 1232;
	} else {
		return 1;
	}
	return 0;
}

int
tcpb_query_parse_line(const char *line, const struct tcpb_query_defaults *d,
	struct tcpb_query_spec *spec, uint64_t *unknown, char *err, size_t errlen)
{
	char buf[1024], *tok, *save = NULL, *qname, *qtype;
	const char *first = line + strspn(line, " \t\r\n");
	size_t len = strlen(line);
	/* a blank or comment line is skipped whatever its length (found by
	 * tcpbench/fuzz/fuzz_query.c: a long comment was "line too long") */
	if (*first == 0 || *first == '#')
		return 0;
	if (len >= sizeof(buf)) {
		snprintf(err, errlen, "line too long (%zu characters)", len);
		return -1;
	}
	memcpy(buf, line, len + 1);
	qname = strtok_r(buf, " \t\r\n", &save);
	if (!qname || qname[0] == '#')
		return 0;
	qtype = strtok_r(NULL, " \t\r\n", &save);
	if (!qtype || qtype[0] == '#') {
		snprintf(err, errlen, "'%s': no qtype (want: qname qtype [flags...])", qname);
		return -1;
	}
	spec_defaults(spec, d);
	if (set_qname(spec, qname, strlen(qname), err, errlen) < 0
	    || set_qtype(spec, qtype, err, errlen) < 0)
		return -1;
	while ((tok = strtok_r(NULL, " \t\r\n", &save)) != NULL) {
		if (tok[0] == '#')
			break;
		if (apply_flag(spec, tok) && unknown)
			(*unknown)++;
	}
	return 1;
}

int
tcpb_query_parse_single(const char *arg, const struct tcpb_query_defaults *d,
	struct tcpb_query_spec *spec, char *err, size_t errlen)
{
	const char *slash = strrchr(arg, '/');
	if (!slash || slash == arg || slash[1] == 0) {
		snprintf(err, errlen, "'%s': want QNAME/QTYPE, e.g. ./SOA", arg);
		return -1;
	}
	spec_defaults(spec, d);
	if (set_qname(spec, arg, (size_t)(slash - arg), err, errlen) < 0)
		return -1;
	return set_qtype(spec, slash + 1, err, errlen);
}

int
tcpb_query_build(const struct tcpb_query_spec *spec, struct tcpb_query *q,
	char *err, size_t errlen)
{
	ldns_pkt *pkt = NULL;
	ldns_status st;
	uint8_t *wire = NULL;
	size_t size = 0;

	st = ldns_pkt_query_new_frm_str(&pkt, spec->qname, (ldns_rr_type)spec->qtype,
		LDNS_RR_CLASS_IN, spec->rd ? LDNS_RD : 0);
	if (st != LDNS_STATUS_OK) {
		snprintf(err, errlen, "%s: %s", spec->qname, ldns_get_errorstr_by_id(st));
		return -1;
	}
	ldns_pkt_set_id(pkt, 0);
	if (spec->edns_size > 0) {
		ldns_pkt_set_edns_udp_size(pkt, (uint16_t)spec->edns_size);
		ldns_pkt_set_edns_do(pkt, spec->do_bit ? true : false);
	}
	st = ldns_pkt2wire(&wire, pkt, &size);
	ldns_pkt_free(pkt);
	if (st != LDNS_STATUS_OK || size > 65535) {
		snprintf(err, errlen, "%s: %s", spec->qname,
			st != LDNS_STATUS_OK ? ldns_get_errorstr_by_id(st) : "query too large");
		free(wire);
		return -1;
	}
	q->wire = malloc(size + 2);
	if (!q->wire) {
		snprintf(err, errlen, "malloc: %s", strerror(errno));
		free(wire);
		return -1;
	}
	q->wire[0] = (uint8_t)(size >> 8);
	q->wire[1] = (uint8_t)size;
	memcpy(q->wire + 2, wire, size);
	q->len = size + 2;
	free(wire);
	return 0;
}

void
tcpb_querylist_init(struct tcpb_querylist *l)
{
	memset(l, 0, sizeof(*l));
}

int
tcpb_querylist_add(struct tcpb_querylist *l, const struct tcpb_query_spec *spec,
	char *err, size_t errlen)
{
	struct tcpb_query q;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct tcpb_query *nq = realloc(l->q, cap * sizeof(*nq));
		if (!nq) {
			snprintf(err, errlen, "realloc: %s", strerror(errno));
			return -1;
		}
		l->q = nq;
		l->cap = cap;
	}
	if (tcpb_query_build(spec, &q, err, errlen) < 0)
		return -1;
	l->q[l->n++] = q;
	return 0;
}

int
tcpb_querylist_load(struct tcpb_querylist *l, const char *path,
	const struct tcpb_query_defaults *d, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, msg[512];
	size_t cap = 0;
	struct tcpb_query_spec spec;
	int r, ret = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	while (getline(&line, &cap, f) >= 0) {
		l->lines++;
		r = tcpb_query_parse_line(line, d, &spec, &l->unknown_tokens, msg, sizeof(msg));
		if (r == 0)
			continue;
		if (r < 0 || tcpb_querylist_add(l, &spec, msg, sizeof(msg)) < 0) {
			snprintf(err, errlen, "%s:%llu: %s", path, (unsigned long long)l->lines, msg);
			ret = -1;
			break;
		}
	}
	if (ret == 0 && ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
		ret = -1;
	}
	if (ret == 0 && l->n == 0) {
		snprintf(err, errlen, "%s: no queries in the file", path);
		ret = -1;
	}
	free(line);
	fclose(f);
	return ret;
}

void
tcpb_querylist_free(struct tcpb_querylist *l)
{
	size_t i;
	for (i = 0; i < l->n; i++)
		free(l->q[i].wire);
	free(l->q);
	memset(l, 0, sizeof(*l));
}
