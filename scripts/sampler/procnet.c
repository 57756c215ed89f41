/*
 * procnet.c -- /proc/net MIB and sockstat parsers; see procnet.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "procnet.h"

const char *const rbs_sockstat_names[RBS_SOCKSTAT_N] = {
	"tcp_inuse", "tcp_orphan", "tcp_tw", "tcp_alloc", "tcp_mem",
	"udp_inuse", "udp_mem", "tcp6_inuse", "udp6_inuse"
};

int64_t
rbs_sockstat_get(const struct rbs_sockstat *s, int i)
{
	const int64_t v[RBS_SOCKSTAT_N] = { s->tcp_inuse, s->tcp_orphan, s->tcp_tw,
		s->tcp_alloc, s->tcp_mem, s->udp_inuse, s->udp_mem, s->tcp6_inuse,
		s->udp6_inuse };
	return (i >= 0 && i < RBS_SOCKSTAT_N) ? v[i] : 0;
}

/* The next line of *p as [start, end); advances *p. 0 at the end. */
static int
next_line(const char **p, const char **start, const char **end)
{
	const char *nl;
	if (!**p)
		return 0;
	*start = *p;
	nl = strchr(*p, '\n');
	*end = nl ? nl : *p + strlen(*p);
	*p = nl ? nl + 1 : *end;
	return 1;
}

static int
parse_int64(const char *s, const char *e, int64_t *out)
{
	char buf[32], *end;
	size_t n = (size_t)(e - s);
	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	errno = 0;
	*out = strtoll(buf, &end, 10);
	return (errno || *end) ? -1 : 0;
}

/* The next whitespace-separated token of [*p, e) as [ts, te). */
static int
next_token(const char **p, const char *e, const char **ts, const char **te)
{
	const char *s = *p;
	while (s < e && (*s == ' ' || *s == '\t'))
		s++;
	if (s >= e)
		return 0;
	*ts = s;
	while (s < e && *s != ' ' && *s != '\t')
		s++;
	*te = s;
	*p = s;
	return 1;
}

int
rbs_procnet_parse_pairs(const char *text, struct rbs_ctrset *s,
	char *err, size_t errlen)
{
	const char *p = text, *hs, *he, *vs, *ve;
	int count = 0, lineno = 0;

	while (next_line(&p, &hs, &he)) {
		const char *colon, *hp, *vp, *nts, *nte, *vts, *vte;
		char name[128];
		size_t plen;

		lineno++;
		if (hs == he)
			continue;
		colon = memchr(hs, ':', (size_t)(he - hs));
		if (!colon || colon == hs) {
			snprintf(err, errlen, "line %d: no 'Group:' prefix", lineno);
			return -1;
		}
		plen = (size_t)(colon - hs);
		if (!next_line(&p, &vs, &ve)) {
			snprintf(err, errlen, "line %d: header without a value line", lineno);
			return -1;
		}
		lineno++;
		if ((size_t)(ve - vs) <= plen || memcmp(vs, hs, plen + 1) != 0) {
			snprintf(err, errlen, "line %d: value line does not match header '%.*s'",
				lineno, (int)plen, hs);
			return -1;
		}
		if (plen >= sizeof(name) / 2) {
			snprintf(err, errlen, "line %d: group name too long", lineno);
			return -1;
		}
		memcpy(name, hs, plen);
		hp = colon + 1;
		vp = vs + plen + 1;
		for (;;) {
			int64_t v;
			int hn = next_token(&hp, he, &nts, &nte);
			int vn = next_token(&vp, ve, &vts, &vte);
			if (!hn && !vn)
				break;
			if (hn != vn) {
				snprintf(err, errlen, "line %d: %.*s has %s values than names",
					lineno, (int)plen, hs, hn ? "fewer" : "more");
				return -1;
			}
			if ((size_t)(nte - nts) + plen >= sizeof(name)) {
				snprintf(err, errlen, "line %d: counter name too long", lineno);
				return -1;
			}
			memcpy(name + plen, nts, (size_t)(nte - nts));
			name[plen + (size_t)(nte - nts)] = '\0';
			if (parse_int64(vts, vte, &v) < 0) {
				snprintf(err, errlen, "line %d: %s: not a number: '%.*s'",
					lineno, name, (int)(vte - vts), vts);
				return -1;
			}
			if (rbs_ctrset_set(s, name, v, err, errlen) < 0)
				return -1;
			count++;
		}
	}
	return count;
}

