/*
 * options.h -- rbsample's command line.
 *
 *   rbsample --series FILE --summary FILE [--ns NAME=ROLE ...]
 *            [--listen-ns ROLE ...] [--cgroup ROLE=DIR ...]
 *            [--interval-ms 100] [--duration S] [--cpus LIST]
 *            [--stall-ms 1] [--stall-threshold-ms 5] [--fifo-prio 10] [--ready FILE] [--quiet]
 *            [--arrivals-ns ROLE --arrivals SERVER=DEV ... --arrivals-out FILE [--arrivals-ms 1]
 *             [--arrivals-proto udp|udp6|tcp]]
 */
#ifndef RBS_OPTIONS_H
#define RBS_OPTIONS_H

#include <stddef.h>
#include <stdio.h>
#include "arrivals.h"
#include "cpustat.h"

#define RBS_MAX_NS 64
#define RBS_MAX_CG 64

struct rbs_nsarg {
	const char *name;   /* /run/netns/NAME */
	char role[64];
	int listen;         /* dump its TCP listeners */
};

struct rbs_cgarg {
	char role[64];
	const char *dir;
};

struct rbs_options {
	unsigned interval_ms;
	double duration_s;            /* 0 = until SIGINT/SIGTERM */
	struct rbs_nsarg ns[RBS_MAX_NS];
	int nns;
	const char *listen_roles[RBS_MAX_NS];
	int nlisten;
	struct rbs_cgarg cg[RBS_MAX_CG];
	int ncg;
	unsigned char cpus[RBS_MAX_CPUS];   /* --cpus; all zero = all online */
	int cpus_given;
	double stall_ms;                    /* probe period; 0 = no probes */
	double stall_threshold_ms;
	int fifo_prio;
	const char *series;
	const char *summary;
	const char *ready;   /* created once the baseline sample is taken */
	struct rbs_arrivals_port arrivals[RBS_ARRIVALS_MAX];   /* --arrivals */
	int narrivals;
	const char *arrivals_ns;     /* the role whose namespace holds those ports */
	const char *arrivals_out;
	double arrivals_ms;
	int arrivals_proto;          /* enum rbs_arrivals_proto */
	int quiet;
};

/* Parse argv. Returns 0, 1 when help was printed, or -1 with a message.
 * Only syntax is checked here; namespaces, cgroups and CPUs are checked
 * when they are opened. */
int rbs_options_parse(struct rbs_options *o, int argc, char **argv, char *err, size_t errlen);
void rbs_options_usage(FILE *f);

#endif /* RBS_OPTIONS_H */
