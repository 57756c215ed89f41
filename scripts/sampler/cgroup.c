/*
 * cgroup.c -- cgroup v2 cpu.stat; see cgroup.h.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgroup.h"

int
rbs_cgroup_parse(const char *text, struct rbs_cgstat *st, char *err, size_t errlen)
{
	const char *p = text;
	int have_usage = 0;

	memset(st, 0, sizeof(*st));
	while (*p) {
		char key[64];
		unsigned long long v;
		const char *nl = strchr(p, '\n');
		if (sscanf(p, "%63s %llu", key, &v) == 2) {
			if (strcmp(key, "usage_usec") == 0) {
				st->usage_usec = v;
				have_usage = 1;
			} else if (strcmp(key, "user_usec") == 0) {
				st->user_usec = v;
			} else if (strcmp(key, "system_usec") == 0) {
				st->system_usec = v;
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!have_usage) {
		snprintf(err, errlen, "cpu.stat has no usage_usec (not a cgroup v2 directory?)");
		return -1;
	}
	return 0;
}

int
rbs_cgroup_read(const char *dir, struct rbs_buf *b, struct rbs_cgstat *st,
	char *err, size_t errlen)
{
	char path[4096], e2[256];
	if ((size_t)snprintf(path, sizeof(path), "%s/cpu.stat", dir) >= sizeof(path)) {
		snprintf(err, errlen, "cgroup path too long: %s", dir);
		return -1;
	}
	if (rbs_procfile_read(AT_FDCWD, path, b, err, errlen) < 0)
		return -1;
	if (rbs_cgroup_parse(b->p, st, e2, sizeof(e2)) < 0) {
		snprintf(err, errlen, "%s: %s", path, e2);
		return -1;
	}
	return 0;
}
