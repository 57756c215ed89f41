/*
 * unittest.h -- the assertion macros of every C unit test in the tree.
 * A failed check prints where and why and makes main return 1.
 */
#ifndef RB_UNITTEST_H
#define RB_UNITTEST_H

#include <stdio.h>

static int ut_failures;

#define UT_CHECK(cond) do { if (!(cond)) { ut_failures++; \
	fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, \
	#cond); } } while (0)
#define UT_EQ(a, b) do { long long ut_a = (long long)(a), \
	ut_b = (long long)(b); if (ut_a != ut_b) { ut_failures++; \
	fprintf(stderr, "%s:%d: %s = %lld, want %s = %lld\n", __FILE__, \
	__LINE__, #a, ut_a, #b, ut_b); } } while (0)
#define UT_DONE(name) (fprintf(ut_failures ? stderr : stdout, \
	"%s: %d failure(s)\n", name, ut_failures), ut_failures ? 1 : 0)

#endif /* RB_UNITTEST_H */
