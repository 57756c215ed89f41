/*
 * unittest.h -- the CHECK macro of the sampler's C unit tests: a failed
 * condition is printed with its line and counted; main returns non-zero
 * when any failed.
 */
#ifndef RBS_UNITTEST_H
#define RBS_UNITTEST_H

#include <stdio.h>

static int failures;
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); \
	failures++; } } while (0)

#endif /* RBS_UNITTEST_H */
