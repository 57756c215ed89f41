/*
 * target.c -- the target guard: where rootbench may send; see target.h.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include "numparse.h"
#include "target.h"

/* Loopback and the benchmarking ranges: allowed everywhere, always. */
static const struct rb_target_range rb_target_builtin[] = {
	{ AF_INET, { 127 }, 8 },
	{ AF_INET6, { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1 }, 128 },
	{ AF_INET, { 198, 18 }, 15 },
	{ AF_INET6, { 0x20, 0x01, 0x00, 0x02 }, 48 },
};
#define RB_TARGET_NBUILTIN (sizeof(rb_target_builtin) / sizeof(rb_target_builtin[0]))

/* ::ffff:0:0/96, the IPv4-mapped IPv6 addresses. */
static const uint8_t rb_target_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

static const char rb_target_how[] =
	"a real lab declares its own ranges with tcpbench --allow-range CIDR, "
	"or RB_ALLOW_RANGES=\"CIDR ...\" for the scripts and make (docs/methodology.md)";

static unsigned
rb_target_bits(int family)
{
	return family == AF_INET ? 32 : 128;
}

int
rb_target_range_parse(struct rb_target_range *r, const char *s,
	char *err, size_t errlen)
{
	char buf[INET6_ADDRSTRLEN + 8], *slash;
	unsigned long plen;
	unsigned i;

	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "range '%.60s...': too long for ADDRESS/LENGTH", s);
		return -1;
	}
	strcpy(buf, s);
	slash = strrchr(buf, '/');
	if (!slash) {
		snprintf(err, errlen, "range '%s': no prefix length (write ADDRESS/LENGTH, "
			"e.g. 192.0.2.0/24)", s);
		return -1;
	}
	*slash = 0;
	memset(r, 0, sizeof(*r));
	r->family = strchr(buf, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(r->family, buf, r->addr) != 1) {
		snprintf(err, errlen, "range '%s': '%s' is not a numeric IPv4 or IPv6 address",
			s, buf);
		return -1;
	}
	if (rb_parse_uint(slash + 1, rb_target_bits(r->family), &plen) < 0) {
		snprintf(err, errlen, "range '%s': bad prefix length '%s' (0..%u)", s,
			slash + 1, rb_target_bits(r->family));
		return -1;
	}
	r->plen = (unsigned)plen;
	for (i = r->plen; i < rb_target_bits(r->family); i++) {
		if (r->addr[i / 8] & (0x80u >> (i % 8))) {
			struct rb_target_range net = *r;
			char want[INET6_ADDRSTRLEN + 8];
			for (; i < rb_target_bits(r->family); i++)
				net.addr[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
			rb_target_range_format(&net, want, sizeof(want));
			snprintf(err, errlen, "range '%s': host bits set (the range is %s)", s, want);
			return -1;
		}
	}
	return 0;
}

int
rb_target_range_contains(const struct rb_target_range *r, int family,
	const void *addr)
{
	const uint8_t *a = addr;
	unsigned whole = r->plen / 8, rest = r->plen % 8;
	uint8_t mask;

	if (family != r->family)
		return 0;
	if (memcmp(a, r->addr, whole) != 0)
		return 0;
	if (rest == 0)
		return 1;
	mask = (uint8_t)(0xffu << (8 - rest));
	return (a[whole] & mask) == r->addr[whole];
}

void
rb_target_range_format(const struct rb_target_range *r, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN];
	if (!inet_ntop(r->family, r->addr, a, sizeof(a)))
		snprintf(a, sizeof(a), "?");
	snprintf(buf, len, "%s/%u", a, r->plen);
}

void
rb_target_init(struct rb_target *t)
{
	memset(t, 0, sizeof(*t));
}

/* A lab range must be a range a lab can own: not wider than the floor,
 * and not IPv4-mapped (those addresses are judged as IPv4). */
static int
rb_target_lab_check(const struct rb_target_range *r, const char *s,
	char *err, size_t errlen)
{
	unsigned floor = r->family == AF_INET ? RB_TARGET_LAB_MIN_PLEN4 : RB_TARGET_LAB_MIN_PLEN6;
	if (r->plen < floor) {
		snprintf(err, errlen, "range '%s' is wider than a /%u: a lab declares the "
			"ranges it owns, not a whole part of the Internet", s, floor);
		return -1;
	}
	if (r->family == AF_INET6 && r->plen >= 96
	    && memcmp(r->addr, rb_target_mapped, sizeof(rb_target_mapped)) == 0) {
		snprintf(err, errlen, "range '%s' is IPv4-mapped: write it as an IPv4 range", s);
		return -1;
	}
	return 0;
}

int
rb_target_allow(struct rb_target *t, const char *list, char *err, size_t errlen)
{
	static const char sep[] = " \t\r\n,";
	struct rb_target_range add[RB_TARGET_LAB_MAX];
	size_t n = 0, len;
	const char *p = list;
	char item[INET6_ADDRSTRLEN + 16];

	for (p += strspn(p, sep); *p; p += strspn(p, sep)) {
		len = strcspn(p, sep);
		if (t->nlab + n >= RB_TARGET_LAB_MAX) {
			snprintf(err, errlen, "more than %d lab ranges", RB_TARGET_LAB_MAX);
			return -1;
		}
		/* Too long for the buffer: the parser rejects it as too long. */
		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		if (rb_target_range_parse(&add[n], item, err, errlen) < 0
		    || rb_target_lab_check(&add[n], item, err, errlen) < 0)
			return -1;
		n++;
		p += len;
	}
	if (n == 0) {
		snprintf(err, errlen, "no range in '%s' (CIDR ranges separated by spaces or commas)",
			list);
		return -1;
	}
	memcpy(&t->lab[t->nlab], add, n * sizeof(add[0]));
	t->nlab += n;
	return 0;
}

