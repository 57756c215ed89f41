/*
 * test-target.c -- unit test of target.c, the target guard. What must
 * hold: each built-in range admits its first and last address and
 * refuses the addresses just outside (198.17.255.255 and 198.20.0.0
 * refused, 198.18.0.0 and 198.19.255.255 allowed; 2001:2::/48 and
 * loopback alike); an IPv4-mapped IPv6 address is judged as its IPv4
 * address (::ffff:8.8.8.8 refused, ::ffff:198.18.0.53 allowed); malformed
 * CIDR ranges are rejected with a message; a declared lab range admits
 * its own addresses and nothing else, and a bad, too wide or mapped lab
 * range leaves the guard unchanged; the refusal names the address, the
 * allowed ranges and how to declare a lab range.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/un.h>
#include "../target.h"
#include "../unittest.h"

static char err[2048];

/* allowed: whether the guard admits a numeric address (either family). */
static int
allowed(const struct rb_target *t, const char *s)
{
	uint8_t a[16];
	int family = strchr(s, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(family, s, a) != 1) {
		fprintf(stderr, "test address '%s' does not parse\n", s);
		return -1;
	}
	return rb_target_allowed(t, family, a);
}

/* refusal: the message for a refused address ("" when allowed). */
static const char *
refusal(const struct rb_target *t, const char *s)
{
	uint8_t a[16];
	int family = strchr(s, ':') ? AF_INET6 : AF_INET;
	err[0] = 0;
	if (inet_pton(family, s, a) != 1 || rb_target_check(t, family, a, err, sizeof(err)) == 0)
		return "";
	return err;
}

#define EXPECT(t, addr, want) do { if (allowed(t, addr) != (want)) { \
	ut_failures++; fprintf(stderr, "%s:%d: %s: allowed %d, want %d\n", \
	__FILE__, __LINE__, addr, allowed(t, addr), want); } } while (0)
/* REJECTS(call, input): call returns -1 and leaves a message in err. */
#define REJECTS(call, input) do { err[0] = 0; if ((call) != -1) { \
	ut_failures++; fprintf(stderr, "%s:%d: '%s' accepted\n", __FILE__, \
	__LINE__, input); } UT_CHECK(err[0] != 0); } while (0)
#define HAS(hay, needle) do { if (!strstr(hay, needle)) { ut_failures++; \
	fprintf(stderr, "%s:%d: '%s' not in '%s'\n", __FILE__, __LINE__, \
	needle, hay); } } while (0)

static void
test_builtin(void)
{
	struct rb_target t;
	rb_target_init(&t);
	/* 198.18.0.0/15 */
	EXPECT(&t, "198.17.255.255", 0);
	EXPECT(&t, "198.18.0.0", 1);
	EXPECT(&t, "198.18.0.53", 1);
	EXPECT(&t, "198.19.255.255", 1);
	EXPECT(&t, "198.20.0.0", 0);
	/* 2001:2::/48 */
	EXPECT(&t, "2001:1:ffff:ffff:ffff:ffff:ffff:ffff", 0);
	EXPECT(&t, "2001:2::", 1);
	EXPECT(&t, "2001:2::53", 1);
	EXPECT(&t, "2001:2:0:ffff:ffff:ffff:ffff:ffff", 1);
	EXPECT(&t, "2001:2:1::", 0);
	EXPECT(&t, "2001:3::", 0);
	/* loopback */
	EXPECT(&t, "126.255.255.255", 0);
	EXPECT(&t, "127.0.0.0", 1);
	EXPECT(&t, "127.0.0.1", 1);
	EXPECT(&t, "127.255.255.255", 1);
	EXPECT(&t, "128.0.0.0", 0);
	EXPECT(&t, "::1", 1);
	EXPECT(&t, "::", 0);
	EXPECT(&t, "::2", 0);
	/* the world */
	EXPECT(&t, "8.8.8.8", 0);
	EXPECT(&t, "0.0.0.0", 0);
	EXPECT(&t, "255.255.255.255", 0);
	EXPECT(&t, "192.0.2.1", 0);
	EXPECT(&t, "2001:db8::1", 0);
	/* IPv4-mapped: judged as the IPv4 address; other embeddings are IPv6 */
	EXPECT(&t, "::ffff:8.8.8.8", 0);
	EXPECT(&t, "::ffff:198.18.0.53", 1);
	EXPECT(&t, "::ffff:198.20.0.0", 0);
	EXPECT(&t, "::ffff:127.0.0.1", 1);
	EXPECT(&t, "::198.18.0.53", 0);
	EXPECT(&t, "64:ff9b::c612:35", 0);
	EXPECT(&t, "2002:c612:35::1", 0);
}

