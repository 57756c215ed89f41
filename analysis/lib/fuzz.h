/*
 * fuzz.h -- what the libFuzzer harnesses (<dir>/fuzz/fuzz_*.c) share: the
 * check that aborts naming the harness (the message make fuzz and the
 * planted-bug test look for), the link types the frame harnesses try, and
 * a copy of an input slice in a buffer of its own, so that ASan sees a
 * read past the slice's end.
 *
 * A harness defines FUZZ_NAME ("fuzz_capture") and may define FUZZ_KIND
 * ("differential check"; default "check") before including it.
 */
#ifndef RB_FUZZ_H
#define RB_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcap/dlt.h>

#ifndef FUZZ_KIND
#define FUZZ_KIND "check"
#endif
#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2 276
#endif

#define FUZZ_CHECK(cond, what) do { if (!(cond)) fuzz_fail(what, #cond); } while (0)

/* fuzz_fail: reports the failed check and aborts (libFuzzer keeps the input) */
static inline void
fuzz_fail(const char *what, const char *cond)
{
	fprintf(stderr, "%s: %s failed: %s (%s)\n", FUZZ_NAME, FUZZ_KIND, what, cond);
	abort();
}

/* fuzz_dlt: the link type an input byte picks: the eight the decoder
 * knows (Ethernet, raw IP, IPv4, IPv6, Linux SLL and SLL2, BSD loopback
 * both byte orders) and one it does not (USER0) */
static inline int
fuzz_dlt(uint8_t b)
{
	static const int dlts[] = { DLT_EN10MB, DLT_RAW, 228 /* IPV4 */,
		229 /* IPV6 */, DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_NULL, DLT_LOOP,
		147 /* USER0: not known */ };
	return dlts[b % (sizeof(dlts) / sizeof(dlts[0]))];
}

/* fuzz_copy: n bytes of p in a malloc'd buffer of exactly n bytes (one
 * when n is 0); aborts when out of memory. The caller frees it. */
static inline uint8_t *
fuzz_copy(const uint8_t *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);
	if (!c)
		abort();
	if (n)
		memcpy(c, p, n);
	return c;
}

#endif /* RB_FUZZ_H */
