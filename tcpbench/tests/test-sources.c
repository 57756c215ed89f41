/*
 * test-sources.c -- unit test of source-address expansion (-b).
 * Must hold: a prefix expands to every address in it, in order, host bits
 * cleared; lists and prefixes combine; round robin cycles; wrong family,
 * bad prefix lengths, garbage and too many addresses are errors.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include "../network.h"
#include "../../analysis/lib/unittest.h"


static const char *
fmt(const struct tcpb_addr *a)
{
	static char buf[64];
	tcpb_addr_format(a, buf, sizeof(buf));
	return buf;
}

int
main(void)
{
	struct tcpb_sources s;
	char err[256];
	size_t i;

	UT_CHECK(tcpb_sources_parse(&s, "198.18.4.0/23", AF_INET, TCPB_SOURCES_MAX, err, sizeof(err)) == 0);
	UT_CHECK(s.n == 512);
	UT_CHECK(strcmp(fmt(&s.a[0]), "198.18.4.0") == 0);
	UT_CHECK(strcmp(fmt(&s.a[255]), "198.18.4.255") == 0);
	UT_CHECK(strcmp(fmt(&s.a[256]), "198.18.5.0") == 0);
	UT_CHECK(strcmp(fmt(&s.a[511]), "198.18.5.255") == 0);
	UT_CHECK(((struct sockaddr_in *)&s.a[3].sa)->sin_port == 0);
	for (i = 0; i < 513; i++) {
		const struct tcpb_addr *a = tcpb_sources_next(&s);
		if (i == 512)
			UT_CHECK(a == &s.a[0]);
	}
	tcpb_sources_free(&s);

	/* Host bits cleared; list of prefix and single addresses. */
	UT_CHECK(tcpb_sources_parse(&s, "198.18.4.77/30,198.18.6.1,198.18.6.9/32", AF_INET,
		TCPB_SOURCES_MAX, err, sizeof(err)) == 0);
	UT_CHECK(s.n == 6);
	UT_CHECK(strcmp(fmt(&s.a[0]), "198.18.4.76") == 0);
	UT_CHECK(strcmp(fmt(&s.a[3]), "198.18.4.79") == 0);
	UT_CHECK(strcmp(fmt(&s.a[4]), "198.18.6.1") == 0);
	UT_CHECK(strcmp(fmt(&s.a[5]), "198.18.6.9") == 0);
	tcpb_sources_free(&s);

	/* IPv6, carrying across bytes. */
	UT_CHECK(tcpb_sources_parse(&s, "2001:2:0:4::fe/127,2001:2:0:4::1ff/128", AF_INET6,
		TCPB_SOURCES_MAX, err, sizeof(err)) == 0);
	UT_CHECK(s.n == 3);
	UT_CHECK(strcmp(fmt(&s.a[1]), "2001:2:0:4::ff") == 0);
	UT_CHECK(strcmp(fmt(&s.a[2]), "2001:2:0:4::1ff") == 0);
	tcpb_sources_free(&s);
	UT_CHECK(tcpb_sources_parse(&s, "2001:2:0:4::/120", AF_INET6, TCPB_SOURCES_MAX, err, sizeof(err)) == 0);
	UT_CHECK(s.n == 256);
	UT_CHECK(strcmp(fmt(&s.a[255]), "2001:2:0:4::ff") == 0);
	tcpb_sources_free(&s);

	/* Errors. */
	UT_CHECK(tcpb_sources_parse(&s, "198.18.4.0/23", AF_INET6, TCPB_SOURCES_MAX, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_sources_parse(&s, "198.18.4.0/33", AF_INET, TCPB_SOURCES_MAX, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_sources_parse(&s, "198.18.4.0/x", AF_INET, TCPB_SOURCES_MAX, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_sources_parse(&s, "not-an-address", AF_INET, TCPB_SOURCES_MAX, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_sources_parse(&s, ",", AF_INET, TCPB_SOURCES_MAX, err, sizeof(err)) < 0);
	UT_CHECK(tcpb_sources_parse(&s, "198.18.0.0/15", AF_INET, TCPB_SOURCES_MAX, err, sizeof(err)) < 0);
	UT_CHECK(strstr(err, "more than") != NULL);
	UT_CHECK(tcpb_sources_parse(&s, "2001:2::/48", AF_INET6, 1000, err, sizeof(err)) < 0);
	UT_CHECK(s.n == 0 && s.a == NULL);

	/* errno to cause. */
	UT_CHECK(tcpb_cause_of_errno(ECONNREFUSED) == TCPB_CAUSE_REFUSED);
	UT_CHECK(tcpb_cause_of_errno(ECONNRESET) == TCPB_CAUSE_RESET);
	UT_CHECK(tcpb_cause_of_errno(EMFILE) == TCPB_CAUSE_LOCAL);
	UT_CHECK(tcpb_cause_of_errno(EADDRNOTAVAIL) == TCPB_CAUSE_LOCAL);

	if (ut_failures)
		return 1;
	printf("test-sources: ok\n");
	return 0;
}
