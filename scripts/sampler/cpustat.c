/*
 * cpustat.c -- /proc/stat idle time and /proc/softirqs; see cpustat.h.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpustat.h"

int
rbs_cpustat_parse(const char *text, struct rbs_cpustat *st, char *err, size_t errlen)
{
	const char *p = text;
	int lines = 0, i;

	for (i = 0; i < RBS_MAX_CPUS; i++)
		st->cpu[i].present = 0;
	st->max_cpu = -1;
	while (*p) {
		const char *nl = strchr(p, '\n');
		if (p[0] == 'c' && p[1] == 'p' && p[2] == 'u' && isdigit((unsigned char)p[3])) {
			unsigned long long f[8] = { 0 };
			int cpu, n;
			n = sscanf(p, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
				&f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]);
			if (n < 6 || cpu < 0 || cpu >= RBS_MAX_CPUS) {
				snprintf(err, errlen, "/proc/stat: malformed line '%.*s'",
					(int)(nl ? nl - p : (long)strlen(p)), p);
				return -1;
			}
			/* user nice system idle iowait irq softirq steal: only idle,
			 * iowait and steal are used. */
			st->cpu[cpu].present = 1;
			st->cpu[cpu].idle = f[3];
			st->cpu[cpu].iowait = f[4];
			st->cpu[cpu].steal = n >= 9 ? f[7] : 0;
			if (cpu > st->max_cpu)
				st->max_cpu = cpu;
			lines++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (!lines) {
		snprintf(err, errlen, "/proc/stat: no per-CPU lines");
		return -1;
	}
	return 0;
}

int
rbs_softnet_parse(const char *text, struct rbs_cpustat *st, char *err, size_t errlen)
{
	const char *p = text;
	int line = 0, next_online = 0, c;

	for (c = 0; c < RBS_MAX_CPUS; c++)
		st->cpu[c].softnet = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		unsigned long long f[16];
		int n = 0, cpu;
		const char *q = p;
		char *end;
		while (n < 16 && q < (nl ? nl : p + strlen(p))) {
			errno = 0;
			f[n] = strtoull(q, &end, 16);
			if (end == q || errno)
				break;
			n++;
			q = end;
		}
		line++;
		if (n < 3) {
			snprintf(err, errlen, "/proc/net/softnet_stat: line %d: fewer than 3 fields", line);
			return -1;
		}
		if (n >= 13) {
			cpu = (int)f[12];
		} else {
			while (next_online <= st->max_cpu && !st->cpu[next_online].present)
				next_online++;
			cpu = next_online++;
		}
		if (cpu < 0 || cpu >= RBS_MAX_CPUS) {
			snprintf(err, errlen, "/proc/net/softnet_stat: line %d: bad CPU %d", line, cpu);
			return -1;
		}
		st->cpu[cpu].softnet = 1;
		st->cpu[cpu].processed = f[0];
		st->cpu[cpu].dropped = f[1];
		st->cpu[cpu].time_squeeze = f[2];
		if (!nl)
			break;
		p = nl + 1;
	}
	return 0;
}

int
rbs_softirqs_parse(const char *text, struct rbs_softirqs *s, char *err, size_t errlen)
{
	const char *p = text, *nl;
	char *end;

	s->nnames = 0;
	s->ncols = 0;
	/* Header: "                    CPU0       CPU1 ..." */
	nl = strchr(p, '\n');
	if (!nl) {
		snprintf(err, errlen, "/proc/softirqs: no header");
		return -1;
	}
	while (p < nl) {
		while (p < nl && *p == ' ')
			p++;
		if (p >= nl)
			break;
		if (strncmp(p, "CPU", 3) != 0) {
			snprintf(err, errlen, "/proc/softirqs: bad header");
			return -1;
		}
		long cpu = strtol(p + 3, &end, 10);
		if (end == p + 3 || cpu < 0 || cpu >= RBS_MAX_CPUS || s->ncols >= RBS_MAX_CPUS) {
			snprintf(err, errlen, "/proc/softirqs: bad CPU column");
			return -1;
		}
		s->col_cpu[s->ncols++] = (int)cpu;
		p = end;
	}
	p = nl + 1;
	while (*p) {
		const char *colon;
		int col, row;
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		colon = memchr(p, ':', (size_t)(nl - p));
		if (!colon) {
			p = *nl ? nl + 1 : nl;
			continue;
		}
		if (s->nnames >= RBS_MAX_SOFTIRQS) {
			snprintf(err, errlen, "/proc/softirqs: more than %d rows", RBS_MAX_SOFTIRQS);
			return -1;
		}
		row = s->nnames++;
		while (*p == ' ')
			p++;
		snprintf(s->names[row], sizeof(s->names[row]), "%.*s", (int)(colon - p), p);
		p = colon + 1;
		for (col = 0; col < s->ncols; col++) {
			unsigned long long v;
			errno = 0;
			v = strtoull(p, &end, 10);
			if (end == p || errno || end > nl) {
				snprintf(err, errlen, "/proc/softirqs: %s: missing or bad column %d",
					s->names[row], col);
				return -1;
			}
			s->v[row][s->col_cpu[col]] = v;
			p = end;
		}
		p = *nl ? nl + 1 : nl;
	}
	if (!s->nnames) {
		snprintf(err, errlen, "/proc/softirqs: no rows");
		return -1;
	}
	return 0;
}

int
rbs_cpulist_parse(const char *list, unsigned char *set, int max, char *err, size_t errlen)
{
	const char *p = list;
	char *end;
	int count = 0, i;

	memset(set, 0, (size_t)max);
	if (!*p)
		goto bad;
	for (;;) {
		long a, b;
		if (!isdigit((unsigned char)*p))
			goto bad;
		a = strtol(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			if (!isdigit((unsigned char)p[1]))
				goto bad;
			b = strtol(p + 1, &end, 10);
			p = end;
		}
		if (a < 0 || b < a || b >= max)
			goto bad;
		for (i = (int)a; i <= (int)b; i++) {
			if (!set[i])
				count++;
			set[i] = 1;
		}
		if (*p == '\0')
			break;
		if (*p != ',')
			goto bad;
		p++;
	}
	return count;
bad:
	snprintf(err, errlen, "bad CPU list '%s' (e.g. 0-3,6)", list);
	return -1;
}
