/*
 * cliopt.h -- the command-line errors the option parsers share (tcpbench,
 * rbsample): getopt_long's missing argument and unknown option, an
 * argument left over, and a bad value named by its option. Each writes
 * one sentence to err and returns -1, for the parser to return.
 */
#ifndef RB_CLIOPT_H
#define RB_CLIOPT_H

#include <getopt.h>
#include <stddef.h>

/* getopt_long returned c (':' or '?'): the option it could not take,
 * argv[optind - 1], needs an argument or is unknown. */
int rb_cliopt_getopt_error(int c, char *const argv[], char *err, size_t errlen);
/* Arguments left after the options (optind < argc): the first one;
 * 0 when none is left. */
int rb_cliopt_leftover(int argc, char *const argv[], char *err, size_t errlen);
/* VALUE was refused for the option whose getopt code is c: named -c for a
 * short option, --name (from longopts) for a long one. */
int rb_cliopt_bad_value(int c, const char *value, const struct option *longopts,
	char *err, size_t errlen);

#endif /* RB_CLIOPT_H */