int
rb_target_allowed(const struct rb_target *t, int family, const void *addr)
{
	const uint8_t *a = addr;
	size_t i;

	if (family == AF_INET6 && memcmp(a, rb_target_mapped, sizeof(rb_target_mapped)) == 0) {
		family = AF_INET;
		a += sizeof(rb_target_mapped);
	}
	for (i = 0; i < RB_TARGET_NBUILTIN; i++)
		if (rb_target_range_contains(&rb_target_builtin[i], family, a))
			return 1;
	for (i = 0; i < t->nlab; i++)
		if (rb_target_range_contains(&t->lab[i], family, a))
			return 1;
	return 0;
}

/* Append ranges to buf (used bytes written so far), each after lead; the
 * first after first_lead. Returns the new length, at most len - 1. */
static size_t
rb_target_ranges_append(char *buf, size_t len, size_t used,
	const struct rb_target_range *r, size_t n, const char *first_lead,
	const char *lead)
{
	char one[INET6_ADDRSTRLEN + 8];
	size_t i;

	for (i = 0; i < n && used + 1 < len; i++) {
		rb_target_range_format(&r[i], one, sizeof(one));
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
			i ? lead : first_lead, one);
	}
	return used < len ? used : len - 1;
}

int
rb_target_check(const struct rb_target *t, int family, const void *addr,
	char *err, size_t errlen)
{
	char a[INET6_ADDRSTRLEN], v4[INET_ADDRSTRLEN] = "", lab[1024];

	if (rb_target_allowed(t, family, addr))
		return 0;
	if (!inet_ntop(family, addr, a, sizeof(a)))
		snprintf(a, sizeof(a), "?");
	if (family == AF_INET6 && memcmp(addr, rb_target_mapped, sizeof(rb_target_mapped)) == 0)
		inet_ntop(AF_INET, (const uint8_t *)addr + sizeof(rb_target_mapped), v4, sizeof(v4));
	snprintf(lab, sizeof(lab), "none");
	rb_target_ranges_append(lab, sizeof(lab), 0, t->lab, t->nlab, "", ", ");
	snprintf(err, errlen, "%s%s%s%s is not an address rootbench may send to: only "
		"loopback (127.0.0.0/8, ::1), the benchmarking ranges (198.18.0.0/15, "
		"2001:2::/48) and the ranges a lab declares as its own (declared: %s); %s",
		a, v4[0] ? " (IPv4 " : "", v4, v4[0] ? ")" : "", lab, rb_target_how);
	return -1;
}

/* rb_target_range_within: the prefix p lies inside the range r. */
static int
rb_target_range_within(const struct rb_target_range *r, const struct rb_target_range *p)
{
	return r->family == p->family && r->plen <= p->plen
		&& rb_target_range_contains(r, p->family, p->addr);
}

int
rb_target_check_prefix(const struct rb_target *t, const struct rb_target_range *p,
	char *err, size_t errlen)
{
	char one[INET6_ADDRSTRLEN + 8], lab[1024];
	size_t i;

	for (i = 0; i < RB_TARGET_NBUILTIN; i++)
		if (rb_target_range_within(&rb_target_builtin[i], p))
			return 0;
	for (i = 0; i < t->nlab; i++)
		if (rb_target_range_within(&t->lab[i], p))
			return 0;
	rb_target_range_format(p, one, sizeof(one));
	snprintf(lab, sizeof(lab), "none");
	rb_target_ranges_append(lab, sizeof(lab), 0, t->lab, t->nlab, "", ", ");
	snprintf(err, errlen, "the prefix %s does not lie inside one range rootbench may "
		"send to: only loopback (127.0.0.0/8, ::1), the benchmarking ranges "
		"(198.18.0.0/15, 2001:2::/48) and the ranges a lab declares as its own "
		"(declared: %s); %s", one, lab, rb_target_how);
	return -1;
}

int
rb_target_check_sockaddr(const struct rb_target *t, const struct sockaddr *sa,
	char *err, size_t errlen)
{
	if (sa->sa_family == AF_INET)
		return rb_target_check(t, AF_INET,
			&((const struct sockaddr_in *)(const void *)sa)->sin_addr, err, errlen);
	if (sa->sa_family == AF_INET6)
		return rb_target_check(t, AF_INET6,
			&((const struct sockaddr_in6 *)(const void *)sa)->sin6_addr, err, errlen);
	snprintf(err, errlen, "address family %d is neither IPv4 nor IPv6: not an address "
		"rootbench may send to", sa->sa_family);
	return -1;
}

void
rb_target_describe(const struct rb_target *t, char *buf, size_t len)
{
	size_t used;

	buf[0] = 0;
	used = rb_target_ranges_append(buf, len, 0, rb_target_builtin,
		RB_TARGET_NBUILTIN, "", ", ");
	rb_target_ranges_append(buf, len, used, t->lab, t->nlab, ", lab ", ", lab ");
}