int
rbs_procnet_parse_snmp6(const char *text, struct rbs_ctrset *s,
	char *err, size_t errlen)
{
	const char *p = text, *ls, *le;
	int count = 0, lineno = 0;

	while (next_line(&p, &ls, &le)) {
		const char *q = ls, *ns, *ne, *vs, *ve, *xs, *xe;
		char name[128];
		int64_t v;

		lineno++;
		if (!next_token(&q, le, &ns, &ne))
			continue;
		if (!next_token(&q, le, &vs, &ve) || next_token(&q, le, &xs, &xe)) {
			snprintf(err, errlen, "line %d: not 'name value'", lineno);
			return -1;
		}
		if ((size_t)(ne - ns) >= sizeof(name)) {
			snprintf(err, errlen, "line %d: counter name too long", lineno);
			return -1;
		}
		memcpy(name, ns, (size_t)(ne - ns));
		name[ne - ns] = '\0';
		if (parse_int64(vs, ve, &v) < 0) {
			snprintf(err, errlen, "line %d: %s: not a number", lineno, name);
			return -1;
		}
		if (rbs_ctrset_set(s, name, v, err, errlen) < 0)
			return -1;
		count++;
	}
	return count;
}

/* In line [ls, le) after "Group:", the number following the word key. */
static int
field_of(const char *ls, const char *le, const char *key, int64_t *out)
{
	const char *q = strchr(ls, ':'), *ts, *te;
	size_t klen = strlen(key);
	if (!q || q >= le)
		return -1;
	q++;
	while (next_token(&q, le, &ts, &te)) {
		int is_key = (size_t)(te - ts) == klen && memcmp(ts, key, klen) == 0;
		if (!next_token(&q, le, &ts, &te))
			return -1;
		if (is_key)
			return parse_int64(ts, te, out);
	}
	return -1;
}

int
rbs_procnet_parse_sockstat(const char *text, struct rbs_sockstat *s,
	char *err, size_t errlen)
{
	const char *p = text, *ls, *le;
	int tcp = 0;

	while (next_line(&p, &ls, &le)) {
		int bad = 0;
		if (strncmp(ls, "TCP: ", 5) == 0) {
			tcp = 1;
			bad |= field_of(ls, le, "inuse", &s->tcp_inuse);
			bad |= field_of(ls, le, "orphan", &s->tcp_orphan);
			bad |= field_of(ls, le, "tw", &s->tcp_tw);
			bad |= field_of(ls, le, "alloc", &s->tcp_alloc);
			bad |= field_of(ls, le, "mem", &s->tcp_mem);
		} else if (strncmp(ls, "UDP: ", 5) == 0) {
			bad |= field_of(ls, le, "inuse", &s->udp_inuse);
			bad |= field_of(ls, le, "mem", &s->udp_mem);
		} else if (strncmp(ls, "TCP6: ", 6) == 0) {
			tcp = 1;
			bad |= field_of(ls, le, "inuse", &s->tcp6_inuse);
		} else if (strncmp(ls, "UDP6: ", 6) == 0) {
			bad |= field_of(ls, le, "inuse", &s->udp6_inuse);
		}
		if (bad) {
			snprintf(err, errlen, "malformed sockstat line '%.*s'", (int)(le - ls), ls);
			return -1;
		}
	}
	if (!tcp) {
		snprintf(err, errlen, "sockstat without a TCP line");
		return -1;
	}
	return 0;
}
