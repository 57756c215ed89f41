/*
 * test-json.c -- unit test of json.c. What must hold: quotes, backslashes
 * and control characters are escaped as before; well-formed UTF-8 of every
 * length, boundaries included (U+0080, U+07FF, U+0800, U+D7FF, U+E000,
 * U+FFFF, U+10000, U+10FFFF), is copied as it is; every byte of an
 * ill-formed sequence (stray continuation, C0/C1, F5-FF, overlong,
 * surrogate, above U+10FFFF, cut short by the end or by another byte) is
 * written as \u00XX, one escape per byte; the output is always valid
 * UTF-8, and equals the input exactly when glibc's iconv (an independent
 * decoder) takes the input as UTF-8, for every string of two bytes, every
 * three-byte string after the lead bytes E0, ED, EF, F0 and F4, and
 * pseudo-random strings; a string holding every byte 0..255 comes out of
 * jq as the code points 0..255 (and, negative control, the same bytes
 * written unescaped do not).
 */
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "../lib/json.h"
#include "../lib/unittest.h"
#include "../../udpreplay/rng.h"

typedef void (*writer_fn)(FILE *, const char *, size_t);

/* write_raw: what json.c did before: bytes >= 0x20 copied unchecked */
static void
write_raw(FILE *out, const char *s, size_t len)
{
	size_t i;
	fputc('"', out);
	for (i = 0; i < len; i++)
		fputc(s[i], out);
	fputc('"', out);
}

/* render: fn's output for s[0..len), in a malloc'd buffer */
static char *
render(writer_fn fn, const char *s, size_t len, size_t *outlen)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, outlen);
	if (!f) {
		perror("open_memstream");
		exit(2);
	}
	fn(f, s, len);
	fclose(f);
	return buf;
}

/* expect: rb_json_bytes(s) must be want (quotes included) */
static void
expect(const char *s, size_t len, const char *want)
{
	size_t n;
	char *got = render(rb_json_bytes, s, len, &n);
	if (n != strlen(want) || memcmp(got, want, n) != 0) {
		ut_failures++;
		fprintf(stderr, "json of %zu bytes: got %s, want %s\n", len,
			got, want);
	}
	free(got);
}
#define EXPECT(lit, want) expect(lit, sizeof(lit) - 1, want)

static iconv_t cd;

/* utf8_ok: whether glibc's iconv decodes s[0..len) as UTF-8 */
static int
utf8_ok(const char *s, size_t len)
{
	char out[1024], *in = (char *)s, *o = out;
	size_t il = len, ol = sizeof(out), r;
	iconv(cd, NULL, NULL, NULL, NULL);
	r = iconv(cd, &in, &il, &o, &ol);
	return r != (size_t)-1 && il == 0;
}

/* check_one: fn's output for s (no byte below 0x20, no '"' or '\\') is
 * valid UTF-8, and equals s (inside the quotes) iff s is; 0 or 1 error */
static int
check_one(writer_fn fn, const char *s, size_t len)
{
	size_t n;
	char *got = render(fn, s, len, &n);
	int same = n == len + 2 && memcmp(got + 1, s, len) == 0;
	int bad = !utf8_ok(got, n) || same != utf8_ok(s, len);
	free(got);
	return bad;
}

/* rng: the project's seeded generator (udpreplay/rng.c), so the
 * pseudo-random inputs are the same every run */
static ur_rng rng_state;
static uint32_t
rng(void)
{
	return (uint32_t)ur_rng_next(&rng_state);
}

/* differ: strings checked against iconv, errors counted: every two-byte
 * string, three-byte ones after interesting leads, then n random ones */
static unsigned
differ(writer_fn fn, unsigned n)
{
	static const unsigned char alpha[] = { 'a', '~', 0x7f, 0x80, 0x8f,
		0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1,
		0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff };
	static const unsigned char leads[] = { 0xe0, 0xed, 0xef, 0xf0,
		0xf4 };
	unsigned char s[8];
	unsigned bad = 0, a, b, k, i;

	for (a = 0x20; a < 256; a++)
	for (b = 0x20; b < 256; b++) {
		if (a == '"' || a == '\\' || b == '"' || b == '\\')
			continue;
		s[0] = (unsigned char)a;
		s[1] = (unsigned char)b;
		bad += check_one(fn, (char *)s, 2);
	}
	for (k = 0; k < sizeof(leads); k++)
	for (a = 0x20; a < 256; a++)
	for (b = 0x20; b < 256; b++) {
		if (a == '"' || a == '\\' || b == '"' || b == '\\')
			continue;
		s[0] = leads[k];
		s[1] = (unsigned char)a;
		s[2] = (unsigned char)b;
		bad += check_one(fn, (char *)s, 3);
	}
	for (k = 0; k < n; k++) {
		size_t len = 1 + rng() % sizeof(s);
		for (i = 0; i < len; i++)
			s[i] = alpha[rng() % sizeof(alpha)];
		bad += check_one(fn, (char *)s, len);
	}
	return bad;
}

/* jq_codepoints: the code points jq reads from {"s": fn(s)}, as jq -c
 * prints them ("[0,1,...]"), into res; -1 when jq fails */
static int
jq_codepoints(writer_fn fn, const char *s, size_t len, char *res,
	size_t reslen)
{
	char path[] = "/tmp/test_json.XXXXXX", cmd[128];
	FILE *f, *p;
	size_t n;
	int fd = mkstemp(path), rc;

	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		perror("mkstemp");
		exit(2);
	}
	fputs("{\"s\":", f);
	fn(f, s, len);
	fputs("}\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "jq -c '.s | explode' < %s", path);
	p = popen(cmd, "r");
	if (!p) {
		perror("popen jq");
		exit(2);
	}
	n = fread(res, 1, reslen - 1, p);
	res[n] = 0;
	if (n && res[n - 1] == '\n')
		res[n - 1] = 0;
	rc = pclose(p);
	unlink(path);
	return rc == 0 ? 0 : -1;
}

