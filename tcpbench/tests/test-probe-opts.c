/*
 * test-probe-opts.c -- unit test of rbprobe's option table (popts.c).
 * Must hold: the defaults come from the table (port 53, 20/s each, 4000
 * ms, ". SOA", no serial); a given value replaces them; a value out of
 * its range, a negative or non-numeric number, an unknown option and a
 * missing argument are refused with a sentence naming the option; the
 * cross-option rules (--server required, --duration xor --until-signal,
 * not both rates 0, rate x timeout bounded) hold; --help returns 1; an
 * --allow-range reaches the guard; --help lists every option.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../probe/popts.h"
#include "../../analysis/lib/unittest.h"

static struct probe_options o;
static char err[512];

/* Parse a NULL-terminated argument list (after argv[0]). */
static int
parse(const char *first, ...)
{
	char *argv[32];
	int argc = 0;
	va_list ap;
	const char *a;
	argv[argc++] = "rbprobe";
	va_start(ap, first);
	for (a = first; a && argc < 31; a = va_arg(ap, const char *))
		argv[argc++] = (char *)a;
	va_end(ap);
	argv[argc] = NULL;
	err[0] = 0;
	return popts_parse(&o, argc, argv, err, sizeof(err));
}

int
main(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	unsigned char v4[4] = { 192, 0, 2, 1 };

	UT_EQ(parse("--server", "127.0.0.1", "--duration", "2", NULL), 0);
	UT_EQ(o.port, 53);
	UT_CHECK(o.udp_rate == 20 && o.tcp_rate == 20 && o.duration_s == 2);
	UT_EQ(o.timeout_ms, 4000);
	UT_CHECK(strcmp(o.qname, ".") == 0 && strcmp(o.qtype, "SOA") == 0);
	UT_EQ(o.has_serial, 0);
	UT_CHECK(o.max_duration_s == 3600);
	UT_CHECK(o.edns_size == 0 && o.do_bit == 0);

	/* EDNS and DO (a validating resolver's question): DO needs the OPT
	 * record; a buffer under 512 is refused (control: 1232 and DO pass). */
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--edns", "1232", "--do", NULL), 0);
	UT_CHECK(o.edns_size == 1232 && o.do_bit == 1);
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--do", NULL), -1);
	UT_CHECK(strstr(err, "--do needs --edns"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--edns", "511", NULL), -1);
	UT_CHECK(strstr(err, "--edns 511"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--edns", "65536", NULL), -1);
	UT_CHECK(strstr(err, "--edns"));

	UT_EQ(parse("-s", "::1", "--until-signal", "--serial", "2023010100", "--udp-rate", "0",
		"-t", "1000", "-p", "5300", NULL), 0);
	UT_EQ(o.has_serial, 1);
	UT_EQ(o.serial, 2023010100);
	UT_CHECK(o.udp_rate == 0 && o.tcp_rate == 20 && o.until_signal);
	UT_EQ(o.timeout_ms, 1000);
	UT_EQ(o.port, 5300);

	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--udp-rate", "-1", NULL), -1);
	UT_CHECK(strstr(err, "--udp-rate") && strstr(err, "'-1'"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--tcp-rate", "10001", NULL), -1);
	UT_CHECK(strstr(err, "--tcp-rate"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--timeout-ms", "0", NULL), -1);
	UT_CHECK(strstr(err, "--timeout-ms"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--port", "x", NULL), -1);
	UT_CHECK(strstr(err, "--port"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--serial", "4294967296", NULL), -1);
	UT_CHECK(strstr(err, "--serial"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--bogus", NULL), -1);
	UT_CHECK(strstr(err, "unknown option --bogus"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", NULL), -1);
	UT_CHECK(strstr(err, "needs an argument"));
	UT_EQ(parse("-d", "1", NULL), -1);
	UT_CHECK(strstr(err, "--server"));
	UT_EQ(parse("-s", "127.0.0.1", NULL), -1);
	UT_CHECK(strstr(err, "--duration"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--until-signal", NULL), -1);
	UT_CHECK(strstr(err, "exclude"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--udp-rate", "0", "--tcp-rate", "0", NULL), -1);
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "--udp-rate", "10000", "-t", "60000", NULL), -1);
	UT_CHECK(strstr(err, "in flight"));
	UT_EQ(parse("-s", "127.0.0.1", "-d", "1", "extra", NULL), -1);
	UT_EQ(parse("--help", NULL), 1);

	UT_EQ(parse("-s", "192.0.2.1", "-d", "1", NULL), 0);
	UT_CHECK(!rb_target_allowed(&o.target, AF_INET, v4));
	UT_EQ(parse("-s", "192.0.2.1", "-d", "1", "--allow-range", "192.0.2.0/24", NULL), 0);
	UT_CHECK(rb_target_allowed(&o.target, AF_INET, v4));
	UT_EQ(parse("-s", "192.0.2.1", "-d", "1", "--allow-range", "0.0.0.0/0", NULL), -1);
	UT_CHECK(strstr(err, "--allow-range"));

	f = open_memstream(&text, &len);
	popts_usage(f);
	fclose(f);
	{
		const char *names[] = { "--server", "--port", "--udp-rate", "--tcp-rate", "--duration",
			"--until-signal", "--max-duration", "--timeout-ms", "--qname", "--qtype",
			"--edns", "--do", "--serial", "--source", "--json", "--quiet", "--allow-range", "--help" };
		size_t i;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			UT_CHECK(strstr(text, names[i]) != NULL);
		UT_CHECK(strstr(text, "default 4000") != NULL);
	}
	free(text);
	return UT_DONE("test-probe-opts");
}
