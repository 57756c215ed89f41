/*
 * options.c -- rbsample's command-line parsing; see options.h.
 */
#include <getopt.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include "options.h"
#include "../../analysis/lib/cliopt.h"
#include "../../analysis/lib/numparse.h"

void
rbs_options_usage(FILE *f)
{
	fprintf(f,
"usage: rbsample --series FILE --summary FILE [--ns NAME=ROLE ...]\n"
"                [--listen-ns ROLE ...] [--cgroup ROLE=DIR ...]\n"
"                [--interval-ms MS] [--duration S] [--cpus LIST]\n"
"                [--stall-ms P] [--stall-threshold-ms T] [--fifo-prio N] [--ready FILE] [--quiet]\n"
"                [--arrivals-ns ROLE --arrivals SERVER=DEV ... --arrivals-out FILE [--arrivals-ms P]\n"
"                 [--arrivals-proto udp|udp6|tcp]]\n"
"  Samples counters of the testbed's network namespaces, CPUs and cgroups\n"
"  every interval, and runs stall probes on each CPU; sends no packets.\n"
"  Runs for --duration or until SIGINT/SIGTERM, then writes the summary.\n"
"  --ns NAME=ROLE        network namespace /run/netns/NAME, reported as ROLE\n"
"                        (an empty NAME, --ns =ROLE: rbsample's own namespace)\n"
"  --listen-ns ROLE      report TCP listeners' accept queues of these roles\n"
"                        (repeatable; default every --ns)\n"
"  --cgroup ROLE=DIR     cgroup v2 directory whose cpu.stat usage is ROLE's CPU\n"
"  --interval-ms MS      sampling interval (100)\n"
"  --duration S          stop after S seconds (default: at SIGINT/SIGTERM)\n"
"  --cpus LIST           CPUs to report and probe, e.g. 0-1 (default all online)\n"
"  --stall-ms P          stall probe period in ms (1; 0 = no probes)\n"
"  --stall-threshold-ms T  a probe waking later than T ms is a stall event (5)\n"
"  --fifo-prio N         SCHED_FIFO priority of the kernel-stall probe (10)\n"
"  --series FILE         one JSON line per sample (written as FILE.tmp.PID, renamed at the end)\n"
"  --summary FILE        JSON summary (temp + rename)\n"
"  --ready FILE          create FILE once the first (baseline) sample is taken\n"
"                        and the probes run: the load may start\n"
"  --quiet               no progress line every 10 s\n"
"  --arrivals SERVER=DEV what the port DEV of --arrivals-ns (a switch port toward\n"
"                        server SERVER) offered and dropped, every --arrivals-ms\n"
"                        (repeatable; a SCHED_FIFO reader at --fifo-prio)\n"
"  --arrivals-ns ROLE    the --ns role whose namespace holds the --arrivals ports\n"
"  --arrivals-ms P       their period in ms (1)\n"
"  --arrivals-out FILE   the per-period series, JSON (temp + rename)\n"
"  --arrivals-proto P    also each period, the --ns SERVER's count of work its\n"
"                        sockets refused: udp, udp6 (RcvbufErrors), tcp (ListenOverflows)\n"
"exit: 0 done (also after SIGINT/SIGTERM), 1 error. See docs/sampler.md.\n");
}

static int
valid_role(const char *s, size_t len)
{
	size_t i;
	if (len == 0 || len >= 64)
		return 0;
	for (i = 0; i < len; i++) {
		char c = s[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
		      || c == '_' || c == '-' || c == '.'))
			return 0;
	}
	return 1;
}

/* "LEFT=ROLE" (ns) or "ROLE=RIGHT" (cgroup): split at the first '='. */
static int
split_eq(const char *arg, const char **left, size_t *llen, const char **right)
{
	const char *eq = strchr(arg, '=');
	if (!eq || !eq[1])
		return -1;
	*left = arg;
	*llen = (size_t)(eq - arg);
	*right = eq + 1;
	return 0;
}