int
main(void)
{
	char all[256], res[4096], want[4096];
	size_t i, off = 0;

	ur_rng_seed(&rng_state, 88172645);

	/* what json.c always did */
	EXPECT("plain", "\"plain\"");
	EXPECT("a\"b\\c", "\"a\\\"b\\\\c\"");
	EXPECT("\n\t\x01\x1f", "\"\\u000a\\u0009\\u0001\\u001f\"");
	EXPECT("\x7f", "\"\x7f\"");
	EXPECT("", "\"\"");
	expect("a\0b", 3, "\"a\\u0000b\"");
	/* well-formed UTF-8 at the boundaries of each length */
	EXPECT("\xc2\x80 \xdf\xbf", "\"\xc2\x80 \xdf\xbf\"");
	EXPECT("\xe0\xa0\x80 \xed\x9f\xbf \xee\x80\x80 \xef\xbf\xbf",
		"\"\xe0\xa0\x80 \xed\x9f\xbf \xee\x80\x80 \xef\xbf\xbf\"");
	EXPECT("\xf0\x90\x80\x80 \xf4\x8f\xbf\xbf",
		"\"\xf0\x90\x80\x80 \xf4\x8f\xbf\xbf\"");
	/* ill-formed: every byte escaped, the rest read afresh */
	EXPECT("\x80", "\"\\u0080\"");
	EXPECT("\xc0\xaf", "\"\\u00c0\\u00af\"");		/* overlong / */
	EXPECT("\xc1\xbf", "\"\\u00c1\\u00bf\"");
	EXPECT("\xe0\x80\xaf", "\"\\u00e0\\u0080\\u00af\"");
	EXPECT("\xf0\x80\x80\xaf", "\"\\u00f0\\u0080\\u0080\\u00af\"");
	EXPECT("\xed\xa0\x80", "\"\\u00ed\\u00a0\\u0080\"");	/* U+D800 */
	EXPECT("\xed\xbf\xbf", "\"\\u00ed\\u00bf\\u00bf\"");	/* U+DFFF */
	EXPECT("\xf4\x90\x80\x80", "\"\\u00f4\\u0090\\u0080\\u0080\"");
	EXPECT("\xf5\xff\xfe", "\"\\u00f5\\u00ff\\u00fe\"");
	EXPECT("\xe2\x82", "\"\\u00e2\\u0082\"");		/* cut by end */
	EXPECT("\xe2\x82" "A", "\"\\u00e2\\u0082A\"");
	EXPECT("\xe2" "\xc3\xa9", "\"\\u00e2\xc3\xa9\"");	/* then é */
	EXPECT("\xf0\x9f\x98", "\"\\u00f0\\u009f\\u0098\"");
	/* NULL and NUL-terminated strings */
	{
		size_t n;
		char *buf = NULL;
		FILE *f = open_memstream(&buf, &n);
		rb_json_string(f, NULL);
		fputc(' ', f);
		rb_json_string(f, "x\xffy");
		fclose(f);
		UT_CHECK(strcmp(buf, "null \"x\\u00ffy\"") == 0);
		free(buf);
	}

	cd = iconv_open("UTF-32LE", "UTF-8");
	if (cd == (iconv_t)-1) {
		perror("iconv_open UTF-8");
		return 2;
	}
	UT_EQ(differ(rb_json_bytes, 200000), 0);
	/* negative control: the unchecked writer is caught */
	UT_CHECK(differ(write_raw, 0) > 1000);
	iconv_close(cd);

	/* every byte 0..255 through jq: code points 0..255 */
	for (i = 0; i < 256; i++)
		all[i] = (char)i;
	off += (size_t)snprintf(want + off, sizeof(want) - off, "[");
	for (i = 0; i < 256; i++)
		off += (size_t)snprintf(want + off, sizeof(want) - off,
			"%s%zu", i ? "," : "", i);
	snprintf(want + off, sizeof(want) - off, "]");
	UT_EQ(jq_codepoints(rb_json_bytes, all, 256, res, sizeof(res)), 0);
	if (strcmp(res, want) != 0) {
		ut_failures++;
		fprintf(stderr, "jq read every byte as %s\n", res);
	}
	/* and well-formed UTF-8 as its code points */
	UT_EQ(jq_codepoints(rb_json_bytes, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98"
		"\x80\xf4\x8f\xbf\xbf", 13, res, sizeof(res)), 0);
	UT_CHECK(strcmp(res, "[233,8364,128512,1114111]") == 0);
	/* negative control: bytes 0x80..0xff unescaped do not come back
	 * from jq as 128..255 (jq reads U+FFFD, or fails) */
	off = (size_t)snprintf(want, sizeof(want), "[");
	for (i = 128; i < 256; i++)
		off += (size_t)snprintf(want + off, sizeof(want) - off,
			"%s%zu", i > 128 ? "," : "", i);
	snprintf(want + off, sizeof(want) - off, "]");
	UT_EQ(jq_codepoints(rb_json_bytes, all + 128, 128, res, sizeof(res)),
		0);
	UT_CHECK(strcmp(res, want) == 0);
	if (jq_codepoints(write_raw, all + 128, 128, res, sizeof(res)) == 0)
		UT_CHECK(strcmp(res, want) != 0);
	return UT_DONE("test_json");
}
