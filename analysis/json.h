/*
 * json.h -- writing a JSON string value, escaped (quotes, backslashes,
 * control characters). Shared by dnsstat's and tcpbench's JSON output,
 * whose strings are program names, addresses and user-given paths.
 */
#ifndef DS_JSON_H
#define DS_JSON_H

#include <stdio.h>

/* ds_json_string: s as a quoted JSON string on out; NULL gives null. */
void ds_json_string(FILE *out, const char *s);

#endif /* DS_JSON_H */