static void
test_message(void)
{
	struct rb_target t;
	const char *m;
	rb_target_init(&t);
	m = refusal(&t, "8.8.8.8");
	HAS(m, "8.8.8.8 is not an address rootbench may send to");
	HAS(m, "127.0.0.0/8");
	HAS(m, "::1");
	HAS(m, "198.18.0.0/15");
	HAS(m, "2001:2::/48");
	HAS(m, "declared: none");
	HAS(m, "--allow-range CIDR");
	HAS(m, "RB_ALLOW_RANGES=");
	m = refusal(&t, "::ffff:8.8.8.8");
	HAS(m, "::ffff:8.8.8.8 (IPv4 8.8.8.8) is not");
	UT_EQ(strlen(refusal(&t, "198.18.0.53")), 0);
	UT_EQ(rb_target_allow(&t, "192.0.2.0/24 2001:db8::/32", err, sizeof(err)), 0);
	m = refusal(&t, "8.8.8.8");
	HAS(m, "declared: 192.0.2.0/24, 2001:db8::/32");
}

static void
test_parse(void)
{
	static const char *const bad[] = {
		"", "/", "198.18.0.0", "198.18.0.0/", "/15", "198.18.0.0/33",
		"2001:2::/129", "198.18.0.0/-1", "198.18.0.0/+15", "198.18.0.0/ 15",
		" 198.18.0.0/15", "198.18.0.0/15 ", "198.18.0.0/0x0f", "198.18.0.0/15a",
		"198.018.0.0/15", "198.18.0/15", "198.18.0.0.0/15", "256.0.0.0/8",
		"foo/8", "198.18.0.0/15/1", "2001:2:::/48", "2001:2::g/48",
		"198.18.0.1/15", "198.19.0.0/15", "2001:2::1/48", "127.0.0.1/8",
		"0000000000000000000000000000000000000000000000000000000000000000/8",
		NULL
	};
	struct rb_target_range r;
	char buf[64];
	int i;

	UT_EQ(rb_target_range_parse(&r, "198.18.0.0/15", err, sizeof(err)), 0);
	UT_EQ(r.family, AF_INET);
	UT_EQ(r.plen, 15);
	rb_target_range_format(&r, buf, sizeof(buf));
	UT_CHECK(strcmp(buf, "198.18.0.0/15") == 0);
	UT_EQ(rb_target_range_parse(&r, "2001:2::/48", err, sizeof(err)), 0);
	UT_EQ(r.family, AF_INET6);
	rb_target_range_format(&r, buf, sizeof(buf));
	UT_CHECK(strcmp(buf, "2001:2::/48") == 0);
	UT_EQ(rb_target_range_parse(&r, "0.0.0.0/0", err, sizeof(err)), 0);
	UT_EQ(rb_target_range_parse(&r, "192.0.2.53/32", err, sizeof(err)), 0);
	UT_EQ(rb_target_range_parse(&r, "::/0", err, sizeof(err)), 0);
	for (i = 0; bad[i]; i++)
		REJECTS(rb_target_range_parse(&r, bad[i], err, sizeof(err)), bad[i]);
	rb_target_range_parse(&r, "198.18.0.0", err, sizeof(err));
	HAS(err, "no prefix length");
	rb_target_range_parse(&r, "198.18.0.0/33", err, sizeof(err));
	HAS(err, "bad prefix length '33' (0..32)");
	rb_target_range_parse(&r, "foo/8", err, sizeof(err));
	HAS(err, "'foo' is not a numeric");
	rb_target_range_parse(&r, "198.18.0.1/15", err, sizeof(err));
	HAS(err, "host bits set (the range is 198.18.0.0/15)");
}

