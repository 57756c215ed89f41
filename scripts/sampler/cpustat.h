/*
 * cpustat.h -- per-CPU time and softirq counts: idle, iowait and steal
 * from /proc/stat (idle and iowait come from the precise NO_HZ idle
 * accounting, exported in USER_HZ ticks; the user/system/irq/softirq
 * fields are tick-sampled on this kernel and are never read), and the
 * per-CPU counts of /proc/softirqs (TIMER, NET_RX, NET_TX, ...), and the
 * per-CPU receive backlog counters of /proc/net/softnet_stat (packets
 * processed, dropped because the backlog was full, NET_RX runs cut
 * short by the budget: time_squeeze). softnet_stat is per CPU, not per
 * network namespace.
 */
#ifndef RBS_CPUSTAT_H
#define RBS_CPUSTAT_H

#include <stddef.h>
#include <stdint.h>

#define RBS_MAX_CPUS 1024
#define RBS_MAX_SOFTIRQS 16

struct rbs_cputime {
	int present;
	uint64_t idle, iowait, steal;   /* USER_HZ ticks */
	int softnet;                    /* softnet_stat line seen */
	uint64_t processed, dropped, time_squeeze;
};

struct rbs_cpustat {
	struct rbs_cputime cpu[RBS_MAX_CPUS];
	int max_cpu;                    /* highest cpu number seen, -1 none */
};

/* Parse /proc/stat text. Returns 0, or -1 with a message. */
int rbs_cpustat_parse(const char *text, struct rbs_cpustat *st, char *err, size_t errlen);

/* Parse /proc/net/softnet_stat text into st (after rbs_cpustat_parse:
 * lines without a CPU number field go to the online CPUs in order). */
int rbs_softnet_parse(const char *text, struct rbs_cpustat *st, char *err, size_t errlen);

struct rbs_softirqs {
	int nnames;
	char names[RBS_MAX_SOFTIRQS][16];
	int ncols;
	int col_cpu[RBS_MAX_CPUS];      /* column -> cpu number */
	uint64_t v[RBS_MAX_SOFTIRQS][RBS_MAX_CPUS];   /* [softirq][cpu] */
};

/* Parse /proc/softirqs text. Returns 0, or -1 with a message. */
int rbs_softirqs_parse(const char *text, struct rbs_softirqs *s, char *err, size_t errlen);

/* Parse a CPU list ("0-3,6"). Sets set[cpu] = 1 for each; returns the
 * number of CPUs, or -1 with a message. */
int rbs_cpulist_parse(const char *list, unsigned char *set, int max, char *err, size_t errlen);

#endif /* RBS_CPUSTAT_H */
