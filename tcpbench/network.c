/*
 * network.c -- target and source addresses, non-blocking connect, and the
 * errno to failure-cause mapping; see network.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "network.h"
#include "../analysis/lib/numparse.h"

int
tcpb_addr_parse(struct tcpb_addr *out, const char *host, unsigned port,
	char *err, size_t errlen)
{
	struct addrinfo hints, *res = NULL;
	char portstr[16];
	int r;
	memset(&hints, 0, sizeof(hints));
	hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
	hints.ai_socktype = SOCK_STREAM;
	snprintf(portstr, sizeof(portstr), "%u", port);
	r = getaddrinfo(host, portstr, &hints, &res);
	if (r != 0) {
		snprintf(err, errlen, "'%s': not a numeric IPv4/IPv6 address (%s)", host, gai_strerror(r));
		return -1;
	}
	memset(out, 0, sizeof(*out));
	memcpy(&out->sa, res->ai_addr, res->ai_addrlen);
	out->len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

void
tcpb_addr_format(const struct tcpb_addr *a, char *buf, size_t len)
{
	const void *p = a->sa.ss_family == AF_INET6
		? (const void *)&((const struct sockaddr_in6 *)&a->sa)->sin6_addr
		: (const void *)&((const struct sockaddr_in *)&a->sa)->sin_addr;
	if (!inet_ntop(a->sa.ss_family, p, buf, (socklen_t)len))
		snprintf(buf, len, "?");
}

static int
sources_push(struct tcpb_sources *s, const struct tcpb_addr *a, size_t *cap)
{
	if (s->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct tcpb_addr *na = realloc(s->a, ncap * sizeof(*na));
		if (!na)
			return -1;
		s->a = na;
		*cap = ncap;
	}
	s->a[s->n++] = *a;
	return 0;
}

/* Add the 2^(bits-plen) addresses of a prefix (bytes: the address, in
 * network order, bits long), capped at max in total. */
static int
sources_add_prefix(struct tcpb_sources *s, struct tcpb_addr *base, uint8_t *bytes,
	int bits, int plen, size_t max, size_t *cap, char *err, size_t errlen)
{
	int i, host = bits - plen;
	uint64_t count, k;
	/* Clear the host bits: the prefix's first address. */
	for (i = plen; i < bits; i++)
		bytes[i / 8] &= (uint8_t)~(0x80u >> (i % 8));
	count = host >= 63 ? UINT64_MAX : (UINT64_C(1) << host);
	for (k = 0; k < count; k++) {
		if (s->n >= max) {
			snprintf(err, errlen, "more than %zu source addresses", max);
			return -1;
		}
		if (sources_push(s, base, cap) < 0) {
			snprintf(err, errlen, "realloc: %s", strerror(errno));
			return -1;
		}
		/* Increment the address by one (big-endian). */
		for (i = bits / 8 - 1; i >= 0; i--)
			if (++bytes[i] != 0)
				break;
	}
	return 0;
}

int
tcpb_sources_parse(struct tcpb_sources *s, const char *arg, int family,
	size_t max, char *err, size_t errlen)
{
	char *copy, *item, *save = NULL, *slash;
	size_t cap = 0;
	int ret = 0;

	memset(s, 0, sizeof(*s));
	copy = strdup(arg);
	if (!copy) {
		snprintf(err, errlen, "strdup: %s", strerror(errno));
		return -1;
	}
	for (item = strtok_r(copy, ",", &save); item && ret == 0;
	     item = strtok_r(NULL, ",", &save)) {
		struct tcpb_addr a;
		unsigned long u;
		long plen = -1;
		int bits;
		uint8_t *bytes;
		slash = strchr(item, '/');
		if (slash) {
			*slash = 0;
			if (rb_parse_uint(slash + 1, 128, &u) < 0) {
				snprintf(err, errlen, "source '%s/%s': bad prefix length", item, slash + 1);
				ret = -1;
				break;
			}
			plen = (long)u;
		}
		if (tcpb_addr_parse(&a, item, 0, err, errlen) < 0) {
			ret = -1;
			break;
		}
		if (a.sa.ss_family != family) {
			snprintf(err, errlen, "source '%s' is not of the server's address family", item);
			ret = -1;
			break;
		}
		if (family == AF_INET) {
			bits = 32;
			bytes = (uint8_t *)&((struct sockaddr_in *)&a.sa)->sin_addr;
		} else {
			bits = 128;
			bytes = (uint8_t *)&((struct sockaddr_in6 *)&a.sa)->sin6_addr;
		}
		if (plen < 0)
			plen = bits;
		if (plen > bits || plen < 0) {
			snprintf(err, errlen, "source '%s': prefix length %ld out of range", item, plen);
			ret = -1;
			break;
		}
		ret = sources_add_prefix(s, &a, bytes, bits, (int)plen, max, &cap, err, errlen);
	}
	free(copy);
	if (ret == 0 && s->n == 0) {
		snprintf(err, errlen, "no source addresses in '%s'", arg);
		ret = -1;
	}
	if (ret < 0)
		tcpb_sources_free(s);
	return ret;
}

void
tcpb_sources_set_class(struct tcpb_sources *s, size_t first, size_t stride)
{
	if (s->n == 0)
		return;
	s->next = first % s->n;
	s->step = stride % s->n;
	if (s->step == 0)
		s->step = s->n; /* stride a multiple of n: always the same source */
}

const struct tcpb_addr *
tcpb_sources_next(struct tcpb_sources *s)
{
	const struct tcpb_addr *a;
	if (s->n == 0)
		return NULL;
	a = &s->a[s->next];
	/* step 0 (as parsed, no class set) means 1. */
	s->next = (s->next + (s->step ? s->step : 1)) % s->n;
	return a;
}

void
tcpb_sources_free(struct tcpb_sources *s)
{
	free(s->a);
	memset(s, 0, sizeof(*s));
}

int
tcpb_conn_open(const struct tcpb_addr *dst, const struct tcpb_addr *src,
	int rst_close, int *in_progress)
{
	int fd, one = 1, saved;
	fd = socket(dst->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	/* No TCP_NODELAY: the query is one write on a fresh connection, which
	 * Nagle never delays; the option would only cost a syscall. */
	if (rst_close) {
		struct linger lg = { 1, 0 };
		(void)setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	}
	if (src) {
		(void)setsockopt(fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one));
		if (bind(fd, (const struct sockaddr *)&src->sa, src->len) < 0)
			goto fail;
	}
	if (connect(fd, (const struct sockaddr *)&dst->sa, dst->len) == 0) {
		*in_progress = 0;
		return fd;
	}
	if (errno == EINPROGRESS) {
		*in_progress = 1;
		return fd;
	}
fail:
	saved = errno;
	close(fd);
	errno = saved;
	return -1;
}

enum tcpb_cause
tcpb_cause_of_errno(int err)
{
	switch (err) {
	case ECONNREFUSED:
		return TCPB_CAUSE_REFUSED;
	case ECONNRESET:
	case EPIPE:
	case ECONNABORTED:
		return TCPB_CAUSE_RESET;
	case ETIMEDOUT:
		return TCPB_CAUSE_TIMEOUT;
	case ENETUNREACH:
	case EHOSTUNREACH:
		return TCPB_CAUSE_UNREACHABLE;
	case EMFILE:
	case ENFILE:
	case EADDRNOTAVAIL:
	case EADDRINUSE:
	case ENOBUFS:
	case ENOMEM:
	case EAGAIN:
		return TCPB_CAUSE_LOCAL;
	default:
		return TCPB_CAUSE_OTHER;
	}
}