static void
test_lab(void)
{
	static const char *const refused[] = {
		"", "  , ", "0.0.0.0/0", "10.0.0.0/7", "::/0", "2001::/15",
		"::ffff:192.0.2.0/120", "::ffff:0:0/96", "192.0.2.0/24 bogus",
		"192.0.2.0/24,192.0.2.1/24", NULL
	};
	struct rb_target t;
	char d[512], many[64 * 24];
	int i;

	rb_target_init(&t);
	UT_EQ(rb_target_allow(&t, "192.0.2.0/24", err, sizeof(err)), 0);
	UT_EQ(t.nlab, 1);
	EXPECT(&t, "192.0.1.255", 0);
	EXPECT(&t, "192.0.2.0", 1);
	EXPECT(&t, "192.0.2.53", 1);
	EXPECT(&t, "192.0.2.255", 1);
	EXPECT(&t, "192.0.3.0", 0);
	EXPECT(&t, "::ffff:192.0.2.53", 1);
	EXPECT(&t, "8.8.8.8", 0);
	EXPECT(&t, "2001:db8::1", 0);
	/* the built-in ranges stay */
	EXPECT(&t, "198.18.0.53", 1);
	/* several at once, spaces and commas */
	UT_EQ(rb_target_allow(&t, " 2001:db8::/32,\t203.0.113.0/24 , 10.0.0.0/8\n", err, sizeof(err)), 0);
	UT_EQ(t.nlab, 4);
	EXPECT(&t, "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff", 1);
	EXPECT(&t, "2001:db9::", 0);
	EXPECT(&t, "2001:db7:ffff::", 0);
	EXPECT(&t, "203.0.113.9", 1);
	EXPECT(&t, "10.255.255.255", 1);
	EXPECT(&t, "11.0.0.0", 0);
	rb_target_describe(&t, d, sizeof(d));
	HAS(d, "127.0.0.0/8, ::1/128, 198.18.0.0/15, 2001:2::/48, lab 192.0.2.0/24, lab 2001:db8::/32");
	/* a bad list changes nothing, even when its first range was good */
	for (i = 0; refused[i]; i++) {
		REJECTS(rb_target_allow(&t, refused[i], err, sizeof(err)), refused[i]);
		UT_EQ(t.nlab, 4);
	}
	rb_target_allow(&t, "0.0.0.0/0", err, sizeof(err));
	HAS(err, "wider than a /8");
	rb_target_allow(&t, "::ffff:192.0.2.0/120", err, sizeof(err));
	HAS(err, "IPv4-mapped");
	rb_target_allow(&t, "", err, sizeof(err));
	HAS(err, "no range");
	/* at most RB_TARGET_LAB_MAX */
	rb_target_init(&t);
	many[0] = 0;
	for (i = 0; i < RB_TARGET_LAB_MAX; i++)
		snprintf(many + strlen(many), sizeof(many) - strlen(many), "10.%d.0.0/16 ", i);
	UT_EQ(rb_target_allow(&t, many, err, sizeof(err)), 0);
	UT_EQ(t.nlab, RB_TARGET_LAB_MAX);
	UT_EQ(rb_target_allow(&t, "192.0.2.0/24", err, sizeof(err)), -1);
	HAS(err, "more than 64 lab ranges");
	EXPECT(&t, "10.63.1.2", 1);
	EXPECT(&t, "10.64.1.2", 0);
}

