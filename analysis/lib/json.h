/*
 * json.h -- writing a JSON string value, escaped, as valid JSON in UTF-8.
 * Shared by dnsstat's, tcpbench's and rbsample's JSON output, whose
 * strings are program names, addresses and user-given paths (which may
 * hold any byte but NUL).
 *
 * Quotes and backslashes get a backslash; control characters (0x00-0x1f)
 * become \u00XX. Well-formed UTF-8 (RFC 3629: shortest form, no
 * surrogates U+D800-U+DFFF, nothing above U+10FFFF) is copied as it is.
 * Every other byte -- a byte 0x80-0xff that does not belong to such a
 * sequence: stray continuation bytes, C0/C1/F5-FF, overlong forms,
 * encoded surrogates, sequences cut short -- is written as \u00XX of its
 * own value, one escape per byte, and the bytes after it are read afresh.
 * So the byte's value stays readable (0xff gives "\u00ff", i.e. U+00FF
 * once decoded) rather than being lost in U+FFFD; the price is that such
 * a byte cannot be told apart, after decoding, from the character U+00XX
 * written in proper UTF-8.
 */
#ifndef RB_JSON_H
#define RB_JSON_H

#include <stddef.h>
#include <stdio.h>

/* rb_json_string: s as a quoted JSON string on out; NULL gives null. */
void rb_json_string(FILE *out, const char *s);

/* rb_json_bytes: the same for s[0..len), which may hold NUL bytes. */
void rb_json_bytes(FILE *out, const char *s, size_t len);

#endif /* RB_JSON_H */
