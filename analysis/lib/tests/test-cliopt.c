/*
 * test-cliopt.c -- unit test of cliopt.c. What must hold: getopt_long's
 * ':' names the option that needs an argument and '?' the unknown one;
 * an argument left after the options is named, none left is no error;
 * a bad value is named by -c for a short option and by --name for a long
 * one (control: a long option missing from the table falls back to -- as
 * its short name, never another option's name).
 */
#include <getopt.h>
#include <string.h>
#include "../cliopt.h"
#include "../unittest.h"

int
main(void)
{
	static const struct option lo[] = {
		{ "rate", required_argument, NULL, 'r' },
		{ "stall-ms", required_argument, NULL, 300 },
		{ NULL, 0, NULL, 0 }
	};
	char *argv[] = { "prog", "--stall-ms", "x", "extra", NULL };
	char err[128];

	optind = 2;
	UT_EQ(rb_cliopt_getopt_error(':', argv, err, sizeof(err)), -1);
	UT_CHECK(strcmp(err, "option --stall-ms needs an argument") == 0);
	UT_EQ(rb_cliopt_getopt_error('?', argv, err, sizeof(err)), -1);
	UT_CHECK(strcmp(err, "unknown option --stall-ms") == 0);

	optind = 3;
	UT_EQ(rb_cliopt_leftover(4, argv, err, sizeof(err)), -1);
	UT_CHECK(strcmp(err, "unexpected argument 'extra'") == 0);
	optind = 4;
	UT_EQ(rb_cliopt_leftover(4, argv, err, sizeof(err)), 0);

	UT_EQ(rb_cliopt_bad_value('r', "-5", lo, err, sizeof(err)), -1);
	UT_CHECK(strcmp(err, "bad value '-5' for -r") == 0);
	UT_EQ(rb_cliopt_bad_value(300, "0", lo, err, sizeof(err)), -1);
	UT_CHECK(strcmp(err, "bad value '0' for --stall-ms") == 0);
	UT_EQ(rb_cliopt_bad_value(301, "0", lo, err, sizeof(err)), -1);
	UT_CHECK(strcmp(err, "bad value '0' for --") == 0);
	return UT_DONE("test-cliopt");
}