static void
test_sockaddr(void)
{
	struct rb_target t;
	struct sockaddr_in s4;
	struct sockaddr_in6 s6;
	struct sockaddr_un su;

	rb_target_init(&t);
	memset(&s4, 0, sizeof(s4));
	s4.sin_family = AF_INET;
	inet_pton(AF_INET, "8.8.8.8", &s4.sin_addr);
	UT_EQ(rb_target_check_sockaddr(&t, (struct sockaddr *)&s4, err, sizeof(err)), -1);
	HAS(err, "8.8.8.8 is not");
	inet_pton(AF_INET, "198.19.255.255", &s4.sin_addr);
	UT_EQ(rb_target_check_sockaddr(&t, (struct sockaddr *)&s4, err, sizeof(err)), 0);
	memset(&s6, 0, sizeof(s6));
	s6.sin6_family = AF_INET6;
	inet_pton(AF_INET6, "::1", &s6.sin6_addr);
	UT_EQ(rb_target_check_sockaddr(&t, (struct sockaddr *)&s6, err, sizeof(err)), 0);
	inet_pton(AF_INET6, "::ffff:8.8.8.8", &s6.sin6_addr);
	UT_EQ(rb_target_check_sockaddr(&t, (struct sockaddr *)&s6, err, sizeof(err)), -1);
	memset(&su, 0, sizeof(su));
	su.sun_family = AF_UNIX;
	UT_EQ(rb_target_check_sockaddr(&t, (struct sockaddr *)&su, err, sizeof(err)), -1);
	HAS(err, "neither IPv4 nor IPv6");
}

/* prefix_ok: whether the guard admits the whole prefix S (ADDRESS/LENGTH). */
static int
prefix_ok(const struct rb_target *t, const char *s)
{
	struct rb_target_range p;
	if (rb_target_range_parse(&p, s, err, sizeof(err)) < 0) {
		fprintf(stderr, "test prefix '%s' does not parse: %s\n", s, err);
		return -1;
	}
	return rb_target_check_prefix(t, &p, err, sizeof(err)) == 0;
}

/* A source prefix (kxdpgun -l) is allowed only inside one allowed range:
 * its first and last addresses allowed is not enough. */
static void
test_prefix(void)
{
	struct rb_target t;

	rb_target_init(&t);
	UT_EQ(prefix_ok(&t, "198.18.0.0/15"), 1);
	UT_EQ(prefix_ok(&t, "198.19.255.0/24"), 1);
	UT_EQ(prefix_ok(&t, "198.18.1.20/32"), 1);
	UT_EQ(prefix_ok(&t, "198.16.0.0/13"), 0);
	HAS(err, "the prefix 198.16.0.0/13 does not lie inside one range");
	UT_EQ(prefix_ok(&t, "192.0.2.0/24"), 0);
	UT_EQ(prefix_ok(&t, "2001:2:0:4::/64"), 1);
	UT_EQ(prefix_ok(&t, "2001::/32"), 0);
	UT_EQ(prefix_ok(&t, "::1/128"), 1);
	UT_EQ(prefix_ok(&t, "127.0.0.0/8"), 1);
	/* two lab ranges with a gap: a prefix spanning both has its first and
	 * last address allowed and is still refused */
	UT_EQ(rb_target_allow(&t, "10.0.0.0/24 10.0.1.128/25", err, sizeof(err)), 0);
	UT_EQ(prefix_ok(&t, "10.0.0.0/25"), 1);
	UT_EQ(allowed(&t, "10.0.0.0"), 1);
	UT_EQ(allowed(&t, "10.0.1.255"), 1);
	UT_EQ(prefix_ok(&t, "10.0.0.0/23"), 0);
}

int
main(void)
{
	test_prefix();
	test_builtin();
	test_message();
	test_parse();
	test_lab();
	test_sockaddr();
	return UT_DONE("test_target");
}
