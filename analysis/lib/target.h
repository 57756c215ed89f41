/*
 * target.h -- the target guard: the one place that says where rootbench's
 * load generators may send. Allowed are loopback (127.0.0.0/8, ::1), the
 * benchmarking ranges 198.18.0.0/15 (RFC 2544) and 2001:2::/48 (RFC 5180),
 * and the ranges a real lab declares as its own (tcpbench --allow-range,
 * RB_ALLOW_RANGES for the scripts, which call analysis/target-check). Any
 * other address is refused, with a message that says which address, what
 * is allowed and how a lab declares its range. An IPv4-mapped IPv6
 * address (::ffff:a.b.c.d) is judged as the IPv4 address it stands for,
 * which is where a dual-stack socket sends.
 *
 * Ranges are written in CIDR notation, ADDRESS/LENGTH, with no host bits
 * set; a lab range may be no wider than a /8 (IPv4) or a /16 (IPv6), so
 * that nobody "allows" the Internet by accident.
 */
#ifndef RB_TARGET_H
#define RB_TARGET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Most lab ranges one guard holds. */
#define RB_TARGET_LAB_MAX 64
/* Widest lab range allowed: prefix length at least this. */
#define RB_TARGET_LAB_MIN_PLEN4 8
#define RB_TARGET_LAB_MIN_PLEN6 16

/* One CIDR range; addr in network order, IPv4 in the first 4 bytes. */
struct rb_target_range {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t addr[16];
	unsigned plen;
};

struct rb_target {
	struct rb_target_range lab[RB_TARGET_LAB_MAX];
	size_t nlab;
};

/* Parse "ADDRESS/LENGTH" (the length is required, decimal, in range; no
 * host bits set). 0, or -1 with a message in err. */
int rb_target_range_parse(struct rb_target_range *r, const char *s,
	char *err, size_t errlen);
/* Whether the address (4 or 16 bytes in network order, by family) lies
 * in the range; an address of the other family never does. */
int rb_target_range_contains(const struct rb_target_range *r, int family,
	const void *addr);
/* "198.18.0.0/15" into buf. */
void rb_target_range_format(const struct rb_target_range *r, char *buf,
	size_t len);

/* A guard with no lab range: loopback and the benchmarking ranges. */
void rb_target_init(struct rb_target *t);
/* Declare lab ranges: one or more CIDR ranges separated by white space
 * or commas ("192.0.2.0/24 2001:db8::/32"); an empty or blank list is an
 * error. A malformed, too wide or IPv4-mapped range, or more than
 * RB_TARGET_LAB_MAX in all, is refused: -1 with a message in err naming
 * it, the guard unchanged. */
int rb_target_allow(struct rb_target *t, const char *list, char *err,
	size_t errlen);
/* Whether an address (4 or 16 bytes by family) may be sent to. */
int rb_target_allowed(const struct rb_target *t, int family,
	const void *addr);
/* 0 when allowed; -1 with the refusal in err: the address, what is
 * allowed, and how to declare a lab range. */
int rb_target_check(const struct rb_target *t, int family, const void *addr,
	char *err, size_t errlen);
/* A whole prefix (the sources a generator spreads its queries over, whose
 * answers go there): 0 when it lies inside one allowed range; -1 with the
 * refusal in err. */
int rb_target_check_prefix(const struct rb_target *t,
	const struct rb_target_range *p, char *err, size_t errlen);
/* The same for a socket address (AF_INET or AF_INET6; any other family
 * is refused). */
int rb_target_check_sockaddr(const struct rb_target *t,
	const struct sockaddr *sa, char *err, size_t errlen);
/* The allowed ranges, comma-separated, lab ranges last
 * ("127.0.0.0/8, ::1/128, 198.18.0.0/15, 2001:2::/48, lab 192.0.2.0/24"). */
void rb_target_describe(const struct rb_target *t, char *buf, size_t len);

#endif /* RB_TARGET_H */
