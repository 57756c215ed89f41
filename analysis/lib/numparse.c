/*
 * numparse.c -- strict number parsing; see numparse.h.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "numparse.h"

static int
rb_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int
rb_parse_u64(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull itself takes white space, a sign (and negates "-1"). */
	if (!rb_is_digit(s[0]))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v > max)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

int
rb_parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	uint64_t v;

	if (rb_parse_u64(s, max, &v) < 0)
		return -1;
	*out = (unsigned long)v;
	return 0;
}

int
rb_parse_double(const char *s, double *out)
{
	double v;
	char *end;

	/* strtod itself takes white space, a sign, "inf", "nan" and hex. */
	if (!(rb_is_digit(s[0]) || (s[0] == '.' && rb_is_digit(s[1]))))
		return -1;
	if (strpbrk(s, "xX"))
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
