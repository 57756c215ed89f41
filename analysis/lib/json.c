/*
 * json.c -- escaped JSON string values. See json.h.
 */
#include "json.h"

#include <string.h>

/* utf8_len: the length of the well-formed UTF-8 sequence at s[0..n),
 * n >= 1, or 0 when s[0] does not start one (RFC 3629, table 3-7 of the
 * Unicode standard). */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2)		/* continuation, or C0/C1 overlong */
		return 0;
	if (s[0] < 0xe0)
		len = 2;
	else if (s[0] < 0xf0)
		len = 3;
	else if (s[0] < 0xf5)
		len = 4;
	else
		return 0;
	/* the second byte's range shuts out overlongs, surrogates and
	 * code points above U+10FFFF */
	if (s[0] == 0xe0)
		lo = 0xa0;
	else if (s[0] == 0xed)
		hi = 0x9f;
	else if (s[0] == 0xf0)
		lo = 0x90;
	else if (s[0] == 0xf4)
		hi = 0x8f;
	if (n < len)
		return 0;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

void
rb_json_bytes(FILE *out, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, n;

	fputc('"', out);
	while (i < len) {
		unsigned char c = p[i];
		if (c == '"' || c == '\\') {
			fprintf(out, "\\%c", c);
			i++;
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
			i++;
		} else if ((n = utf8_len(p + i, len - i)) == 0) {
			fprintf(out, "\\u%04x", c);
			i++;
		} else {
			fwrite(p + i, 1, n, out);
			i += n;
		}
	}
	fputc('"', out);
}

void
rb_json_string(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	rb_json_bytes(out, s, strlen(s));
}
