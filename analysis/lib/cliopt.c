/*
 * cliopt.c -- the command-line errors the option parsers share; see
 * cliopt.h.
 */
#include <getopt.h>
#include <stdio.h>
#include "cliopt.h"

int
rb_cliopt_getopt_error(int c, char *const argv[], char *err, size_t errlen)
{
	const char *opt = optind > 0 ? argv[optind - 1] : "?";
	if (c == ':')
		snprintf(err, errlen, "option %s needs an argument", opt);
	else
		snprintf(err, errlen, "unknown option %s", opt);
	return -1;
}

int
rb_cliopt_leftover(int argc, char *const argv[], char *err, size_t errlen)
{
	if (optind >= argc)
		return 0;
	snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
	return -1;
}

int
rb_cliopt_bad_value(int c, const char *value, const struct option *longopts,
	char *err, size_t errlen)
{
	const struct option *lo;
	snprintf(err, errlen, "bad value '%s' for -%c", value ? value : "", c > 0 && c < 256 ? c : '-');
	if (c >= 256 && longopts)
		for (lo = longopts; lo->name; lo++)
			if (lo->val == c)
				snprintf(err, errlen, "bad value '%s' for --%s", value ? value : "", lo->name);
	return -1;
}
