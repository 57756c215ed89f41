/*
 * numparse.h -- strict parsing of the numbers a user gives (options,
 * profile values): the whole string must be the number, written in
 * decimal with no sign, no white space and no hex, and in range.
 * Shared by every rootbench C program; callers say which option was bad.
 */
#ifndef RB_NUMPARSE_H
#define RB_NUMPARSE_H

#include <stdint.h>

/* An unsigned decimal integer 0..max. 0, or -1 (out untouched). */
int rb_parse_uint(const char *s, unsigned long max, unsigned long *out);
/* The same for uint64_t. */
int rb_parse_u64(const char *s, uint64_t max, uint64_t *out);
/* A finite non-negative decimal number: digits with an optional fraction
 * and exponent ("2500", "0.5", ".5", "1e3", "2.5e-3"). No sign, "inf",
 * "nan", hex, nor a value that overflows or underflows. 0, or -1 (out
 * untouched). */
int rb_parse_double(const char *s, double *out);

#endif /* RB_NUMPARSE_H */
