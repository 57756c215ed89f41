/*
 * test-numparse.c -- unit test of numparse.c. What must hold: decimal
 * integers from 0 to the maximum (inclusive) are accepted with their
 * value; a sign, white space, hex, trailing garbage, an empty string, a
 * value over the maximum and one that overflows unsigned long are
 * rejected and leave the output untouched. Decimal numbers with fraction
 * and exponent are accepted; a sign, white space, inf, nan, hex, garbage
 * and overflow are rejected the same way.
 */
#include <stdint.h>
#include "../numparse.h"
#include "../unittest.h"

int
main(void)
{
	static const char *const bad_uint[] = {
		"", "-1", "-0", "+5", " 5", "5 ", "\t5", "0x10", "5x", "1.5",
		"1e3", "abc", "66", "18446744073709551616",
		"99999999999999999999999", NULL
	};
	static const char *const bad_double[] = {
		"", "-1", "-0", "+2", " 2", "2 ", "inf", "INF", "nan", "infinity",
		"0x10", "0X1p3", "1.5.2", "2abc", "e5", ".", ".e1", "1e", "1e400",
		NULL
	};
	unsigned long u;
	uint64_t v;
	double d;
	int i;

	/* Unsigned integers. */
	u = 7;
	UT_EQ(rb_parse_uint("0", 65, &u), 0);
	UT_EQ(u, 0);
	UT_EQ(rb_parse_uint("65", 65, &u), 0);
	UT_EQ(u, 65);
	UT_EQ(rb_parse_uint("007", 65, &u), 0);
	UT_EQ(u, 7);
	for (i = 0; bad_uint[i]; i++) {
		u = 12345;
		if (rb_parse_uint(bad_uint[i], 65, &u) != -1)
			fprintf(stderr, "rb_parse_uint accepted '%s'\n", bad_uint[i]);
		UT_EQ(rb_parse_uint(bad_uint[i], 65, &u), -1);
		UT_EQ(u, 12345);
	}
	UT_EQ(rb_parse_uint("4294967296", 4294967296UL, &u), 0);
	UT_CHECK(u == 4294967296UL);

	/* 64 bits, up to UINT64_MAX and not one more. */
	UT_EQ(rb_parse_u64("18446744073709551615", UINT64_MAX, &v), 0);
	UT_CHECK(v == UINT64_MAX);
	v = 3;
	UT_EQ(rb_parse_u64("18446744073709551616", UINT64_MAX, &v), -1);
	UT_EQ(rb_parse_u64("1099511627777", UINT64_C(1) << 40, &v), -1);
	UT_EQ(rb_parse_u64("-1", UINT64_MAX, &v), -1);
	UT_EQ(v, 3);
	UT_EQ(rb_parse_u64("1099511627776", UINT64_C(1) << 40, &v), 0);
	UT_CHECK(v == UINT64_C(1) << 40);

	/* Decimal numbers. */
	UT_EQ(rb_parse_double("2500", &d), 0);
	UT_CHECK(d == 2500.0);
	UT_EQ(rb_parse_double("0", &d), 0);
	UT_CHECK(d == 0.0);
	UT_EQ(rb_parse_double("0.25", &d), 0);
	UT_CHECK(d == 0.25);
	UT_EQ(rb_parse_double(".5", &d), 0);
	UT_CHECK(d == 0.5);
	UT_EQ(rb_parse_double("5.", &d), 0);
	UT_CHECK(d == 5.0);
	UT_EQ(rb_parse_double("1e3", &d), 0);
	UT_CHECK(d == 1000.0);
	UT_EQ(rb_parse_double("2.5e-3", &d), 0);
	UT_CHECK(d == 0.0025);
	for (i = 0; bad_double[i]; i++) {
		d = 42.0;
		if (rb_parse_double(bad_double[i], &d) != -1)
			fprintf(stderr, "rb_parse_double accepted '%s'\n", bad_double[i]);
		UT_EQ(rb_parse_double(bad_double[i], &d), -1);
		UT_CHECK(d == 42.0);
	}
	return UT_DONE("test_numparse");
}