int
rbs_options_parse(struct rbs_options *o, int argc, char **argv, char *err, size_t errlen)
{
	enum { OPT_INTERVAL = 256, OPT_DURATION, OPT_NS, OPT_LISTEN, OPT_CGROUP, OPT_CPUS,
	       OPT_STALL, OPT_THRESH, OPT_PRIO, OPT_SERIES, OPT_SUMMARY, OPT_READY, OPT_QUIET,
	       OPT_ARR, OPT_ARR_NS, OPT_ARR_MS, OPT_ARR_OUT, OPT_ARR_PROTO };
	static const struct option longopts[] = {
		{ "interval-ms", required_argument, NULL, OPT_INTERVAL },
		{ "duration", required_argument, NULL, OPT_DURATION },
		{ "ns", required_argument, NULL, OPT_NS },
		{ "listen-ns", required_argument, NULL, OPT_LISTEN },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "cpus", required_argument, NULL, OPT_CPUS },
		{ "stall-ms", required_argument, NULL, OPT_STALL },
		{ "stall-threshold-ms", required_argument, NULL, OPT_THRESH },
		{ "fifo-prio", required_argument, NULL, OPT_PRIO },
		{ "series", required_argument, NULL, OPT_SERIES },
		{ "summary", required_argument, NULL, OPT_SUMMARY },
		{ "ready", required_argument, NULL, OPT_READY },
		{ "quiet", no_argument, NULL, OPT_QUIET },
		{ "arrivals", required_argument, NULL, OPT_ARR },
		{ "arrivals-ns", required_argument, NULL, OPT_ARR_NS },
		{ "arrivals-ms", required_argument, NULL, OPT_ARR_MS },
		{ "arrivals-out", required_argument, NULL, OPT_ARR_OUT },
		{ "arrivals-proto", required_argument, NULL, OPT_ARR_PROTO },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	unsigned long u;
	const char *l, *r;
	size_t llen;
	int c, i, j;

	memset(o, 0, sizeof(*o));
	o->interval_ms = 100;
	o->stall_ms = 1;
	o->stall_threshold_ms = 5;
	o->fifo_prio = 10;
	o->arrivals_ms = 1;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_INTERVAL:
			if (rb_parse_uint(optarg, 3600000, &u) < 0 || u < 10)
				goto bad;
			o->interval_ms = (unsigned)u;
			break;
		case OPT_DURATION:
			if (rb_parse_double(optarg, &o->duration_s) < 0 || !(o->duration_s > 0)
			    || o->duration_s > 1e7)
				goto bad;
			break;
		case OPT_NS:
			if (o->nns == RBS_MAX_NS) {
				snprintf(err, errlen, "more than %d --ns", RBS_MAX_NS);
				return -1;
			}
			if (split_eq(optarg, &l, &llen, &r) < 0 || !valid_role(r, strlen(r))) {
				snprintf(err, errlen, "bad --ns '%s' (want NAME=ROLE, ROLE of "
					"letters, digits, _ - .)", optarg);
				return -1;
			}
			/* NAME is the text before '=' (kept in argv: cut it there). */
			optarg[llen] = '\0';
			o->ns[o->nns].name = l;
			snprintf(o->ns[o->nns].role, sizeof(o->ns[o->nns].role), "%s", r);
			o->nns++;
			break;
		case OPT_LISTEN:
			if (o->nlisten == RBS_MAX_NS || !valid_role(optarg, strlen(optarg)))
				goto bad;
			o->listen_roles[o->nlisten++] = optarg;
			break;
		case OPT_CGROUP:
			if (o->ncg == RBS_MAX_CG) {
				snprintf(err, errlen, "more than %d --cgroup", RBS_MAX_CG);
				return -1;
			}
			if (split_eq(optarg, &l, &llen, &r) < 0 || !valid_role(l, llen)) {
				snprintf(err, errlen, "bad --cgroup '%s' (want ROLE=DIR)", optarg);
				return -1;
			}
			snprintf(o->cg[o->ncg].role, sizeof(o->cg[o->ncg].role), "%.*s", (int)llen, l);
			if (strcmp(o->cg[o->ncg].role, "outside") == 0) {
				snprintf(err, errlen, "--cgroup: 'outside' is reserved (CPU outside "
					"the roles' cgroups)");
				return -1;
			}
			o->cg[o->ncg].dir = r;
			o->ncg++;
			break;
		case OPT_CPUS:
			if (rbs_cpulist_parse(optarg, o->cpus, RBS_MAX_CPUS, err, errlen) < 0)
				return -1;
			o->cpus_given = 1;
			break;
		case OPT_STALL:
			if (rb_parse_double(optarg, &o->stall_ms) < 0 || o->stall_ms < 0
			    || (o->stall_ms > 0 && o->stall_ms < 0.1) || o->stall_ms > 1000)
				goto bad;
			break;
		case OPT_THRESH:
			if (rb_parse_double(optarg, &o->stall_threshold_ms) < 0
			    || !(o->stall_threshold_ms > 0) || o->stall_threshold_ms > 60000)
				goto bad;
			break;
		case OPT_PRIO:
			if (rb_parse_uint(optarg, 99, &u) < 0 || u < 1)
				goto bad;
			o->fifo_prio = (int)u;
			break;
		case OPT_SERIES: o->series = optarg; break;
		case OPT_SUMMARY: o->summary = optarg; break;
		case OPT_READY: o->ready = optarg; break;
		case OPT_QUIET: o->quiet = 1; break;
		case OPT_ARR:
			if (o->narrivals == RBS_ARRIVALS_MAX) {
				snprintf(err, errlen, "more than %d --arrivals", RBS_ARRIVALS_MAX);
				return -1;
			}
			if (split_eq(optarg, &l, &llen, &r) < 0 || !valid_role(l, llen)
			    || strlen(r) >= IF_NAMESIZE) {
				snprintf(err, errlen, "bad --arrivals '%s' (want SERVER=DEV)", optarg);
				return -1;
			}
			snprintf(o->arrivals[o->narrivals].role, sizeof(o->arrivals[0].role), "%.*s",
				(int)llen, l);
			o->arrivals[o->narrivals++].dev = r;
			break;
		case OPT_ARR_NS:
			if (!valid_role(optarg, strlen(optarg)))
				goto bad;
			o->arrivals_ns = optarg;
			break;
		case OPT_ARR_MS:
			if (rb_parse_double(optarg, &o->arrivals_ms) < 0 || o->arrivals_ms < 0.1
			    || o->arrivals_ms > 1000)
				goto bad;
			break;
		case OPT_ARR_OUT: o->arrivals_out = optarg; break;
		case OPT_ARR_PROTO:
			if ((o->arrivals_proto = rbs_arrivals_proto_parse(optarg)) < 0)
				goto bad;
			break;
		case 'h':
			rbs_options_usage(stdout);
			return 1;
		default:
			return rb_cliopt_getopt_error(c, argv, err, errlen);
		}
	}
	if (rb_cliopt_leftover(argc, argv, err, errlen) < 0)
		return -1;
	if (!o->series || !o->summary) {
		snprintf(err, errlen, "--series FILE and --summary FILE are required");
		return -1;
	}
	for (i = 0; i < o->nns; i++)
		for (j = 0; j < i; j++) {
			if (strcmp(o->ns[i].role, o->ns[j].role) == 0) {
				snprintf(err, errlen, "role '%s' given twice in --ns", o->ns[i].role);
				return -1;
			}
			if (strcmp(o->ns[i].name, o->ns[j].name) == 0) {
				snprintf(err, errlen, "namespace '%s' given twice in --ns", o->ns[i].name);
				return -1;
			}
		}
	for (i = 0; i < o->ncg; i++)
		for (j = 0; j < i; j++)
			if (strcmp(o->cg[i].role, o->cg[j].role) == 0) {
				snprintf(err, errlen, "role '%s' given twice in --cgroup", o->cg[i].role);
				return -1;
			}
	for (i = 0; i < o->nns; i++)
		o->ns[i].listen = o->nlisten == 0;
	for (j = 0; j < o->nlisten; j++) {
		int found = 0;
		for (i = 0; i < o->nns; i++)
			if (strcmp(o->ns[i].role, o->listen_roles[j]) == 0) {
				o->ns[i].listen = 1;
				found = 1;
			}
		if (!found) {
			snprintf(err, errlen, "--listen-ns %s: no --ns has that role", o->listen_roles[j]);
			return -1;
		}
	}
	if (o->narrivals && (!o->arrivals_ns || !o->arrivals_out)) {
		snprintf(err, errlen, "--arrivals needs --arrivals-ns ROLE and --arrivals-out FILE");
		return -1;
	}
	if (!o->narrivals && (o->arrivals_ns || o->arrivals_out || o->arrivals_proto)) {
		snprintf(err, errlen, "--arrivals-ns, --arrivals-out and --arrivals-proto need at least one --arrivals SERVER=DEV");
		return -1;
	}
	if (o->arrivals_ns) {
		for (i = 0; i < o->nns && strcmp(o->ns[i].role, o->arrivals_ns) != 0; i++)
			;
		if (i == o->nns) {
			snprintf(err, errlen, "--arrivals-ns %s: no --ns has that role", o->arrivals_ns);
			return -1;
		}
	}
	for (j = 0; o->arrivals_proto && j < o->narrivals; j++) {
		for (i = 0; i < o->nns && strcmp(o->ns[i].role, o->arrivals[j].role) != 0; i++)
			;
		if (i == o->nns) {
			snprintf(err, errlen, "--arrivals-proto: --arrivals %s has no --ns of that role "
				"to read its sockets in", o->arrivals[j].role);
			return -1;
		}
	}
	if (o->stall_ms > 0 && o->stall_threshold_ms <= o->stall_ms) {
		snprintf(err, errlen, "--stall-threshold-ms (%g) must exceed --stall-ms (%g)",
			o->stall_threshold_ms, o->stall_ms);
		return -1;
	}
	return 0;
bad:
	return rb_cliopt_bad_value(c, optarg, longopts, err, errlen);
}
